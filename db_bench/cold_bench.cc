// cold_bench: lookups that reach the device, beside the device's own rate
// measured on the same file in the same run, each engine at one level
// (README's Benchmarks section says what it measures):
//
//   build/release/db_bench/cold_bench --dir=/path/on/ssd --num=1000000
//
// Every engine is db_bench's (engine.h), filled once with db_bench's decimal
// keys, asked the same key streams (cold_lookups.h); RocksDB's filters are
// calibrated to store the bits per key bloomtable's table stores. Every
// figure is the median of --runs runs, the engines' order rotated, with its
// range. Timing is wall-clock on one thread: run it on an idle machine.

#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "bloomtable/file.h"
#include "bloomtable/filter_policy.h"
#include "db_bench/cold_lookups.h"
#include "db_bench/directory.h"
#include "db_bench/engine.h"
#include "db_bench/filter_budget.h"
#include "db_bench/machine.h"
#include "db_bench/peers.h"
#include "nlohmann/json.hpp"
#ifdef BLOOMTABLE_DB_BENCH_WITH_ROCKSDB
#include "rocksdb/options.h"
#endif

ABSL_FLAG(std::string, dir, "/tmp",
          "directory for the engines' files; its file system must support "
          "O_DIRECT");
ABSL_FLAG(int64_t, num, 1000000, "keys stored");
ABSL_FLAG(int64_t, value_size, 100, "bytes per value");
ABSL_FLAG(int64_t, block_size, 4096, "data block size");
ABSL_FLAG(double, bits_per_key, 10,
          "bloomtable's filter bits per key; RocksDB's filters are sized to "
          "store what bloomtable's stores");
ABSL_FLAG(bool, use_existing, false,
          "reuse each engine's files of an earlier run with the same --num "
          "whose filter stores within 1% of the target");
ABSL_FLAG(std::string, engines, "",
          "engines to measure (default: bloomtable, rocksdb_table and "
          "rocksdb_readonly, those built); the database-level view "
          "bloomtable_db+sidecars (or bloomtable_db) only when named");
ABSL_FLAG(std::string, leveldb_source, "compacted",
          "the LevelDB directory the bloomtable_db engines read: compacted "
          "(every key, then one full compaction: one level, as "
          "rocksdb_readonly's one sorted run) or as_written (the levels "
          "LevelDB's own compactions left, the last writes in the log)");
ABSL_FLAG(bool, cold, true, "measure cold lookups: direct I/O, no block cache");
ABSL_FLAG(bool, warm, true,
          "measure warm lookups: buffered reads and a block cache, after an "
          "untimed pass over the same keys");
ABSL_FLAG(int64_t, warm_batch, 32, "MultiGet batch size of the warm rows");
ABSL_FLAG(bool, rocksdb_io_uring, true,
          "let RocksDB read a MultiGet's blocks through io_uring "
          "(RocksDbIOUringEnable, as RocksDB's own db_bench does)");
ABSL_FLAG(int64_t, warm_cache_mb, 256,
          "block cache of each engine in the warm rows, MiB");
ABSL_FLAG(int64_t, reads, 20000, "lookups (and raw reads) per measurement");
ABSL_FLAG(std::string, depths, "1,8,32,128", "queue depths of the raw reads");
ABSL_FLAG(std::string, batches, "1,8,32,128", "MultiGet batch sizes");
ABSL_FLAG(int32_t, runs, 3,
          "runs of each measurement, the engines' order rotated between "
          "runs; the median is kept");
ABSL_FLAG(std::string, json, "", "write the report here (default: stdout)");
ABSL_FLAG(std::string, measure, "",
          "the engines of --engines to time (default: all of them); the "
          "others are only prepared, so that files an earlier run left keep "
          "that run's filter targets (a profile times one engine this way)");
ABSL_FLAG(std::string, calls, "get,multiget",
          "the calls to time: get (one key at a time) and multiget (the "
          "--batches cold, --warm_batch warm)");
ABSL_FLAG(int32_t, passes, 1,
          "timed passes over each measurement's keys (warm: after the "
          "untimed one); a profile repeats the timed lookups so");
ABSL_FLAG(std::string, streams, "present,absent",
          "the key streams to time: present (stored keys) and absent");

#ifdef BLOOMTABLE_DB_BENCH_WITH_ROCKSDB
// RocksDB's POSIX file system reads a MultiRead through io_uring only when
// the program defines this function and it returns true (RocksDB declares it
// weak, env/fs_posix.cc; its own db_bench defines it). A RocksDB built
// without liburing (Debian's package) never asks.
extern "C" bool RocksDbIOUringEnable() {
  return absl::GetFlag(FLAGS_rocksdb_io_uring);
}
#endif

namespace bloomtable {
namespace db_bench {
namespace {

using Clock = std::chrono::steady_clock;

// A reused store's filter may store this far from the target.
constexpr double kReuseTolerance = 0.01;

[[noreturn]] void Fail(const absl::Status& status) {
  std::fprintf(stderr, "cold_bench: %s\n", status.ToString().c_str());
  std::exit(1);
}

std::vector<int64_t> ParseList(const std::string& text) {
  std::vector<int64_t> values;
  for (absl::string_view item : absl::StrSplit(text, ',', absl::SkipEmpty())) {
    int64_t value = 0;
    if (!absl::SimpleAtoi(item, &value) || value < 1 || value > 4096) {
      Fail(absl::InvalidArgumentError(
          absl::StrCat("bad list item '", item, "'")));
    }
    values.push_back(value);
  }
  return values;
}

// The device that holds `path`, as /sys/dev/block names it.
std::string DeviceOf(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) return "";
  const std::string link = "/sys/dev/block/" +
                           std::to_string(major(st.st_dev)) + ":" +
                           std::to_string(minor(st.st_dev));
  char target[512];
  const ssize_t n = ::readlink(link.c_str(), target, sizeof(target) - 1);
  if (n <= 0) return link;
  return std::string(target, static_cast<size_t>(n));
}

// The median, min and max of `values`.
nlohmann::json Summary(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return {{"median", values[values.size() / 2]},
          {"min", values.front()},
          {"max", values.back()}};
}

// Raw 4 KiB direct reads at queue depth `depth`: reads per second.
double RawReadsPerSecond(const std::string& path, uint64_t file_size,
                         int64_t depth, int64_t reads, std::mt19937_64* rng) {
  RandomAccessFileOptions options;
  options.use_direct_io = true;
  options.io_uring_queue_depth = static_cast<uint32_t>(depth);
  auto file = OpenRandomAccessFileWithOptions(path, options);
  if (!file.ok()) Fail(file.status());
  const uint64_t pages = std::max<uint64_t>(file_size / kDirectIOAlignment, 1);
  std::vector<std::string> scratch(static_cast<size_t>(depth),
                                   std::string(kDirectIOAlignment, '\0'));
  std::vector<ReadRequest> requests(static_cast<size_t>(depth));
  const Clock::time_point start = Clock::now();
  int64_t done = 0;
  while (done < reads) {
    for (size_t i = 0; i < requests.size(); ++i) {
      requests[i].offset = ((*rng)() % pages) * kDirectIOAlignment;
      requests[i].n = kDirectIOAlignment;
      requests[i].scratch = scratch[i].data();
    }
    (*file)->MultiRead(requests.data(), requests.size());
    for (const ReadRequest& request : requests) {
      if (!request.status.ok()) Fail(request.status);
    }
    done += depth;
  }
  return static_cast<double>(done) /
         std::chrono::duration<double>(Clock::now() - start).count();
}

// One engine as cold_bench sets it up: its options (filled or reused at
// Prepare) and what its files store.
struct ColdEngine {
  std::string name;
  EngineOptions options;
  double stored_bits_per_key = 0;
  uint64_t file_bytes = 0;

  // A fresh engine on the files, cold (direct I/O, no block cache, an
  // io_uring ring of `batch`) or warm (a block cache of `cache_bytes`).
  std::unique_ptr<Engine> Open(bool cold, int64_t batch,
                               uint64_t cache_bytes) const {
    EngineOptions open_options = options;
    open_options.direct_io = cold;
    open_options.io_uring_depth =
        static_cast<uint32_t>(std::max<int64_t>(batch, 1));
    open_options.cache_size = cold ? 0 : cache_bytes;
    std::unique_ptr<Engine> engine = NewEngine(name, open_options);
    const absl::Status status = engine->OpenExisting();
    if (!status.ok()) Fail(status);
    return engine;
  }
};

// Fills (or, with --use_existing, reuses) `engine`'s files of `input`, its
// filter at the options' bits per key; sets what they store. `target`: the
// stored bits per key a reused store must be within 1% of (0: any).
void Prepare(const FillInput& input, double target, ColdEngine* engine) {
  std::unique_ptr<Engine> store = NewEngine(engine->name, engine->options);
  const uint64_t num = input.order.size();
  auto stored = [&]() -> absl::StatusOr<StorageSummary> {
    absl::StatusOr<StorageSummary> storage = store->Storage();
    if (storage.ok() && (!storage->filter_bytes || *storage->filter_bytes == 0))
      return absl::InternalError(engine->name + ": no filter");
    return storage;
  };
  absl::StatusOr<StorageSummary> storage = absl::NotFoundError("");
  if (absl::GetFlag(FLAGS_use_existing) && store->OpenExisting().ok()) {
    storage = stored();
    if (storage.ok() && target > 0 &&
        std::abs(*storage->filter_bytes * 8.0 / num - target) >
            kReuseTolerance * target) {
      storage = absl::NotFoundError("");
    }
  }
  if (!storage.ok()) {
    Progress progress("[cold_bench " + engine->name + "] fill", num);
    const absl::Status status = store->Fill(input, &progress);
    if (!status.ok()) Fail(status);
    storage = stored();
  }
  if (!storage.ok()) Fail(storage.status());
  engine->stored_bits_per_key = *storage->filter_bytes * 8.0 / num;
  engine->file_bytes = storage->table_bytes;
}

// The bits per key at which RocksDB's filter (its table builder's, over the
// first entries of `input`) stores `target` bits per key.
double RocksDBBitsFor(const EngineOptions& base, const FillInput& input,
                      double target) {
  EngineOptions options = base;
  options.dir = base.dir + "_calibration";
  const uint64_t entries =
      std::min<uint64_t>(input.order.size(), kCalibrationEntries);
  const FillInput first{input.keys, input.values,
                        input.order.subspan(0, entries)};
  absl::StatusOr<BitsForBudget> budget = FindBitsForStoredBudget(
      target, /*whole_bits=*/false, [&](double bits) -> absl::StatusOr<double> {
        options.bloom_bits = bits;
        std::unique_ptr<Engine> table =
            NewEngine("rocksdb_sst_iterator", options);
        Progress progress("[cold_bench calibration]", entries);
        absl::Status status = table->Fill(first, &progress);
        if (!status.ok()) return status;
        absl::StatusOr<StorageSummary> storage = table->Storage();
        if (!storage.ok()) return storage.status();
        return storage->filter_bytes.value_or(0) * 8.0 / entries;
      });
  RemoveDirectory(options.dir).IgnoreError();
  if (!budget.ok()) Fail(budget.status());
  return budget->bits_per_key;
}

// The engines that read bloomtable's database view of a LevelDB directory.
bool IsDatabaseView(const std::string& name) {
  return name == "bloomtable_db" || name == "bloomtable_db+sidecars";
}

bool IsRocksDB(const std::string& name) {
  return name.rfind("rocksdb", 0) == 0;
}

// The names of a comma-separated flag, each one of `allowed` (else the
// run fails, naming the flag).
std::set<std::string> NamesOf(const char* flag, const std::string& text,
                              const std::vector<std::string>& allowed) {
  std::set<std::string> names;
  for (absl::string_view name : absl::StrSplit(text, ',', absl::SkipEmpty())) {
    if (std::find(allowed.begin(), allowed.end(), name) == allowed.end()) {
      Fail(absl::InvalidArgumentError(
          absl::StrCat("--", flag, ": unknown name ", name, " (one of ",
                       absl::StrJoin(allowed, ", "), ")")));
    }
    names.emplace(name);
  }
  return names;
}

std::vector<std::string> EnginesToRun() {
  std::vector<std::string> wanted;
  for (absl::string_view name :
       absl::StrSplit(absl::GetFlag(FLAGS_engines), ',', absl::SkipEmpty())) {
    wanted.emplace_back(name);
  }
  std::vector<std::string> engines;
  for (const char* name : {"bloomtable", "rocksdb_table", "rocksdb_readonly",
                           "bloomtable_db+sidecars", "bloomtable_db"}) {
    const EngineEntry* entry = FindEngine(name);
    const bool asked =
        std::find(wanted.begin(), wanted.end(), name) != wanted.end();
    if (IsDatabaseView(name) && !asked) continue;
    if (entry->make == nullptr) {
      if (asked) {
        Fail(absl::InvalidArgumentError(
            absl::StrCat(name, " was not built: ", entry->left_out)));
      }
      continue;
    }
    if (wanted.empty() || asked) engines.push_back(name);
  }
  if (!wanted.empty() && engines.size() != wanted.size()) {
    Fail(absl::InvalidArgumentError("--engines: unknown engine"));
  }
  if (engines.empty() || engines.front() != "bloomtable") {
    Fail(absl::InvalidArgumentError(
        "--engines must include bloomtable, whose table the raw reads use"));
  }
  return engines;
}

nlohmann::json EngineJson(const ColdEngine& engine, double bits_setting) {
  const EngineEntry* entry = FindEngine(engine.name);
  std::string filter = "NewBloomFilterPolicy (whole-key full filter)";
  if (engine.name == "bloomtable") {
    filter = "cache-local Bloom, whole table";
  } else if (engine.name == "bloomtable_db+sidecars") {
    filter =
        "sidecar per table: cache-local Bloom, whole table (the tables' own "
        "LevelDB Bloom filters not loaded)";
  } else if (engine.name == "bloomtable_db") {
    filter = "the tables' own LevelDB Bloom filters, as LevelDB wrote them";
  }
  nlohmann::json json = {
      {"level", entry->level},
      {"call", entry->call},
      {"dir", engine.options.dir},
      {"filter", filter},
      {"bits_per_key_setting", bits_setting},
      {"stored_filter_bits_per_key", engine.stored_bits_per_key},
      {"file_bytes", engine.file_bytes},
      {"cold",
       "direct I/O (O_DIRECT; RocksDB: use_direct_reads), no block "
       "cache; index and filter held by the open tables"},
      {"warm", "buffered reads (page cache), LRU block cache"}};
  if (IsDatabaseView(engine.name)) {
    json["layout"] = absl::StrCat(
        "LevelDB directory, ",
        engine.options.leveldb_source_compacted
            ? "compacted into one level (--leveldb_source=compacted)"
            : "as LevelDB's compactions left it (--leveldb_source=as_written)");
    json["multiget"] =
        "bloomtable::Database::MultiGet: rounds, each key at its next table; "
        "a round's blocks of every table read before any is searched (cold: "
        "each table's with one MultiRead through io_uring, different tables' "
        "on DatabaseOptions::multi_get_read_threads = 8 at once)";
  }
#ifdef BLOOMTABLE_DB_BENCH_WITH_ROCKSDB
  if (IsRocksDB(engine.name)) {
    const rocksdb::ReadOptions defaults;
    json["multiget_read_options"] = {
        {"async_io", defaults.async_io},
        {"optimize_multiget_for_io", defaults.optimize_multiget_for_io},
        {"set", "neither: both at RocksDB's defaults"},
        {"why",
         "RocksDB 7.8.3 without coroutines (Debian's package and "
         "bench/build_peers.sh's build) asks them only on MultiGet's "
         "coroutine paths; a batch's data blocks of one table are read with "
         "one MultiRead either way"}};
    json["io_uring"] = {
        {"RocksDbIOUringEnable", absl::GetFlag(FLAGS_rocksdb_io_uring)},
        {"note",
         "RocksDB's MultiRead uses io_uring only where it was built with "
         "liburing (bench/build_peers.sh's release build; not Debian's "
         "package) and RocksDbIOUringEnable() returns true"}};
  }
#endif
  return json;
}

// The figures of every run of one row.
struct Row {
  std::string mode, engine, benchmark;
  int64_t batch = 0;  // 0: Get
  std::vector<double> micros, device_reads;
};

nlohmann::json RowJson(const Row& row) {
  const EngineEntry* entry = FindEngine(row.engine);
  std::vector<double> rates;
  for (double micros : row.micros) rates.push_back(1e6 / micros);
  return {{"mode", row.mode},
          {"engine", row.engine},
          {"level", entry->level},
          {"call", row.batch == 0 || !IsDatabaseView(row.engine)
                       ? entry->call
                       : "bloomtable::Database::MultiGet"},
          {"io_path", row.mode == "cold"
                          ? "direct I/O (O_DIRECT), no block cache"
                          : "buffered reads (page cache), LRU block cache"},
          {"benchmark", row.benchmark},
          {"api", row.batch == 0 ? "Get" : "MultiGet"},
          {"batch", std::max<int64_t>(row.batch, 1)},
          {"micros_per_key", Summary(row.micros)},
          {"keys_per_second", Summary(rates)},
          {"device_reads_per_key", Summary(row.device_reads)}};
}

int Run(const std::string& command_line) {
  const int64_t num = absl::GetFlag(FLAGS_num);
  const int64_t reads = absl::GetFlag(FLAGS_reads);
  const int runs = std::max(absl::GetFlag(FLAGS_runs), 1);
  const int64_t warm_batch = absl::GetFlag(FLAGS_warm_batch);
  const int passes = absl::GetFlag(FLAGS_passes);
  const int64_t cache_mb = absl::GetFlag(FLAGS_warm_cache_mb);
  if (num < 1 || reads < 1 || passes < 1 || warm_batch < 1 ||
      warm_batch > 4096 || cache_mb < 1 || cache_mb > (int64_t{1} << 30)) {
    std::fprintf(stderr,
                 "cold_bench: --num, --reads, --passes, --warm_cache_mb and "
                 "--warm_batch (up to 4096) must be positive\n");
    return 2;
  }
  const uint64_t cache_bytes = static_cast<uint64_t>(cache_mb) << 20;
  const std::string leveldb_source = absl::GetFlag(FLAGS_leveldb_source);
  if (leveldb_source != "compacted" && leveldb_source != "as_written") {
    std::fprintf(stderr,
                 "cold_bench: --leveldb_source is compacted or as_written\n");
    return 2;
  }
  const std::vector<std::string> names = EnginesToRun();
  const std::string dir = absl::GetFlag(FLAGS_dir);
  const KeyGenerator keys(16, static_cast<uint64_t>(num));
  const ValueGenerator values(
      static_cast<size_t>(absl::GetFlag(FLAGS_value_size)), 0.5, 301);
  std::vector<uint64_t> order(static_cast<size_t>(num));
  for (size_t j = 0; j < order.size(); ++j) order[j] = j;
  const FillInput input{&keys, &values, order};

  // The engines, bloomtable's first: its stored bits are RocksDB's target.
  std::vector<ColdEngine> engines;
  nlohmann::json engines_json;
  double rocksdb_bits = 0;
  for (const std::string& name : names) {
    ColdEngine engine{name, EngineOptions()};
    // The view's directory names its layout: a reused store is the same.
    engine.options.dir =
        absl::StrCat(dir, "/cold_bench_", name, "_",
                     IsDatabaseView(name) ? leveldb_source + "_" : "", num);
    engine.options.block_size =
        static_cast<size_t>(absl::GetFlag(FLAGS_block_size));
    engine.options.bloom_bits = absl::GetFlag(FLAGS_bits_per_key);
    engine.options.bloomtable_policy =
        NewCacheLocalBloomFilterPolicy(engine.options.bloom_bits);
    engine.options.bloomtable_layout = FilterLayout::kWholeTable;
    // The view's sidecars: bloomtable's policy at bloomtable's bits.
    engine.options.leveldb_source_compacted = leveldb_source == "compacted";
    const double target = engines.empty() || engine.name == "bloomtable_db"
                              ? 0
                              : engines.front().stored_bits_per_key;
    if (IsRocksDB(name)) {
      if (rocksdb_bits == 0) {
        rocksdb_bits = RocksDBBitsFor(engine.options, input, target);
      }
      engine.options.bloom_bits = rocksdb_bits;
    }
    Prepare(input, target, &engine);
    engines_json[name] = EngineJson(engine, engine.options.bloom_bits);
    engines.push_back(engine);
  }
  const std::string path = engines.front().options.dir + "/000001.ldb";
  const uint64_t file_bytes = engines.front().file_bytes;

  const std::vector<int64_t> depths = ParseList(absl::GetFlag(FLAGS_depths));
  const std::set<std::string> calls =
      NamesOf("calls", absl::GetFlag(FLAGS_calls), {"get", "multiget"});
  const std::set<std::string> streams =
      NamesOf("streams", absl::GetFlag(FLAGS_streams), {"present", "absent"});
  std::set<std::string> measured =
      NamesOf("measure", absl::GetFlag(FLAGS_measure), names);
  if (measured.empty()) measured.insert(names.begin(), names.end());
  // 0: Get one key at a time.
  const std::vector<int64_t> cold_batches =
      BatchesToTime(calls.count("get") > 0, calls.count("multiget") > 0,
                    ParseList(absl::GetFlag(FLAGS_batches)));
  const std::vector<int64_t> warm_batches = BatchesToTime(
      calls.count("get") > 0, calls.count("multiget") > 0, {warm_batch});
  std::vector<std::vector<double>> raw_rates(depths.size());
  std::vector<Row> rows;
  auto row_of = [&rows](const std::string& mode, const std::string& engine,
                        bool present, int64_t batch) -> Row& {
    const std::string benchmark = present ? "readrandom" : "readmissing";
    for (Row& row : rows) {
      if (row.mode == mode && row.engine == engine &&
          row.benchmark == benchmark && row.batch == batch) {
        return row;
      }
    }
    rows.push_back(Row{mode, engine, benchmark, batch, {}, {}});
    return rows.back();
  };
  std::mt19937_64 rng(301);
  for (int r = 0; r < runs; ++r) {
    for (size_t d = 0; d < depths.size(); ++d) {
      raw_rates[d].push_back(
          RawReadsPerSecond(path, file_bytes, depths[d], reads, &rng));
    }
    for (size_t e = 0; e < engines.size(); ++e) {
      const ColdEngine& engine = engines[(e + r) % engines.size()];
      if (measured.count(engine.name) == 0) continue;
      for (const bool cold : {true, false}) {
        if (!absl::GetFlag(cold ? FLAGS_cold : FLAGS_warm)) continue;
        for (const bool present : {true, false}) {
          if (streams.count(present ? "present" : "absent") == 0) continue;
          for (int64_t batch : cold ? cold_batches : warm_batches) {
            const uint64_t step =
                static_cast<uint64_t>(std::max<int64_t>(batch, 1));
            const uint64_t count =
                (static_cast<uint64_t>(reads) + step - 1) / step * step;
            const std::vector<std::string> stream = ColdStream(
                keys, present, count, ColdStreamSeed(r, present, batch));
            const std::unique_ptr<Engine> reader =
                engine.Open(cold, batch, cache_bytes);
            absl::StatusOr<LookupFigures> figures =
                MeasureLookups(*reader, stream, present, batch,
                               /*warm_up=*/!cold, passes);
            if (!figures.ok()) Fail(figures.status());
            Row& row =
                row_of(cold ? "cold" : "warm", engine.name, present, batch);
            row.micros.push_back(figures->micros_per_key);
            row.device_reads.push_back(figures->device_reads_per_key);
          }
        }
      }
    }
  }

  nlohmann::json raw = nlohmann::json::array();
  for (size_t d = 0; d < depths.size(); ++d) {
    raw.push_back({{"queue_depth", depths[d]},
                   {"reads_per_second", Summary(raw_rates[d])}});
  }
  nlohmann::json lookups = nlohmann::json::array();
  for (const Row& row : rows) lookups.push_back(RowJson(row));
  nlohmann::json peers = PeersJson();
  peers.erase("leveldb");  // cold_bench runs RocksDB only
  const nlohmann::json report = {
      {"program", "cold_bench"},
      {"command_line", command_line},
      {"machine", MachineJson()},
      {"device", DeviceOf(path)},
      {"dir", dir},
      {"io",
       "cold: direct I/O, no block cache; warm: buffered reads and a block "
       "cache of --warm_cache_mb"},
      {"num", num},
      {"value_size", absl::GetFlag(FLAGS_value_size)},
      {"block_size", absl::GetFlag(FLAGS_block_size)},
      {"compression", "snappy"},
      {"reads", reads},
      {"runs", runs},
      {"passes", passes},
      {"warm_batch", warm_batch},
      {"warm_cache_bytes", cache_bytes},
      {"file_bytes", file_bytes},
      {"engines", engines_json},
      {"peers", peers},
      {"raw_4k_direct_reads", raw},
      {"lookups", lookups}};
  const absl::Status status = WriteJson(report, absl::GetFlag(FLAGS_json));
  if (!status.ok()) Fail(status);
  return 0;
}

}  // namespace
}  // namespace db_bench
}  // namespace bloomtable

int main(int argc, char** argv) {
  absl::SetProgramUsageMessage(
      "Cold lookups (direct I/O) of bloomtable and RocksDB, each at one "
      "level, beside the device's raw 4 KiB read rate from the same run, "
      "and warm lookups");
  absl::ParseCommandLine(argc, argv);
  return bloomtable::db_bench::Run(
      bloomtable::db_bench::CommandLine(argc, argv));
}
