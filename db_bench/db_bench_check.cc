// db_bench_check, a test program (built with the tests only): reads db_bench
// --json files and checks that the numbers are consistent, for the smoke
// tests. Exit 0 if every check passes, 1 otherwise (each failure printed), 2
// on a usage error.
//
// Checks, per file:
//   - it parses, names at least one configuration, and reports no problems
//     (db_bench's own: false negatives, absent keys found, wrong values,
//     lookup errors) and no configuration errors;
//   - every read result reports a block-cache hit rate and what the engine
//     holds in memory (filter and index bytes per key where the engine can
//     tell; filter bytes only with a filter) and the cache's usage;
//   - every configuration says its level (table or db), its I/O path
//     (pread or mmap) and, with a filter, its stored filter bits per key;
//   - a configuration with a filter reports filter queries and a
//     false-positive rate in [0, 1] for absent keys, except
//     leveldb_table_iterator, whose lookups never ask the filter (zero
//     queries); rocksdb_table and rocksdb_sst_iterator ask it once per
//     lookup, leveldb_table at most once;
//   - per engine, cache size, thread count and absent-key benchmark,
//     table-file reads without a filter are at least those with one
//     (leveldb+bloomtable against plain LevelDB's). (Not for present keys: they
//     read the same data blocks either way, and a filter adds its own block
//     read when a table is opened, so with a filter they may read slightly
//     more. Nor for leveldb_table_iterator, which never asks its filter.)
//   - bloomtable without a block cache: for absent keys, file reads equal the
//     filter's "maybe" answers (no other reads);
//   - the report records each peer's version, origin, NDEBUG and CRC32C;
//   - the report names the machine and records the load average and CPU
//     time at the start and end of the invocation and of each run, with
//     --repeats accepted runs; with several, every timed result lists each
//     run's figures and their range.

#include <cstdio>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "nlohmann/json.hpp"

namespace {

class Checker {
 public:
  explicit Checker(std::string file) : file_(std::move(file)) {}

  void Expect(bool ok, const std::string& what) {
    ++checks_;
    if (!ok) {
      ++failures_;
      std::printf("FAIL %s: %s\n", file_.c_str(), what.c_str());
    }
  }

  int checks() const { return checks_; }
  int failures() const { return failures_; }

 private:
  const std::string file_;
  int checks_ = 0;
  int failures_ = 0;
};

bool IsAbsentKeyBenchmark(const std::string& name) {
  return name == "readmissing" || name == "readnearmiss" ||
         name == "readunrelated";
}

// The engine whose no-filter rows a configuration compares with.
std::string BaseEngine(const std::string& engine) {
  return engine == "leveldb+bloomtable" ? "leveldb" : engine;
}

double Number(const nlohmann::json& value) {
  return value.is_number() ? value.get<double>() : -1;
}

uint64_t U64(const nlohmann::json& value) {
  return value.is_number() ? value.get<uint64_t>() : 0;
}

void CheckReport(const nlohmann::json& report, Checker* check) {
  check->Expect(report.contains("configs") && report["configs"].is_array() &&
                    !report["configs"].empty(),
                "has configurations");
  if (!report.contains("configs") || !report["configs"].is_array()) return;
  check->Expect(report.value("problems", nlohmann::json::array()).empty(),
                "no problems reported: " +
                    report.value("problems", nlohmann::json()).dump());

  // "engine benchmark cache threads" -> reads_per_op of the no-filter run
  // and the others.
  std::map<std::string, double> without_filter;
  std::map<std::string, std::vector<double>> with_filter;
  const nlohmann::json settings =
      report.value("settings", nlohmann::json::object());
  const uint64_t repeats =
      settings.contains("repeats") ? U64(settings["repeats"]) : 1;
  check->Expect(report.contains("machine") && report["machine"].is_object() &&
                    report["machine"].contains("cpu"),
                "names the machine");
  check->Expect(report.contains("load") &&
                    report["load"]["start"]["load_average"].is_array() &&
                    report["load"]["end"]["load_average"].is_array(),
                "records the load average at start and end");
  // Every peer linked: its version, origin, NDEBUG and CRC32C.
  check->Expect(report.contains("peers") && report["peers"].is_object(),
                "records the peers it was linked with");
  const nlohmann::json peers = report.value("peers", nlohmann::json::object());
  for (const auto& [name, peer] : peers.items()) {
    check->Expect(
        peer.is_object() && peer.value("version", "") != "" &&
            (peer.value("origin", "") == "Debian package" ||
             peer.value("origin", "") == "release build from source") &&
            peer.contains("ndebug") &&
            (peer["ndebug"].is_boolean() || peer["ndebug"].is_null()) &&
            peer.value("ndebug_evidence", "") != "" &&
            peer.value("crc32c", "") != "",
        "peer " + name + ": version, origin, NDEBUG and CRC32C recorded");
  }
  uint64_t accepted = 0;
  for (const nlohmann::json& run :
       report.value("runs", nlohmann::json::array())) {
    check->Expect(run.contains("foreign_cpus") && run.contains("start") &&
                      run.contains("end"),
                  "each run records its load");
    if (run.value("accepted", false)) ++accepted;
  }
  check->Expect(accepted == repeats, std::to_string(repeats) +
                                         " accepted runs (" +
                                         std::to_string(accepted) + ")");

  for (const nlohmann::json& config : report["configs"]) {
    const std::string engine = config.value("engine", "?");
    const std::string filter = config.value("filter", "?");
    // A scan filter (prefix or range) holds bytes too.
    const bool any_filter =
        filter != "none" || config.value("scan_filter", "none") != "none";
    const std::string label = engine + " " + config.value("filter_label", "?");
    check->Expect(config["error"].is_null(),
                  label + ": no error (" + config["error"].dump() + ")");
    const std::string cache = std::to_string(U64(config["cache_size"]));
    const std::string level = config.value("level", "?");
    const std::string io = config.value("io", "?");
    check->Expect(
        level == (engine == "leveldb" || engine == "rocksdb" ||
                          engine == "leveldb+bloomtable" ||
                          engine == "bloomtable_db" ||
                          engine == "bloomtable_db+sidecars" ||
                          engine == "leveldb_dir" ||
                          engine == "rocksdb_readonly"
                      ? "db"
                      : "table"),
        label + ": level is table or db as the engine is (" + level + ")");
    check->Expect(io == "pread" || io == "mmap",
                  label + ": io is pread or mmap (" + io + ")");
    if (config["storage"].is_object()) {
      check->Expect(!any_filter ? config["stored_bits_per_key"].is_null()
                                : Number(config["stored_bits_per_key"]) > 0,
                    label + ": stored filter bits per key with a filter only");
    }
    for (const nlohmann::json& result :
         config.value("results", nlohmann::json::array())) {
      const std::string benchmark = result.value("benchmark", "?");
      const uint64_t threads = U64(result["threads"]);
      const std::string what = label + " cache " + cache + " " + benchmark +
                               " threads " + std::to_string(threads);
      if (repeats > 1 && result.contains("micros_per_op")) {
        check->Expect(result.contains("runs") && result["runs"].is_array() &&
                          result["runs"].size() == repeats &&
                          result.contains("range"),
                      what + ": every run's figures and their range");
      }
      if (!result.contains("found")) continue;  // fills, stats
      check->Expect(result["block_cache_hit_rate"].is_number() ||
                        U64(result["block_cache_hits"]) +
                                U64(result["block_cache_misses"]) ==
                            0,
                    what + ": reports its block-cache hit rate");
      const nlohmann::json& memory = result["memory"];
      check->Expect(memory.is_object(), what + ": reports memory");
      if (memory.is_object()) {
        const double filter_per_key = Number(memory["filter_bytes_per_key"]);
        const double index_per_key = Number(memory["index_bytes_per_key"]);
        check->Expect(index_per_key > 0, what + ": index bytes per key > 0");
        check->Expect(!any_filter ? filter_per_key == 0 : filter_per_key > 0,
                      what + ": filter bytes per key > 0 with a filter only");
        // Not "usage <= capacity": LevelDB's shards keep a block larger than
        // their share, and RocksDB charges metadata even at capacity 0.
        check->Expect(memory["block_cache_usage_bytes"].is_number() &&
                          U64(memory["block_cache_capacity_bytes"]) ==
                              U64(config["cache_size"]),
                      what + ": block cache usage and capacity reported");
      }
      // (Wrong answers, lookup errors and false negatives are db_bench's
      // own "problems", checked above.)
      const uint64_t ops = U64(result["ops"]);
      check->Expect(ops > 0, what + ": ran operations");
      check->Expect(result["micros_per_op"].is_number(), what + ": timed");
      if (IsAbsentKeyBenchmark(benchmark)) {
        if (filter != "none" && engine == "leveldb_table_iterator") {
          check->Expect(result["filter_checks"].is_number() &&
                            U64(result["filter_checks"]) == 0,
                        what + ": the filter was never asked");
        } else if (filter != "none") {
          check->Expect(result["filter_checks"].is_number() &&
                            U64(result["filter_checks"]) > 0,
                        what + ": the filter was asked");
          if (engine == "rocksdb_table" || engine == "rocksdb_sst_iterator") {
            check->Expect(U64(result["filter_checks"]) == ops,
                          what + ": the filter was asked once per lookup");
          }
          if (engine == "leveldb_table") {
            check->Expect(U64(result["filter_checks"]) <= ops,
                          what +
                              ": the filter was asked at most once per "
                              "lookup");
          }
          const nlohmann::json& fp = result["false_positive_rate"];
          check->Expect(
              fp.is_number() && fp.get<double>() >= 0 && fp.get<double>() <= 1,
              what + ": false-positive rate in [0, 1]");
          if (engine.rfind("bloomtable", 0) == 0) {
            const uint64_t maybes =
                U64(result["filter_checks"]) - U64(result["filter_negatives"]);
            // Each "maybe" costs one data block: from the block cache or
            // from the file.
            const uint64_t blocks =
                U64(result["file_reads"]) + U64(result["block_cache_hits"]);
            check->Expect(
                blocks == maybes,
                what + ": one data block per filter 'maybe' (" +
                    std::to_string(U64(result["file_reads"])) + " reads + " +
                    std::to_string(U64(result["block_cache_hits"])) +
                    " cache hits, " + std::to_string(maybes) + " maybes)");
          }
        }
      }
      // (Not leveldb_table_iterator: it never asks its filter, and its reads
      // differ with and without one only by what the cache holds. Not
      // leveldb_dir: its leveldb::DB compacts the directory it opened while
      // the reads run, and the compaction's reads are counted too.)
      if (IsAbsentKeyBenchmark(benchmark) &&
          engine != "leveldb_table_iterator" && engine != "leveldb_dir" &&
          result["reads_per_op"].is_number()) {
        const double reads = result["reads_per_op"].get<double>();
        const std::string key = BaseEngine(engine) + " " + benchmark +
                                " cache " + cache + " threads " +
                                std::to_string(threads);
        if (filter == "none") {
          without_filter[key] = reads;
        } else {
          with_filter[key].push_back(reads);
        }
      }
    }
  }
  for (const auto& [key, readings] : with_filter) {
    auto it = without_filter.find(key);
    if (it == without_filter.end()) continue;
    for (double reads : readings) {
      // Absent keys must not read more with a filter.
      check->Expect(it->second + 1e-12 >= reads,
                    key + ": reads/op without filter (" +
                        std::to_string(it->second) + ") >= with filter (" +
                        std::to_string(reads) + ")");
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: db_bench_check RESULT.json...\n");
    return 2;
  }
  int checks = 0;
  int failures = 0;
  for (int i = 1; i < argc; ++i) {
    Checker check(argv[i]);
    std::ifstream in(argv[i]);
    const nlohmann::json report = nlohmann::json::parse(in, nullptr, false);
    check.Expect(!report.is_discarded(), "parses as JSON");
    if (!report.is_discarded()) CheckReport(report, &check);
    checks += check.checks();
    failures += check.failures();
  }
  std::printf("db_bench_check: %d checks, %d failed\n", checks, failures);
  return failures == 0 ? 0 : 1;
}
