// The RocksDB engines, each set up by RocksDBSetup (rocksdb_env.h), in
// RocksDB's own block-based table format:
//   - "rocksdb": a rocksdb::DB, every key written, flushed and compacted into
//     one sorted run; MultiGet is its batched DB::MultiGet;
//   - "rocksdb_readonly": filled as "rocksdb", then read through a DB opened
//     with DB::OpenForReadOnly (no compaction or flush while reads run);
//   - "rocksdb_table" and "rocksdb_sst_iterator": one table written by
//     rocksdb::SstFileWriter (invalidate_page_cache off, as the other
//     engines' files stay in the page cache), read through TableReader::Get
//     and ::MultiGet (rocksdb_table_reader.h) or through SstFileReader's
//     iterator Seek, which asks the full filter only through a prefix
//     extractor: a capped one as long as the longest key asked makes every
//     key its own prefix.
// Each key in a RocksDB table carries RocksDB's 8-byte internal tag.

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "bloomtable/file.h"
#include "db_bench/directory.h"
#include "db_bench/engine.h"
#include "db_bench/peer_iterator.h"
#include "db_bench/rocksdb_env.h"
#ifdef BLOOMTABLE_DB_BENCH_WITH_ROCKSDB_TABLE_READER
#include "db_bench/rocksdb_table_reader.h"
#endif
#include "rocksdb/db.h"
#include "rocksdb/metadata.h"
#include "rocksdb/slice_transform.h"
#include "rocksdb/sst_file_reader.h"
#include "rocksdb/sst_file_writer.h"
#include "rocksdb/table_properties.h"

namespace bloomtable {
namespace db_bench {
namespace {

rocksdb::Slice ToSlice(std::string_view s) {
  return ToPeerSlice<rocksdb::Slice>(s);
}

absl::Status LookupStatus(const rocksdb::Status& status) {
  if (status.ok()) return absl::OkStatus();
  if (status.IsNotFound()) return absl::NotFoundError("");
  return FromPeerStatus(status);
}

// A reader of a rocksdb::DB that keeps one PinnableSlice: GetPinned is
// DB::Get into it (RocksDB's lookup without a copy: the value pinned in its
// block cache or memtable), released at the next call.
class PinnableSliceReader final : public EngineReader {
 public:
  PinnableSliceReader(const Engine* engine, rocksdb::DB* db,
                      const rocksdb::ReadOptions& read_options)
      : engine_(engine), db_(db), read_options_(read_options) {}

  absl::Status Get(std::string_view key, std::string* value) override {
    return engine_->Get(key, value);
  }

  absl::Status GetPinned(std::string_view key,
                         std::string_view* value) override {
    pinned_.Reset();
    const absl::Status status = LookupStatus(db_->Get(
        read_options_, db_->DefaultColumnFamily(), ToSlice(key), &pinned_));
    *value = std::string_view(pinned_.data(), pinned_.size());
    return status;
  }

 private:
  const Engine* const engine_;
  rocksdb::DB* const db_;
  const rocksdb::ReadOptions read_options_;
  rocksdb::PinnableSlice pinned_;
};

class RocksDBEngine final : public Engine {
 public:
  // `read_only`: the engine "rocksdb_readonly" (see above).
  RocksDBEngine(const EngineOptions& options, bool read_only)
      : options_(options), read_only_(read_only), setup_(options) {
    read_options_ = setup_.read_options();
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
    return Open(read_only_);
  }

  absl::Status Get(std::string_view key, std::string* value) const override {
    rocksdb::PinnableSlice pinned;
    absl::Status status = LookupStatus(db_->Get(
        read_options_, db_->DefaultColumnFamily(), ToSlice(key), &pinned));
    if (status.ok()) value->assign(pinned.data(), pinned.size());
    return status;
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
      (*statuses)[i] = LookupStatus(results[i]);
      if (results[i].ok())
        (*values)[i].assign(pinned[i].data(), pinned[i].size());
    }
  }
  bool HasNativeMultiGet() const override { return true; }

  std::unique_ptr<EngineReader> NewReader() const override {
    return std::make_unique<PinnableSliceReader>(this, db_.get(),
                                                 read_options_);
  }
  bool HasPinnedGet() const override { return true; }

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
    // Scans ask the prefix Bloom (auto_prefix_mode).
    return setup_.Counters(
        options_.bloom_bits > 0 ? RocksDBFilterQueries::kWholeKey
                                : RocksDBFilterQueries::kNone,
        options_.bloom_bits > 0 && options_.rocksdb_prefix_length > 0);
  }

  MemorySummary Memory() const override;
  absl::StatusOr<StorageSummary> Storage() const override;

 private:
  // `read_only`: DB::OpenForReadOnly.
  absl::Status Open(bool read_only);
  void CloseDB() {
    if (db_ != nullptr) {
      db_->Close().PermitUncheckedError();
      db_.reset();
    }
  }

  const EngineOptions options_;
  const bool read_only_;
  RocksDBSetup setup_;
  rocksdb::ReadOptions read_options_;
  std::unique_ptr<rocksdb::DB> db_;
};

absl::Status RocksDBEngine::Open(bool read_only) {
  rocksdb::Options db_options = setup_.Options();
  db_options.create_if_missing = true;
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
  if (status.ok()) status = Open(/*read_only=*/false);
  const rocksdb::WriteOptions write_options;
  if (status.ok()) {
    status = PutEntries(input, input.order, progress,
                        [&](std::string_view key, std::string_view value) {
                          return FromPeerStatus(db_->Put(
                              write_options, ToSlice(key), ToSlice(value)));
                        });
  }
  if (status.ok()) status = FromPeerStatus(db_->Flush(rocksdb::FlushOptions()));
  if (status.ok()) {
    progress->SetPhase("compacting");
    rocksdb::CompactRangeOptions compact_options;
    compact_options.bottommost_level_compaction =
        rocksdb::BottommostLevelCompaction::kForce;
    status =
        FromPeerStatus(db_->CompactRange(compact_options, nullptr, nullptr));
  }
  if (!status.ok() || !read_only_) return status;
  CloseDB();
  return Open(/*read_only=*/true);
}

MemorySummary RocksDBEngine::Memory() const {
  MemorySummary memory = setup_.CacheMemory(
      "rocksdb.estimate-table-readers-mem (index and filter held by the open "
      "tables); filter and index: the tables' properties filter_size and "
      "index_size (as stored; RocksDB may compress index blocks); block "
      "cache: Cache::GetUsage");
  if (db_ == nullptr) return memory;
  uint64_t readers = 0;
  if (db_->GetIntProperty(rocksdb::DB::Properties::kEstimateTableReadersMem,
                          &readers)) {
    memory.engine_bytes = readers;
    memory.engine_bytes_name = "rocksdb.estimate-table-readers-mem";
  }
  rocksdb::TablePropertiesCollection properties;
  if (db_->GetPropertiesOfAllTables(&properties).ok()) {
    memory.filter_bytes = memory.index_bytes = 0;
    for (const auto& [path, table] : properties) {
      *memory.filter_bytes += table->filter_size;
      *memory.index_bytes += table->index_size;
    }
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
  summary.shape = LevelShape(files_per_level);
  rocksdb::TablePropertiesCollection properties;
  rocksdb::Status status = db_->GetPropertiesOfAllTables(&properties);
  if (!status.ok()) return FromPeerStatus(status);
  summary.filter_bytes = 0;
  for (const auto& [path, table] : properties) {
    *summary.filter_bytes += table->filter_size;
    summary.entries += table->num_entries;
  }
  return summary;
}

class RocksDBTableEngine final : public Engine {
 public:
  RocksDBTableEngine(const EngineOptions& options, bool table_reader)
      : options_(options),
        table_reader_(table_reader),
        setup_(options),
        // rocksdb_table: a whole-key filter. rocksdb_sst_iterator: a
        // whole-key filter through a capped extractor (above). With
        // rocksdb_prefix_length, either: a prefix Bloom that holds whole
        // keys too.
        table_options_(
            setup_.Options(table_reader || options.rocksdb_prefix_length > 0)),
        path_(options.dir + "/000001.sst") {
    if (options.rocksdb_prefix_length == 0 && !table_reader) {
      table_options_.prefix_extractor.reset(
          rocksdb::NewCappedPrefixTransform(options.longest_key));
    }
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
      return std::make_unique<
          PeerLookupReader<RocksDBTableReader, rocksdb::ReadOptions>>(
          table_.get(), setup_.read_options());
    }
#endif
    return std::make_unique<PeerSeekReader<rocksdb::Iterator>>(
        std::unique_ptr<rocksdb::Iterator>(
            reader_->NewIterator(setup_.read_options())));
  }

#ifdef BLOOMTABLE_DB_BENCH_WITH_ROCKSDB_TABLE_READER
  void MultiGet(const std::vector<std::string_view>& keys,
                std::vector<absl::Status>* statuses,
                std::vector<std::string>* values) const override {
    if (!table_reader_) return Engine::MultiGet(keys, statuses, values);
    table_->MultiGet(setup_.read_options(), keys, statuses, values);
  }
  bool HasNativeMultiGet() const override { return table_reader_; }
#endif

  std::unique_ptr<EngineIterator> NewIterator() const override {
    // A fixed-length prefix would confine a prefix-mode iterator to its
    // seek key's prefix: iterate in total order instead.
    rocksdb::ReadOptions read_options = setup_.read_options();
    read_options.total_order_seek = options_.rocksdb_prefix_length > 0;
    return std::make_unique<PeerIterator<rocksdb::Iterator>>(
        std::unique_ptr<rocksdb::Iterator>(reader_->NewIterator(read_options)));
  }

  std::unique_ptr<EngineIterator> NewScan(
      std::string_view lower, std::string_view upper) const override {
    return NewRocksDBScan(setup_.read_options(),
                          options_.rocksdb_prefix_length > 0, lower, upper,
                          [this](const rocksdb::ReadOptions& read_options) {
                            return reader_->NewIterator(read_options);
                          });
  }

  EngineCounters Counters() const override {
    return setup_.Counters(options_.bloom_bits <= 0
                               ? RocksDBFilterQueries::kNone
                           : table_reader_ ? RocksDBFilterQueries::kWholeKey
                                           : RocksDBFilterQueries::kPrefixSeek);
  }

  MemorySummary Memory() const override {
    MemorySummary memory = setup_.CacheMemory(
        "filter and index: the table's properties filter_size and index_size "
        "(as stored; SstFileReader cannot report its memory); block cache: "
        "Cache::GetUsage");
    if (reader_ != nullptr) {
      memory.filter_bytes = reader_->GetTableProperties()->filter_size;
      memory.index_bytes = reader_->GetTableProperties()->index_size;
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

  const EngineOptions options_;
  const bool table_reader_;
  RocksDBSetup setup_;
  rocksdb::Options table_options_;
  const std::string path_;
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
  status = FromPeerStatus(writer.Open(path_));
  if (status.ok()) {
    status = PutEntries(
        input, SortedEntries(input.order), progress,
        [&](std::string_view key, std::string_view value) {
          return FromPeerStatus(writer.Put(ToSlice(key), ToSlice(value)));
        });
  }
  if (status.ok()) status = FromPeerStatus(writer.Finish());
  return status.ok() ? OpenTable() : status;
}

}  // namespace

std::unique_ptr<Engine> NewRocksDBEngine(const EngineOptions& options) {
  return std::make_unique<RocksDBEngine>(options, /*read_only=*/false);
}

std::unique_ptr<Engine> NewRocksDBReadOnlyEngine(const EngineOptions& options) {
  return std::make_unique<RocksDBEngine>(options, /*read_only=*/true);
}

std::unique_ptr<Engine> NewRocksDBTableEngine(const EngineOptions& options,
                                              bool table_reader) {
#ifndef BLOOMTABLE_DB_BENCH_WITH_ROCKSDB_TABLE_READER
  if (table_reader) return nullptr;
#endif
  return std::make_unique<RocksDBTableEngine>(options, table_reader);
}

}  // namespace db_bench
}  // namespace bloomtable
