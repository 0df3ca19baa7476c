#include "db_bench/engine.h"

#include <algorithm>

#include "absl/strings/str_cat.h"

namespace bloomtable {
namespace db_bench {

EngineCounters EngineCounters::operator-(const EngineCounters& earlier) const {
  EngineCounters delta = *this;
  delta.file_reads -= earlier.file_reads;
  delta.file_bytes_read -= earlier.file_bytes_read;
  delta.filter_checks -= earlier.filter_checks;
  delta.filter_negatives -= earlier.filter_negatives;
  if (filter_true_positives && earlier.filter_true_positives) {
    delta.filter_true_positives =
        *filter_true_positives - *earlier.filter_true_positives;
  }
  delta.block_cache_hits -= earlier.block_cache_hits;
  delta.block_cache_misses -= earlier.block_cache_misses;
  return delta;
}

std::vector<uint64_t> SortedEntries(absl::Span<const uint64_t> order) {
  std::vector<uint64_t> sorted(order.begin(), order.end());
  if (!std::is_sorted(sorted.begin(), sorted.end())) {
    std::sort(sorted.begin(), sorted.end());
  }
  sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
  return sorted;
}

absl::Status PutEntries(
    const FillInput& input, absl::Span<const uint64_t> entries,
    Progress* progress,
    const std::function<absl::Status(std::string_view key,
                                     std::string_view value)>& put) {
  std::string key(input.keys->key_size(), '0');
  // Progress in batches: one atomic add per thousand entries.
  constexpr uint64_t kProgressBatch = 1000;
  uint64_t unreported = 0;
  for (uint64_t j : entries) {
    input.keys->PresentKey(j, key.data());
    absl::Status status = put(key, input.values->Value(j));
    if (!status.ok()) return status;
    if (++unreported == kProgressBatch) {
      progress->Add(unreported);
      unreported = 0;
    }
  }
  progress->Add(unreported);
  return absl::OkStatus();
}

std::string LevelShape(const std::map<int, int>& files_per_level) {
  std::string shape;
  for (const auto& [level, count] : files_per_level) {
    absl::StrAppend(&shape, shape.empty() ? "" : ", ", "L", level, ": ", count,
                    " files");
  }
  return shape;
}

namespace {

class ForwardingReader final : public EngineReader {
 public:
  explicit ForwardingReader(const Engine* engine) : engine_(engine) {}
  absl::Status Get(std::string_view key, std::string* value) override {
    return engine_->Get(key, value);
  }

 private:
  const Engine* const engine_;
};

}  // namespace

absl::Status EngineReader::GetPinned(std::string_view, std::string_view*) {
  return absl::UnimplementedError("this engine has no zero-copy Get");
}

std::unique_ptr<EngineReader> Engine::NewReader() const {
  return std::make_unique<ForwardingReader>(this);
}

void Engine::MultiGet(const std::vector<std::string_view>& keys,
                      std::vector<absl::Status>* statuses,
                      std::vector<std::string>* values) const {
  statuses->resize(keys.size());
  values->resize(keys.size());
  const std::unique_ptr<EngineReader> reader = NewReader();
  for (size_t i = 0; i < keys.size(); ++i) {
    (*statuses)[i] = reader->Get(keys[i], &(*values)[i]);
  }
}

namespace {

// An engine's maker where this binary has it, else null.
#ifdef BLOOMTABLE_DB_BENCH_WITH_LEVELDB
#define BLOOMTABLE_IF_LEVELDB(make) make
#else
#define BLOOMTABLE_IF_LEVELDB(make) nullptr
#endif
#ifdef BLOOMTABLE_DB_BENCH_WITH_ROCKSDB
#define BLOOMTABLE_IF_ROCKSDB(make) make
#else
#define BLOOMTABLE_IF_ROCKSDB(make) nullptr
#endif

std::vector<EngineEntry> MakeRegistry() {
  // Why a peer's engines are missing: the build that leaves them out.
  std::string leveldb = "built with BLOOMTABLE_WITH_LEVELDB=OFF";
  std::string leveldb_table = leveldb;
  std::string rocksdb = "built with BLOOMTABLE_WITH_ROCKSDB=OFF";
  std::string rocksdb_table = rocksdb;
#ifdef BLOOMTABLE_DB_BENCH_WITH_LEVELDB
  leveldb.clear();
  leveldb_table =
      "LevelDB's source package is not unpacked (bench/build_peers.sh "
      "--fetch, then configure again)";
#endif
#ifdef BLOOMTABLE_DB_BENCH_WITH_LEVELDB_TABLE_LOOKUP
  leveldb_table.clear();
#endif
#ifdef BLOOMTABLE_DB_BENCH_WITH_ROCKSDB
  rocksdb.clear();
  rocksdb_table =
      "TableReader::Get is built only against a release build of RocksDB "
      "from source, whose compile definitions it needs "
      "(-DBLOOMTABLE_RELEASE_PEERS=$(bench/build_peers.sh --print))";
#endif
#ifdef BLOOMTABLE_DB_BENCH_WITH_ROCKSDB_TABLE_READER
  rocksdb_table.clear();
#endif
  using Make = std::unique_ptr<Engine> (*)(const EngineOptions&);
  const Make leveldb_db = BLOOMTABLE_IF_LEVELDB(&NewLevelDBEngine);
  const Make rocksdb_db = BLOOMTABLE_IF_ROCKSDB(&NewRocksDBEngine);
  std::vector<EngineEntry> entries = {
      {"bloomtable", "table", "bloomtable", "bloomtable::Table::Get",
       &NewBloomtableEngine, ""},
      {"leveldb_table", "table", "leveldb",
       "leveldb::TableCache::Get -> Table::InternalGet (filter-aware)",
       BLOOMTABLE_IF_LEVELDB([](const EngineOptions& options) {
         return NewLevelDBTableEngine(options, /*filter_aware=*/true);
       }),
       leveldb_table},
      {"leveldb_table_iterator", "table", "leveldb",
       "leveldb::Table::NewIterator()->Seek (never asks the filter)",
       BLOOMTABLE_IF_LEVELDB([](const EngineOptions& options) {
         return NewLevelDBTableEngine(options, /*filter_aware=*/false);
       }),
       leveldb},
      {"rocksdb_table", "table", "rocksdb",
       "rocksdb::TableReader::Get (BlockBasedTable, whole-key filter)",
       BLOOMTABLE_IF_ROCKSDB([](const EngineOptions& options) {
         return NewRocksDBTableEngine(options, /*table_reader=*/true);
       }),
       rocksdb_table},
      {"rocksdb_sst_iterator", "table", "rocksdb",
       "rocksdb::SstFileReader::NewIterator()->Seek (prefix filter check)",
       BLOOMTABLE_IF_ROCKSDB([](const EngineOptions& options) {
         return NewRocksDBTableEngine(options, /*table_reader=*/false);
       }),
       rocksdb},
      {"leveldb", "db", "leveldb", "leveldb::DB::Get", leveldb_db, leveldb},
      {"leveldb+bloomtable", "db", "leveldb",
       "leveldb::DB::Get with bloomtable's filter through the adapter",
       leveldb_db, leveldb},
      {"rocksdb", "db", "rocksdb", "rocksdb::DB::Get", rocksdb_db, rocksdb},
      // The read-only rows. bloomtable_db needs LevelDB, which writes the
      // directory it reads.
      {"bloomtable_db", "db", "bloomtable",
       "bloomtable::Database::Get (read-only view of a LevelDB directory)",
       BLOOMTABLE_IF_LEVELDB(&NewBloomtableDbEngine), leveldb},
      {"bloomtable_db+sidecars", "db", "bloomtable",
       "bloomtable::Database::Get with sidecar filters (DatabaseOptions::"
       "filters_dir, built by BuildSidecarFilters), then the table",
       BLOOMTABLE_IF_LEVELDB(&NewBloomtableDbSidecarEngine), leveldb},
      {"leveldb_dir", "db", "leveldb",
       "leveldb::DB::Get (the same LevelDB directory, reuse_logs, after "
       "the compactions its open started)",
       BLOOMTABLE_IF_LEVELDB(&NewLevelDBDirEngine), leveldb},
      {"rocksdb_readonly", "db", "rocksdb",
       "rocksdb::DB::Get (DB::OpenForReadOnly)",
       BLOOMTABLE_IF_ROCKSDB(&NewRocksDBReadOnlyEngine), rocksdb},
  };
  // The table-level lookups built only with the peers' sources.
  for (EngineEntry& entry : entries) {
    if (!entry.left_out.empty()) entry.make = nullptr;
  }
  return entries;
}

}  // namespace

const std::vector<EngineEntry>& EngineRegistry() {
  static const std::vector<EngineEntry>* const registry =
      new std::vector<EngineEntry>(MakeRegistry());
  return *registry;
}

const EngineEntry* FindEngine(const std::string& name) {
  for (const EngineEntry& entry : EngineRegistry()) {
    if (entry.name == name) return &entry;
  }
  return nullptr;
}

std::unique_ptr<Engine> NewEngine(const std::string& name,
                                  const EngineOptions& options) {
  const EngineEntry* entry = FindEngine(name);
  if (entry == nullptr || entry->make == nullptr) return nullptr;
  return entry->make(options);
}

}  // namespace db_bench
}  // namespace bloomtable
