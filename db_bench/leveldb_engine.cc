// The LevelDB engine: a real leveldb::DB (Debian's LevelDB 1.23), at the db
// level.
//
//   - filter: LevelDB's own NewBloomFilterPolicy(bits) (none at 0 bits), or,
//     as the engine "leveldb+bloomtable", a bloomtable policy through
//     bloomtable::NewLevelDBFilterPolicyAdapter; either wrapped to count
//     queries and "absent" answers (leveldb_env.h);
//   - block cache: NewLRUCache(--cache_size), wrapped to count the lookups
//     that hit and miss (only data blocks go through it);
//   - memory: the filter and index blocks of the table files (which the
//     open tables hold: all of them, with the default max_open_files), read
//     from the files, and leveldb.approximate-memory-usage (block cache and
//     memtables; it leaves the open tables out);
//   - files: an EnvWrapper whose table files are mapped (LevelDB's default)
//     or read with pread (EngineOptions::mmap_reads), counted and delayed by
//     --io_latency_us (leveldb_env.h);
//   - layout: every key is written with Put, then CompactRange over the
//     whole key space, so that reads meet one sorted run of ~2 MB tables.
//     --tables > 1 cannot be modelled: LevelDB has no flush call, compacts
//     level 0 as soon as it holds 4 files, and compacts files that lookups
//     probe without result, so level-0 files do not stay put while reads
//     run. The shape reported says what the reads met.
//
// As the engine "leveldb_dir", the same DB opens its copy of the shared
// LevelDB-written directory (leveldb_dir_source.h: Puts without a full
// compaction, tables on several levels, the last writes in the live log),
// with reuse_logs, so that it reads what bloomtable_db reads. It may compact
// on open or when lookups miss: the files per level recorded before and
// after each benchmark show it.

#include <memory>
#include <string>
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
#include "db_bench/peer_iterator.h"
#include "db_bench/table_file_info.h"
#include "leveldb/db.h"
#include "leveldb/iterator.h"
#include "leveldb/options.h"

namespace bloomtable {
namespace db_bench {
namespace {

// LevelDB's levels (config::kNumLevels in its sources).
constexpr int kLevelDBLevels = 7;

leveldb::Slice ToSlice(std::string_view s) {
  return ToPeerSlice<leveldb::Slice>(s);
}

class LevelDBEngine final : public Engine {
 public:
  // `shared_directory`: the engine "leveldb_dir" (see above).
  LevelDBEngine(const EngineOptions& options, bool shared_directory)
      : options_(options),
        shared_directory_(shared_directory),
        io_(options.io_latency_us),
        env_(&io_, options.mmap_reads),
        filter_policy_(NewCountingFilterPolicy(options, &setup_status_)),
        block_cache_(std::make_unique<CountingCache>(options.cache_size)) {
    read_options_.verify_checksums = options.verify_checksums;
  }

  ~LevelDBEngine() override { db_.reset(); }

  std::string name() const override {
    if (shared_directory_) return "leveldb_dir";
    return options_.leveldb_adapted_policy != nullptr ? "leveldb+bloomtable"
                                                      : "leveldb";
  }

  absl::Status Fill(const FillInput& input, Progress* progress) override {
    db_.reset();
    if (!setup_status_.ok()) return setup_status_;
    if (shared_directory_) {
      absl::Status status = FillFromLevelDBSource(options_, input, progress);
      if (!status.ok()) return status;
      return Open();
    }
    absl::Status status = RecreateDirectory(options_.dir);
    if (!status.ok()) return status;
    status = Open();
    if (!status.ok()) return status;
    std::string key(input.keys->key_size(), '0');
    const leveldb::WriteOptions write_options;
    constexpr uint64_t kProgressBatch = 1000;
    uint64_t unreported = 0;
    for (uint64_t j : input.order) {
      input.keys->PresentKey(j, key.data());
      leveldb::Status put =
          db_->Put(write_options, key, ToSlice(input.values->Value(j)));
      if (!put.ok()) return FromPeerStatus(put);
      if (++unreported == kProgressBatch) {
        progress->Add(unreported);
        unreported = 0;
      }
    }
    progress->Add(unreported);
    progress->SetPhase("compacting");
    // Flushes the memtable, then compacts every level into the next.
    db_->CompactRange(nullptr, nullptr);
    return absl::OkStatus();
  }

  absl::Status OpenExisting() override {
    db_.reset();
    if (!setup_status_.ok()) return setup_status_;
    if (shared_directory_) {
      absl::Status status = RecopyLevelDBSource(options_);
      if (!status.ok()) return status;
    }
    return Open();
  }

  absl::Status Get(std::string_view key, std::string* value) const override {
    leveldb::Status status = db_->Get(read_options_, ToSlice(key), value);
    if (status.ok()) return absl::OkStatus();
    if (status.IsNotFound()) return absl::NotFoundError("");
    return FromPeerStatus(status);
  }

  std::unique_ptr<EngineIterator> NewIterator() const override {
    return std::make_unique<PeerIterator<leveldb::Iterator>>(
        std::unique_ptr<leveldb::Iterator>(db_->NewIterator(read_options_)));
  }

  EngineCounters Counters() const override {
    return LevelDBCounters(io_, filter_policy_.get(), *block_cache_);
  }

  MemorySummary Memory() const override {
    MemorySummary memory;
    memory.block_cache_usage = block_cache_->TotalCharge();
    memory.block_cache_capacity = options_.cache_size;
    std::string property;
    uint64_t engine_bytes = 0;
    if (db_ != nullptr &&
        db_->GetProperty("leveldb.approximate-memory-usage", &property) &&
        absl::SimpleAtoi(property, &engine_bytes)) {
      memory.engine_bytes = engine_bytes;
      memory.engine_bytes_name = "leveldb.approximate-memory-usage";
    }
    memory.sources =
        "filter and index: the blocks read from the table files (LevelDB "
        "holds both for every open table and cannot report them); "
        "leveldb.approximate-memory-usage counts the block cache and "
        "memtables only; block cache: Cache::TotalCharge";
    // Compactions may replace files while we list them: then say nothing.
    absl::StatusOr<std::vector<std::string>> paths = TablePaths();
    if (!paths.ok()) return memory;
    uint64_t filter_bytes = 0;
    uint64_t index_bytes = 0;
    for (const std::string& path : *paths) {
      absl::StatusOr<TableFileInfo> info = ReadTableFileInfo(path);
      if (absl::IsNotFound(info.status())) continue;  // compacted away
      if (!info.ok()) return memory;
      if (filter_policy_ != nullptr &&
          info->filter_key == absl::StrCat("filter.", filter_policy_->Name())) {
        filter_bytes += info->filter_bytes;
      }
      index_bytes += info->index_bytes;
    }
    memory.filter_bytes = filter_bytes;
    memory.index_bytes = index_bytes;
    return memory;
  }

  absl::StatusOr<StorageSummary> Storage() const override {
    StorageSummary summary;
    absl::StatusOr<std::vector<std::string>> paths = TablePaths();
    if (!paths.ok()) return paths.status();
    uint64_t filter_bytes = 0;
    for (const std::string& path : *paths) {
      absl::StatusOr<TableFileInfo> info = ReadTableFileInfo(path);
      // A compaction may delete a file while we list them: skip it.
      if (absl::IsNotFound(info.status())) continue;
      if (!info.ok()) return info.status();
      ++summary.table_files;
      summary.table_bytes += info->file_size;
      filter_bytes += info->filter_bytes;
    }
    summary.filter_bytes = filter_bytes;
    for (int level = 0; level < kLevelDBLevels; ++level) {
      std::string files;
      if (db_->GetProperty(absl::StrCat("leveldb.num-files-at-level", level),
                           &files) &&
          files != "0") {
        if (!summary.shape.empty()) summary.shape += ", ";
        absl::StrAppend(&summary.shape, "L", level, ": ", files, " files");
      }
    }
    if (options_.tables > 1) {
      summary.shape += " (--tables applies to bloomtable and RocksDB only)";
    }
    return summary;
  }

  std::string StatsText() const override {
    std::string stats;
    db_->GetProperty("leveldb.stats", &stats);
    std::string memory;
    if (db_->GetProperty("leveldb.approximate-memory-usage", &memory)) {
      absl::StrAppend(&stats, "approximate memory usage: ", memory, " bytes\n");
    }
    return stats;
  }

  void SetReadLatency(bool enabled) override { io_.SetLatencyEnabled(enabled); }

 private:
  absl::Status Open() {
    leveldb::Options db_options;
    // leveldb_dir opens the copy it was given, keeping its live log.
    db_options.create_if_missing = !shared_directory_;
    db_options.reuse_logs = shared_directory_;
    db_options.env = &env_;
    db_options.block_cache = block_cache_.get();
    db_options.block_size = options_.block_size;
    db_options.compression =
        options_.snappy ? leveldb::kSnappyCompression : leveldb::kNoCompression;
    db_options.filter_policy = filter_policy_.get();
    leveldb::DB* db = nullptr;
    leveldb::Status status = leveldb::DB::Open(db_options, options_.dir, &db);
    if (!status.ok()) return FromPeerStatus(status);
    db_.reset(db);
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
    // Lines " NUMBER:SIZE[SMALLEST .. LARGEST]" under "--- level N ---".
    std::vector<std::string> paths;
    for (absl::string_view line : absl::StrSplit(sstables, '\n')) {
      line = absl::StripLeadingAsciiWhitespace(line);
      const size_t colon = line.find(':');
      uint64_t number = 0;
      if (colon == absl::string_view::npos ||
          !absl::SimpleAtoi(line.substr(0, colon), &number)) {
        continue;
      }
      paths.push_back(absl::StrFormat("%s/%06d.ldb", options_.dir, number));
    }
    return paths;
  }

  const EngineOptions options_;
  const bool shared_directory_;
  IoModel io_;
  CountingEnv env_;
  // Why the filter policy could not be made, if it could not.
  absl::Status setup_status_;
  const std::unique_ptr<CountingFilterPolicy> filter_policy_;
  const std::unique_ptr<CountingCache> block_cache_;
  leveldb::ReadOptions read_options_;
  // Declared last: closed before what its options point to.
  std::unique_ptr<leveldb::DB> db_;
};

}  // namespace

std::unique_ptr<Engine> NewLevelDBEngine(const EngineOptions& options) {
  return std::make_unique<LevelDBEngine>(options, /*shared_directory=*/false);
}

std::unique_ptr<Engine> NewLevelDBDirEngine(const EngineOptions& options) {
  return std::make_unique<LevelDBEngine>(options, /*shared_directory=*/true);
}

}  // namespace db_bench
}  // namespace bloomtable
