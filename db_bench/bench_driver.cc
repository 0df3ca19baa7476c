// RunPlan: builds each configuration's engine, runs the benchmarks on it and
// prints as it goes, LevelDB's db_bench style.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "db_bench/bench_plan.h"
#include "db_bench/directory.h"
#include "db_bench/filter_budget.h"
#include "db_bench/key_generator.h"
#include "db_bench/machine.h"
#include "db_bench/repeats.h"
#include "db_bench/value_generator.h"
#include "util/string_util.h"

namespace bloomtable {
namespace db_bench {
namespace {

// Values depend on this constant only, not on --seed, so that a store filled
// once can be read by runs with other seeds (--use_existing_db).
constexpr uint64_t kValueSeed = 301;

// Written into each configuration's directory after a fill, and checked by
// --use_existing_db.
constexpr char kMetaFileName[] = "db_bench_meta.json";

nlohmann::json DataIdentity(const BenchPlan& plan, const ConfigPlan& config) {
  const PlanFlags& flags = plan.flags;
  return {
      {"engine", config.engine},
      {"filter", config.filter},
      {"bloom_bits", config.bloom_bits},
      {"filter_layout", config.filter_layout},
      {"scan_filter", config.scan_filter},
      {"num", plan.num},
      {"key_size", flags.key_size},
      {"key_scheme", flags.key_scheme},
      {"key_stride", flags.key_stride},
      {"value_size", flags.value_size},
      {"compression_ratio", flags.compression_ratio},
      {"block_size", flags.block_size},
      {"index_block_restart_interval",
       config.engine_options.bloomtable_index_block_restart_interval},
      {"compression_type", flags.compression_type},
  };
}

absl::Status CheckMeta(const std::string& dir, const nlohmann::json& identity) {
  const std::string path = dir + "/" + kMetaFileName;
  std::ifstream in(path);
  if (!in) {
    return absl::NotFoundError(
        absl::StrCat(path,
                     " is missing: fill this store first (run without "
                     "--use_existing_db)"));
  }
  const nlohmann::json stored = nlohmann::json::parse(in, nullptr, false);
  if (stored.is_discarded()) {
    return absl::DataLossError(absl::StrCat(path, " is not JSON"));
  }
  for (const auto& [key, value] : identity.items()) {
    if (!stored.contains(key) || stored[key] != value) {
      return absl::FailedPreconditionError(absl::StrCat(
          dir, " was filled with ", key, "=",
          stored.contains(key) ? stored[key].dump() : "?", ", not ",
          value.dump(), ": fill it again (run without --use_existing_db)"));
    }
  }
  return absl::OkStatus();
}

void PrintHeader(const BenchPlan& plan, const std::string& dir,
                 bool temporary) {
  const PlanFlags& flags = plan.flags;
  const double raw_mb = (flags.key_size + flags.value_size) *
                        static_cast<double>(plan.num) / 1048576.0;
  const double file_mb =
      (flags.key_size + flags.value_size * flags.compression_ratio) *
      static_cast<double>(plan.num) / 1048576.0;
  std::printf("db_bench (bloomtable) %s\n", BLOOMTABLE_VERSION);
  std::printf("CPU:        %s\n", CpuDescription().c_str());
  std::printf(
      "Keys:       %d bytes each (decimal numbers; tables hold the "
      "even ones)\n",
      flags.key_size);
  std::printf(
      "Values:     %d bytes each (%d bytes after compression)\n",
      flags.value_size,
      static_cast<int>(flags.value_size * flags.compression_ratio + 0.5));
  std::printf("Entries:    %llu\n", static_cast<unsigned long long>(plan.num));
  std::printf("Reads:      %llu per thread, %d thread%s\n",
              static_cast<unsigned long long>(plan.reads), plan.flags.threads,
              plan.flags.threads == 1 ? "" : "s");
  std::printf("RawSize:    %.1f MB (estimated)\n", raw_mb);
  std::printf("FileSize:   %.1f MB (estimated)\n", file_mb);
  std::printf("Tables:     block %d bytes, %s; block cache %s\n",
              flags.block_size, flags.compression_type.c_str(),
              CacheSizeLabel(plan.cache_size).c_str());
  std::printf("Engines:    %s\n", absl::StrJoin(plan.engines, ", ").c_str());
  std::printf("Directory:  %s%s\n", dir.c_str(),
              temporary ? " (temporary, removed at exit)" : "");
#ifndef NDEBUG
  std::printf(
      "WARNING: assertions are enabled; benchmarks unnecessarily "
      "slow (build with CMAKE_BUILD_TYPE=Release)\n");
#endif
  std::printf("------------------------------------------------\n");
  std::fflush(stdout);
}

// What the stats benchmark prints: the engine's files and its counters since
// it was opened.
std::string StatsText(const Engine& engine) {
  const absl::StatusOr<StorageSummary> storage = engine.Storage();
  const EngineCounters c = engine.Counters();
  return absl::StrFormat(
      "%s: %s; since open: %d file reads (%d bytes), %d filter checks (%d "
      "negatives), %d block cache hits, %d misses",
      engine.name(),
      storage.ok() ? storage->shape : storage.status().ToString(), c.file_reads,
      c.file_bytes_read, c.filter_checks, c.filter_negatives,
      c.block_cache_hits, c.block_cache_misses);
}

// The engine's files per level now (StorageSummary::shape); empty if
// Storage() fails.
std::string FilesPerLevel(const Engine& engine) {
  absl::StatusOr<StorageSummary> storage = engine.Storage();
  return storage.ok() ? storage->shape : std::string();
}

// Runs the plan's benchmarks on one configuration.
void RunConfig(const BenchPlan& plan, const ConfigPlan& config_plan,
               const KeyGenerator& keys, const ValueGenerator& values,
               ConfigReport* report) {
  Engine* engine = nullptr;
  EngineOptions options = config_plan.engine_options;
  options.dir = report->dir;
  std::unique_ptr<Engine> owned = NewEngine(config_plan.engine, options);
  engine = owned.get();
  if (engine == nullptr) {
    report->error = "engine not built";
    return;
  }
  std::printf("--- %s (%s level, %s) %s%s, block cache %s: %s\n",
              config_plan.engine.c_str(), config_plan.level.c_str(),
              config_plan.io.c_str(), report->FilterLabel().c_str(),
              config_plan.filter_layout.empty()
                  ? ""
                  : absl::StrCat(" (", config_plan.filter_layout, ")").c_str(),
              CacheSizeLabel(report->cache_size).c_str(), report->dir.c_str());
  std::fflush(stdout);

  const nlohmann::json identity = DataIdentity(plan, config_plan);
  // A store filled above (at another cache size) is opened like an existing
  // one.
  const bool existing = plan.flags.use_existing_db || config_plan.reuses_store;
  bool have_data = false;
  if (existing) {
    absl::Status status = CheckMeta(report->dir, identity);
    if (status.ok()) status = engine->OpenExisting();
    if (!status.ok()) {
      report->error = status.ToString();
      std::printf("skipped: %s\n", report->error.c_str());
      return;
    }
    have_data = true;
    report->keys_written = plan.num;
  }

  RunOptions run_options;
  run_options.keys = &keys;
  run_options.values = &values;
  run_options.reads = plan.reads;
  run_options.seed = plan.flags.seed;
  run_options.min_seconds = plan.flags.min_seconds;
  run_options.seek_nexts = static_cast<uint64_t>(plan.flags.seek_nexts);
  run_options.warm_up = plan.flags.warm_up;
  run_options.scan_length = static_cast<uint64_t>(plan.flags.scan_length);
  run_options.threads = plan.flags.threads;
  run_options.label = report->Label();

  for (BenchmarkKind kind : plan.benchmarks) {
    if (kind == BenchmarkKind::kReadPinned && !engine->HasPinnedGet()) {
      std::printf("%-12s : skipped (%s has no zero-copy Get)\n",
                  BenchmarkName(kind), engine->name().c_str());
      continue;
    }
    if (IsFill(kind)) {
      if (existing) {
        std::printf("%-12s : skipped (%s)\n", BenchmarkName(kind),
                    plan.flags.use_existing_db
                        ? "--use_existing_db"
                        : "the store filled above, reopened");
        continue;
      }
      absl::StatusOr<BenchmarkResult> result =
          RunFill(kind, run_options, engine);
      absl::Status status = result.status();
      if (status.ok())
        status = WriteJson(identity, report->dir + "/" + kMetaFileName);
      if (!status.ok()) {
        report->error =
            absl::StrCat(BenchmarkName(kind), ": ", status.ToString());
        std::printf("%-12s : FAILED %s\n", BenchmarkName(kind),
                    status.ToString().c_str());
        return;
      }
      have_data = true;
      report->keys_written = plan.num;
      report->storage.reset();
      std::printf("%s\n", BenchmarkLine(*result).c_str());
      report->results.push_back(*std::move(result));
    } else if (kind == BenchmarkKind::kStats) {
      BenchmarkResult result;
      result.kind = kind;
      result.stats_text = have_data ? StatsText(*engine) : "(no data)";
      std::printf("stats        :\n%s\n", result.stats_text.c_str());
      report->results.push_back(std::move(result));
    } else {
      const std::string files_before = FilesPerLevel(*engine);
      absl::StatusOr<BenchmarkResult> result =
          RunRead(kind, run_options, engine);
      if (!result.ok()) {
        report->error =
            absl::StrCat(BenchmarkName(kind), ": ", result.status().ToString());
        return;
      }
      result->memory = engine->Memory();
      result->files_before = files_before;
      result->files_after = FilesPerLevel(*engine);
      std::printf("%s\n", BenchmarkLine(*result).c_str());
      report->results.push_back(*std::move(result));
    }
    std::fflush(stdout);
    if (have_data && !report->storage) {
      absl::StatusOr<StorageSummary> storage = engine->Storage();
      if (storage.ok()) {
        report->storage = *storage;
        std::printf(
            "%-12s : %s, %.1f MB in %llu files%s\n", "storage",
            storage->shape.c_str(), storage->table_bytes / 1048576.0,
            static_cast<unsigned long long>(storage->table_files),
            report->FilterBitsPerKey() && config_plan.filter != "none"
                ? absl::StrFormat(
                      ", filter %.2f bits/key stored%s",
                      *report->FilterBitsPerKey(),
                      config_plan.target_stored_bits > 0
                          ? absl::StrFormat(" (target %g)",
                                            config_plan.target_stored_bits)
                          : "")
                      .c_str()
                : "");
      } else {
        std::printf("%-12s : unknown (%s)\n", "storage",
                    storage.status().ToString().c_str());
      }
    }
  }
}

}  // namespace

namespace {

// Attempts at each run before the machine is declared too busy.
constexpr int kMaxAttempts = 3;

// The store groups of the plan: [begin, end) ranges of configurations that
// share a store (the first fills it, the others reopen it).
std::vector<std::pair<size_t, size_t>> StoreGroups(const BenchPlan& plan) {
  std::vector<std::pair<size_t, size_t>> groups;
  for (size_t c = 0; c < plan.configs.size(); ++c) {
    if (c == 0 || !plan.configs[c].reuses_store) groups.push_back({c, c});
    groups.back().second = c + 1;
  }
  return groups;
}

// One pass over every configuration, the store groups in `order`; the
// reports in the plan's configuration order.
std::vector<ConfigReport> RunOnce(const BenchPlan& plan,
                                  const std::vector<size_t>& order,
                                  const std::string& dir, bool temporary,
                                  const KeyGenerator& keys,
                                  const ValueGenerator& values) {
  const std::vector<std::pair<size_t, size_t>> groups = StoreGroups(plan);
  std::vector<ConfigReport> reports(plan.configs.size());
  for (size_t g : order) {
    for (size_t c = groups[g].first; c < groups[g].second; ++c) {
      const ConfigPlan& config_plan = plan.configs[c];
      ConfigReport& report = reports[c];
      report.cache_size = config_plan.engine_options.cache_size;
      report.engine = config_plan.engine;
      report.level = config_plan.level;
      report.io = config_plan.io;
      report.filter = config_plan.filter;
      report.bloom_bits = config_plan.bloom_bits;
      report.filter_layout = config_plan.filter_layout;
      if (EngineFamily(config_plan.engine) == "bloomtable") {
        report.index_block_restart_interval =
            config_plan.engine_options.bloomtable_index_block_restart_interval;
      }
      report.scan_filter = config_plan.scan_filter;
      report.target_stored_bits = config_plan.target_stored_bits;
      report.dir = dir + "/" + config_plan.dir_name;
      RunConfig(plan, config_plan, keys, values, &report);
    }
    if (temporary) {
      // Free the disk before the next engine writes its copy.
      RemoveDirectory(dir + "/" + plan.configs[groups[g].first].dir_name)
          .IgnoreError();
    }
  }
  return reports;
}

}  // namespace

absl::Status RunPlan(const BenchPlan& plan_as_given,
                     std::vector<ConfigReport>* configs,
                     std::vector<std::string>* notes, nlohmann::json* runs) {
  *notes = plan_as_given.notes;
  std::string dir = plan_as_given.flags.db;
  const bool temporary = dir.empty();
  if (temporary) {
    absl::StatusOr<std::string> temp = MakeTempDirectory("db_bench-");
    if (!temp.ok()) return temp.status();
    dir = *temp;
  } else {
    absl::Status status = CreateDirectories(dir);
    if (!status.ok()) return status;
  }
  PrintHeader(plan_as_given, dir, temporary);
  BenchPlan plan = plan_as_given;
  if (!plan.stored_bits.empty()) {
    absl::Status status =
        CalibrateStoredBits(plan.flags, dir + "/calibration", &plan);
    if (!status.ok()) {
      if (temporary) RemoveDirectory(dir).IgnoreError();
      return status;
    }
  }

  const KeyGenerator keys(plan.flags.key_size, plan.num, plan.key_scheme);
  const ValueGenerator values(plan.flags.value_size,
                              plan.flags.compression_ratio, kValueSeed);
  const size_t groups = StoreGroups(plan).size();
  const int repeats = plan.flags.repeats;
  std::vector<std::vector<ConfigReport>> accepted;
  *runs = nlohmann::json::array();
  absl::Status status;
  for (int run = 0; run < repeats && status.ok(); ++run) {
    const std::vector<size_t> order = RotatedOrder(groups, run, repeats);
    for (int attempt = 1;; ++attempt) {
      if (repeats > 1) {
        std::printf(
            "=== run %d of %d%s, starting with store %zu of %zu\n", run + 1,
            repeats,
            attempt > 1 ? absl::StrCat(", attempt ", attempt).c_str() : "",
            order.front() + 1, groups);
      }
      const CpuSnapshot start = TakeCpuSnapshot();
      std::vector<ConfigReport> reports =
          RunOnce(plan, order, dir, temporary, keys, values);
      const CpuSnapshot end = TakeCpuSnapshot();
      const ForeignLoad load = ForeignLoadBetween(start, end);
      const bool rejected = TooBusy(load, plan.flags.max_foreign_cpu);
      nlohmann::json record;
      record["run"] = run + 1;
      record["attempt"] = attempt;
      record["first_store"] = order.front() + 1;
      record["seconds"] =
          std::chrono::duration<double>(end.wall - start.wall).count();
      record["start"] = SnapshotJson(start);
      record["end"] = SnapshotJson(end);
      record["foreign_cpus"] =
          load.cpus ? nlohmann::json(*load.cpus) : nlohmann::json(nullptr);
      record["steal_fraction"] = load.steal_fraction
                                     ? nlohmann::json(*load.steal_fraction)
                                     : nlohmann::json(nullptr);
      record["accepted"] = !rejected;
      runs->push_back(record);
      if (!rejected) {
        accepted.push_back(std::move(reports));
        break;
      }
      std::printf(
          "=== run %d rejected: other processes and steal took %.2f CPUs "
          "(--max_foreign_cpu=%g)\n",
          run + 1, *load.cpus, plan.flags.max_foreign_cpu);
      if (attempt == kMaxAttempts) {
        status = absl::UnavailableError(absl::StrFormat(
            "run %d was rejected %d times: the machine is busy (other "
            "processes and steal took %.2f CPUs, more than "
            "--max_foreign_cpu=%g)",
            run + 1, kMaxAttempts, *load.cpus, plan.flags.max_foreign_cpu));
        break;
      }
    }
  }
  if (temporary) RemoveDirectory(dir).IgnoreError();
  if (!status.ok()) return status;
  *configs = MergeRuns(accepted);
  if (repeats > 1) {
    notes->push_back(absl::StrFormat(
        "Each timing figure is the median of %d runs (the range: min-max), "
        "each filling every store again, visiting the stores in rotated "
        "orders.",
        repeats));
  }
  return absl::OkStatus();
}

}  // namespace db_bench
}  // namespace bloomtable
