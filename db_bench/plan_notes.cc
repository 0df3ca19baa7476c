// The notes of a plan (AddPlanNotes) and its settings block of the JSON
// report (PlanSettingsJson): what the reader of a run's results must know
// beyond README.

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "db_bench/bench_plan.h"
#include "db_bench/filter_budget.h"

namespace bloomtable {
namespace db_bench {

void AddPlanNotes(const std::vector<std::string>& not_adaptable,
                  BenchPlan* plan) {
  const PlanFlags& flags = plan->flags;
  plan->notes.push_back(
      "Each row's 'call' says what one lookup calls; README's Benchmarks "
      "section defines the levels, I/O paths and counters (reads/op: "
      "table-file reads through the engine's file wrapper; FP %: filter "
      "'maybe' answers over filter queries for absent keys; cache hit %: "
      "data-block lookups the block cache served; p50/p99: one lookup in 16 "
      "timed alone).");
  // Which bloomtable row is which, where both configurations run.
  bool compatible = false;
  bool recommended = false;
  for (const ConfigPlan& config : plan->configs) {
    if (config.engine != "bloomtable") continue;
    const int restart =
        config.engine_options.bloomtable_index_block_restart_interval;
    compatible |= config.filter == "leveldb_bloom" &&
                  config.filter_layout == "per_block" && restart == 1;
    recommended |= config.filter == "ribbon" &&
                   config.filter_layout == "whole_table" && restart == 16;
  }
  if (compatible && recommended) {
    plan->notes.push_back(
        "bloomtable rows: 'leveldb_bloom' per_block (index restart interval "
        "1) is the LevelDB-compatible configuration, 'ribbon' whole_table "
        "(index restart interval 16) the one README recommends for tables "
        "only bloomtable reads.");
  }
  if (!plan->stored_bits.empty()) {
    plan->notes.push_back(absl::StrFormat(
        "--stored_bits: each filter's bits_per_key was calibrated so that "
        "tables of the first %d entries, built by the engine's own table "
        "builder, store the target; 'stored b/key' is what the run's tables "
        "store.",
        std::min<uint64_t>(plan->num, kCalibrationEntries)));
  }
  for (const std::string& name : not_adaptable) {
    plan->notes.push_back(absl::StrCat(
        "leveldb+bloomtable skips --filter=", name,
        ": the policy builds whole-table filters only, and LevelDB asks "
        "for one filter per 2 KiB of data blocks."));
  }
  if (flags.threads > 1) {
    plan->notes.push_back(
        "With --threads=N every thread looks up --reads keys of its own; "
        "ops/s = all threads' lookups / wall time; micros/op = each thread's "
        "loop time per lookup (LevelDB's definition).");
  }
  // The peers' engines this binary was built without, and why.
  for (const EngineEntry& entry : EngineRegistry()) {
    if (entry.make == nullptr && entry.family != "bloomtable") {
      plan->notes.push_back(
          absl::StrCat(entry.name, " left out: ", entry.left_out, "."));
    }
  }
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
  settings["cache_size"] = plan.cache_size;
  settings["threads"] = flags.threads;
  settings["seed"] = flags.seed;
  settings["leveldb_source"] = flags.leveldb_source;
  settings["use_existing_db"] = flags.use_existing_db;
  settings["verify_checksum"] = flags.verify_checksum;
  settings["io"] = plan.io_paths;
  settings["stored_bits"] = plan.stored_bits;
  settings["repeats"] = flags.repeats;
  settings["min_seconds"] = flags.min_seconds;
  settings["max_foreign_cpu"] = flags.max_foreign_cpu;
  settings["key_scheme"] = flags.key_scheme;
  settings["key_stride"] = flags.key_stride;
  settings["seek_nexts"] = flags.seek_nexts;
  settings["warm_up"] = flags.warm_up;
  settings["scan_length"] = flags.scan_length;
  settings["scan_filters"] = flags.scan_filters;
  settings["prefix_length"] = flags.prefix_length;
  settings["range_bits"] = flags.range_bits;
  return settings;
}

}  // namespace db_bench
}  // namespace bloomtable
