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

std::string BitsName(double bits) { return absl::StrFormat("%g", bits); }

bool Contains(const std::vector<std::string>& list, const std::string& item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

}  // namespace

std::vector<std::string> BuiltEngines() {
  std::vector<std::string> engines = {"bloomtable", "bloomtable_single"};
#ifdef BLOOMTABLE_DB_BENCH_WITH_LEVELDB
  engines.push_back("leveldb");
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
  if (flags.cache_size < 0) return Invalid("--cache_size must not be negative");
  if (flags.threads < 1 || flags.threads > kMaxThreads) {
    return Invalid(
        absl::StrFormat("--threads must be in [1, %d]", kMaxThreads));
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
        const bool known = engine == "leveldb" || engine == "rocksdb";
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
  base.cache_size = static_cast<uint64_t>(flags.cache_size);
  base.io_latency_us = static_cast<uint64_t>(flags.io_latency_us);
  base.verify_checksums = flags.verify_checksum;
  base.bloomtable_known_policies = known_policies;

  auto add_config = [&plan, &base](const std::string& engine,
                                   const std::string& filter, double bits,
                                   const std::string& layout) -> ConfigPlan& {
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
    plan.configs.push_back(std::move(config));
    return plan.configs.back();
  };

  for (const std::string& engine : plan.engines) {
    const bool bloomtable =
        engine == "bloomtable" || engine == "bloomtable_single";
    for (double bits : filtered_bits) {
      if (bloomtable) {
        for (const FilterEntry* entry : filters) {
          absl::StatusOr<ResolvedFilter> resolved =
              ResolveFilter(*entry, bits, flags.filter_layout);
          if (!resolved.ok()) return resolved.status();
          ConfigPlan& config =
              add_config(engine, std::string(entry->name), bits,
                         std::string(LayoutName(resolved->layout)));
          config.engine_options.bloomtable_policy = resolved->policy;
          config.engine_options.bloomtable_layout = resolved->layout;
        }
      } else if (engine == "leveldb") {
        add_config(engine, "leveldb_bloom", bits, "per_block");
      } else if (engine == "rocksdb") {
        add_config(engine, "rocksdb_bloom", bits, "whole_table");
        add_config(engine, "rocksdb_ribbon", bits, "whole_table")
            .engine_options.rocksdb_ribbon = true;
      }
    }
    if (run_without_filter) add_config(engine, "none", 0, "");
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
      "Every engine reads through an LRU block cache of --cache_size bytes "
      "(LevelDB's exposes no hit counters).");
  if (flags.tables > 1 && Contains(plan.engines, "leveldb")) {
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
  settings["cache_size"] = flags.cache_size;
  settings["threads"] = flags.threads;
  settings["seed"] = flags.seed;
  settings["tables"] = flags.tables;
  settings["io_latency_us"] = flags.io_latency_us;
  settings["use_existing_db"] = flags.use_existing_db;
  settings["verify_checksum"] = flags.verify_checksum;
  return settings;
}

}  // namespace db_bench
}  // namespace bloomtable
