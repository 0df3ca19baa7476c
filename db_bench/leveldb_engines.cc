// The LevelDB engines, each set up by LevelDBSetup (leveldb_env.h):
//   - "leveldb" and "leveldb+bloomtable": a leveldb::DB, every key Put, then
//     CompactRange over the whole key space (one sorted run of ~2 MB tables);
//   - "leveldb_dir": the same DB on its copy of the shared LevelDB-written
//     directory (leveldb_dir_source.h), opened with reuse_logs; every open
//     waits until the compactions it started have finished, so that the
//     reads meet the layout LevelDB would keep in use; it may compact again
//     when lookups miss (the files per level recorded around each benchmark
//     show it);
//   - "leveldb_table" and "leveldb_table_iterator": one table file written
//     by leveldb::TableBuilder (user keys, synced), read through LevelDB's
//     filter-aware TableCache::Get (leveldb_table_lookup.h) or through the
//     public leveldb::Table iterator's Seek, which never asks the filter.
// Memory: the filter and index blocks read from the table files (the open
// tables hold both), and leveldb.approximate-memory-usage.

#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "db_bench/directory.h"
#include "db_bench/engine.h"
#include "db_bench/leveldb_dir_source.h"
#include "db_bench/leveldb_env.h"
#ifdef BLOOMTABLE_DB_BENCH_WITH_LEVELDB_TABLE_LOOKUP
#include "db_bench/leveldb_table_lookup.h"
#endif
#include "db_bench/peer_iterator.h"
#include "db_bench/table_file_info.h"
#include "leveldb/db.h"
#include "leveldb/iterator.h"
#include "leveldb/table.h"
#include "leveldb/table_builder.h"

namespace bloomtable {
namespace db_bench {
namespace {

// LevelDB's levels (config::kNumLevels in its sources).
constexpr int kLevelDBLevels = 7;

leveldb::Slice ToSlice(std::string_view s) {
  return ToPeerSlice<leveldb::Slice>(s);
}

absl::Status LookupStatus(const leveldb::Status& status) {
  if (status.ok()) return absl::OkStatus();
  if (status.IsNotFound()) return absl::NotFoundError("");
  return FromPeerStatus(status);
}

class LevelDBEngine final : public Engine {
 public:
  // `shared_directory`: the engine "leveldb_dir" (see above).
  LevelDBEngine(const EngineOptions& options, bool shared_directory)
      : options_(options),
        shared_directory_(shared_directory),
        setup_(options) {}

  ~LevelDBEngine() override { db_.reset(); }

  std::string name() const override {
    if (shared_directory_) return "leveldb_dir";
    return options_.leveldb_adapted_policy != nullptr ? "leveldb+bloomtable"
                                                      : "leveldb";
  }

  absl::Status Fill(const FillInput& input, Progress* progress) override {
    db_.reset();
    absl::Status status = setup_.status();
    if (status.ok() && shared_directory_) {
      status = FillFromLevelDBSource(options_, input, progress);
      return status.ok() ? Open() : status;
    }
    if (status.ok()) status = RecreateDirectory(options_.dir);
    if (status.ok()) status = Open();
    if (status.ok()) {
      const leveldb::WriteOptions write_options;
      status = PutEntries(input, input.order, progress,
                          [&](std::string_view key, std::string_view value) {
                            return FromPeerStatus(db_->Put(
                                write_options, ToSlice(key), ToSlice(value)));
                          });
    }
    if (!status.ok()) return status;
    progress->SetPhase("compacting");
    // Flushes the memtable, then compacts every level into the next.
    db_->CompactRange(nullptr, nullptr);
    return absl::OkStatus();
  }

  absl::Status OpenExisting() override {
    db_.reset();
    absl::Status status = setup_.status();
    if (status.ok() && shared_directory_) {
      status = RecopyLevelDBSource(options_);
    }
    return status.ok() ? Open() : status;
  }

  absl::Status Get(std::string_view key, std::string* value) const override {
    return LookupStatus(db_->Get(setup_.read_options(), ToSlice(key), value));
  }

  std::unique_ptr<EngineIterator> NewIterator() const override {
    return std::make_unique<PeerIterator<leveldb::Iterator>>(
        std::unique_ptr<leveldb::Iterator>(
            db_->NewIterator(setup_.read_options())));
  }

  EngineCounters Counters() const override { return setup_.Counters(); }

  MemorySummary Memory() const override {
    // Compactions may replace files while we list them: then say nothing.
    absl::StatusOr<std::vector<std::string>> paths = TablePaths();
    MemorySummary memory = setup_.Memory(
        paths.ok() ? *paths : std::vector<std::string>(),
        "filter and index: the blocks read from the table files (LevelDB "
        "holds both for every open table and cannot report them); "
        "leveldb.approximate-memory-usage counts the block cache and "
        "memtables only; block cache: Cache::TotalCharge");
    if (!paths.ok()) memory.filter_bytes = memory.index_bytes = std::nullopt;
    std::string property;
    uint64_t engine_bytes = 0;
    if (db_ != nullptr &&
        db_->GetProperty("leveldb.approximate-memory-usage", &property) &&
        absl::SimpleAtoi(property, &engine_bytes)) {
      memory.engine_bytes = engine_bytes;
      memory.engine_bytes_name = "leveldb.approximate-memory-usage";
    }
    return memory;
  }

  absl::StatusOr<StorageSummary> Storage() const override {
    absl::StatusOr<std::vector<std::string>> paths = TablePaths();
    if (!paths.ok()) return paths.status();
    absl::StatusOr<StorageSummary> summary = StorageOfFiles(*paths);
    if (!summary.ok()) return summary;
    std::map<int, int> files_per_level;
    for (int level = 0; level < kLevelDBLevels; ++level) {
      std::string files;
      int count = 0;
      if (db_->GetProperty(absl::StrCat("leveldb.num-files-at-level", level),
                           &files) &&
          absl::SimpleAtoi(files, &count) && count > 0) {
        files_per_level[level] = count;
      }
    }
    summary->shape = LevelShape(files_per_level);
    return summary;
  }

 private:
  absl::Status Open() {
    leveldb::Options db_options = setup_.Options();
    // leveldb_dir opens the copy it was given, keeping its live log.
    db_options.create_if_missing = !shared_directory_;
    db_options.reuse_logs = shared_directory_;
    leveldb::DB* db = nullptr;
    leveldb::Status status = leveldb::DB::Open(db_options, options_.dir, &db);
    if (!status.ok()) return FromPeerStatus(status);
    db_.reset(db);
    return shared_directory_ ? WaitForSizeCompactions() : absl::OkStatus();
  }

  // Waits until the DB's version needs no size compaction: the compactions
  // that opening the directory started (one after another) have finished.
  absl::Status WaitForSizeCompactions() const {
    constexpr auto kPoll = std::chrono::milliseconds(20);
    constexpr auto kLimit = std::chrono::minutes(30);
    const auto start = std::chrono::steady_clock::now();
    std::string sstables;
    while (db_->GetProperty("leveldb.sstables", &sstables) &&
           LevelDBNeedsSizeCompaction(ParseLevelDBTables(sstables))) {
      if (std::chrono::steady_clock::now() - start > kLimit) {
        return absl::DeadlineExceededError(absl::StrCat(
            options_.dir, ": LevelDB's compactions did not finish"));
      }
      std::this_thread::sleep_for(kPoll);
    }
    return absl::OkStatus();
  }

  // The table files of the DB's current version (leveldb.sstables), not
  // the outputs of a compaction still being written; every .ldb file of the
  // directory if the DB is not open.
  absl::StatusOr<std::vector<std::string>> TablePaths() const {
    std::string sstables;
    if (db_ == nullptr || !db_->GetProperty("leveldb.sstables", &sstables)) {
      return ListFiles(options_.dir, ".ldb");
    }
    const LevelDBTables files = ParseLevelDBTables(sstables);
    std::vector<std::string> paths;
    for (const std::vector<uint64_t>& level : files.numbers) {
      for (uint64_t number : level) {
        paths.push_back(absl::StrFormat("%s/%06d.ldb", options_.dir, number));
      }
    }
    return paths;
  }

  const EngineOptions options_;
  const bool shared_directory_;
  LevelDBSetup setup_;
  // Declared last: closed before what its options point to.
  std::unique_ptr<leveldb::DB> db_;
};

class LevelDBTableEngine final : public Engine {
 public:
  LevelDBTableEngine(const EngineOptions& options, bool filter_aware)
      : options_(options),
        filter_aware_(filter_aware),
        setup_(options),
        table_options_(setup_.Options()),
        path_(options.dir + "/000001.ldb") {}

  std::string name() const override {
    return filter_aware_ ? "leveldb_table" : "leveldb_table_iterator";
  }

  absl::Status Fill(const FillInput& input, Progress* progress) override {
    Close();
    absl::Status status = setup_.status();
    if (status.ok()) status = RecreateDirectory(options_.dir);
    if (!status.ok()) return status;
    leveldb::WritableFile* raw_file = nullptr;
    leveldb::Status peer =
        leveldb::Env::Default()->NewWritableFile(path_, &raw_file);
    if (!peer.ok()) return FromPeerStatus(peer);
    const std::unique_ptr<leveldb::WritableFile> file(raw_file);
    leveldb::TableBuilder builder(table_options_, file.get());
    status = PutEntries(input, SortedEntries(input.order), progress,
                        [&](std::string_view key, std::string_view value) {
                          builder.Add(ToSlice(key), ToSlice(value));
                          return absl::OkStatus();
                        });
    peer = builder.Finish();
    if (peer.ok()) peer = file->Sync();
    if (peer.ok()) peer = file->Close();
    if (!peer.ok()) return FromPeerStatus(peer);
    return status.ok() ? OpenTable() : status;
  }

  absl::Status OpenExisting() override {
    return setup_.status().ok() ? OpenTable() : setup_.status();
  }

  absl::Status Get(std::string_view key, std::string* value) const override {
    return NewReader()->Get(key, value);
  }

  std::unique_ptr<EngineReader> NewReader() const override {
#ifdef BLOOMTABLE_DB_BENCH_WITH_LEVELDB_TABLE_LOOKUP
    if (filter_aware_) {
      return std::make_unique<
          PeerLookupReader<LevelDBTableLookup, leveldb::ReadOptions>>(
          lookup_.get(), setup_.read_options());
    }
#endif
    return std::make_unique<PeerSeekReader<leveldb::Iterator>>(
        std::unique_ptr<leveldb::Iterator>(
            table_->NewIterator(setup_.read_options())));
  }

  std::unique_ptr<EngineIterator> NewIterator() const override {
    return std::make_unique<PeerIterator<leveldb::Iterator>>(
        std::unique_ptr<leveldb::Iterator>(
            table_->NewIterator(setup_.read_options())));
  }

  EngineCounters Counters() const override { return setup_.Counters(); }

  MemorySummary Memory() const override {
    return setup_.Memory(
        {path_},
        "filter and index: the blocks read from the table file (the open "
        "leveldb::Table holds both and cannot report them); block cache: "
        "Cache::TotalCharge");
  }

  absl::StatusOr<StorageSummary> Storage() const override {
    absl::StatusOr<StorageSummary> summary = StorageOfFiles({path_});
    if (summary.ok() && summary->table_files == 0) {
      return absl::NotFoundError(path_);
    }
    if (summary.ok()) summary->shape = "1 table";
    return summary;
  }

 private:
  void Close() {
#ifdef BLOOMTABLE_DB_BENCH_WITH_LEVELDB_TABLE_LOOKUP
    lookup_.reset();
#endif
    table_.reset();
    file_.reset();
  }

  absl::Status OpenTable() {
    Close();
    uint64_t size = 0;
    leveldb::RandomAccessFile* file = nullptr;
    leveldb::Status status = table_options_.env->GetFileSize(path_, &size);
    if (status.ok()) {
      status = table_options_.env->NewRandomAccessFile(path_, &file);
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

  const EngineOptions options_;
  const bool filter_aware_;
  LevelDBSetup setup_;
  const leveldb::Options table_options_;
  const std::string path_;
  // The table reads `file_`: declared after it, destroyed before it.
  std::unique_ptr<leveldb::RandomAccessFile> file_;
  std::unique_ptr<leveldb::Table> table_;
#ifdef BLOOMTABLE_DB_BENCH_WITH_LEVELDB_TABLE_LOOKUP
  // leveldb_table's lookup: its own open of the same file.
  std::unique_ptr<LevelDBTableLookup> lookup_;
#endif
};

}  // namespace

std::unique_ptr<Engine> NewLevelDBEngine(const EngineOptions& options) {
  return std::make_unique<LevelDBEngine>(options, /*shared_directory=*/false);
}

std::unique_ptr<Engine> NewLevelDBDirEngine(const EngineOptions& options) {
  return std::make_unique<LevelDBEngine>(options, /*shared_directory=*/true);
}

std::unique_ptr<Engine> NewLevelDBTableEngine(const EngineOptions& options,
                                              bool filter_aware) {
#ifndef BLOOMTABLE_DB_BENCH_WITH_LEVELDB_TABLE_LOOKUP
  if (filter_aware) return nullptr;
#endif
  return std::make_unique<LevelDBTableEngine>(options, filter_aware);
}

}  // namespace db_bench
}  // namespace bloomtable
