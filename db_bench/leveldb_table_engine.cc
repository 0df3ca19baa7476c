// The LevelDB table-level engine ("leveldb_table"): one table file written by
// leveldb::TableBuilder from the sorted entries (user keys, as bloomtable's
// tables hold them; synced when finished, the rule of every table-level bulk
// build) and read through LevelDB's public leveldb::Table::Open and its
// iterator.
//
// LevelDB has no public filter-aware table lookup: the filter is asked only
// by Table::InternalGet, which is private to its DB. A point lookup here is
// therefore an iterator Seek and a key compare, one iterator per reader
// thread, and the filter block, although built and held by the open table,
// is never asked (its counting policy reports zero queries). Table files are
// mapped or read with pread, block cache and filter counted as in the
// leveldb::DB engine (leveldb_env.h).

#include <memory>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "db_bench/directory.h"
#include "db_bench/engine.h"
#include "db_bench/leveldb_env.h"
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
  explicit LevelDBTableEngine(const EngineOptions& options)
      : options_(options),
        io_(options.io_latency_us),
        filter_policy_(NewCountingFilterPolicy(options, &setup_status_)),
        block_cache_(std::make_unique<CountingCache>(options.cache_size)),
        path_(options.dir + "/000001.ldb") {
    read_options_.verify_checksums = options.verify_checksums;
    table_options_.block_size = options.block_size;
    table_options_.compression =
        options.snappy ? leveldb::kSnappyCompression : leveldb::kNoCompression;
    table_options_.filter_policy = filter_policy_.get();
    table_options_.block_cache = block_cache_.get();
  }

  std::string name() const override { return "leveldb_table"; }

  absl::Status Fill(const FillInput& input, Progress* progress) override;

  absl::Status OpenExisting() override {
    if (!setup_status_.ok()) return setup_status_;
    return OpenTable();
  }

  absl::Status Get(std::string_view key, std::string* value) const override {
    return NewReader()->Get(key, value);
  }

  std::unique_ptr<EngineReader> NewReader() const override {
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

  const EngineOptions options_;
  IoModel io_;
  absl::Status setup_status_;
  const std::unique_ptr<CountingFilterPolicy> filter_policy_;
  const std::unique_ptr<CountingCache> block_cache_;
  const std::string path_;
  leveldb::Options table_options_;
  leveldb::ReadOptions read_options_;
  // The table reads `file_`: declared after it, destroyed before it.
  std::unique_ptr<leveldb::RandomAccessFile> file_;
  std::unique_ptr<leveldb::Table> table_;
};

absl::Status LevelDBTableEngine::Fill(const FillInput& input,
                                      Progress* progress) {
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
  return absl::OkStatus();
}

}  // namespace

std::unique_ptr<Engine> NewLevelDBTableEngine(const EngineOptions& options) {
  return std::make_unique<LevelDBTableEngine>(options);
}

}  // namespace db_bench
}  // namespace bloomtable
