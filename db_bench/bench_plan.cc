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
constexpr int32_t kMaxBlockSize = 64 << 20;
// Beyond this a filter is only waste; RocksDB caps its own near here too.
constexpr double kMaxBloomBits = 100;
constexpr int kMaxRepeats = 100;
constexpr double kMaxMinSeconds = 3600;
// The engine name of LevelDB with a bloomtable filter through the adapter.
constexpr char kLevelDBAdapted[] = "leveldb+bloomtable";
constexpr char kViewWithSidecars[] = "bloomtable_db+sidecars";

absl::Status Invalid(const std::string& message) {
  return absl::InvalidArgumentError(message);
}

// InvalidArgument naming the flag unless low <= value <= high.
absl::Status InRange(const char* flag, double value, double low, double high) {
  if (value >= low && value <= high) return absl::OkStatus();
  return Invalid(absl::StrFormat("%s must be in [%g, %g]", flag, low, high));
}

std::vector<std::string> SplitList(const std::string& list) {
  std::vector<std::string> items;
  for (absl::string_view item :
       absl::StrSplit(list, ',', absl::SkipWhitespace())) {
    items.emplace_back(absl::StripAsciiWhitespace(item));
  }
  return items;
}

absl::StatusOr<std::vector<double>> ParseBits(const std::string& list,
                                              const std::string& flag) {
  std::vector<double> bits;
  for (const std::string& item : SplitList(list)) {
    double value = 0;
    if (!absl::SimpleAtod(item, &value) || !std::isfinite(value)) {
      return Invalid(absl::StrCat(flag, ": '", item, "' is not a number"));
    }
    if (value > kMaxBloomBits) {
      return Invalid(
          absl::StrFormat("%s=%g is more than %g", flag, value, kMaxBloomBits));
    }
    value = std::max(0.0, value);  // 0 or negative: no filter
    if (std::find(bits.begin(), bits.end(), value) == bits.end()) {
      bits.push_back(value);
    }
  }
  if (bits.empty()) return Invalid(absl::StrCat(flag, " is empty"));
  return bits;
}

std::string BitsName(double bits) { return absl::StrFormat("%g", bits); }

bool Contains(const std::vector<std::string>& list, const std::string& item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

}  // namespace

absl::StatusOr<uint64_t> ParseCacheSize(const std::string& text) {
  const std::string item(absl::StripAsciiWhitespace(text));
  size_t digits = 0;
  while (digits < item.size() && absl::ascii_isdigit(item[digits])) ++digits;
  uint64_t value = 0;
  if (digits == 0 || !absl::SimpleAtoi(item.substr(0, digits), &value)) {
    return Invalid(absl::StrCat("--cache_size: '", item,
                                "' is not a size in bytes (e.g. 8388608 or "
                                "8M)"));
  }
  const std::string suffix = absl::AsciiStrToUpper(item.substr(digits));
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
  if (value > ((uint64_t{1} << 40) >> shift)) {
    return Invalid(absl::StrCat("--cache_size: '", item, "' is too large"));
  }
  return value << shift;
}

bool UsesLevelDBBloom(const std::string& engine) {
  return (EngineFamily(engine) == "leveldb" && engine != kLevelDBAdapted) ||
         engine == "bloomtable_db";
}

bool ReadsLevelDBSource(const std::string& engine) {
  return engine == "bloomtable_db" || engine == kViewWithSidecars ||
         engine == "leveldb_dir";
}

std::string EngineLevel(const std::string& engine) {
  const EngineEntry* entry = FindEngine(engine);
  return entry != nullptr ? entry->level : "table";
}

// The peer whose code `engine` runs ("bloomtable", "leveldb", "rocksdb").
std::string EngineFamily(const std::string& engine) {
  const EngineEntry* entry = FindEngine(engine);
  return entry != nullptr ? entry->family : "bloomtable";
}

std::vector<std::string> BuiltEngines() {
  std::vector<std::string> engines;
  for (const EngineEntry& entry : EngineRegistry()) {
    if (entry.make != nullptr) engines.push_back(entry.name);
  }
  return engines;
}

int IndexRestartInterval(int flag, std::string_view layout) {
  if (flag > 0) return flag;
  return layout.empty() || layout == "per_block" ? 1 : 16;
}

absl::Status ApplyFilterBits(double bits, ConfigPlan* config) {
  EngineOptions& options = config->engine_options;
  config->bloom_bits = bits;
  options.bloom_bits = bits;
  options.bloomtable_policy = nullptr;
  options.leveldb_adapted_policy = nullptr;
  options.rocksdb_ribbon = config->filter == "rocksdb_ribbon";
  // The sidecars hold a bloomtable filter.
  const bool bloomtable =
      config->engine == "bloomtable" || config->engine == kViewWithSidecars;
  if (config->filter != "none" &&
      (bloomtable || config->engine == kLevelDBAdapted)) {
    absl::StatusOr<const FilterEntry*> entry = FindFilter(config->filter);
    if (!entry.ok()) return entry.status();
    absl::StatusOr<ResolvedFilter> resolved =
        ResolveFilter(**entry, bits, config->filter_layout);
    if (!resolved.ok()) return resolved.status();
    if (bloomtable) {
      options.bloomtable_policy = resolved->policy;
      options.bloomtable_layout = resolved->layout;
    } else {
      options.leveldb_adapted_policy = resolved->policy;
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<BenchPlan> MakePlan(const PlanFlags& given_flags) {
  BenchPlan plan;
  plan.flags = given_flags;
  // --bloom_bits unset: 10 bits per key, and (--stored_bits=auto) every
  // filter calibrated to 10 stored bits per key, so that the default run
  // compares filters at equal memory.
  const bool bloom_bits_given = !plan.flags.bloom_bits.empty();
  if (!bloom_bits_given) plan.flags.bloom_bits = "10";
  if (plan.flags.stored_bits == "auto") {
    plan.flags.stored_bits = bloom_bits_given ? "" : "10";
  }
  const PlanFlags& flags = plan.flags;
  absl::StatusOr<std::vector<BenchmarkKind>> benchmarks =
      ParseBenchmarks(flags.benchmarks);
  if (!benchmarks.ok()) return benchmarks.status();
  plan.benchmarks = *benchmarks;

  if (flags.reads == 0) return Invalid("--reads must be at least 1 (or -1)");
  for (const absl::Status& status :
       {InRange("--num", flags.num, 1, 1e18),
        InRange("--reads", flags.reads, -1, 1e18),
        InRange("--key_size", flags.key_size, 1, 1e9),
        InRange("--value_size", flags.value_size, 0, 1e9),
        InRange("--block_size", flags.block_size, 1, kMaxBlockSize),
        InRange("--index_block_restart_interval (0: auto)",
                flags.index_block_restart_interval, 0, 1 << 20),
        InRange("--threads", flags.threads, 1, kMaxThreads),
        InRange("--repeats", flags.repeats, 1, kMaxRepeats),
        InRange("--min_seconds", flags.min_seconds, 0, kMaxMinSeconds)}) {
    if (!status.ok()) return status;
  }
  plan.num = static_cast<uint64_t>(flags.num);
  plan.reads =
      flags.reads == -1 ? plan.num : static_cast<uint64_t>(flags.reads);
  absl::Status status = ApplyKeyFlags(&plan);
  if (!status.ok()) return status;
  status = ValueGenerator::Validate(flags.value_size, flags.compression_ratio);
  if (!status.ok()) return status;
  if (flags.compression_type != "snappy" && flags.compression_type != "none") {
    return Invalid(absl::StrCat("--compression_type=", flags.compression_type,
                                ": expected snappy or none"));
  }
  absl::StatusOr<uint64_t> cache_size = ParseCacheSize(flags.cache_size);
  if (!cache_size.ok()) return cache_size.status();
  plan.cache_size = *cache_size;
  for (const std::string& io : SplitList(flags.io)) {
    if (io != "pread" && io != "mmap") {
      return Invalid(absl::StrCat("--io: '", io, "': expected pread or mmap"));
    }
    if (!Contains(plan.io_paths, io)) plan.io_paths.push_back(io);
  }
  if (plan.io_paths.empty()) return Invalid("--io is empty");
  if (!flags.stored_bits.empty()) {
    absl::StatusOr<std::vector<double>> stored =
        ParseBits(flags.stored_bits, "--stored_bits");
    if (!stored.ok()) return stored.status();
    for (double bits : *stored) {
      if (bits <= 0) return Invalid("--stored_bits: each target must be > 0");
    }
    plan.stored_bits = *stored;
  }
  if (flags.leveldb_source != "as_written" &&
      flags.leveldb_source != "compacted") {
    return Invalid(absl::StrFormat(
        "--leveldb_source must be as_written or compacted, not '%s'",
        flags.leveldb_source));
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
    plan.engines = built;
  } else {
    for (const std::string& engine : SplitList(flags.engines)) {
      if (!Contains(built, engine)) {
        const EngineEntry* entry = FindEngine(engine);
        return Invalid(absl::StrCat(
            "--engines: '", engine, "' ",
            entry != nullptr ? absl::StrCat("was not built: ", entry->left_out)
                             : "is unknown",
            "; this db_bench has: ", absl::StrJoin(built, ", ")));
      }
      if (!Contains(plan.engines, engine)) plan.engines.push_back(engine);
    }
    if (plan.engines.empty()) return Invalid("--engines is empty");
  }

  // Filter settings.
  absl::StatusOr<std::vector<double>> bits_list =
      ParseBits(flags.bloom_bits, "--bloom_bits");
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
  if (std::any_of(plan.engines.begin(), plan.engines.end(),
                  [](const std::string& engine) {
                    return UsesLevelDBBloom(engine) &&
                           !ReadsLevelDBSource(engine);
                  })) {
    for (double bits : filtered_bits) {
      if (!IsWholeNumber(bits)) {
        return Invalid(absl::StrFormat(
            "--bloom_bits=%g: LevelDB's Bloom filter takes whole bits per key; "
            "use whole numbers, leave LevelDB's engines out of "
            "--engines, or give --stored_bits",
            bits));
      }
    }
  }
  // With --stored_bits, the targets take the place of the bits per key.
  const std::vector<double> filter_values =
      plan.stored_bits.empty() ? filtered_bits : plan.stored_bits;
  std::vector<std::shared_ptr<const FilterPolicy>> known_policies;
  for (const FilterEntry& entry : FilterRegistry()) {
    // Readers recognise a policy by name, whatever its bits per key.
    known_policies.push_back(entry.make(10));
  }

  EngineOptions base;
  base.block_size = static_cast<size_t>(flags.block_size);
  base.bloomtable_index_block_restart_interval =
      flags.index_block_restart_interval;
  base.snappy = flags.compression_type == "snappy";
  base.leveldb_source_compacted = flags.leveldb_source == "compacted";
  base.leveldb_source_bloom_bits = flags.leveldb_source_bloom_bits;
  base.verify_checksums = flags.verify_checksum;
  base.bloomtable_known_policies = known_policies;
  base.longest_key = static_cast<size_t>(plan.flags.key_size) +
                     KeyGenerator::kMissingSuffixSize;

  // One store per engine and filter setting; then one configuration per I/O
  // path, adjacent, the first filling the store and the other reopening it.
  // `value` is bits per key, or with --stored_bits the target stored bits per
  // key (the bits are then calibrated before the run).
  const bool calibrated = !plan.stored_bits.empty();
  auto add_store = [&](const std::string& engine, const std::string& filter,
                       double value, const std::string& layout,
                       const std::string& scan_filter = "none",
                       std::optional<bool> calibrate_given = std::nullopt) {
    const bool calibrate = calibrate_given.value_or(calibrated);
    ConfigPlan config;
    config.engine = engine;
    config.level = EngineLevel(engine);
    config.filter = filter;
    config.filter_layout = layout;
    config.engine_options = base;
    config.scan_filter = scan_filter;
    ApplyScanFilter(plan.flags, &config);
    config.dir_name = absl::StrCat(engine, "-", filter);
    if (scan_filter != "none")
      absl::StrAppend(&config.dir_name, "-", scan_filter);
    if (filter != "none") {
      absl::StrAppend(&config.dir_name, calibrate ? "-stored" : "-",
                      BitsName(value));
      if (calibrate) config.target_stored_bits = value;
    }
    if (!layout.empty()) absl::StrAppend(&config.dir_name, "-", layout);
    config.engine_options.bloomtable_index_block_restart_interval =
        IndexRestartInterval(flags.index_block_restart_interval,
                             config.filter_layout);
    absl::Status status =
        ApplyFilterBits(filter == "none" ? 0 : value, &config);
    if (!status.ok()) return status;
    config.engine_options.cache_size = plan.cache_size;
    for (const std::string& io : plan.io_paths) {
      config.io = io;
      config.engine_options.mmap_reads = io == "mmap";
      config.reuses_store = io != plan.io_paths.front();
      plan.configs.push_back(config);
    }
    return absl::OkStatus();
  };
  absl::StatusOr<std::vector<std::string>> scan_filter_list =
      ParseScanFilters(plan.flags);
  if (!scan_filter_list.ok()) return scan_filter_list.status();
  const std::vector<std::string> scan_filters = *scan_filter_list;

  const std::vector<std::string> rocksdb_filters =
      SplitList(flags.rocksdb_filters);
  for (const std::string& name : rocksdb_filters) {
    if (name != "bloom" && name != "ribbon") {
      return Invalid(absl::StrCat("--rocksdb_filters: '", name,
                                  "': expected bloom or ribbon"));
    }
  }
  if (rocksdb_filters.empty()) return Invalid("--rocksdb_filters is empty");

  // Filters that the LevelDB adapter refuses, reported once each.
  std::vector<std::string> not_adaptable;
  const std::vector<std::string> layouts = SplitList(flags.filter_layout);
  if (layouts.empty()) return Invalid("--filter_layout is empty");

  for (const std::string& engine : plan.engines) {
    const bool bloomtable = engine == "bloomtable";
    if (ReadsLevelDBSource(engine) && engine != kViewWithSidecars) {
      // The directory's own filter, as its writer chose it: one store.
      const int source_bits = flags.leveldb_source_bloom_bits;
      absl::Status status =
          source_bits > 0 ? add_store(engine, "leveldb_bloom", source_bits,
                                      "per_block", "none", false)
                          : add_store(engine, "none", 0, "");
      if (!status.ok()) return status;
      continue;
    }
    for (double value : filter_values) {
      absl::Status status;
      if (bloomtable) {
        for (const FilterEntry* entry : filters) {
          // Each layout the policy supports; one given that it does not is
          // an error when it is the only one.
          std::vector<std::string> resolved_layouts;
          for (const std::string& layout : layouts) {
            absl::StatusOr<ResolvedFilter> resolved =
                ResolveFilter(*entry, calibrated ? 10 : value, layout);
            if (!resolved.ok()) {
              if (layouts.size() == 1 ||
                  !absl::IsInvalidArgument(resolved.status())) {
                return resolved.status();
              }
              continue;
            }
            const std::string name(LayoutName(resolved->layout));
            if (!Contains(resolved_layouts, name)) {
              resolved_layouts.push_back(name);
            }
          }
          for (const std::string& layout : resolved_layouts) {
            for (const std::string& scan : scan_filters) {
              status.Update(add_store(engine, std::string(entry->name), value,
                                      layout, scan));
            }
          }
        }
      } else if (engine == kViewWithSidecars) {
        // Sidecars hold whole-table filters: each policy that has one.
        for (const FilterEntry* entry : filters) {
          if (ResolveFilter(*entry, 10, "whole_table").ok()) {
            status.Update(add_store(engine, std::string(entry->name), value,
                                    "whole_table"));
          }
        }
      } else if (UsesLevelDBBloom(engine)) {
        status = add_store(engine, "leveldb_bloom", value, "per_block");
      } else if (engine == kLevelDBAdapted) {
        for (const FilterEntry* entry : filters) {
          if (!entry->make(10)->SupportsPerBlock()) {
            if (!Contains(not_adaptable, std::string(entry->name))) {
              not_adaptable.emplace_back(entry->name);
            }
            continue;
          }
          status.Update(
              add_store(engine, std::string(entry->name), value, "per_block"));
        }
      } else if (EngineFamily(engine) == "rocksdb") {
        // RocksDB's Bloom and Ribbon (--rocksdb_filters), at the budget
        // bloomtable's filters are calibrated to.
        for (const std::string& rocksdb_filter : rocksdb_filters) {
          status.Update(add_store(engine, "rocksdb_" + rocksdb_filter, value,
                                  "whole_table"));
        }
        if (engine != "rocksdb_readonly" &&
            Contains(scan_filters, std::string("prefix"))) {
          status.Update(add_store(engine, "rocksdb_bloom", value, "whole_table",
                                  "prefix"));
        }
      }
      if (!status.ok()) return status;
    }
    // Without a filter, LevelDB through the adapter is plain LevelDB.
    if (run_without_filter && engine != kLevelDBAdapted &&
        engine != kViewWithSidecars) {
      absl::Status status = add_store(engine, "none", 0, "");
      // A range filter needs no point filter beside it.
      if (bloomtable && Contains(scan_filters, std::string("range"))) {
        status.Update(add_store(engine, "none", 0, "", "range"));
      }
      if (!status.ok()) return status;
    }
  }

  if (plan.configs.empty()) {
    return Invalid(
        "nothing to run: leveldb+bloomtable runs only with a filter that "
        "works per block (not with --bloom_bits=0 or --filter=ribbon alone)");
  }

  AddPlanNotes(not_adaptable, &plan);
  AddScanNotes(&plan);
  return plan;
}

}  // namespace db_bench
}  // namespace bloomtable
