// BenchPlan is a checked db_bench invocation: the flags turned into the list
// of engine configurations to build and the benchmarks to run on each.
// MakePlan rejects bad flags and bad combinations (InvalidArgument with a
// message naming the flag) before anything is built.
//
// Every engine/filter combination is filled once; with both I/O paths it is
// then reopened with the other (cold) and read again.

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
  // 0: auto (IndexRestartInterval).
  int32_t index_block_restart_interval = 0;
  std::string compression_type;
  // Comma list; empty: 10 (MakePlan).
  std::string bloom_bits;
  bool compare_no_filter = true;
  std::string filter;
  std::string filter_layout;
  std::string cache_size;  // bytes, with K, M or G
  int32_t threads = 1;
  uint64_t seed = 0;
  std::string db;
  bool use_existing_db = false;
  // "as_written" or "compacted" (EngineOptions::leveldb_source_compacted).
  std::string leveldb_source = "as_written";
  // RocksDB's filters that its engines run, comma list of bloom and ribbon.
  std::string rocksdb_filters = "bloom,ribbon";
  // EngineOptions::leveldb_source_bloom_bits.
  int32_t leveldb_source_bloom_bits = 10;
  std::string engines;
  bool verify_checksum = true;
  // pread, mmap or both ("pread,mmap").
  std::string io = "pread";
  // Target stored filter bits per key (comma list); empty: use bloom_bits;
  // "auto": 10 if bloom_bits is empty, else empty.
  std::string stored_bits;
  int repeats = 1;
  double min_seconds = 0;
  std::string key_scheme = "decimal";
  int64_t key_stride = 128;
  int64_t seek_nexts = 0;
  bool warm_up = false;
  int64_t scan_length = 64;
  std::string scan_filters = "none";
  int64_t prefix_length = 0;
  double range_bits = 16;
  // Above this, a repeat is rejected and retaken (< 0: never).
  double max_foreign_cpu = -1;
};

// One engine with one filter setting and one I/O path.
struct ConfigPlan {
  std::string engine;
  std::string level;          // table or db
  std::string io;             // pread or mmap
  std::string filter;         // registry name, rocksdb_bloom, ..., or none
  double bloom_bits = 0;      // 0 for none
  std::string filter_layout;  // per_block / whole_table; empty for none
  // With --stored_bits: the stored bits per key that bloom_bits is
  // calibrated to reach (0: none).
  double target_stored_bits = 0;
  std::string scan_filter = "none";  // none, prefix or range
  // Everything but `dir`, which the driver sets.
  EngineOptions engine_options;
  // The subdirectory of --db that holds this configuration's files.
  std::string dir_name;
  // True if the configuration before this one (the same store on another
  // I/O path) fills dir_name: this one skips fills and reopens it.
  bool reuses_store = false;
};

struct BenchPlan {
  PlanFlags flags;
  std::vector<BenchmarkKind> benchmarks;
  uint64_t num = 0;
  uint64_t reads = 0;
  // The keys (flags.key_size is set to the scheme's width).
  KeySchemeOptions key_scheme;
  uint64_t cache_size = 0;
  // --io and --stored_bits values, in the order given.
  std::vector<std::string> io_paths;
  std::vector<double> stored_bits;
  std::vector<std::string> engines;
  std::vector<ConfigPlan> configs;
  // What the reader of the results must know (engine limits, definitions).
  std::vector<std::string> notes;
};

// True for the engines whose tables carry LevelDB's own Bloom filter
// (written by LevelDB, bloomtable_db's too).
bool UsesLevelDBBloom(const std::string& engine);

// True for the engines that read the shared LevelDB-written directory
// (leveldb_dir_source.h): its filter is the one its writer chose
// (--leveldb_source_bloom_bits), never calibrated.
bool ReadsLevelDBSource(const std::string& engine);

// "table" or "db" (engine.h says what each means).
std::string EngineLevel(const std::string& engine);

// The peer whose code `engine` runs: "bloomtable", "leveldb" or "rocksdb".
std::string EngineFamily(const std::string& engine);

// Sets the configuration's bits per key and makes its filter policy for it.
absl::Status ApplyFilterBits(double bits, ConfigPlan* config);

// The index block restart interval of a bloomtable store of filter layout
// `layout` ("" for none): `flag` where positive, else (auto) 1 for the
// per-block layout and no filter (LevelDB's layout) and 16 otherwise
// (README's recommended configuration).
int IndexRestartInterval(int flag, std::string_view layout);

// The engines this binary was built with, in default order.
std::vector<std::string> BuiltEngines();

absl::StatusOr<BenchPlan> MakePlan(const PlanFlags& flags);

// Parses --cache_size: bytes, optionally with a binary suffix K, M or G
// (KB/KiB... alike), e.g. "8388608" or "64M".
absl::StatusOr<uint64_t> ParseCacheSize(const std::string& text);

// Appends to plan->notes what the reader of the results must know about the
// plan's engines, benchmarks and flags; `not_adaptable` names the filters
// that leveldb+bloomtable skipped. (plan_notes.cc)
void AddPlanNotes(const std::vector<std::string>& not_adaptable,
                  BenchPlan* plan);

// Checks --key_scheme and --key_stride with --key_size and --num, and sets
// plan->key_scheme (and plan->flags.key_size to the scheme's width: 8 for
// random64); also checks --seek_nexts and --scan_length. (scan_plan.cc)
absl::Status ApplyKeyFlags(BenchPlan* plan);

// The --scan_filters list, checked: each of none, prefix (needs
// --prefix_length >= 1) and range (needs --range_bits in [4, 40]), each
// once. (scan_plan.cc)
absl::StatusOr<std::vector<std::string>> ParseScanFilters(
    const PlanFlags& flags);

// Sets config->engine_options for config->scan_filter: bloomtable's prefix
// extractor or range filter bits, or RocksDB's prefix length. (scan_plan.cc)
void ApplyScanFilter(const PlanFlags& flags, ConfigPlan* config);

// Appends to plan->notes what the plan's scan filters are. (scan_plan.cc)
void AddScanNotes(BenchPlan* plan);

// The settings block of the JSON report. (plan_notes.cc)
nlohmann::json PlanSettingsJson(const BenchPlan& plan);

// Runs every configuration of the plan --repeats times (the stores' order
// rotated between runs, a run retaken when the machine was busier than
// --max_foreign_cpu), printing one LevelDB-style line per benchmark, and
// sets one report per configuration (medians of the runs), the notes and a
// record of each run's load. A configuration that fails records its error;
// only a failure to set up the run, or a machine too busy for every
// attempt, is returned.
absl::Status RunPlan(const BenchPlan& plan, std::vector<ConfigReport>* configs,
                     std::vector<std::string>* notes, nlohmann::json* runs);

}  // namespace db_bench
}  // namespace bloomtable

#endif  // BLOOMTABLE_DB_BENCH_BENCH_PLAN_H_
