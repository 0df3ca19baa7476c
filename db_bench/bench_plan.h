// BenchPlan is a checked db_bench invocation: the flags turned into the list
// of engine configurations to build and the benchmarks to run on each.
// MakePlan rejects bad flags and bad combinations (InvalidArgument with a
// message naming the flag) before anything is built.

#ifndef BLOOMTABLE_DB_BENCH_BENCH_PLAN_H_
#define BLOOMTABLE_DB_BENCH_BENCH_PLAN_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "db_bench/benchmark_runner.h"
#include "db_bench/engine.h"
#include "db_bench/report.h"
#include "nlohmann/json.hpp"

namespace bloomtable {
namespace db_bench {

// The flags as given (see db_bench.cc for their meaning).
struct PlanFlags {
  std::string benchmarks;
  int64_t num = 0;
  int64_t reads = -1;
  int32_t key_size = 16;
  int32_t value_size = 100;
  double compression_ratio = 0.5;
  int32_t block_size = 4096;
  std::string compression_type;
  std::string bloom_bits;
  bool compare_no_filter = true;
  std::string filter;
  std::string filter_layout;
  int64_t cache_size = 0;
  int32_t threads = 1;
  uint64_t seed = 0;
  std::string db;
  bool use_existing_db = false;
  bool histogram = false;
  int32_t tables = 1;
  int64_t io_latency_us = 0;
  std::string engines;
  bool verify_checksum = true;
};

// One engine with one filter setting.
struct ConfigPlan {
  std::string engine;         // bloomtable, bloomtable_single, leveldb, rocksdb
  std::string filter;         // registry name, rocksdb_bloom, ..., or none
  double bloom_bits = 0;      // 0 for none
  std::string filter_layout;  // per_block / whole_table; empty for none
  // Everything but `dir`, which the driver sets.
  EngineOptions engine_options;
  // The subdirectory of --db that holds this configuration's files.
  std::string dir_name;
};

struct BenchPlan {
  PlanFlags flags;
  std::vector<BenchmarkKind> benchmarks;
  uint64_t num = 0;
  uint64_t reads = 0;
  std::vector<std::string> engines;
  std::vector<ConfigPlan> configs;
  // What the reader of the results must know (engine limits, definitions).
  std::vector<std::string> notes;
};

// The engines this binary was built with, in default order.
std::vector<std::string> BuiltEngines();

absl::StatusOr<BenchPlan> MakePlan(const PlanFlags& flags);

// The settings block of the JSON report.
nlohmann::json PlanSettingsJson(const BenchPlan& plan);

// Runs every configuration of the plan, printing progress lines and one
// LevelDB-style line per benchmark, and appends a report per configuration.
// A configuration that fails records its error and the run goes on; only a
// failure to set up the run at all is returned.
absl::Status RunPlan(const BenchPlan& plan, std::vector<ConfigReport>* configs,
                     std::vector<std::string>* notes);

}  // namespace db_bench
}  // namespace bloomtable

#endif  // BLOOMTABLE_DB_BENCH_BENCH_PLAN_H_
