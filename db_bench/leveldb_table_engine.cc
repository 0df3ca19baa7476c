// The LevelDB table-level engines: one table file written by
// leveldb::TableBuilder from the sorted entries (user keys, as bloomtable's
// tables hold them; synced when finished, the rule of every table-level bulk
// build), read two ways:
//   - "leveldb_table": LevelDB's own filter-aware lookup, TableCache::Get and
//     Table::InternalGet (leveldb_table_lookup.h), which asks the filter
//     block before reading a data block. Built where LevelDB's source tree
//     of the linked version is at hand (BLOOMTABLE_DB_BENCH_WITH_LEVELDB_
//     TABLE_LOOKUP).
//   - "leveldb_table_iterator": LevelDB's public leveldb::Table::Open and its
//     iterator: a point lookup is an iterator Seek and a key compare, one
//     iterator per reader thread. The public iterator never asks the filter
//     block (its counting policy reports zero queries), so every lookup
//     reads a data block.
// Table files are mapped or read with pread, block cache and filter counted
// as in the leveldb::DB engine (leveldb_env.h).

#include <memory>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "db_bench/directory.h"
#include "db_bench/engine.h"
#include "db_bench/leveldb_env.h"
#ifdef BLOOMTABLE_DB_BENCH_WITH_LEVELDB_TABLE_LOOKUP
#include "db_bench/leveldb_table_lookup.h"
#endif
#include "db_bench/peer_iterator.h"
#include "db_bench/table_file_info.h"
#include "leveldb/iterator.h"
#include "leveldb/options.h"
#include "leveldb/table.h"
#include "leveldb/table_builder.h"

namespace bloomtable {
namespace db_bench {
namespace {

class LevelDBTableEngine final : public Engine {
 public:
  LevelDBTableEngine(const EngineOptions& options, bool filter_aware)
      : options_(options),
        filter_aware_(filter_aware),
        io_(options.io_latency_us),
        env_(&io_, options.mmap_reads),
        filter_policy_(NewCountingFilterPolicy(options, &setup_status_)),
        block_cache_(std::make_unique<CountingCache>(options.cache_size)),
        path_(options.dir + "/000001.ldb") {
    read_options_.verify_checksums = options.verify_checksums;
    table_options_.block_size = options.block_size;
    table_options_.compression =
        options.snappy ? leveldb::kSnappyCompression : leveldb::kNoCompression;
    table_options_.filter_policy = filter_policy_.get();
    table_options_.block_cache = block_cache_.get();
    table_options_.env = &env_;
  }

  std::string name() const override {
    return filter_aware_ ? "leveldb_table" : "leveldb_table_iterator";
  }

  absl::Status Fill(const FillInput& input, Progress* progress) override;

  absl::Status OpenExisting() override {
    if (!setup_status_.ok()) return setup_status_;
    return OpenTable();
  }

  absl::Status Get(std::string_view key, std::string* value) const override {
    return NewReader()->Get(key, value);
  }

  std::unique_ptr<EngineReader> NewReader() const override {
#ifdef BLOOMTABLE_DB_BENCH_WITH_LEVELDB_TABLE_LOOKUP
    if (filter_aware_) {
      return std::make_unique<LookupReader>(lookup_.get(), read_options_);
    }
#endif
    return std::make_unique<PeerSeekReader<leveldb::Iterator>>(
        std::unique_ptr<leveldb::Iterator>(table_->NewIterator(read_options_)));
  }

  std::unique_ptr<EngineIterator> NewIterator() const override {
    return std::make_unique<PeerIterator<leveldb::Iterator>>(
        std::unique_ptr<leveldb::Iterator>(table_->NewIterator(read_options_)));
  }

  EngineCounters Counters() const override {
    return LevelDBCounters(io_, filter_policy_.get(), *block_cache_);
  }

  MemorySummary Memory() const override {
    MemorySummary memory;
    memory.block_cache_usage = block_cache_->TotalCharge();
    memory.block_cache_capacity = options_.cache_size;
    memory.sources =
        "filter and index: the blocks read from the table file (the open "
        "leveldb::Table holds both and cannot report them); block cache: "
        "Cache::TotalCharge";
    absl::StatusOr<TableFileInfo> info = ReadTableFileInfo(path_);
    if (info.ok()) {
      memory.filter_bytes = filter_policy_ != nullptr ? info->filter_bytes : 0;
      memory.index_bytes = info->index_bytes;
    }
    return memory;
  }

  absl::StatusOr<StorageSummary> Storage() const override {
    absl::StatusOr<TableFileInfo> info = ReadTableFileInfo(path_);
    if (!info.ok()) return info.status();
    StorageSummary summary;
    summary.table_files = 1;
    summary.table_bytes = info->file_size;
    summary.filter_bytes = info->filter_bytes;
    summary.shape = "1 table";
    return summary;
  }

  std::string StatsText() const override {
    return absl::StrFormat(
        "%s: leveldb::Table has no statistics; reads %d, bytes %d, cache "
        "hits %d, misses %d\n",
        path_, io_.reads(), io_.bytes(), block_cache_->hits(),
        block_cache_->misses());
  }

  void SetReadLatency(bool enabled) override { io_.SetLatencyEnabled(enabled); }

 private:
  absl::Status OpenTable();

#ifdef BLOOMTABLE_DB_BENCH_WITH_LEVELDB_TABLE_LOOKUP
  class LookupReader final : public EngineReader {
   public:
    LookupReader(const LevelDBTableLookup* lookup,
                 const leveldb::ReadOptions& read_options)
        : lookup_(lookup), read_options_(read_options) {}
    absl::Status Get(std::string_view key, std::string* value) override {
      return lookup_->Get(read_options_, key, value);
    }

   private:
    const LevelDBTableLookup* const lookup_;
    const leveldb::ReadOptions read_options_;
  };
#endif

  const EngineOptions options_;
  const bool filter_aware_;
  IoModel io_;
  // Opens the table file for TableCache (mapped or pread, counted).
  CountingEnv env_;
  absl::Status setup_status_;
  const std::unique_ptr<CountingFilterPolicy> filter_policy_;
  const std::unique_ptr<CountingCache> block_cache_;
  const std::string path_;
  leveldb::Options table_options_;
  leveldb::ReadOptions read_options_;
  // The table reads `file_`: declared after it, destroyed before it.
  std::unique_ptr<leveldb::RandomAccessFile> file_;
  std::unique_ptr<leveldb::Table> table_;
#ifdef BLOOMTABLE_DB_BENCH_WITH_LEVELDB_TABLE_LOOKUP
  // leveldb_table's lookup: its own open of the same file.
  std::unique_ptr<LevelDBTableLookup> lookup_;
#endif
};

absl::Status LevelDBTableEngine::Fill(const FillInput& input,
                                      Progress* progress) {
#ifdef BLOOMTABLE_DB_BENCH_WITH_LEVELDB_TABLE_LOOKUP
  lookup_.reset();
#endif
  table_.reset();
  file_.reset();
  if (!setup_status_.ok()) return setup_status_;
  absl::Status status = RecreateDirectory(options_.dir);
  if (!status.ok()) return status;
  leveldb::WritableFile* raw_file = nullptr;
  leveldb::Status peer =
      leveldb::Env::Default()->NewWritableFile(path_, &raw_file);
  if (!peer.ok()) return FromPeerStatus(peer);
  const std::unique_ptr<leveldb::WritableFile> file(raw_file);
  leveldb::TableBuilder builder(table_options_, file.get());
  std::string key(input.keys->key_size(), '0');
  constexpr uint64_t kProgressBatch = 1000;
  uint64_t unreported = 0;
  for (uint64_t j : SortedEntries(input.order)) {
    input.keys->PresentKey(j, key.data());
    builder.Add(key, ToPeerSlice<leveldb::Slice>(input.values->Value(j)));
    if (++unreported == kProgressBatch) {
      progress->Add(unreported);
      unreported = 0;
    }
  }
  progress->Add(unreported);
  peer = builder.Finish();
  if (peer.ok()) peer = file->Sync();
  if (peer.ok()) peer = file->Close();
  if (!peer.ok()) return FromPeerStatus(peer);
  return OpenTable();
}

absl::Status LevelDBTableEngine::OpenTable() {
#ifdef BLOOMTABLE_DB_BENCH_WITH_LEVELDB_TABLE_LOOKUP
  lookup_.reset();
#endif
  table_.reset();
  file_.reset();
  uint64_t size = 0;
  leveldb::Status status = leveldb::Env::Default()->GetFileSize(path_, &size);
  leveldb::RandomAccessFile* file = nullptr;
  if (status.ok()) {
    status = OpenLevelDBTableFile(path_, options_.mmap_reads, &io_, &file);
  }
  if (!status.ok()) return FromPeerStatus(status);
  file_.reset(file);
  leveldb::Table* table = nullptr;
  status = leveldb::Table::Open(table_options_, file_.get(), size, &table);
  if (!status.ok()) return FromPeerStatus(status);
  table_.reset(table);
#ifdef BLOOMTABLE_DB_BENCH_WITH_LEVELDB_TABLE_LOOKUP
  if (filter_aware_) {
    lookup_ = NewLevelDBTableLookup(options_.dir, table_options_, size);
  }
#endif
  return absl::OkStatus();
}

}  // namespace

std::unique_ptr<Engine> NewLevelDBTableEngine(const EngineOptions& options,
                                              bool filter_aware) {
#ifndef BLOOMTABLE_DB_BENCH_WITH_LEVELDB_TABLE_LOOKUP
  if (filter_aware) return nullptr;
#endif
  return std::make_unique<LevelDBTableEngine>(options, filter_aware);
}

}  // namespace db_bench
}  // namespace bloomtable
