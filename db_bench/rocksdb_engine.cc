// The RocksDB engine: a real rocksdb::DB (Debian's RocksDB 7.8), at the db
// level, in its own block-based table format (RocksDB 7.8 ignores
// LevelDB-style "filter." blocks, so it cannot read ours, nor we its).
//
//   - filter: its Bloom (a whole-file "full" filter, cache-local) or its
//     Ribbon, as RocksDBTableOptions (rocksdb_env.h) makes them;
//   - block cache: NewLRUCache(--cache_size); index and filter blocks are held
//     by the open tables, as in LevelDB (cache_index_and_filter_blocks off);
//   - statistics: filter answers (BLOOM_FILTER_USEFUL, _FULL_POSITIVE,
//     _FULL_TRUE_POSITIVE) and data-block cache hits and misses, at the
//     statistics level without timers;
//   - MultiGet: its batched DB::MultiGet (filters first, data blocks of a
//     file fetched together with one MultiRead);
//   - memory: rocksdb.estimate-table-readers-mem (index and filter held by
//     the open tables), the filter and index sizes from the tables'
//     properties (as stored), and the block cache's GetUsage;
//   - files: read with pread, or mapped with EngineOptions::mmap_reads
//     (allow_mmap_reads), through a file system that counts reads (each
//     MultiRead request counts as one) and applies --io_latency_us;
//   - layout: with --tables=1, everything is written, flushed and compacted
//     into one sorted run (CompactRange); with --tables=N, automatic
//     compaction is off and the memtable is flushed after each Nth of the
//     writes, leaving N overlapping level-0 files, newest first.
//
// As the engine "rocksdb_readonly", the fill is the same, then the DB is
// closed and opened again with DB::OpenForReadOnly, whose Get the reads
// call (OpenExisting opens read-only too): no compaction or flush can run
// while they do.

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "db_bench/directory.h"
#include "db_bench/engine.h"
#include "db_bench/io_model.h"
#include "db_bench/peer_iterator.h"
#include "db_bench/rocksdb_env.h"
#include "db_bench/rocksdb_scan.h"
#include "rocksdb/cache.h"
#include "rocksdb/db.h"
#include "rocksdb/env.h"
#include "rocksdb/iterator.h"
#include "rocksdb/metadata.h"
#include "rocksdb/options.h"
#include "rocksdb/slice_transform.h"
#include "rocksdb/statistics.h"
#include "rocksdb/table.h"
#include "rocksdb/table_properties.h"

namespace bloomtable {
namespace db_bench {
namespace {

rocksdb::Slice ToSlice(std::string_view s) {
  return ToPeerSlice<rocksdb::Slice>(s);
}

class RocksDBEngine final : public Engine {
 public:
  // `read_only`: the engine "rocksdb_readonly" (see above).
  RocksDBEngine(const EngineOptions& options, bool read_only)
      : options_(options),
        read_only_(read_only),
        io_(options.io_latency_us),
        file_system_(std::make_shared<CountingFileSystem>(&io_)),
        env_(rocksdb::NewCompositeEnv(file_system_)),
        statistics_(rocksdb::CreateDBStatistics()),
        block_cache_(rocksdb::NewLRUCache(options.cache_size)) {
    // Counters only: timers would add clock reads to every lookup.
    statistics_->set_stats_level(rocksdb::StatsLevel::kExceptHistogramOrTimers);
    read_options_.verify_checksums = options.verify_checksums;
    // With a prefix extractor, plain iterators keep to the total order (a
    // prefix-mode iterator is undefined past its seek key's prefix); scans
    // use auto_prefix_mode instead (NewScan).
    read_options_.total_order_seek = options.rocksdb_prefix_length > 0;
  }

  ~RocksDBEngine() override { CloseDB(); }

  std::string name() const override {
    return read_only_ ? "rocksdb_readonly" : "rocksdb";
  }

  absl::Status Fill(const FillInput& input, Progress* progress) override;

  absl::Status OpenExisting() override {
    CloseDB();
    return Open(/*memtable_bytes=*/0, read_only_);
  }

  absl::Status Get(std::string_view key, std::string* value) const override {
    rocksdb::PinnableSlice pinned;
    rocksdb::Status status = db_->Get(read_options_, db_->DefaultColumnFamily(),
                                      ToSlice(key), &pinned);
    if (status.ok()) {
      value->assign(pinned.data(), pinned.size());
      return absl::OkStatus();
    }
    if (status.IsNotFound()) return absl::NotFoundError("");
    return FromPeerStatus(status);
  }

  void MultiGet(const std::vector<std::string_view>& keys,
                std::vector<absl::Status>* statuses,
                std::vector<std::string>* values) const override {
    const size_t n = keys.size();
    std::vector<rocksdb::Slice> slices(n);
    for (size_t i = 0; i < n; ++i) slices[i] = ToSlice(keys[i]);
    std::vector<rocksdb::PinnableSlice> pinned(n);
    std::vector<rocksdb::Status> results(n);
    db_->MultiGet(read_options_, db_->DefaultColumnFamily(), n, slices.data(),
                  pinned.data(), results.data(), /*sorted_input=*/false);
    statuses->resize(n);
    values->resize(n);
    for (size_t i = 0; i < n; ++i) {
      if (results[i].ok()) {
        (*values)[i].assign(pinned[i].data(), pinned[i].size());
        (*statuses)[i] = absl::OkStatus();
      } else if (results[i].IsNotFound()) {
        (*statuses)[i] = absl::NotFoundError("");
      } else {
        (*statuses)[i] = FromPeerStatus(results[i]);
      }
    }
  }
  bool HasNativeMultiGet() const override { return true; }

  std::unique_ptr<EngineIterator> NewIterator() const override {
    return std::make_unique<PeerIterator<rocksdb::Iterator>>(
        std::unique_ptr<rocksdb::Iterator>(db_->NewIterator(read_options_)));
  }

  std::unique_ptr<EngineIterator> NewScan(
      std::string_view lower, std::string_view upper) const override {
    return NewRocksDBScan(read_options_, options_.rocksdb_prefix_length > 0,
                          lower, upper,
                          [this](const rocksdb::ReadOptions& read_options) {
                            return db_->NewIterator(read_options);
                          });
  }

  EngineCounters Counters() const override {
    EngineCounters counters = RocksDBCounters(
        io_, *statistics_,
        options_.bloom_bits > 0 ? RocksDBFilterQueries::kWholeKey
                                : RocksDBFilterQueries::kNone);
    if (options_.bloom_bits > 0 && options_.rocksdb_prefix_length > 0) {
      // Scans ask the prefix Bloom (auto_prefix_mode).
      counters.filter_checks +=
          statistics_->getTickerCount(rocksdb::BLOOM_FILTER_PREFIX_CHECKED);
      counters.filter_negatives +=
          statistics_->getTickerCount(rocksdb::BLOOM_FILTER_PREFIX_USEFUL);
    }
    return counters;
  }

  MemorySummary Memory() const override;
  absl::StatusOr<StorageSummary> Storage() const override;

  std::string StatsText() const override {
    std::string stats;
    db_->GetProperty("rocksdb.stats", &stats);
    return stats;
  }

  void SetReadLatency(bool enabled) override { io_.SetLatencyEnabled(enabled); }

 private:
  // `memtable_bytes` > 0 sizes the memtable to hold that many bytes of writes
  // without an automatic flush. `read_only`: DB::OpenForReadOnly.
  absl::Status Open(uint64_t memtable_bytes, bool read_only);
  void CloseDB() {
    if (db_ != nullptr) {
      db_->Close().PermitUncheckedError();
      db_.reset();
    }
  }

  const EngineOptions options_;
  const bool read_only_;
  IoModel io_;
  const std::shared_ptr<CountingFileSystem> file_system_;
  const std::unique_ptr<rocksdb::Env> env_;
  const std::shared_ptr<rocksdb::Statistics> statistics_;
  const std::shared_ptr<rocksdb::Cache> block_cache_;
  rocksdb::ReadOptions read_options_;
  std::unique_ptr<rocksdb::DB> db_;
};

absl::Status RocksDBEngine::Open(uint64_t memtable_bytes, bool read_only) {
  rocksdb::Options db_options;
  db_options.create_if_missing = true;
  db_options.allow_mmap_reads = options_.mmap_reads;
  db_options.env = env_.get();
  db_options.statistics = statistics_;
  db_options.compression =
      options_.snappy ? rocksdb::kSnappyCompression : rocksdb::kNoCompression;
  db_options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(
      RocksDBTableOptions(options_, block_cache_)));
  if (options_.rocksdb_prefix_length > 0) {
    db_options.prefix_extractor.reset(
        rocksdb::NewFixedPrefixTransform(options_.rocksdb_prefix_length));
  }
  if (options_.tables > 1) {
    // Keep the level-0 files that each flush writes: no compaction, no
    // write stalls below that many files, and a memtable that holds one
    // run of writes (a flush per run, by us).
    const uint64_t files = static_cast<uint64_t>(options_.tables);
    db_options.disable_auto_compactions = true;
    db_options.level0_file_num_compaction_trigger = static_cast<int>(files + 1);
    db_options.level0_slowdown_writes_trigger = static_cast<int>(files + 10);
    db_options.level0_stop_writes_trigger = static_cast<int>(files + 20);
    if (memtable_bytes > db_options.write_buffer_size) {
      db_options.write_buffer_size = memtable_bytes;
    }
  }
  rocksdb::DB* db = nullptr;
  rocksdb::Status status =
      read_only ? rocksdb::DB::OpenForReadOnly(db_options, options_.dir, &db)
                : rocksdb::DB::Open(db_options, options_.dir, &db);
  if (!status.ok()) return FromPeerStatus(status);
  db_.reset(db);
  return absl::OkStatus();
}

absl::Status RocksDBEngine::Fill(const FillInput& input, Progress* progress) {
  CloseDB();
  absl::Status status = RecreateDirectory(options_.dir);
  if (!status.ok()) return status;
  const size_t n = input.order.size();
  const int runs = options_.tables > 1 ? options_.tables : 1;
  // A memtable's footprint is about twice the raw bytes of its entries
  // (skiplist nodes, arena slack); leave room for that.
  const uint64_t run_bytes =
      2 * (n / runs + 1) *
      (input.keys->key_size() + input.values->value_size() + 16);
  status = Open(run_bytes, /*read_only=*/false);
  if (!status.ok()) return status;

  std::string key(input.keys->key_size(), '0');
  rocksdb::WriteOptions write_options;
  constexpr uint64_t kProgressBatch = 1000;
  uint64_t unreported = 0;
  for (int run = 0; run < runs; ++run) {
    const size_t begin = n * run / runs;
    const size_t end = n * (run + 1) / runs;
    for (size_t t = begin; t < end; ++t) {
      const uint64_t j = input.order[t];
      input.keys->PresentKey(j, key.data());
      rocksdb::Status put =
          db_->Put(write_options, key, ToSlice(input.values->Value(j)));
      if (!put.ok()) return FromPeerStatus(put);
      if (++unreported == kProgressBatch) {
        progress->Add(unreported);
        unreported = 0;
      }
    }
    rocksdb::Status flush = db_->Flush(rocksdb::FlushOptions());
    if (!flush.ok()) return FromPeerStatus(flush);
  }
  progress->Add(unreported);
  if (runs == 1) {
    progress->SetPhase("compacting");
    rocksdb::CompactRangeOptions compact_options;
    compact_options.bottommost_level_compaction =
        rocksdb::BottommostLevelCompaction::kForce;
    rocksdb::Status compact =
        db_->CompactRange(compact_options, nullptr, nullptr);
    if (!compact.ok()) return FromPeerStatus(compact);
  }
  if (read_only_) {
    CloseDB();
    return Open(/*memtable_bytes=*/0, /*read_only=*/true);
  }
  return absl::OkStatus();
}

MemorySummary RocksDBEngine::Memory() const {
  MemorySummary memory;
  memory.block_cache_usage = block_cache_->GetUsage();
  memory.block_cache_capacity = block_cache_->GetCapacity();
  memory.sources =
      "rocksdb.estimate-table-readers-mem (index and filter held by the open "
      "tables); filter and index: the tables' properties filter_size and "
      "index_size (as stored; RocksDB may compress index blocks); block "
      "cache: Cache::GetUsage";
  if (db_ == nullptr) return memory;
  uint64_t readers = 0;
  if (db_->GetIntProperty(rocksdb::DB::Properties::kEstimateTableReadersMem,
                          &readers)) {
    memory.engine_bytes = readers;
    memory.engine_bytes_name = "rocksdb.estimate-table-readers-mem";
  }
  rocksdb::TablePropertiesCollection properties;
  if (db_->GetPropertiesOfAllTables(&properties).ok()) {
    uint64_t filter_bytes = 0;
    uint64_t index_bytes = 0;
    for (const auto& [path, table] : properties) {
      filter_bytes += table->filter_size;
      index_bytes += table->index_size;
    }
    memory.filter_bytes = filter_bytes;
    memory.index_bytes = index_bytes;
  }
  return memory;
}

absl::StatusOr<StorageSummary> RocksDBEngine::Storage() const {
  StorageSummary summary;
  std::vector<rocksdb::LiveFileMetaData> files;
  db_->GetLiveFilesMetaData(&files);
  std::map<int, int> files_per_level;
  for (const rocksdb::LiveFileMetaData& file : files) {
    ++summary.table_files;
    summary.table_bytes += file.size;
    ++files_per_level[file.level];
  }
  for (const auto& [level, count] : files_per_level) {
    if (!summary.shape.empty()) summary.shape += ", ";
    absl::StrAppend(&summary.shape, "L", level, ": ", count, " files");
  }
  rocksdb::TablePropertiesCollection properties;
  rocksdb::Status status = db_->GetPropertiesOfAllTables(&properties);
  if (!status.ok()) return FromPeerStatus(status);
  uint64_t filter_bytes = 0;
  for (const auto& [path, table] : properties) {
    filter_bytes += table->filter_size;
    summary.entries += table->num_entries;
  }
  summary.filter_bytes = filter_bytes;
  return summary;
}

}  // namespace

std::unique_ptr<Engine> NewRocksDBEngine(const EngineOptions& options) {
  return std::make_unique<RocksDBEngine>(options, /*read_only=*/false);
}

std::unique_ptr<Engine> NewRocksDBReadOnlyEngine(const EngineOptions& options) {
  return std::make_unique<RocksDBEngine>(options, /*read_only=*/true);
}

}  // namespace db_bench
}  // namespace bloomtable
