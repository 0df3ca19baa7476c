// The RocksDB table-level engines: one table written by rocksdb::SstFileWriter
// from the sorted entries (invalidate_page_cache off, so that reads find the
// file in the page cache as the other engines'; its Finish syncs the file,
// the rule of every table-level bulk build), read two ways:
//   - "rocksdb_table": RocksDB's own point lookup, TableReader::Get on a
//     BlockBasedTable opened through the table factory, as RocksDB's
//     table_reader_bench does (rocksdb_table_reader.h): the full filter holds
//     whole keys (whole_key_filtering) and is asked before the index. Built
//     only against a release build of RocksDB from source, whose internal
//     headers and definitions it needs (BLOOMTABLE_DB_BENCH_WITH_ROCKSDB_
//     TABLE_READER).
//   - "rocksdb_sst_iterator": RocksDB's public rocksdb::SstFileReader, one
//     iterator per reader thread, a point lookup being a Seek and a key
//     compare. SstFileReader has no point lookup, and its iterator asks the
//     filter only through the prefix extractor: a capped prefix extractor
//     whose cap is at least the longest key asked (NewCappedPrefixTransform(
//     longest_key)) makes every key its own prefix, the full filter holds
//     the whole keys (whole_key_filtering off: the prefixes are the whole
//     keys), and Seek asks the filter first (BlockBasedTableIterator's prefix
//     check), which BLOOM_FILTER_PREFIX_CHECKED and _USEFUL count. The
//     iterator is a DBIter over the table iterator.
// Each key in a RocksDB table carries RocksDB's 8-byte internal tag
// (sequence number and type), which bloomtable's tables do not.

#include <memory>
#include <string>
#include <utility>

#include "bloomtable/file.h"
#include "db_bench/directory.h"
#include "db_bench/engine.h"
#include "db_bench/io_model.h"
#include "db_bench/peer_iterator.h"
#include "db_bench/rocksdb_env.h"
#include "db_bench/rocksdb_scan.h"
#ifdef BLOOMTABLE_DB_BENCH_WITH_ROCKSDB_TABLE_READER
#include "db_bench/rocksdb_table_reader.h"
#endif
#include "rocksdb/env.h"
#include "rocksdb/iterator.h"
#include "rocksdb/options.h"
#include "rocksdb/slice_transform.h"
#include "rocksdb/sst_file_reader.h"
#include "rocksdb/sst_file_writer.h"
#include "rocksdb/statistics.h"
#include "rocksdb/table_properties.h"

namespace bloomtable {
namespace db_bench {
namespace {

class RocksDBTableEngine final : public Engine {
 public:
  RocksDBTableEngine(const EngineOptions& options, bool table_reader)
      : options_(options),
        table_reader_(table_reader),
        io_(options.io_latency_us),
        file_system_(std::make_shared<CountingFileSystem>(&io_)),
        env_(rocksdb::NewCompositeEnv(file_system_)),
        statistics_(rocksdb::CreateDBStatistics()),
        block_cache_(rocksdb::NewLRUCache(options.cache_size)),
        path_(options.dir + "/000001.sst") {
    // Counters only: timers would add clock reads to every lookup.
    statistics_->set_stats_level(rocksdb::StatsLevel::kExceptHistogramOrTimers);
    rocksdb::BlockBasedTableOptions table_options =
        RocksDBTableOptions(options, block_cache_);
    // rocksdb_table: a whole-key filter. rocksdb_sst_iterator: a whole-key
    // filter through a capped extractor (above). With rocksdb_prefix_length,
    // either: a prefix Bloom that holds whole keys too.
    table_options.whole_key_filtering =
        table_reader || options.rocksdb_prefix_length > 0;
    table_options_.env = env_.get();
    table_options_.statistics = statistics_;
    table_options_.compression =
        options.snappy ? rocksdb::kSnappyCompression : rocksdb::kNoCompression;
    table_options_.allow_mmap_reads = options.mmap_reads;
    if (options.rocksdb_prefix_length > 0) {
      table_options_.prefix_extractor.reset(
          rocksdb::NewFixedPrefixTransform(options.rocksdb_prefix_length));
    } else if (!table_reader) {
      table_options_.prefix_extractor.reset(
          rocksdb::NewCappedPrefixTransform(options.longest_key));
    }
    table_options_.table_factory.reset(
        rocksdb::NewBlockBasedTableFactory(table_options));
    read_options_.verify_checksums = options.verify_checksums;
  }

  std::string name() const override {
    return table_reader_ ? "rocksdb_table" : "rocksdb_sst_iterator";
  }

  absl::Status Fill(const FillInput& input, Progress* progress) override;

  absl::Status OpenExisting() override { return OpenTable(); }

  absl::Status Get(std::string_view key, std::string* value) const override {
    return NewReader()->Get(key, value);
  }

  std::unique_ptr<EngineReader> NewReader() const override {
#ifdef BLOOMTABLE_DB_BENCH_WITH_ROCKSDB_TABLE_READER
    if (table_reader_) {
      return std::make_unique<TableReaderReader>(table_.get(), read_options_);
    }
#endif
    return std::make_unique<PeerSeekReader<rocksdb::Iterator>>(
        std::unique_ptr<rocksdb::Iterator>(
            reader_->NewIterator(read_options_)));
  }

  std::unique_ptr<EngineIterator> NewIterator() const override {
    // A fixed-length prefix would confine a prefix-mode iterator to its
    // seek key's prefix: iterate in total order instead.
    rocksdb::ReadOptions read_options = read_options_;
    read_options.total_order_seek = options_.rocksdb_prefix_length > 0;
    return std::make_unique<PeerIterator<rocksdb::Iterator>>(
        std::unique_ptr<rocksdb::Iterator>(reader_->NewIterator(read_options)));
  }

  std::unique_ptr<EngineIterator> NewScan(
      std::string_view lower, std::string_view upper) const override {
    return NewRocksDBScan(read_options_, options_.rocksdb_prefix_length > 0,
                          lower, upper,
                          [this](const rocksdb::ReadOptions& read_options) {
                            return reader_->NewIterator(read_options);
                          });
  }

  EngineCounters Counters() const override {
    return RocksDBCounters(io_, *statistics_,
                           options_.bloom_bits <= 0
                               ? RocksDBFilterQueries::kNone
                           : table_reader_ ? RocksDBFilterQueries::kWholeKey
                                           : RocksDBFilterQueries::kPrefixSeek);
  }

  MemorySummary Memory() const override {
    MemorySummary memory;
    memory.block_cache_usage = block_cache_->GetUsage();
    memory.block_cache_capacity = block_cache_->GetCapacity();
    memory.sources =
        "filter and index: the table's properties filter_size and index_size "
        "(as stored; SstFileReader cannot report its memory); block cache: "
        "Cache::GetUsage";
    if (reader_ != nullptr) {
      const std::shared_ptr<const rocksdb::TableProperties> properties =
          reader_->GetTableProperties();
      memory.filter_bytes = properties->filter_size;
      memory.index_bytes = properties->index_size;
    }
    return memory;
  }

  absl::StatusOr<StorageSummary> Storage() const override {
    if (reader_ == nullptr) return absl::FailedPreconditionError("not open");
    const std::shared_ptr<const rocksdb::TableProperties> properties =
        reader_->GetTableProperties();
    StorageSummary summary;
    summary.table_files = 1;
    absl::StatusOr<uint64_t> size = GetFileSize(path_);
    if (!size.ok()) return size.status();
    summary.table_bytes = *size;
    summary.entries = properties->num_entries;
    summary.filter_bytes = properties->filter_size;
    summary.shape = "1 table";
    return summary;
  }

  std::string StatsText() const override { return statistics_->ToString(); }

  void SetReadLatency(bool enabled) override { io_.SetLatencyEnabled(enabled); }

 private:
  absl::Status OpenTable() {
#ifdef BLOOMTABLE_DB_BENCH_WITH_ROCKSDB_TABLE_READER
    table_.reset();
#endif
    reader_.reset();
    auto reader = std::make_unique<rocksdb::SstFileReader>(table_options_);
    rocksdb::Status status = reader->Open(path_);
    if (!status.ok()) return FromPeerStatus(status);
    reader_ = std::move(reader);
#ifdef BLOOMTABLE_DB_BENCH_WITH_ROCKSDB_TABLE_READER
    if (table_reader_) {
      absl::StatusOr<std::unique_ptr<RocksDBTableReader>> table =
          OpenRocksDBTableReader(table_options_, path_);
      if (!table.ok()) return table.status();
      table_ = std::move(*table);
    }
#endif
    return absl::OkStatus();
  }

#ifdef BLOOMTABLE_DB_BENCH_WITH_ROCKSDB_TABLE_READER
  class TableReaderReader final : public EngineReader {
   public:
    TableReaderReader(const RocksDBTableReader* table,
                      const rocksdb::ReadOptions& read_options)
        : table_(table), read_options_(read_options) {}
    absl::Status Get(std::string_view key, std::string* value) override {
      return table_->Get(read_options_, key, value);
    }

   private:
    const RocksDBTableReader* const table_;
    const rocksdb::ReadOptions read_options_;
  };
#endif

  const EngineOptions options_;
  const bool table_reader_;
  IoModel io_;
  const std::shared_ptr<CountingFileSystem> file_system_;
  const std::unique_ptr<rocksdb::Env> env_;
  const std::shared_ptr<rocksdb::Statistics> statistics_;
  const std::shared_ptr<rocksdb::Cache> block_cache_;
  const std::string path_;
  rocksdb::Options table_options_;
  rocksdb::ReadOptions read_options_;
  std::unique_ptr<rocksdb::SstFileReader> reader_;
#ifdef BLOOMTABLE_DB_BENCH_WITH_ROCKSDB_TABLE_READER
  // rocksdb_table's lookup: its own open of the same file.
  std::unique_ptr<RocksDBTableReader> table_;
#endif
};

absl::Status RocksDBTableEngine::Fill(const FillInput& input,
                                      Progress* progress) {
#ifdef BLOOMTABLE_DB_BENCH_WITH_ROCKSDB_TABLE_READER
  table_.reset();
#endif
  reader_.reset();
  absl::Status status = RecreateDirectory(options_.dir);
  if (!status.ok()) return status;
  rocksdb::SstFileWriter writer(rocksdb::EnvOptions(table_options_),
                                table_options_, /*column_family=*/nullptr,
                                /*invalidate_page_cache=*/false);
  rocksdb::Status peer = writer.Open(path_);
  if (!peer.ok()) return FromPeerStatus(peer);
  std::string key(input.keys->key_size(), '0');
  constexpr uint64_t kProgressBatch = 1000;
  uint64_t unreported = 0;
  for (uint64_t j : SortedEntries(input.order)) {
    input.keys->PresentKey(j, key.data());
    peer = writer.Put(key, ToPeerSlice<rocksdb::Slice>(input.values->Value(j)));
    if (!peer.ok()) return FromPeerStatus(peer);
    if (++unreported == kProgressBatch) {
      progress->Add(unreported);
      unreported = 0;
    }
  }
  progress->Add(unreported);
  peer = writer.Finish();
  if (!peer.ok()) return FromPeerStatus(peer);
  return OpenTable();
}

}  // namespace

std::unique_ptr<Engine> NewRocksDBTableEngine(const EngineOptions& options,
                                              bool table_reader) {
#ifndef BLOOMTABLE_DB_BENCH_WITH_ROCKSDB_TABLE_READER
  if (table_reader) return nullptr;
#endif
  return std::make_unique<RocksDBTableEngine>(options, table_reader);
}

}  // namespace db_bench
}  // namespace bloomtable
