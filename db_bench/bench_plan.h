// BenchPlan is a checked db_bench invocation: the flags turned into the list
// of engine configurations to build and the benchmarks to run on each.
// MakePlan rejects bad flags and bad combinations (InvalidArgument with a
// message naming the flag) before anything is built.
//
// Every engine/filter combination is filled once; with several --cache_size
// values it is then reopened with each cache in turn (cold) and read again,
// and with several --threads values each read benchmark runs once per
// value.

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
  // Comma lists: each value runs separately.
  std::string cache_size;
  std::string threads;
  int64_t batch_size = 1;
  uint64_t seed = 0;
  std::string db;
  bool use_existing_db = false;
  bool histogram = false;
  int32_t tables = 1;
  int64_t io_latency_us = 0;
  std::string engines;
  bool verify_checksum = true;
};

// One engine with one filter setting and one block-cache size.
struct ConfigPlan {
  // bloomtable, bloomtable_single, leveldb, leveldb+bloomtable, rocksdb
  std::string engine;
  std::string filter;         // registry name, rocksdb_bloom, ..., or none
  double bloom_bits = 0;      // 0 for none
  std::string filter_layout;  // per_block / whole_table; empty for none
  // Everything but `dir`, which the driver sets.
  EngineOptions engine_options;
  // The subdirectory of --db that holds this configuration's files.
  std::string dir_name;
  // True if the configuration before this one (the same store at another
  // --cache_size) fills dir_name: this one skips fills and reopens it.
  bool reuses_store = false;
};

struct BenchPlan {
  PlanFlags flags;
  std::vector<BenchmarkKind> benchmarks;
  uint64_t num = 0;
  uint64_t reads = 0;
  // --cache_size and --threads values, in the order given.
  std::vector<uint64_t> cache_sizes;
  std::vector<int> threads;
  std::vector<std::string> engines;
  std::vector<ConfigPlan> configs;
  // What the reader of the results must know (engine limits, definitions).
  std::vector<std::string> notes;
};

// True for the engines that are a leveldb::DB (always fully compacted:
// --tables does not apply).
bool IsLevelDBEngine(const std::string& engine);

// The engines this binary was built with, in default order.
std::vector<std::string> BuiltEngines();

absl::StatusOr<BenchPlan> MakePlan(const PlanFlags& flags);

// Parses a --cache_size list: bytes, each optionally with a binary suffix K,
// M or G (KB/KiB... alike), e.g. "8388608,64M".
absl::StatusOr<std::vector<uint64_t>> ParseCacheSizes(const std::string& list);

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
