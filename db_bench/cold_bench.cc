// cold_bench: lookups that reach the device, beside the device's own rate
// measured on the same file in the same run, and the same lookups through
// RocksDB on RocksDB's own file of the same keys.
//
//   build/release/db_bench/cold_bench --dir=/path/on/ssd --num=1000000
//
// Writes (or reuses, --use_existing) one bloomtable table of --num keys
// (db_bench's zero-padded numbers; even numbers stored, odd ones absent)
// with a whole-table cache-local Bloom filter, and, where cold_bench was
// built with RocksDB, a RocksDB database of the same keys and values
// (db_bench/cold_rocksdb.h: one BlockBasedTable with a whole-key full Bloom
// filter storing the same filter bits per key as bloomtable's table, 4 KiB
// blocks, the same compression). Then, --runs times, in one loop, the
// engines' order rotated between runs:
//
//   raw        4 KiB reads at random 4 KiB-aligned offsets of the table
//              file with O_DIRECT, through RandomAccessFile::MultiRead
//              (io_uring) in calls of D reads for each --depths D: the
//              device's rate at that queue depth (each call waits for its
//              slowest read before the next one starts, so the queue drains
//              between calls);
//   cold (--cold, default on)
//              readrandom (stored keys) and readmissing (absent keys), one
//              Get at a time and in MultiGet batches of each --batches B:
//              bloomtable's Table::Get and Table::MultiGet on a table opened
//              with O_DIRECT and io_uring without a block cache, and
//              RocksDB's DB::Get and batched DB::MultiGet with
//              use_direct_reads and no_block_cache, index and filter blocks
//              held in memory by both: every data block comes from the
//              device;
//   warm (--warm, default on)
//              the same workloads through buffered reads (the page cache)
//              with a block cache of --warm_cache_mb per engine, after one
//              untimed pass over the same keys: Get one at a time and
//              MultiGet batches of --warm_batch, both engines.
//
// Both engines ask the same key streams (db_bench/cold_keys.h). Every
// figure is the median of the runs, with its range. Device reads per key
// come from counting file wrappers (bloomtable's NewCountingRandomAccessFile,
// a RocksDB FileSystem wrapper; each request of a batched read counts as
// one). One JSON document (--json, or standard output) also names the
// machine, the kernel, the device that holds --dir, the filters' stored bits
// per key, RocksDB's MultiGet read options (which of async_io and
// optimize_multiget_for_io were set, and why) and which peer build ran
// (PeersJson: a release build or Debian's package). Timing is wall-clock on
// one thread: run it on an idle machine.

#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "bloomtable/cache.h"
#include "bloomtable/file.h"
#include "bloomtable/filter_policy.h"
#include "bloomtable/options.h"
#include "bloomtable/table.h"
#include "bloomtable/table_builder.h"
#include "db_bench/cold_keys.h"
#include "db_bench/cold_reader.h"
#include "db_bench/machine.h"
#include "db_bench/peers.h"
#include "db_bench/table_file_info.h"
#include "nlohmann/json.hpp"
#ifdef BLOOMTABLE_DB_BENCH_WITH_ROCKSDB
#include "db_bench/cold_rocksdb.h"
#endif

ABSL_FLAG(std::string, dir, "/tmp",
          "directory for the table file and the RocksDB database; its file "
          "system must support O_DIRECT");
ABSL_FLAG(int64_t, num, 1000000, "keys stored in the table");
ABSL_FLAG(int64_t, value_size, 100, "bytes per value");
ABSL_FLAG(int64_t, block_size, 4096, "data block size");
ABSL_FLAG(double, bits_per_key, 10,
          "bloomtable's filter bits per key; RocksDB's filter is sized to "
          "store what bloomtable's stores");
ABSL_FLAG(bool, use_existing, false,
          "reuse the table file and RocksDB database of an earlier run with "
          "the same --num (the database only if its filter stores within 1% "
          "of the table's bits per key)");
#ifdef BLOOMTABLE_DB_BENCH_WITH_ROCKSDB
constexpr const char* kDefaultEngines = "bloomtable,rocksdb";
#else
constexpr const char* kDefaultEngines = "bloomtable";
#endif
ABSL_FLAG(std::string, engines, kDefaultEngines,
          "engines to measure: bloomtable, and rocksdb where cold_bench was "
          "built with RocksDB (the default: every engine built)");
ABSL_FLAG(bool, cold, true, "measure cold lookups: direct I/O, no block cache");
ABSL_FLAG(bool, warm, true,
          "measure warm lookups: buffered reads and a block cache, after an "
          "untimed pass over the same keys");
ABSL_FLAG(int64_t, warm_batch, 32, "MultiGet batch size of the warm rows");
ABSL_FLAG(bool, rocksdb_io_uring, true,
          "let RocksDB read a MultiGet's blocks through io_uring "
          "(RocksDbIOUringEnable, as RocksDB's own db_bench does); only a "
          "RocksDB built with liburing has it");
ABSL_FLAG(int64_t, warm_cache_mb, 256,
          "block cache of each engine in the warm rows, MiB");
ABSL_FLAG(int64_t, reads, 20000, "lookups (and raw reads) per measurement");
ABSL_FLAG(std::string, depths, "1,8,32,128", "queue depths of the raw reads");
ABSL_FLAG(std::string, batches, "1,8,32,128", "MultiGet batch sizes");
ABSL_FLAG(int32_t, runs, 3,
          "runs of each measurement, the engines' order rotated between "
          "runs; the median is kept");
ABSL_FLAG(std::string, json, "", "write the report here (default: stdout)");

#ifdef BLOOMTABLE_DB_BENCH_WITH_ROCKSDB
// RocksDB's POSIX file system reads a MultiRead through io_uring only when
// the program defines this function and it returns true (RocksDB declares it
// weak, env/fs_posix.cc; its own db_bench defines it, --io_uring_enabled
// defaulting to true). Asked when RocksDB opens a file, after the flags are
// parsed. A RocksDB built without liburing (Debian's package) never asks.
extern "C" bool RocksDbIOUringEnable() {
  return absl::GetFlag(FLAGS_rocksdb_io_uring);
}
#endif

namespace bloomtable {
namespace db_bench {
namespace {

using Clock = std::chrono::steady_clock;

constexpr const char* kBloomtable = "bloomtable";
#ifdef BLOOMTABLE_DB_BENCH_WITH_ROCKSDB
constexpr const char* kRocksDB = "rocksdb";
#endif

std::vector<int64_t> ParseList(const std::string& text) {
  std::vector<int64_t> values;
  for (absl::string_view item : absl::StrSplit(text, ',', absl::SkipEmpty())) {
    int64_t value = 0;
    if (!absl::SimpleAtoi(item, &value) || value < 1 || value > 4096) {
      std::fprintf(stderr, "cold_bench: bad list item '%.*s'\n",
                   static_cast<int>(item.size()), item.data());
      std::exit(2);
    }
    values.push_back(value);
  }
  return values;
}

void Check(const absl::Status& status) {
  if (!status.ok()) {
    std::fprintf(stderr, "cold_bench: %s\n", status.ToString().c_str());
    std::exit(1);
  }
}

std::shared_ptr<const FilterPolicy> BloomtableFilter() {
  return NewCacheLocalBloomFilterPolicy(absl::GetFlag(FLAGS_bits_per_key));
}

// Writes the table: keys 0, 2, 4, ... (2 * num - 2).
void WriteTable(const std::string& path, int64_t num) {
  Options options;
  options.block_size = static_cast<size_t>(absl::GetFlag(FLAGS_block_size));
  options.filter_layout = FilterLayout::kWholeTable;
  options.filter_policy = BloomtableFilter();
  auto file = NewWritableFile(path);
  Check(file.status());
  TableBuilder builder(options, file->get());
  const std::string value(static_cast<size_t>(absl::GetFlag(FLAGS_value_size)),
                          'v');
  for (int64_t i = 0; i < num; ++i) {
    Check(builder.Add(ColdStoredKey(static_cast<uint64_t>(i)), value));
  }
  Check(builder.Finish());
  Check((*file)->Sync());
  Check((*file)->Close());
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
  Check(file.status());
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
    for (const ReadRequest& request : requests) Check(request.status);
    done += depth;
  }
  const double seconds =
      std::chrono::duration<double>(Clock::now() - start).count();
  return static_cast<double>(done) / seconds;
}

// bloomtable's table as cold_bench reads it.
class BloomtableReader final : public ColdReader {
 public:
  BloomtableReader(std::unique_ptr<Table> table,
                   std::shared_ptr<FileReadCounters> counters)
      : table_(std::move(table)),
        counters_(std::move(counters)),
        reads_at_open_(counters_->reads.load()) {}

  absl::StatusOr<uint64_t> Lookup(const std::string_view* keys, size_t n,
                                  bool batched) override {
    uint64_t found = 0;
    if (!batched) {
      for (size_t i = 0; i < n; ++i) {
        absl::StatusOr<std::string> value = table_->Get(ReadOptions(), keys[i]);
        if (value.ok()) {
          ++found;
        } else if (!absl::IsNotFound(value.status())) {
          return value.status();
        }
      }
      return found;
    }
    batch_.assign(keys, keys + n);
    for (const auto& value : table_->MultiGet(ReadOptions(), batch_)) {
      if (value.ok()) {
        ++found;
      } else if (!absl::IsNotFound(value.status())) {
        return value.status();
      }
    }
    return found;
  }

  uint64_t file_reads() const override {
    return counters_->reads.load() - reads_at_open_;
  }

 private:
  const std::unique_ptr<Table> table_;
  const std::shared_ptr<FileReadCounters> counters_;
  const uint64_t reads_at_open_;
  std::vector<std::string_view> batch_;
};

// Opens bloomtable's table: cold (O_DIRECT, an io_uring ring of `batch`
// entries, no block cache) or warm (buffered, a block cache of
// `cache_bytes`).
std::unique_ptr<ColdReader> OpenBloomtable(const std::string& path,
                                           uint64_t file_size, bool cold,
                                           int64_t batch,
                                           uint64_t cache_bytes) {
  RandomAccessFileOptions file_options;
  file_options.use_direct_io = cold;
  file_options.io_uring_queue_depth =
      static_cast<uint32_t>(std::max<int64_t>(batch, 1));
  auto base = OpenRandomAccessFileWithOptions(path, file_options);
  Check(base.status());
  auto counters = std::make_shared<FileReadCounters>();
  Options options;
  options.filter_policy = BloomtableFilter();
  if (!cold) options.block_cache = NewLRUCache(cache_bytes);
  auto table = Table::Open(
      options, NewCountingRandomAccessFile(*std::move(base), counters),
      file_size);
  Check(table.status());
  return std::make_unique<BloomtableReader>(*std::move(table),
                                            std::move(counters));
}

struct LookupFigures {
  double micros_per_key = 0;
  double device_reads_per_key = 0;
};

// Looks up `keys` through `reader`: one Get each (batch 0) or MultiGet
// batches of `batch`; with `warm_up`, once untimed first. Exits if a stored
// key is missed or an absent one found.
LookupFigures Measure(ColdReader* reader, const std::vector<std::string>& keys,
                      bool present, int64_t batch, bool warm_up,
                      const char* engine) {
  const std::vector<std::string_view> views(keys.begin(), keys.end());
  const size_t step = static_cast<size_t>(std::max<int64_t>(batch, 1));
  auto pass = [&] {
    uint64_t found = 0;
    for (size_t i = 0; i < views.size(); i += step) {
      const size_t n = std::min(step, views.size() - i);
      absl::StatusOr<uint64_t> f = reader->Lookup(&views[i], n, batch > 0);
      Check(f.status());
      found += *f;
    }
    return found;
  };
  if (warm_up) pass();
  const uint64_t reads_before = reader->file_reads();
  const Clock::time_point start = Clock::now();
  const uint64_t found = pass();
  const double seconds =
      std::chrono::duration<double>(Clock::now() - start).count();
  const uint64_t expected = present ? views.size() : 0;
  if (found != expected) {
    std::fprintf(stderr, "cold_bench: %s found %llu of %zu %s keys\n", engine,
                 static_cast<unsigned long long>(found), views.size(),
                 present ? "stored" : "absent");
    std::exit(1);
  }
  LookupFigures figures;
  const double n = static_cast<double>(views.size());
  figures.micros_per_key = seconds * 1e6 / n;
  figures.device_reads_per_key =
      static_cast<double>(reader->file_reads() - reads_before) / n;
  return figures;
}

// The figures of every run of one row.
struct Row {
  std::string mode, engine, benchmark;
  int64_t batch = 0;  // 0: Get
  std::vector<double> micros, device_reads;
};

nlohmann::json RowJson(const Row& row) {
  std::vector<double> rates;
  for (double micros : row.micros) rates.push_back(1e6 / micros);
  return {{"mode", row.mode},
          {"engine", row.engine},
          {"benchmark", row.benchmark},
          {"api", row.batch == 0 ? "Get" : "MultiGet"},
          {"batch", std::max<int64_t>(row.batch, 1)},
          {"micros_per_key", Summary(row.micros)},
          {"keys_per_second", Summary(rates)},
          {"device_reads_per_key", Summary(row.device_reads)}};
}

std::vector<std::string> EnginesToRun() {
  std::vector<std::string> engines;
  for (absl::string_view name :
       absl::StrSplit(absl::GetFlag(FLAGS_engines), ',', absl::SkipEmpty())) {
    if (name == kBloomtable) {
      engines.push_back(kBloomtable);
#ifdef BLOOMTABLE_DB_BENCH_WITH_ROCKSDB
    } else if (name == kRocksDB) {
      engines.push_back(kRocksDB);
#endif
    } else {
      std::fprintf(stderr,
                   "cold_bench: unknown engine '%.*s' (built: bloomtable%s)\n",
                   static_cast<int>(name.size()), name.data(),
#ifdef BLOOMTABLE_DB_BENCH_WITH_ROCKSDB
                   ", rocksdb"
#else
                   ""
#endif
      );
      std::exit(2);
    }
  }
  if (engines.empty()) {
    std::fprintf(stderr, "cold_bench: no engine\n");
    std::exit(2);
  }
  return engines;
}

int Run(const std::string& command_line) {
  const int64_t num = absl::GetFlag(FLAGS_num);
  const int64_t reads = absl::GetFlag(FLAGS_reads);
  const int runs = std::max(absl::GetFlag(FLAGS_runs), 1);
  const bool cold = absl::GetFlag(FLAGS_cold);
  const bool warm = absl::GetFlag(FLAGS_warm);
  const int64_t warm_batch = absl::GetFlag(FLAGS_warm_batch);
  const int64_t cache_mb = absl::GetFlag(FLAGS_warm_cache_mb);
  if (num < 1 || reads < 1 || warm_batch < 1 || warm_batch > 4096 ||
      cache_mb < 1 || cache_mb > (int64_t{1} << 30)) {
    std::fprintf(stderr,
                 "cold_bench: --num, --reads, --warm_cache_mb and "
                 "--warm_batch (up to 4096) must be positive\n");
    return 2;
  }
  const uint64_t cache_bytes = static_cast<uint64_t>(cache_mb) << 20;
  const std::vector<std::string> engines = EnginesToRun();
  const std::string dir = absl::GetFlag(FLAGS_dir);
  const std::string path = dir + "/cold_bench_" + std::to_string(num) + ".ldb";
  const bool use_existing = absl::GetFlag(FLAGS_use_existing);
  if (!use_existing || !GetFileSize(path).ok()) WriteTable(path, num);
  auto file_size = GetFileSize(path);
  Check(file_size.status());
  auto info = ReadTableFileInfo(path);
  Check(info.status());
  const double stored_bits =
      static_cast<double>(info->filter_bytes) * 8 / static_cast<double>(num);

  nlohmann::json engines_json = {
      {kBloomtable,
       {{"file", path},
        {"file_bytes", *file_size},
        {"filter",
         "cache-local Bloom, whole table (FilterLayout::kWholeTable)"},
        {"bits_per_key_setting", absl::GetFlag(FLAGS_bits_per_key)},
        {"stored_filter_bits_per_key", stored_bits},
        {"cold",
         "O_DIRECT, io_uring (RandomAccessFile::MultiRead), no block "
         "cache; index and filter held by the table"},
        {"warm", "buffered reads (page cache), LRU block cache"}}}};
#ifdef BLOOMTABLE_DB_BENCH_WITH_ROCKSDB
  std::unique_ptr<ColdRocksDB> rocksdb;
  if (std::find(engines.begin(), engines.end(), kRocksDB) != engines.end()) {
    ColdRocksDBOptions options;
    options.dir = dir + "/cold_bench_rocksdb_" + std::to_string(num);
    options.num = static_cast<uint64_t>(num);
    options.value_size = static_cast<size_t>(absl::GetFlag(FLAGS_value_size));
    options.block_size = static_cast<size_t>(absl::GetFlag(FLAGS_block_size));
    options.snappy = Options().compression == CompressionType::kSnappy;
    options.target_stored_bits_per_key = stored_bits;
    options.use_existing = use_existing;
    auto prepared = ColdRocksDB::Prepare(options);
    Check(prepared.status());
    rocksdb = *std::move(prepared);
    engines_json[kRocksDB] = rocksdb->SettingsJson();
    engines_json[kRocksDB]["io_uring"] = {
        {"RocksDbIOUringEnable", absl::GetFlag(FLAGS_rocksdb_io_uring)},
        {"note",
         "RocksDB's MultiRead uses io_uring only where it was built with "
         "liburing (bench/build_peers.sh's release build; not Debian's "
         "package) and RocksDbIOUringEnable() returns true"}};
  }
#endif
  auto open = [&](const std::string& engine, bool cold_mode,
                  int64_t batch) -> std::unique_ptr<ColdReader> {
#ifdef BLOOMTABLE_DB_BENCH_WITH_ROCKSDB
    if (engine == kRocksDB) {
      auto reader = rocksdb->Open(cold_mode, cache_bytes);
      Check(reader.status());
      return *std::move(reader);
    }
#endif
    return OpenBloomtable(path, *file_size, cold_mode, batch, cache_bytes);
  };

  const std::vector<int64_t> depths = ParseList(absl::GetFlag(FLAGS_depths));
  std::vector<int64_t> cold_batches = {0};  // 0: Get one key at a time
  for (int64_t b : ParseList(absl::GetFlag(FLAGS_batches))) {
    cold_batches.push_back(b);
  }
  const std::vector<int64_t> warm_batches = {0, warm_batch};
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
          RawReadsPerSecond(path, *file_size, depths[d], reads, &rng));
    }
    for (size_t e = 0; e < engines.size(); ++e) {
      const std::string& engine = engines[(e + r) % engines.size()];
      for (const bool cold_mode : {true, false}) {
        if (cold_mode ? !cold : !warm) continue;
        for (const bool present : {true, false}) {
          for (int64_t batch : cold_mode ? cold_batches : warm_batches) {
            const uint64_t step =
                static_cast<uint64_t>(std::max<int64_t>(batch, 1));
            const uint64_t count =
                (static_cast<uint64_t>(reads) + step - 1) / step * step;
            const std::vector<std::string> keys =
                ColdKeyStream(static_cast<uint64_t>(num), present, count,
                              ColdStreamSeed(r, present, batch));
            std::unique_ptr<ColdReader> reader = open(engine, cold_mode, batch);
            const LookupFigures f =
                Measure(reader.get(), keys, present, batch,
                        /*warm_up=*/!cold_mode, engine.c_str());
            Row& row =
                row_of(cold_mode ? "cold" : "warm", engine, present, batch);
            row.micros.push_back(f.micros_per_key);
            row.device_reads.push_back(f.device_reads_per_key);
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

  // The peers this binary links, of which cold_bench runs RocksDB only.
  nlohmann::json peers = PeersJson();
  peers.erase("leveldb");
  const nlohmann::json report = {
      {"program", "cold_bench"},
      {"command_line", command_line},
      {"machine", MachineJson()},
      {"device", DeviceOf(path)},
      {"dir", dir},
      {"io",
       "cold: O_DIRECT (bloomtable) and use_direct_reads (RocksDB), no block "
       "cache; warm: buffered reads and a block cache of --warm_cache_mb"},
      {"num", num},
      {"value_size", absl::GetFlag(FLAGS_value_size)},
      {"block_size", absl::GetFlag(FLAGS_block_size)},
      {"compression",
       Options().compression == CompressionType::kSnappy ? "snappy" : "none"},
      {"reads", reads},
      {"runs", runs},
      {"warm_batch", warm_batch},
      {"warm_cache_bytes", cache_bytes},
      {"file_bytes", *file_size},
      {"engines", engines_json},
      {"peers", peers},
      {"raw_4k_direct_reads", raw},
      {"lookups", lookups}};
  const std::string json_path = absl::GetFlag(FLAGS_json);
  if (json_path.empty()) {
    std::cout << report.dump(2) << "\n";
  } else {
    std::ofstream(json_path) << report.dump(2) << "\n";
  }
  return 0;
}

}  // namespace
}  // namespace db_bench
}  // namespace bloomtable

int main(int argc, char** argv) {
  absl::SetProgramUsageMessage(
      "Cold lookups (direct I/O) of bloomtable and RocksDB beside the "
      "device's raw 4 KiB read rate from the same run, and warm lookups");
  std::string command_line;
  for (int i = 0; i < argc; ++i) {
    command_line += (i == 0 ? "" : " ") + std::string(argv[i]);
  }
  absl::ParseCommandLine(argc, argv);
  return bloomtable::db_bench::Run(command_line);
}
