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
//
// The engine "bloomtable_db+sidecars" is the same view with sidecar filters
// (bloomtable/sidecar.h) of EngineOptions::bloomtable_policy: after each
// fill, BuildSidecarFilters writes them into a directory beside its copy
// ("DIR.sidecars"), timed on 1 thread and again (into a scratch directory)
// on 2; the view opens with DatabaseOptions::filters_dir, so that a lookup
// asks the sidecar before the table and the tables' own filter blocks are
// never loaded.

#include <chrono>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "bloomtable/cache.h"
#include "bloomtable/database.h"
#include "bloomtable/file.h"
#include "bloomtable/sidecar.h"
#include "db_bench/bloomtable_env.h"
#include "db_bench/directory.h"
#include "db_bench/engine.h"
#include "db_bench/leveldb_dir_source.h"
#include "db_bench/table_file_info.h"

namespace bloomtable {
namespace db_bench {
namespace {

// DatabaseOptions::multi_get_read_threads with direct I/O: enough that a
// batch's reads of a few dozen tables are mostly in flight together.
constexpr int kColdReadThreads = 8;

class BloomtableDbEngine final : public Engine {
 public:
  // `sidecars`: the engine "bloomtable_db+sidecars" (see above).
  BloomtableDbEngine(const EngineOptions& options, bool sidecars)
      : options_(options),
        setup_(options),
        sidecar_dir_(sidecars ? options.dir + ".sidecars" : "") {
    read_options_.verify_checksums = options.verify_checksums;
  }

  std::string name() const override {
    return sidecar_dir_.empty() ? "bloomtable_db" : "bloomtable_db+sidecars";
  }

  absl::Status Fill(const FillInput& input, Progress* progress) override {
    db_.reset();
    absl::Status status = FillFromLevelDBSource(options_, input, progress);
    if (status.ok() && !sidecar_dir_.empty()) {
      progress->SetPhase("building sidecars");
      status = BuildSidecars();
    }
    if (!status.ok()) return status;
    return Open();
  }

  absl::Status OpenExisting() override {
    db_.reset();
    // The view never writes into its copy: an unchanged one is kept (no
    // copy, and no dirty pages that a direct read would first flush).
    absl::Status status =
        RecopyLevelDBSource(options_, /*unless_unchanged=*/true);
    if (!status.ok()) return status;
    // The copy is byte for byte what the sidecars were built for: they stay
    // bound to it, and are rebuilt only if they are gone.
    if (!sidecar_dir_.empty()) {
      absl::StatusOr<SidecarBuildSummary> kept =
          BuildSidecarFilters(options_.dir, sidecar_dir_, BuildOptions(1));
      if (!kept.ok()) return kept.status();
    }
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

  // Readers keep one PinnedValue: GetPinned is Database::Get into it.
  std::unique_ptr<EngineReader> NewReader() const override {
    return std::make_unique<PinningReader<Database, DatabaseReadOptions>>(
        this, db_.get(), read_options_);
  }
  bool HasPinnedGet() const override { return true; }

  std::unique_ptr<EngineIterator> NewIterator() const override {
    return std::make_unique<PeerIterator<Iterator>>(
        db_->NewIterator(read_options_));
  }

  EngineCounters Counters() const override {
    EngineCounters counters = setup_.Counters();
    if (db_ == nullptr) return counters;
    const DatabaseStats stats = db_->GetStats();
    // With sidecars, their filters are asked first; a table's own filter
    // only where its sidecar is not in use.
    counters.has_filter_counters =
        options_.bloom_bits > 0 || !sidecar_dir_.empty();
    counters.filter_checks =
        stats.tables.filter_checks + stats.sidecar_filter_checks;
    counters.filter_negatives =
        stats.tables.filter_negatives + stats.sidecar_filter_negatives;
    counters.has_block_cache_counters = true;
    counters.block_cache_hits = stats.tables.block_cache_hits;
    counters.block_cache_misses = stats.tables.block_cache_misses;
    return counters;
  }

  MemorySummary Memory() const override;
  absl::StatusOr<StorageSummary> Storage() const override;

 private:
  absl::Status Open();
  SidecarBuildOptions BuildOptions(int threads) const {
    SidecarBuildOptions build;
    build.filters.filter_policy = options_.bloomtable_policy;
    build.threads = threads;
    return build;
  }
  // Builds the sidecars afresh, on 1 thread, then times a build on 2.
  absl::Status BuildSidecars();
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
  // Where the sidecars are; empty for "bloomtable_db".
  const std::string sidecar_dir_;
  // The last fill's sidecar builds (MemorySummary's sidecar_* fields).
  std::optional<SidecarBuildSummary> sidecar_build_;
  double sidecar_build_micros_2_threads_ = 0;
  DatabaseReadOptions read_options_;
  std::unique_ptr<Database> db_;
  // Table-file reads and data-block reads between the last OpenReadOnly and
  // the first lookup after it, and OpenReadOnly's time.
  uint64_t open_file_reads_ = 0;
  uint64_t open_data_block_reads_ = 0;
  double open_micros_ = 0;
};

absl::Status BloomtableDbEngine::BuildSidecars() {
  sidecar_build_.reset();
  const std::string scratch = sidecar_dir_ + "-2-threads";
  for (const std::string& dir : {sidecar_dir_, scratch}) {
    absl::Status removed = RemoveDirectory(dir);
    if (!removed.ok()) return removed;
  }
  absl::StatusOr<SidecarBuildSummary> one =
      BuildSidecarFilters(options_.dir, sidecar_dir_, BuildOptions(1));
  if (!one.ok()) return one.status();
  absl::StatusOr<SidecarBuildSummary> two =
      BuildSidecarFilters(options_.dir, scratch, BuildOptions(2));
  absl::Status removed = RemoveDirectory(scratch);
  if (!two.ok()) return two.status();
  if (!removed.ok()) return removed;
  for (const SidecarBuildSummary* build : {&*one, &*two}) {
    if (!build->failed.empty() || build->built != build->tables) {
      return absl::InternalError(absl::StrCat(
          sidecar_dir_, ": built ", build->built, " sidecars for ",
          build->tables, " tables (", absl::StrJoin(build->failed, "; "), ")"));
    }
  }
  sidecar_build_ = *one;
  sidecar_build_micros_2_threads_ = two->seconds * 1e6;
  return absl::OkStatus();
}

absl::Status BloomtableDbEngine::Open() {
  db_.reset();
  DatabaseOptions db_options;
  db_options.filters_dir = sidecar_dir_;
  db_options.block_cache = setup_.block_cache();
  db_options.mmap_reads = options_.mmap_reads;
  // Cold (cold_bench): every block from the device, with O_DIRECT; a
  // MultiGet's blocks of one table through an io_uring ring of
  // io_uring_depth, those of different tables on kColdReadThreads threads
  // at once.
  db_options.use_direct_io = options_.direct_io;
  db_options.io_uring_queue_depth = options_.io_uring_depth;
  db_options.multi_get_read_threads = options_.direct_io ? kColdReadThreads : 0;
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
      "table-file and data-block reads between it and the first lookup; "
      "with sidecars, filter: Database::GetStats().sidecar_memory_bytes");
  memory.open_micros = open_micros_;
  memory.open_file_reads = open_file_reads_;
  memory.open_data_block_reads = open_data_block_reads_;
  if (sidecar_build_) {
    memory.sidecar_keys = sidecar_build_->keys;
    memory.sidecar_bytes = sidecar_build_->bytes;
    memory.sidecar_build_micros_1_thread = sidecar_build_->seconds * 1e6;
    memory.sidecar_build_micros_2_threads = sidecar_build_micros_2_threads_;
  }
  if (db_ == nullptr) return memory;
  const DatabaseStats stats = db_->GetStats();
  memory.engine_bytes = stats.table_memory_bytes + stats.sidecar_memory_bytes;
  memory.engine_bytes_name =
      "Database::GetStats(): table_memory_bytes + sidecar_memory_bytes";
  uint64_t filter_bytes = 0;
  uint64_t index_bytes = 0;
  for (const std::string& path : TablePaths()) {
    absl::StatusOr<TableFileInfo> info = ReadTableFileInfo(path);
    if (!info.ok()) return memory;
    filter_bytes += info->filter_bytes;
    index_bytes += info->index_bytes;
  }
  // With sidecars, the tables' own filter blocks are never loaded: the
  // sidecars' filters are what is held.
  memory.filter_bytes =
      sidecar_dir_.empty() ? filter_bytes : stats.sidecar_memory_bytes;
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
  if (!sidecar_dir_.empty()) {
    // The filter this engine reads is the sidecars', stored beside.
    uint64_t sidecar_bytes = 0;
    for (const DatabaseTableFile& file : db_->tables()) {
      std::error_code error;
      const uintmax_t size = std::filesystem::file_size(
          std::filesystem::path(sidecar_dir_) / SidecarFileName(file.name),
          error);
      if (error) {
        return absl::NotFoundError(absl::StrCat(sidecar_dir_,
                                                ": no sidecar for ", file.name,
                                                ": ", error.message()));
      }
      sidecar_bytes += size;
    }
    summary->filter_bytes = sidecar_bytes;
  }
  return summary;
}

}  // namespace

std::unique_ptr<Engine> NewBloomtableDbEngine(const EngineOptions& options) {
  return std::make_unique<BloomtableDbEngine>(options, /*sidecars=*/false);
}

std::unique_ptr<Engine> NewBloomtableDbSidecarEngine(
    const EngineOptions& options) {
  return std::make_unique<BloomtableDbEngine>(options, /*sidecars=*/true);
}

}  // namespace db_bench
}  // namespace bloomtable
