// db_bench: read benchmarks of bloomtable's tables beside a real LevelDB and
// a real RocksDB, in one run, each row at table or db level on a stated I/O
// path (README's Benchmarks section). Flags keep the names of LevelDB's and
// RocksDB's db_bench where they exist; MakePlan (bench_plan.h) turns them
// into the configurations to run, RunPlan runs them, and --json keeps every
// result for bench/report.py. Never install this binary as "db_bench":
// RocksDB's rocksdb-tools owns /usr/bin/db_bench.

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/flags/usage_config.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "db_bench/bench_plan.h"
#include "db_bench/benchmark_runner.h"
#include "db_bench/directory.h"
#include "db_bench/engine.h"
#include "db_bench/filter_registry.h"
#include "db_bench/machine.h"
#include "db_bench/peers.h"
#include "db_bench/report.h"

ABSL_FLAG(std::string, benchmarks,
          "fillrandom,readrandom,readmissing,readnearmiss,readunrelated",
          "Comma-separated list run in order for every engine and filter: "
          "fillseq, fillrandom, readrandom, readmissing, readnearmiss, "
          "readunrelated, readseq, seekrandom, scanmissing, scanshort, "
          "readpinned (present keys through the engine's zero-copy Get, where "
          "it has one), stats.");
ABSL_FLAG(int64_t, num, 1000000, "Number of key/value pairs in the store.");
ABSL_FLAG(int64_t, reads, -1,
          "Operations per thread in each read benchmark (-1: --num).");
ABSL_FLAG(int32_t, key_size, 16,
          "Key width: decimal numbers zero-padded to this many digits.");
ABSL_FLAG(int32_t, value_size, 100, "Bytes per value.");
ABSL_FLAG(double, compression_ratio, 0.5,
          "Values compress to about this fraction of their size.");
ABSL_FLAG(int32_t, block_size, 4096, "Data block size in bytes.");
ABSL_FLAG(std::string, compression_type, "snappy", "snappy or none.");
ABSL_FLAG(std::string, bloom_bits, "",
          "Filter bits per key (comma list; 0: no filter). Unset: 10, every "
          "filter calibrated to 10 stored bits per key (--stored_bits=auto).");
ABSL_FLAG(bool, compare_no_filter, true,
          "Also run every engine without a filter.");
ABSL_FLAG(std::string, filter, "leveldb_bloom,cache_local_bloom,ribbon",
          "bloomtable's filter policies (comma list; --helpfull lists them), "
          "for bloomtable and leveldb+bloomtable.");
ABSL_FLAG(std::string, filter_layout, "auto",
          "per_block, whole_table, partitioned, or auto (per_block where the "
          "policy allows); a comma list runs each.");
ABSL_FLAG(int32_t, index_block_restart_interval, 0,
          "bloomtable's index block restart interval (0: 1 for the per-block "
          "layout and no filter, 16 otherwise).");
ABSL_FLAG(std::string, cache_size, "8388608",
          "Block cache bytes of every engine (K, M, G allowed).");
ABSL_FLAG(int32_t, threads, 1, "Threads per read benchmark.");
ABSL_FLAG(uint64_t, seed, 301, "Seed of the write order and of the read keys.");
ABSL_FLAG(std::string, db, "",
          "Directory for the engines' files, kept after the run (default: a "
          "temporary directory).");
ABSL_FLAG(bool, list_engines, false,
          "Print the engines built (those left out, and why, to stderr).");
ABSL_FLAG(bool, use_existing_db, false,
          "Skip fills and read what an earlier run with the same --db and "
          "data flags left.");
ABSL_FLAG(std::string, leveldb_source, "as_written",
          "The LevelDB directory bloomtable_db and leveldb_dir read: "
          "as_written or compacted (README).");
ABSL_FLAG(std::string, rocksdb_filters, "bloom,ribbon",
          "RocksDB's filters that its engines run: bloom, ribbon or both.");
ABSL_FLAG(int32_t, leveldb_source_bloom_bits, 10,
          "LevelDB's Bloom bits per key in that directory, as a writer "
          "chooses them (not calibrated by --stored_bits; 0: no filter).");
ABSL_FLAG(std::string, engines, "",
          "Comma-separated engines (default: every engine built; "
          "--list_engines names them, README says what each calls).");
ABSL_FLAG(std::string, io, "pread", "pread, mmap, or both (pread,mmap).");
ABSL_FLAG(std::string, stored_bits, "auto",
          "Target filter bits per key as stored (comma list), calibrated "
          "before the run in place of --bloom_bits; auto: 10 unless "
          "--bloom_bits is given.");
ABSL_FLAG(int32_t, repeats, 1,
          "Runs of the whole plan, the engines' order rotated; each figure "
          "is then the median, with its range.");
ABSL_FLAG(double, min_seconds, 0,
          "Point lookups and seeks go round their keys again until they have "
          "run this long.");
ABSL_FLAG(double, max_foreign_cpu, -1,
          "Retake a run in which other processes and CPU steal took more "
          "than this many CPUs (< 0: never).");
ABSL_FLAG(std::string, key_scheme, "decimal",
          "decimal (entry j is 2j), strided (j * --key_stride) or random64 "
          "(sorted random 64-bit numbers, 8 bytes big-endian).");
ABSL_FLAG(int64_t, key_stride, 128, "Distance between strided keys' numbers.");
ABSL_FLAG(int64_t, seek_nexts, 0, "seekrandom: Next calls after each Seek.");
ABSL_FLAG(bool, warm_up, false,
          "Point lookups (readrandom, readpinned, the absent-key streams): "
          "one untimed pass over each thread's keys before the clock starts, "
          "so that a block cache holding the data serves every timed lookup.");
ABSL_FLAG(int64_t, scan_length, 64,
          "scanmissing, scanshort: consecutive key numbers per scanned range.");
ABSL_FLAG(std::string, scan_filters, "none",
          "Comma list of none, prefix (--prefix_length bytes) and range "
          "(--range_bits): one store each.");
ABSL_FLAG(int64_t, prefix_length, 0,
          "Bytes of the fixed-length prefix of --scan_filters=prefix.");
ABSL_FLAG(double, range_bits, 16,
          "Bits per key of --scan_filters=range's range filter.");
ABSL_FLAG(bool, verify_checksum, true,
          "Verify the checksum of every data block read, in every engine.");
ABSL_FLAG(std::string, json, "", "Write every result to this JSON file.");

namespace bloomtable {
namespace db_bench {
namespace {

// Exit statuses: 0 success; 1 a benchmark failed or found wrong answers;
// 2 a usage error.
constexpr int kExitFailure = 1;
constexpr int kExitUsage = 2;

int UsageError(const absl::Status& status) {
  std::fprintf(stderr, "db_bench: %s\n", std::string(status.message()).c_str());
  return kExitUsage;
}

absl::StatusOr<PlanFlags> ReadFlags() {
  PlanFlags flags;
  flags.benchmarks = absl::GetFlag(FLAGS_benchmarks);
  flags.num = absl::GetFlag(FLAGS_num);
  flags.reads = absl::GetFlag(FLAGS_reads);
  flags.key_size = absl::GetFlag(FLAGS_key_size);
  flags.value_size = absl::GetFlag(FLAGS_value_size);
  flags.compression_ratio = absl::GetFlag(FLAGS_compression_ratio);
  flags.block_size = absl::GetFlag(FLAGS_block_size);
  flags.index_block_restart_interval =
      absl::GetFlag(FLAGS_index_block_restart_interval);
  flags.compression_type = absl::GetFlag(FLAGS_compression_type);
  flags.bloom_bits = absl::GetFlag(FLAGS_bloom_bits);
  flags.compare_no_filter = absl::GetFlag(FLAGS_compare_no_filter);
  flags.filter = absl::GetFlag(FLAGS_filter);
  flags.filter_layout = absl::GetFlag(FLAGS_filter_layout);
  flags.cache_size = absl::GetFlag(FLAGS_cache_size);
  flags.threads = absl::GetFlag(FLAGS_threads);
  flags.seed = absl::GetFlag(FLAGS_seed);
  flags.db = absl::GetFlag(FLAGS_db);
  flags.use_existing_db = absl::GetFlag(FLAGS_use_existing_db);
  flags.leveldb_source = absl::GetFlag(FLAGS_leveldb_source);
  flags.rocksdb_filters = absl::GetFlag(FLAGS_rocksdb_filters);
  flags.leveldb_source_bloom_bits =
      absl::GetFlag(FLAGS_leveldb_source_bloom_bits);
  flags.engines = absl::GetFlag(FLAGS_engines);
  flags.verify_checksum = absl::GetFlag(FLAGS_verify_checksum);
  flags.io = absl::GetFlag(FLAGS_io);
  flags.stored_bits = absl::GetFlag(FLAGS_stored_bits);
  flags.repeats = absl::GetFlag(FLAGS_repeats);
  flags.min_seconds = absl::GetFlag(FLAGS_min_seconds);
  flags.max_foreign_cpu = absl::GetFlag(FLAGS_max_foreign_cpu);
  flags.key_scheme = absl::GetFlag(FLAGS_key_scheme);
  flags.key_stride = absl::GetFlag(FLAGS_key_stride);
  flags.seek_nexts = absl::GetFlag(FLAGS_seek_nexts);
  flags.warm_up = absl::GetFlag(FLAGS_warm_up);
  flags.scan_length = absl::GetFlag(FLAGS_scan_length);
  flags.scan_filters = absl::GetFlag(FLAGS_scan_filters);
  flags.prefix_length = absl::GetFlag(FLAGS_prefix_length);
  flags.range_bits = absl::GetFlag(FLAGS_range_bits);
  return flags;
}

int Main(int argc, char** argv) {
  absl::SetProgramUsageMessage(absl::StrCat(
      "Read benchmarks of bloomtable's tables beside LevelDB and RocksDB.\n"
      "Usage: db_bench [--flags]   (from the build tree; --helpfull lists "
      "flags)\nKnown --filter names: ",
      FilterNames()));
  absl::FlagsUsageConfig usage_config;
  usage_config.version_string = [] {
    return absl::StrCat("db_bench (bloomtable) ", BLOOMTABLE_VERSION, "\n");
  };
  absl::SetFlagsUsageConfig(usage_config);
  std::vector<char*> positional = absl::ParseCommandLine(argc, argv);
  if (positional.size() > 1) {
    return UsageError(absl::InvalidArgumentError(
        absl::StrCat("unexpected argument '", positional[1], "'")));
  }
  if (absl::GetFlag(FLAGS_list_engines)) {
    for (const EngineEntry& entry : EngineRegistry()) {
      if (entry.make != nullptr) {
        std::printf("%s\n", entry.name.c_str());
      } else {
        std::fprintf(stderr, "%s left out: %s\n", entry.name.c_str(),
                     entry.left_out.c_str());
      }
    }
    return 0;
  }

  absl::StatusOr<PlanFlags> flags = ReadFlags();
  if (!flags.ok()) return UsageError(flags.status());
  absl::StatusOr<BenchPlan> plan = MakePlan(*flags);
  if (!plan.ok()) return UsageError(plan.status());

  std::vector<ConfigReport> configs;
  std::vector<std::string> notes;
  nlohmann::json runs;
  const CpuSnapshot start = TakeCpuSnapshot();
  absl::Status status = RunPlan(*plan, &configs, &notes, &runs);
  if (!status.ok()) {
    std::fprintf(stderr, "db_bench: %s\n", status.ToString().c_str());
    return kExitFailure;
  }

  std::printf("\n%s", ComparisonTable(configs).c_str());
  const std::string memory_table = MemoryTable(configs);
  if (!memory_table.empty()) {
    std::printf(
        "\nMemory held for the tables (after the last read "
        "benchmark)\n%s",
        memory_table.c_str());
  }
  for (const std::string& note : notes) std::printf("Note: %s\n", note.c_str());
  std::printf("%s\n", PeersSummary().c_str());
  const std::vector<std::string> problems = CorrectnessProblems(configs);
  for (const std::string& problem : problems) {
    std::printf("PROBLEM: %s\n", problem.c_str());
  }
  std::fflush(stdout);

  nlohmann::json settings = PlanSettingsJson(*plan);
  settings["command_line"] = CommandLine(argc, argv);
  nlohmann::json report = ReportJson(settings, notes, configs);
  report["machine"] = MachineJson();
  report["peers"] = PeersJson();
  report["load"] = {{"start", SnapshotJson(start)},
                    {"end", SnapshotJson(TakeCpuSnapshot())}};
  report["runs"] = runs;
  int exit_status = problems.empty() ? 0 : kExitFailure;
  if (!absl::GetFlag(FLAGS_json).empty()) {
    status = WriteJson(report, absl::GetFlag(FLAGS_json));
    if (!status.ok()) {
      std::fprintf(stderr, "db_bench: %s\n", status.ToString().c_str());
      exit_status = kExitFailure;
    }
  }
  return exit_status;
}

}  // namespace
}  // namespace db_bench
}  // namespace bloomtable

int main(int argc, char** argv) {
  return bloomtable::db_bench::Main(argc, argv);
}
