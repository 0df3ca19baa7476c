// The engine "bloomtable_db": bloomtable's read-only database view
// (Database::OpenReadOnly) on its copy of the shared LevelDB-written
// directory (leveldb_dir_source.h), the same files that "leveldb_dir" opens
// with a leveldb::DB. Lookups are Database::Get, scans Database::NewIterator;
// the tables' LevelDB Bloom filters are asked through bloomtable's
// LevelDB-compatible policy; each table file is wrapped to count its reads
// (DatabaseOptions::wrap_table_file) and opened when a lookup first needs
// it. The table-file and data-block reads between OpenReadOnly and the first
// lookup are recorded (MemorySummary's open_file_reads and
// open_data_block_reads).

#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "bloomtable/cache.h"
#include "bloomtable/database.h"
#include "bloomtable/file.h"
#include "db_bench/bloomtable_env.h"
#include "db_bench/engine.h"
#include "db_bench/leveldb_dir_source.h"
#include "db_bench/table_file_info.h"

namespace bloomtable {
namespace db_bench {
namespace {

class BloomtableDbEngine final : public Engine {
 public:
  explicit BloomtableDbEngine(const EngineOptions& options)
      : options_(options), setup_(options) {
    read_options_.verify_checksums = options.verify_checksums;
  }

  std::string name() const override { return "bloomtable_db"; }

  absl::Status Fill(const FillInput& input, Progress* progress) override {
    db_.reset();
    absl::Status status = FillFromLevelDBSource(options_, input, progress);
    if (!status.ok()) return status;
    return Open();
  }

  absl::Status OpenExisting() override {
    db_.reset();
    absl::Status status = RecopyLevelDBSource(options_);
    if (!status.ok()) return status;
    return Open();
  }

  absl::Status Get(std::string_view key, std::string* value) const override {
    absl::StatusOr<std::string> found = db_->Get(read_options_, key);
    if (!found.ok()) {
      return absl::IsNotFound(found.status()) ? absl::NotFoundError("")
                                              : found.status();
    }
    *value = *std::move(found);
    return absl::OkStatus();
  }

  // Database::MultiGet: the keys waiting on one table looked up there
  // together (one read per distinct data block); answers as Get's.
  void MultiGet(const std::vector<std::string_view>& keys,
                std::vector<absl::Status>* statuses,
                std::vector<std::string>* values) const override {
    std::vector<absl::StatusOr<std::string>> results =
        db_->MultiGet(read_options_, keys);
    statuses->resize(keys.size());
    values->resize(keys.size());
    for (size_t i = 0; i < keys.size(); ++i) {
      if (results[i].ok()) {
        (*statuses)[i] = absl::OkStatus();
        (*values)[i] = *std::move(results[i]);
      } else {
        (*statuses)[i] = absl::IsNotFound(results[i].status())
                             ? absl::NotFoundError("")
                             : results[i].status();
      }
    }
  }
  bool HasNativeMultiGet() const override { return true; }

  std::unique_ptr<EngineIterator> NewIterator() const override {
    return std::make_unique<PeerIterator<Iterator>>(
        db_->NewIterator(read_options_));
  }

  EngineCounters Counters() const override {
    EngineCounters counters = setup_.Counters();
    if (db_ == nullptr) return counters;
    const DatabaseStats stats = db_->GetStats();
    counters.has_filter_counters = options_.bloom_bits > 0;
    counters.filter_checks = stats.tables.filter_checks;
    counters.filter_negatives = stats.tables.filter_negatives;
    counters.has_block_cache_counters = true;
    counters.block_cache_hits = stats.tables.block_cache_hits;
    counters.block_cache_misses = stats.tables.block_cache_misses;
    return counters;
  }

  MemorySummary Memory() const override;
  absl::StatusOr<StorageSummary> Storage() const override;

 private:
  absl::Status Open();
  // The table files of the view's version.
  std::vector<std::string> TablePaths() const {
    std::vector<std::string> paths;
    for (const DatabaseTableFile& file : db_->tables()) {
      paths.push_back(absl::StrCat(options_.dir, "/", file.name));
    }
    return paths;
  }

  const EngineOptions options_;
  const BloomtableSetup setup_;
  DatabaseReadOptions read_options_;
  std::unique_ptr<Database> db_;
  // Table-file reads and data-block reads between the last OpenReadOnly and
  // the first lookup after it, and OpenReadOnly's time.
  uint64_t open_file_reads_ = 0;
  uint64_t open_data_block_reads_ = 0;
  double open_micros_ = 0;
};

absl::Status BloomtableDbEngine::Open() {
  db_.reset();
  DatabaseOptions db_options;
  db_options.block_cache = setup_.block_cache();
  db_options.mmap_reads = options_.mmap_reads;
  db_options.wrap_table_file = [this](std::unique_ptr<RandomAccessFile> file) {
    return setup_.Wrap(std::move(file));
  };
  const uint64_t reads_before = setup_.file_reads();
  const auto start = std::chrono::steady_clock::now();
  absl::StatusOr<std::unique_ptr<Database>> db =
      Database::OpenReadOnly(options_.dir, db_options);
  open_micros_ = std::chrono::duration<double, std::micro>(
                     std::chrono::steady_clock::now() - start)
                     .count();
  if (!db.ok()) return db.status();
  db_ = *std::move(db);
  if (!db_->ordered()) {
    return absl::FailedPreconditionError(absl::StrCat(
        options_.dir, ": comparator ", db_->comparator_name(), " unknown"));
  }
  // What opening read of the tables: nothing has looked a key up yet.
  open_file_reads_ = setup_.file_reads() - reads_before;
  open_data_block_reads_ = db_->GetStats().tables.data_block_reads;
  return absl::OkStatus();
}

MemorySummary BloomtableDbEngine::Memory() const {
  MemorySummary memory = setup_.CacheMemory(
      "filter and index: the blocks of every table of the version, read "
      "from the files (what the view holds once every table is open); "
      "Database::GetStats: Table::ApproximateMemoryUsage of the tables open "
      "now (they open when first needed); block "
      "cache: Cache::usage; open: Database::OpenReadOnly's time, and the "
      "table-file and data-block reads between it and the first lookup");
  memory.open_micros = open_micros_;
  memory.open_file_reads = open_file_reads_;
  memory.open_data_block_reads = open_data_block_reads_;
  if (db_ == nullptr) return memory;
  memory.engine_bytes = db_->GetStats().table_memory_bytes;
  memory.engine_bytes_name = "Database::GetStats().table_memory_bytes";
  uint64_t filter_bytes = 0;
  uint64_t index_bytes = 0;
  for (const std::string& path : TablePaths()) {
    absl::StatusOr<TableFileInfo> info = ReadTableFileInfo(path);
    if (!info.ok()) return memory;
    filter_bytes += info->filter_bytes;
    index_bytes += info->index_bytes;
  }
  memory.filter_bytes = filter_bytes;
  memory.index_bytes = index_bytes;
  return memory;
}

absl::StatusOr<StorageSummary> BloomtableDbEngine::Storage() const {
  if (db_ == nullptr) return absl::FailedPreconditionError("not open");
  absl::StatusOr<StorageSummary> summary = StorageOfFiles(TablePaths());
  if (!summary.ok()) return summary;
  std::map<int, int> files_per_level;
  for (const DatabaseTableFile& file : db_->tables()) {
    ++files_per_level[file.level];
  }
  uint64_t log_records = 0;
  for (const DatabaseLogFile& log : db_->logs()) log_records += log.records;
  summary->shape = LevelShape(files_per_level);
  absl::StrAppend(&summary->shape, summary->shape.empty() ? "" : ", ",
                  "log: ", log_records, " records");
  return summary;
}

}  // namespace

std::unique_ptr<Engine> NewBloomtableDbEngine(const EngineOptions& options) {
  return std::make_unique<BloomtableDbEngine>(options);
}

}  // namespace db_bench
}  // namespace bloomtable
