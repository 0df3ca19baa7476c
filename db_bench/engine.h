// Engine is what db_bench measures: a store of sorted table files that can be
// filled once and then read. Each implementation wraps one real engine and
// counts the table-file reads it makes, so that every row of the report means
// the same thing. Engines come at two levels (README's Benchmarks section
// says what each calls): table, one sorted table read through an engine's
// own table lookup or a peer's public iterator, filled by a bulk build; and
// db, a database's Get, filled by Puts, a flush and a full compaction, or a
// read-only database on a LevelDB-written directory (leveldb_dir_source.h).
//
// Call order: (Fill | OpenExisting) then any number of reads (Get, NewReader,
// MultiGet, NewIterator) and counter snapshots; Fill may be called again, and
// starts from an empty store. Get, NewReader, MultiGet, NewIterator, Counters
// and Memory are safe to call from many threads at once; Fill and
// OpenExisting are not, and must not run concurrently with reads.

#ifndef BLOOMTABLE_DB_BENCH_ENGINE_H_
#define BLOOMTABLE_DB_BENCH_ENGINE_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "bloomtable/filter_policy.h"
#include "bloomtable/options.h"
#include "bloomtable/prefix_extractor.h"
#include "db_bench/key_generator.h"
#include "db_bench/progress.h"
#include "db_bench/value_generator.h"

namespace bloomtable {
namespace db_bench {

// What an engine is built with. The same for every engine except the filter
// fields, which each engine reads in its own terms.
struct EngineOptions {
  // The engine's own directory; Fill creates it and replaces what is there.
  std::string dir;
  size_t block_size = 4096;
  bool snappy = true;
  // Bits per key of the filter; <= 0 means no filter.
  double bloom_bits = 10;
  // bloomtable: the policy to build (null: no filter), its layout and every
  // policy a reader may meet.
  std::shared_ptr<const FilterPolicy> bloomtable_policy;
  FilterLayout bloomtable_layout = FilterLayout::kPerBlock;
  // bloomtable: Options::index_block_restart_interval.
  int bloomtable_index_block_restart_interval = 1;
  std::vector<std::shared_ptr<const FilterPolicy>> bloomtable_known_policies;
  // RocksDB: its Ribbon filter instead of its Bloom filter.
  bool rocksdb_ribbon = false;
  // LevelDB: if set, this bloomtable policy (one that supports the per-block
  // layout) through bloomtable::NewLevelDBFilterPolicyAdapter instead of
  // LevelDB's own Bloom; the engine is then "leveldb+bloomtable".
  std::shared_ptr<const FilterPolicy> leveldb_adapted_policy;
  // Bytes of block cache, where the engine has one.
  uint64_t cache_size = 8 << 20;
  // Verify the checksum of every data block read.
  bool verify_checksums = true;
  // Read table files through memory maps instead of pread.
  bool mmap_reads = false;
  // bloomtable and RocksDB (cold_bench): every data block from the device,
  // read with O_DIRECT (RocksDB: use_direct_reads) and no block cache;
  // bloomtable's batched reads through an io_uring ring of this depth.
  bool direct_io = false;
  uint32_t io_uring_depth = 32;
  // bloomtable_db, bloomtable_db+sidecars and leveldb_dir: their shared
  // LevelDB directory is compacted into one level after every key is
  // written, with an empty live log (--leveldb_source=compacted), not left
  // as the writes left it.
  bool leveldb_source_compacted = false;
  // The bits per key of LevelDB's Bloom filter in that directory, as its
  // writer chose them (--leveldb_source_bloom_bits): not calibrated, so that
  // every engine reading the directory reads the same files.
  int leveldb_source_bloom_bits = 10;
  // The longest key a lookup may ask for (RocksDB's table-level engine sizes
  // its whole-key prefix extractor with it).
  size_t longest_key = 0;
  // Scan filters. bloomtable: a prefix filter of this extractor (with the
  // policy above, whole keys kept), and a range filter of this many bits per
  // key (0: none). RocksDB: a prefix Bloom of a fixed-length prefix
  // extractor of this many bytes (whole keys kept; 0: the whole-key filter
  // as above), asked by scans through auto_prefix_mode and their bounds.
  std::shared_ptr<const PrefixExtractor> bloomtable_prefix_extractor;
  double bloomtable_range_bits = 0;
  size_t rocksdb_prefix_length = 0;
};

// Counters since the engine was opened. Snapshots are subtracted around each
// benchmark.
struct EngineCounters {
  // Reads of table files through the engine's file wrapper, and their bytes.
  uint64_t file_reads = 0;
  uint64_t file_bytes_read = 0;
  // Filter queries and "definitely absent" answers, where counted.
  bool has_filter_counters = false;
  uint64_t filter_checks = 0;
  uint64_t filter_negatives = 0;
  // Where the engine counts them: "maybe" answers for keys that were then
  // found (RocksDB's BLOOM_FILTER_FULL_TRUE_POSITIVE).
  std::optional<uint64_t> filter_true_positives;
  // Data-block cache lookups, where the engine has a cache and counts them.
  bool has_block_cache_counters = false;
  uint64_t block_cache_hits = 0;
  uint64_t block_cache_misses = 0;

  EngineCounters operator-(const EngineCounters& earlier) const;
};

// What the engine's files hold after a fill.
struct StorageSummary {
  uint64_t table_files = 0;
  uint64_t table_bytes = 0;
  // Entries in the table files where the engine reports them; 0 = not
  // reported (db_bench then uses the number of keys written).
  uint64_t entries = 0;
  // Bytes of filter blocks in all table files, if known.
  std::optional<uint64_t> filter_bytes;
  // How the files are arranged, e.g. "1 table", "L0: 4 files", "L2: 31 files".
  std::string shape;
};

// What the engine holds in memory for its table files, and its block cache.
// Each figure is absent where the engine cannot tell.
struct MemorySummary {
  // Filter blocks (or whole-table filters) held by the open tables.
  std::optional<uint64_t> filter_bytes;
  // Index blocks held by the open tables.
  std::optional<uint64_t> index_bytes;
  // The engine's own figure for memory, named by `engine_bytes_name`.
  std::optional<uint64_t> engine_bytes;
  std::string engine_bytes_name;
  // Bytes the block cache holds now, and its capacity.
  std::optional<uint64_t> block_cache_usage;
  uint64_t block_cache_capacity = 0;
  // How the figures were obtained.
  std::string sources;
  // Microseconds that Table::Open took for every table at the engine's last
  // open (bloomtable only). After --repeats: the median of the runs, and
  // the fastest and slowest run in open_micros_range.
  std::optional<double> open_micros;
  std::optional<std::pair<double, double>> open_micros_range;
  // Reads of table files, and data blocks read, between the engine's last
  // open and its first lookup (bloomtable_db: what opening the database
  // read of its tables). Absent where the engine does not measure them.
  std::optional<uint64_t> open_file_reads;
  std::optional<uint64_t> open_data_block_reads;
  // bloomtable_db+sidecars: its sidecar filters' build after the fill
  // (BuildSidecarFilters, warm page cache), on 1 and on 2 threads: the
  // distinct keys filtered, the sidecar files' bytes, and wall times.
  std::optional<uint64_t> sidecar_keys;
  std::optional<uint64_t> sidecar_bytes;
  // After --repeats: medians, with the fastest and slowest run.
  std::optional<double> sidecar_build_micros_1_thread;
  std::optional<double> sidecar_build_micros_2_threads;
  std::optional<std::pair<double, double>> sidecar_build_micros_1_thread_range;
  std::optional<std::pair<double, double>> sidecar_build_micros_2_threads_range;
};

// A forward iterator over the engine's entries in key order.
class EngineIterator {
 public:
  virtual ~EngineIterator() = default;
  virtual void SeekToFirst() = 0;
  virtual void Seek(std::string_view target) = 0;
  virtual void Next() = 0;
  virtual bool Valid() const = 0;
  virtual std::string_view key() const = 0;
  virtual std::string_view value() const = 0;
  virtual absl::Status status() const = 0;
};

// The key/value stream a fill writes: entry order[t] at step t.
struct FillInput {
  const KeyGenerator* keys;
  const ValueGenerator* values;
  absl::Span<const uint64_t> order;
};

// The entries of `order` in key order (entry order is key order), each once:
// what a bulk build of one table writes.
std::vector<uint64_t> SortedEntries(absl::Span<const uint64_t> order);

// Calls put(key, value) for `entries` of `input` in that order, counting each
// in `progress`; stops at the first error.
absl::Status PutEntries(
    const FillInput& input, absl::Span<const uint64_t> entries,
    Progress* progress,
    const std::function<absl::Status(std::string_view key,
                                     std::string_view value)>& put);

// "L0: 2 files, L1: 5 files": files per level, in level order.
std::string LevelShape(const std::map<int, int>& files_per_level);

// Point lookups for one thread. Engines whose lookup is an iterator's Seek
// keep one iterator per reader, reused for every lookup. Not thread-safe; it
// must not outlive its engine.
class EngineReader {
 public:
  virtual ~EngineReader() = default;
  // As Engine::Get.
  virtual absl::Status Get(std::string_view key, std::string* value) = 0;
  // The engine's lookup that hands the value back without copying it
  // (Engine::HasPinnedGet): `*value` points into memory this reader keeps
  // pinned until its next call. Unimplemented where the engine has none.
  virtual absl::Status GetPinned(std::string_view key, std::string_view* value);
};

class Engine {
 public:
  virtual ~Engine() = default;

  // "bloomtable", "leveldb", "rocksdb", ...
  virtual std::string name() const = 0;

  // Writes every entry of `input` (fresh store) and leaves them in table
  // files ready for reads: flushed and compacted as the options say.
  virtual absl::Status Fill(const FillInput& input, Progress* progress) = 0;

  // Opens what an earlier Fill left in options.dir.
  virtual absl::Status OpenExisting() = 0;

  // OK with the value; NotFound if absent; any other status is an error.
  virtual absl::Status Get(std::string_view key, std::string* value) const = 0;

  // A reader for one thread's lookups. The default forwards to Get.
  virtual std::unique_ptr<EngineReader> NewReader() const;

  // Looks up every key of `keys`: (*statuses)[i] is OK with the value in
  // (*values)[i], NotFound, or an error. The default is one Get per key;
  // engines with a batched lookup override it (and HasNativeMultiGet).
  virtual void MultiGet(const std::vector<std::string_view>& keys,
                        std::vector<absl::Status>* statuses,
                        std::vector<std::string>* values) const;
  // True if MultiGet is the engine's own batched lookup.
  virtual bool HasNativeMultiGet() const { return false; }
  // True if its readers' GetPinned is the engine's own zero-copy lookup
  // (bloomtable's Get into a PinnedValue, RocksDB's into a PinnableSlice).
  virtual bool HasPinnedGet() const { return false; }

  virtual std::unique_ptr<EngineIterator> NewIterator() const = 0;

  // A scan of the keys in [lower, upper), positioned at the first of them.
  // Engines with bounded iterators pass the bounds down, so that their scan
  // filters are asked; the default (bounded_scan.cc) seeks an unbounded
  // NewIterator() and stops at `upper`.
  virtual std::unique_ptr<EngineIterator> NewScan(std::string_view lower,
                                                  std::string_view upper) const;

  virtual EngineCounters Counters() const = 0;

  // Memory held for the open tables and the block cache, now. May read the
  // table files' footers and metaindexes (not through the counted files).
  virtual MemorySummary Memory() const = 0;

  virtual absl::StatusOr<StorageSummary> Storage() const = 0;
};

// One engine db_bench knows: its name, level, the call a point lookup makes
// (for the report), and how to make it (EngineRegistry() in engine.cc).
struct EngineEntry {
  std::string name;
  // "table" or "db".
  std::string level;
  // The peer whose code it runs: "bloomtable", "leveldb" or "rocksdb".
  std::string family;
  // What a point lookup calls, e.g. "rocksdb::TableReader::Get".
  std::string call;
  // Null where this binary was built without the engine; `left_out` then
  // says why.
  std::unique_ptr<Engine> (*make)(const EngineOptions& options);
  std::string left_out;
};

// Every engine, built or not, in the order db_bench runs them by default.
const std::vector<EngineEntry>& EngineRegistry();

// The registry's entry named `name`, or null.
const EngineEntry* FindEngine(const std::string& name);

// The engine named `name`; null if unknown or this binary was built without
// it.
std::unique_ptr<Engine> NewEngine(const std::string& name,
                                  const EngineOptions& options);

std::unique_ptr<Engine> NewBloomtableEngine(const EngineOptions& options);
#ifdef BLOOMTABLE_DB_BENCH_WITH_LEVELDB
// "leveldb", or "leveldb+bloomtable" with options.leveldb_adapted_policy.
std::unique_ptr<Engine> NewLevelDBEngine(const EngineOptions& options);
// "leveldb_dir": a leveldb::DB on a copy of the shared LevelDB-written
// directory (leveldb_dir_source.h), opened with reuse_logs.
std::unique_ptr<Engine> NewLevelDBDirEngine(const EngineOptions& options);
// "bloomtable_db": bloomtable::Database::OpenReadOnly on a copy of the same
// directory (needs LevelDB, which writes it).
std::unique_ptr<Engine> NewBloomtableDbEngine(const EngineOptions& options);
// "bloomtable_db+sidecars": the same view with sidecar filters
// (options.bloomtable_policy's, DatabaseOptions::filters_dir) built by
// BuildSidecarFilters beside its copy after each fill.
std::unique_ptr<Engine> NewBloomtableDbSidecarEngine(
    const EngineOptions& options);
// One leveldb::Table, built by leveldb::TableBuilder: "leveldb_table" (its
// filter-aware TableCache::Get; null where not built) if `filter_aware`,
// else "leveldb_table_iterator" (the public iterator's Seek).
std::unique_ptr<Engine> NewLevelDBTableEngine(const EngineOptions& options,
                                              bool filter_aware);
#endif
#ifdef BLOOMTABLE_DB_BENCH_WITH_ROCKSDB
std::unique_ptr<Engine> NewRocksDBEngine(const EngineOptions& options);
// "rocksdb_readonly": filled as "rocksdb", then read through a DB opened
// with DB::OpenForReadOnly.
std::unique_ptr<Engine> NewRocksDBReadOnlyEngine(const EngineOptions& options);
// One table built by rocksdb::SstFileWriter: "rocksdb_table" (TableReader::
// Get; null where not built) if `table_reader`, else "rocksdb_sst_iterator"
// (SstFileReader's iterator Seek).
std::unique_ptr<Engine> NewRocksDBTableEngine(const EngineOptions& options,
                                              bool table_reader);
#endif

}  // namespace db_bench
}  // namespace bloomtable

#endif  // BLOOMTABLE_DB_BENCH_ENGINE_H_
