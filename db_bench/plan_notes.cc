// The notes of a plan (AddPlanNotes) and its settings block of the JSON
// report (PlanSettingsJson): what the numbers mean and where engines differ.

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "db_bench/bench_plan.h"
#include "db_bench/filter_budget.h"

namespace bloomtable {
namespace db_bench {
namespace {

constexpr char kLevelDBAdapted[] = "leveldb+bloomtable";

bool Contains(const std::vector<std::string>& list, const std::string& item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

}  // namespace

void AddPlanNotes(const std::vector<std::string>& not_adaptable,
                  BenchPlan* plan) {
  const PlanFlags& flags = plan->flags;
  plan->notes.push_back(
      "level table: one engine's table files read through its own table "
      "lookup (bloomtable Table::Get; leveldb_table: LevelDB's "
      "TableCache::Get; rocksdb_table: RocksDB's TableReader::Get) or a "
      "peer's public iterator (leveldb_table_iterator, rocksdb_sst_iterator: "
      "an iterator's Seek and a key compare, one iterator per thread). level "
      "db: a database's Get, which adds a memtable probe, version and "
      "table-cache lookups and internal keys (LevelDB also takes its DB "
      "mutex). A table-level figure is not comparable with a db-level one.");
  plan->notes.push_back(
      "io pread: table files read with pread (bloomtable's default; LevelDB "
      "through an Env that hands out bloomtable's pread file, its own pread "
      "class not being public); io mmap: mapped (bloomtable "
      "OpenMmapRandomAccessFile; LevelDB's default Env, which maps up to "
      "1000 table files on 64-bit; RocksDB allow_mmap_reads).");
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
        "1) is the LevelDB-compatible configuration: its tables are "
        "byte-identical to LevelDB's and LevelDB uses their filters; "
        "'ribbon' whole_table (index restart interval 16) is the "
        "configuration README recommends for tables that only bloomtable "
        "reads; 'cache_local_bloom' per_block is bloomtable's own per-block "
        "filter (LevelDB reads such tables and ignores the filter).");
  }
  if (Contains(plan->engines, "leveldb_table")) {
    plan->notes.push_back(
        "leveldb_table: LevelDB's filter-aware table lookup, "
        "TableCache::Get and Table::InternalGet as leveldb::DB::Get calls "
        "them for one table (compiled from LevelDB's source of the linked "
        "version): index block, then the filter block, then the data block; "
        "the entry its callback receives is compared with the key. The "
        "table holds user keys, bytewise.");
  }
  if (Contains(plan->engines, "leveldb_table_iterator")) {
    plan->notes.push_back(
        "leveldb_table_iterator: LevelDB's public leveldb::Table iterator, "
        "which never asks the filter (only Table::InternalGet does): every "
        "lookup reads a data block.");
  }
  if (Contains(plan->engines, "rocksdb_table")) {
    plan->notes.push_back(
        "rocksdb_table: written by SstFileWriter (invalidate_page_cache "
        "off), read by TableReader::Get on a BlockBasedTable opened through "
        "the table factory as RocksDB's table_reader_bench does, with a "
        "LookupKey and a GetContext as DB::Get makes them (its counters "
        "reported after each lookup); the whole-key filter is asked before "
        "the index. Linked statically to a release build of RocksDB.");
  }
  if (Contains(plan->engines, "rocksdb_sst_iterator")) {
    plan->notes.push_back(
        "rocksdb_sst_iterator: written by SstFileWriter (invalidate_page_cache "
        "off), read by SstFileReader with a capped prefix extractor whose "
        "cap is the longest key asked, so that every key is its own prefix "
        "and Seek asks the whole-key filter (counted by "
        "BLOOM_FILTER_PREFIX_CHECKED/_USEFUL). Each key carries RocksDB's "
        "8-byte internal tag, and the iterator is a DBIter over the table's.");
  }
  if (!plan->stored_bits.empty()) {
    plan->notes.push_back(absl::StrFormat(
        "--stored_bits: each filter's bits_per_key (after the filter's name) "
        "was calibrated before the run so that it stores the target bits per "
        "key, by building tables of the first %d entries with the engine's "
        "own table builder; 'stored b/key' is what the run's tables store "
        "(every byte of their filter blocks over their keys).",
        std::min<uint64_t>(plan->num, kCalibrationEntries)));
  }
  for (BenchmarkKind kind : plan->benchmarks) {
    if (!IsFill(kind)) continue;
    plan->notes.push_back(
        "Fills: at table level a bulk build of one sorted table "
        "(bloomtable TableBuilder, leveldb::TableBuilder, "
        "rocksdb::SstFileWriter), synced once when finished; at db level "
        "Puts (WAL, memtable), a flush and a full compaction. MB/s counts "
        "user key and value bytes.");
    break;
  }
  for (BenchmarkKind kind : plan->benchmarks) {
    if (!ReadsAbsentKeys(kind)) continue;
    plan->notes.push_back(
        "p50/p99 are single lookups timed one in 16. For absent keys at "
        "about 1% false positives, p99 is the time of one data-block read "
        "(the lookups the filter lets through), not of the filter.");
    break;
  }
  plan->notes.push_back(
      "FP % = filter 'maybe' answers for absent keys / filter queries for "
      "absent keys, counted by each engine (bloomtable: TableStats; LevelDB: "
      "a counting wrapper around its Bloom policy; RocksDB: its statistics "
      "BLOOM_FILTER_USEFUL, _FULL_POSITIVE, _FULL_TRUE_POSITIVE).");
  plan->notes.push_back(
      "reads/op and bytes/op count table-file reads through each engine's "
      "file wrapper during the benchmark (block-cache hits are not reads).");
  plan->notes.push_back(
      "Every engine reads through an LRU block cache of --cache_size bytes; "
      "cache hit % = data-block lookups served by it (LevelDB: counted by a "
      "wrapper around its cache; RocksDB: BLOCK_CACHE_DATA_HIT/_MISS; "
      "bloomtable: TableStats). With several --cache_size values each store "
      "is filled once, then reopened with each cache, cold.");
  if (Contains(plan->engines, kLevelDBAdapted)) {
    plan->notes.push_back(
        "leveldb+bloomtable is a real leveldb::DB whose filter policy is "
        "bloomtable's --filter policy through "
        "bloomtable::NewLevelDBFilterPolicyAdapter (LevelDB's per-2 KiB "
        "filter blocks); it runs with a filter only (without one it is "
        "plain LevelDB: see the leveldb none rows).");
    for (const std::string& name : not_adaptable) {
      plan->notes.push_back(absl::StrCat(
          "leveldb+bloomtable skips --filter=", name,
          ": the policy builds whole-table filters only, and LevelDB asks "
          "for one filter per 2 KiB of data blocks."));
    }
  }
  for (BenchmarkKind kind : plan->benchmarks) {
    if (kind != BenchmarkKind::kMultiReadRandom) continue;
    plan->notes.push_back(absl::StrCat(
        "multireadrandom looks up readrandom's keys ", flags.batch_size,
        " at a time (--batch_size): bloomtable with Table::MultiGet, RocksDB "
        "with its batched DB::MultiGet (a file's blocks fetched with one "
        "MultiRead, counted as one read); "
        "LevelDB has no MultiGet: a loop of Gets. micros/op is per key."));
    break;
  }
  if (plan->threads.size() > 1 || plan->threads.front() > 1) {
    plan->notes.push_back(
        "With --threads=N every thread looks up --reads keys of its own; "
        "ops/s = all threads' lookups / wall time; micros/op = each thread's "
        "loop time per lookup (LevelDB's definition). 'x ops/s' compares "
        "ops/s with the run at the first --threads value.");
  }
  plan->notes.push_back(
      "Memory B/key = bytes held in memory per key: filter blocks, index "
      "blocks, and the engine's own figure (bloomtable: "
      "Table::ApproximateMemoryUsage; LevelDB: "
      "leveldb.approximate-memory-usage, block cache and memtables only; "
      "RocksDB: rocksdb.estimate-table-readers-mem); '-' where the engine "
      "cannot tell.");
  // The peers' engines this binary was built without, and why.
  for (const EngineEntry& entry : EngineRegistry()) {
    if (entry.make == nullptr && entry.family != "bloomtable") {
      plan->notes.push_back(
          absl::StrCat(entry.name, " left out: ", entry.left_out, "."));
    }
  }
  if (Contains(plan->engines, "rocksdb")) {
    plan->notes.push_back(
        "RocksDB runs with statistics on (counters only, no timers) to count "
        "filter answers and cache hits.");
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
  // The first values under the old names; every value in the lists.
  settings["cache_size"] = plan.cache_sizes.front();
  settings["cache_sizes"] = plan.cache_sizes;
  settings["threads"] = plan.threads.front();
  settings["threads_list"] = plan.threads;
  settings["batch_size"] = flags.batch_size;
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
  settings["scan_length"] = flags.scan_length;
  settings["scan_filters"] = flags.scan_filters;
  settings["prefix_length"] = flags.prefix_length;
  settings["range_bits"] = flags.range_bits;
  return settings;
}

}  // namespace db_bench
}  // namespace bloomtable
