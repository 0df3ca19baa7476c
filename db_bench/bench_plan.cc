#include "db_bench/bench_plan.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "db_bench/filter_registry.h"
#include "db_bench/key_generator.h"
#include "db_bench/value_generator.h"

namespace bloomtable {
namespace db_bench {
namespace {

// Sanity bounds, so that a typo fails fast instead of running for hours.
constexpr int kMaxThreads = 256;
constexpr int kMaxTables = 1000;
constexpr int64_t kMaxIoLatencyMicros = 1000000;  // one second per read
constexpr int32_t kMaxBlockSize = 64 << 20;
// Beyond this a filter is only waste; RocksDB caps its own near here too.
constexpr double kMaxBloomBits = 100;
// A MultiGet batch beyond this is a typo (RocksDB's own caps are lower).
constexpr int64_t kMaxBatchSize = 1 << 20;
// The engine name of LevelDB with a bloomtable filter through the adapter.
constexpr char kLevelDBAdapted[] = "leveldb+bloomtable";

absl::Status Invalid(const std::string& message) {
  return absl::InvalidArgumentError(message);
}

std::vector<std::string> SplitList(const std::string& list) {
  std::vector<std::string> items;
  for (absl::string_view item :
       absl::StrSplit(list, ',', absl::SkipWhitespace())) {
    items.emplace_back(absl::StripAsciiWhitespace(item));
  }
  return items;
}

absl::StatusOr<std::vector<double>> ParseBits(const std::string& list) {
  std::vector<double> bits;
  for (const std::string& item : SplitList(list)) {
    double value = 0;
    if (!absl::SimpleAtod(item, &value) || !std::isfinite(value)) {
      return Invalid(
          absl::StrCat("--bloom_bits: '", item, "' is not a number"));
    }
    if (value > kMaxBloomBits) {
      return Invalid(absl::StrFormat("--bloom_bits=%g is more than %g", value,
                                     kMaxBloomBits));
    }
    value = std::max(0.0, value);  // 0 or negative: no filter
    if (std::find(bits.begin(), bits.end(), value) == bits.end()) {
      bits.push_back(value);
    }
  }
  if (bits.empty()) return Invalid("--bloom_bits is empty");
  return bits;
}

absl::StatusOr<std::vector<int>> ParseThreads(const std::string& list) {
  std::vector<int> threads;
  for (const std::string& item : SplitList(list)) {
    int value = 0;
    if (!absl::SimpleAtoi(item, &value) || value < 1 || value > kMaxThreads) {
      return Invalid(
          absl::StrFormat("--threads: '%s' is not a whole number in [1, %d]",
                          item, kMaxThreads));
    }
    if (std::find(threads.begin(), threads.end(), value) == threads.end()) {
      threads.push_back(value);
    }
  }
  if (threads.empty()) return Invalid("--threads is empty");
  return threads;
}

std::string BitsName(double bits) { return absl::StrFormat("%g", bits); }

bool Contains(const std::vector<std::string>& list, const std::string& item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

}  // namespace

absl::StatusOr<std::vector<uint64_t>> ParseCacheSizes(const std::string& list) {
  std::vector<uint64_t> sizes;
  for (const std::string& item : SplitList(list)) {
    size_t digits = 0;
    while (digits < item.size() && absl::ascii_isdigit(item[digits])) ++digits;
    uint64_t value = 0;
    if (digits == 0 || !absl::SimpleAtoi(item.substr(0, digits), &value)) {
      return Invalid(absl::StrCat("--cache_size: '", item,
                                  "' is not a size in bytes (e.g. 8388608 or "
                                  "8M)"));
    }
    std::string suffix = absl::AsciiStrToUpper(item.substr(digits));
    int shift = 0;
    if (!suffix.empty()) {
      const char unit = suffix[0];
      shift = unit == 'K' ? 10 : unit == 'M' ? 20 : unit == 'G' ? 30 : -1;
      const std::string rest = suffix.substr(1);
      if (shift < 0 || !(rest.empty() || rest == "B" || rest == "IB")) {
        return Invalid(absl::StrCat("--cache_size: '", item,
                                    "': the suffix must be K, M or G"));
      }
    }
    // 2^40 bytes is far beyond any machine this runs on: a typo.
    constexpr uint64_t kMaxCacheBytes = uint64_t{1} << 40;
    if (value > (kMaxCacheBytes >> shift)) {
      return Invalid(absl::StrCat("--cache_size: '", item, "' is too large"));
    }
    value <<= shift;
    if (std::find(sizes.begin(), sizes.end(), value) == sizes.end()) {
      sizes.push_back(value);
    }
  }
  if (sizes.empty()) return Invalid("--cache_size is empty");
  return sizes;
}

bool IsLevelDBEngine(const std::string& engine) {
  return engine == "leveldb" || engine == kLevelDBAdapted;
}

std::vector<std::string> BuiltEngines() {
  std::vector<std::string> engines = {"bloomtable", "bloomtable_single"};
#ifdef BLOOMTABLE_DB_BENCH_WITH_LEVELDB
  engines.push_back("leveldb");
  engines.push_back(kLevelDBAdapted);
#endif
#ifdef BLOOMTABLE_DB_BENCH_WITH_ROCKSDB
  engines.push_back("rocksdb");
#endif
  return engines;
}

absl::StatusOr<BenchPlan> MakePlan(const PlanFlags& flags) {
  BenchPlan plan;
  plan.flags = flags;
  absl::StatusOr<std::vector<BenchmarkKind>> benchmarks =
      ParseBenchmarks(flags.benchmarks);
  if (!benchmarks.ok()) return benchmarks.status();
  plan.benchmarks = *benchmarks;

  if (flags.num < 1) return Invalid("--num must be at least 1");
  plan.num = static_cast<uint64_t>(flags.num);
  if (flags.reads == 0 || flags.reads < -1) {
    return Invalid("--reads must be at least 1 (or -1 for --num)");
  }
  plan.reads =
      flags.reads == -1 ? plan.num : static_cast<uint64_t>(flags.reads);
  if (flags.key_size < 1) return Invalid("--key_size must be at least 1");
  absl::Status status = KeyGenerator::Validate(flags.key_size, plan.num);
  if (!status.ok()) return status;
  if (flags.value_size < 0) return Invalid("--value_size must not be negative");
  status = ValueGenerator::Validate(flags.value_size, flags.compression_ratio);
  if (!status.ok()) return status;
  if (flags.block_size < 1 || flags.block_size > kMaxBlockSize) {
    return Invalid(
        absl::StrFormat("--block_size must be in [1, %d]", kMaxBlockSize));
  }
  if (flags.compression_type != "snappy" && flags.compression_type != "none") {
    return Invalid(absl::StrCat("--compression_type=", flags.compression_type,
                                ": expected snappy or none"));
  }
  absl::StatusOr<std::vector<uint64_t>> cache_sizes =
      ParseCacheSizes(flags.cache_size);
  if (!cache_sizes.ok()) return cache_sizes.status();
  plan.cache_sizes = *cache_sizes;
  absl::StatusOr<std::vector<int>> threads = ParseThreads(flags.threads);
  if (!threads.ok()) return threads.status();
  plan.threads = *threads;
  if (flags.batch_size < 1 || flags.batch_size > kMaxBatchSize) {
    return Invalid(
        absl::StrFormat("--batch_size must be in [1, %d]", kMaxBatchSize));
  }
  if (flags.tables < 1 || flags.tables > kMaxTables) {
    return Invalid(absl::StrFormat("--tables must be in [1, %d]", kMaxTables));
  }
  if (flags.io_latency_us < 0 || flags.io_latency_us > kMaxIoLatencyMicros) {
    return Invalid(absl::StrFormat("--io_latency_us must be in [0, %d]",
                                   kMaxIoLatencyMicros));
  }
  if (flags.use_existing_db && flags.db.empty()) {
    return Invalid("--use_existing_db needs --db=DIR");
  }
  if (!flags.use_existing_db) {
    // Reads need data: a fill before the first read benchmark.
    for (BenchmarkKind kind : plan.benchmarks) {
      if (IsFill(kind)) break;
      if (IsRead(kind)) {
        return Invalid(absl::StrCat(
            "--benchmarks: ", BenchmarkName(kind),
            " needs a fill benchmark (fillseq or fillrandom) before it, or "
            "--use_existing_db"));
      }
    }
  }

  // Engines.
  const std::vector<std::string> built = BuiltEngines();
  if (flags.engines.empty()) {
    for (const std::string& engine : built) {
      if (engine == "bloomtable_single" && flags.tables == 1) continue;
      plan.engines.push_back(engine);
    }
  } else {
    for (const std::string& engine : SplitList(flags.engines)) {
      if (!Contains(built, engine)) {
        const bool known = engine == "leveldb" || engine == kLevelDBAdapted ||
                           engine == "rocksdb";
        return Invalid(absl::StrCat(
            "--engines: '", engine, "' ",
            known ? "was not built (BLOOMTABLE_WITH_LEVELDB / _ROCKSDB off)"
                  : "is unknown",
            "; this db_bench has: ", absl::StrJoin(built, ", ")));
      }
      if (!Contains(plan.engines, engine)) plan.engines.push_back(engine);
    }
    if (plan.engines.empty()) return Invalid("--engines is empty");
  }

  // Filter settings.
  absl::StatusOr<std::vector<double>> bits_list = ParseBits(flags.bloom_bits);
  if (!bits_list.ok()) return bits_list.status();
  std::vector<double> filtered_bits;
  bool run_without_filter = flags.compare_no_filter;
  for (double bits : *bits_list) {
    if (bits > 0) {
      filtered_bits.push_back(bits);
    } else {
      run_without_filter = true;
    }
  }
  std::vector<const FilterEntry*> filters;
  for (const std::string& name : SplitList(flags.filter)) {
    absl::StatusOr<const FilterEntry*> entry = FindFilter(name);
    if (!entry.ok()) return entry.status();
    filters.push_back(*entry);
  }
  if (filters.empty()) return Invalid("--filter is empty");
  if (Contains(plan.engines, "leveldb")) {
    for (double bits : filtered_bits) {
      if (!IsWholeNumber(bits)) {
        return Invalid(absl::StrFormat(
            "--bloom_bits=%g: LevelDB's Bloom filter takes whole bits per key; "
            "use whole numbers, or leave leveldb out of --engines",
            bits));
      }
    }
  }
  std::vector<std::shared_ptr<const FilterPolicy>> known_policies;
  for (const FilterEntry& entry : FilterRegistry()) {
    // Readers recognise a policy by name, whatever its bits per key.
    known_policies.push_back(entry.make(10));
  }

  EngineOptions base;
  base.block_size = static_cast<size_t>(flags.block_size);
  base.snappy = flags.compression_type == "snappy";
  base.tables = flags.tables;
  base.io_latency_us = static_cast<uint64_t>(flags.io_latency_us);
  base.verify_checksums = flags.verify_checksum;
  base.bloomtable_known_policies = known_policies;

  // One configuration per cache size, adjacent, sharing one store; `adjust`
  // sets what differs between engines.
  auto add_config = [&plan, &base](const std::string& engine,
                                   const std::string& filter, double bits,
                                   const std::string& layout,
                                   const auto& adjust) {
    ConfigPlan config;
    config.engine = engine;
    config.filter = filter;
    config.bloom_bits = bits;
    config.filter_layout = layout;
    config.engine_options = base;
    config.engine_options.bloom_bits = bits;
    config.engine_options.bloomtable_single_table =
        engine == "bloomtable_single";
    config.dir_name = absl::StrCat(engine, "-", filter);
    if (filter != "none")
      absl::StrAppend(&config.dir_name, "-", BitsName(bits));
    if (!layout.empty()) absl::StrAppend(&config.dir_name, "-", layout);
    adjust(&config.engine_options);
    for (size_t c = 0; c < plan.cache_sizes.size(); ++c) {
      config.engine_options.cache_size = plan.cache_sizes[c];
      config.reuses_store = c > 0;
      plan.configs.push_back(config);
    }
  };
  const auto no_adjustment = [](EngineOptions*) {};
  // Filters that the LevelDB adapter refuses, reported once each.
  std::vector<std::string> not_adaptable;

  for (const std::string& engine : plan.engines) {
    const bool bloomtable =
        engine == "bloomtable" || engine == "bloomtable_single";
    for (double bits : filtered_bits) {
      if (bloomtable) {
        for (const FilterEntry* entry : filters) {
          absl::StatusOr<ResolvedFilter> resolved =
              ResolveFilter(*entry, bits, flags.filter_layout);
          if (!resolved.ok()) return resolved.status();
          add_config(engine, std::string(entry->name), bits,
                     std::string(LayoutName(resolved->layout)),
                     [&resolved](EngineOptions* options) {
                       options->bloomtable_policy = resolved->policy;
                       options->bloomtable_layout = resolved->layout;
                     });
        }
      } else if (engine == "leveldb") {
        add_config(engine, "leveldb_bloom", bits, "per_block", no_adjustment);
      } else if (engine == kLevelDBAdapted) {
        for (const FilterEntry* entry : filters) {
          absl::StatusOr<ResolvedFilter> resolved =
              ResolveFilter(*entry, bits, "auto");
          if (!resolved.ok()) return resolved.status();
          if (!resolved->policy->SupportsPerBlock()) {
            if (!Contains(not_adaptable, std::string(entry->name))) {
              not_adaptable.emplace_back(entry->name);
            }
            continue;
          }
          add_config(engine, std::string(entry->name), bits, "per_block",
                     [&resolved](EngineOptions* options) {
                       options->leveldb_adapted_policy = resolved->policy;
                     });
        }
      } else if (engine == "rocksdb") {
        add_config(engine, "rocksdb_bloom", bits, "whole_table", no_adjustment);
        add_config(
            engine, "rocksdb_ribbon", bits, "whole_table",
            [](EngineOptions* options) { options->rocksdb_ribbon = true; });
      }
    }
    // Without a filter, LevelDB through the adapter is plain LevelDB.
    if (run_without_filter && engine != kLevelDBAdapted) {
      add_config(engine, "none", 0, "", no_adjustment);
    }
  }

  if (plan.configs.empty()) {
    return Invalid(
        "nothing to run: leveldb+bloomtable runs only with a filter that "
        "works per block (not with --bloom_bits=0 or --filter=ribbon alone)");
  }

  // What the numbers mean and where engines differ.
  plan.notes.push_back(
      "FP % = filter 'maybe' answers for absent keys / filter queries for "
      "absent keys, counted by each engine (bloomtable: TableStats; LevelDB: "
      "a counting wrapper around its Bloom policy; RocksDB: its statistics "
      "BLOOM_FILTER_USEFUL, _FULL_POSITIVE, _FULL_TRUE_POSITIVE).");
  plan.notes.push_back(
      "reads/op and bytes/op count table-file reads through each engine's "
      "file wrapper during the benchmark (block-cache hits are not reads).");
  plan.notes.push_back(
      "Every engine reads through an LRU block cache of --cache_size bytes; "
      "cache hit % = data-block lookups served by it (LevelDB: counted by a "
      "wrapper around its cache; RocksDB: BLOCK_CACHE_DATA_HIT/_MISS; "
      "bloomtable: TableStats). With several --cache_size values each store "
      "is filled once, then reopened with each cache, cold.");
  if (Contains(plan.engines, kLevelDBAdapted)) {
    plan.notes.push_back(
        "leveldb+bloomtable is a real leveldb::DB whose filter policy is "
        "bloomtable's --filter policy through "
        "bloomtable::NewLevelDBFilterPolicyAdapter (LevelDB's per-2 KiB "
        "filter blocks); it runs with a filter only (without one it is "
        "plain LevelDB: see the leveldb none rows).");
    for (const std::string& name : not_adaptable) {
      plan.notes.push_back(absl::StrCat(
          "leveldb+bloomtable skips --filter=", name,
          ": the policy builds whole-table filters only, and LevelDB asks "
          "for one filter per 2 KiB of data blocks."));
    }
  }
  for (BenchmarkKind kind : plan.benchmarks) {
    if (kind != BenchmarkKind::kMultiReadRandom) continue;
    plan.notes.push_back(absl::StrCat(
        "multireadrandom looks up readrandom's keys ", flags.batch_size,
        " at a time (--batch_size): bloomtable with Table::MultiGet (several "
        "tables: newest first, passing on the keys still missing), RocksDB "
        "with its batched DB::MultiGet (a file's blocks fetched with one "
        "MultiRead, counted as one read and one --io_latency_us delay); "
        "LevelDB has no MultiGet: a loop of Gets. micros/op is per key."));
    break;
  }
  if (plan.threads.size() > 1 || plan.threads.front() > 1) {
    plan.notes.push_back(
        "With --threads=N every thread looks up --reads keys of its own; "
        "ops/s = all threads' lookups / wall time; micros/op = each thread's "
        "loop time per lookup (LevelDB's definition). 'x ops/s' compares "
        "ops/s with the run at the first --threads value.");
  }
  plan.notes.push_back(
      "Memory B/key = bytes held in memory per key: filter blocks, index "
      "blocks, and the engine's own figure (bloomtable: "
      "Table::ApproximateMemoryUsage; LevelDB: "
      "leveldb.approximate-memory-usage, block cache and memtables only; "
      "RocksDB: rocksdb.estimate-table-readers-mem); '-' where the engine "
      "cannot tell.");
  if (flags.tables > 1 && (Contains(plan.engines, "leveldb") ||
                           Contains(plan.engines, kLevelDBAdapted))) {
    plan.notes.push_back(absl::StrFormat(
        "--tables=%d does not apply to LevelDB: it has no flush call, "
        "compacts level 0 at 4 files and compacts files that lookups probe "
        "in vain, so it is always read fully compacted.",
        flags.tables));
  }
  if (flags.io_latency_us > 0) {
    plan.notes.push_back(absl::StrFormat(
        "--io_latency_us=%d is added to every table-file read during read "
        "benchmarks (and bloomtable's table opens), not to fills or "
        "compactions.",
        flags.io_latency_us));
  }
  if (Contains(plan.engines, "rocksdb")) {
    plan.notes.push_back(
        "RocksDB runs with statistics on (counters only, no timers) to count "
        "filter answers and cache hits.");
  }
  return plan;
}

nlohmann::json PlanSettingsJson(const BenchPlan& plan) {
  const PlanFlags& flags = plan.flags;
  nlohmann::json settings;
  settings["db_bench_version"] = BLOOMTABLE_VERSION;
  std::vector<std::string> benchmarks;
  for (BenchmarkKind kind : plan.benchmarks) {
    benchmarks.emplace_back(BenchmarkName(kind));
  }
  settings["benchmarks"] = benchmarks;
  settings["engines"] = plan.engines;
  settings["num"] = plan.num;
  settings["reads"] = plan.reads;
  settings["key_size"] = flags.key_size;
  settings["value_size"] = flags.value_size;
  settings["compression_ratio"] = flags.compression_ratio;
  settings["block_size"] = flags.block_size;
  settings["compression_type"] = flags.compression_type;
  settings["bloom_bits"] = flags.bloom_bits;
  settings["compare_no_filter"] = flags.compare_no_filter;
  settings["filter"] = flags.filter;
  settings["filter_layout"] = flags.filter_layout;
  // The first values under the old names; every value in the lists.
  settings["cache_size"] = plan.cache_sizes.front();
  settings["cache_sizes"] = plan.cache_sizes;
  settings["threads"] = plan.threads.front();
  settings["threads_list"] = plan.threads;
  settings["batch_size"] = flags.batch_size;
  settings["seed"] = flags.seed;
  settings["tables"] = flags.tables;
  settings["io_latency_us"] = flags.io_latency_us;
  settings["use_existing_db"] = flags.use_existing_db;
  settings["verify_checksum"] = flags.verify_checksum;
  return settings;
}

}  // namespace db_bench
}  // namespace bloomtable
