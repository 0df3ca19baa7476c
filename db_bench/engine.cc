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

#ifdef BLOOMTABLE_DB_BENCH_WITH_LEVELDB_TABLE_LOOKUP
std::unique_ptr<Engine> NewLevelDBTableLookupEngine(
    const EngineOptions& options) {
  return NewLevelDBTableEngine(options, /*filter_aware=*/true);
}
#endif
#ifdef BLOOMTABLE_DB_BENCH_WITH_LEVELDB
std::unique_ptr<Engine> NewLevelDBTableIteratorEngine(
    const EngineOptions& options) {
  return NewLevelDBTableEngine(options, /*filter_aware=*/false);
}
#endif
#ifdef BLOOMTABLE_DB_BENCH_WITH_ROCKSDB_TABLE_READER
std::unique_ptr<Engine> NewRocksDBTableReaderEngine(
    const EngineOptions& options) {
  return NewRocksDBTableEngine(options, /*table_reader=*/true);
}
#endif
#ifdef BLOOMTABLE_DB_BENCH_WITH_ROCKSDB
std::unique_ptr<Engine> NewRocksDBSstIteratorEngine(
    const EngineOptions& options) {
  return NewRocksDBTableEngine(options, /*table_reader=*/false);
}
#endif

// Why a peer's engines are missing: the build option that leaves them out.
constexpr char kNoLevelDB[] = "built with BLOOMTABLE_WITH_LEVELDB=OFF";
constexpr char kNoRocksDB[] = "built with BLOOMTABLE_WITH_ROCKSDB=OFF";

std::vector<EngineEntry> MakeRegistry() {
  using Make = std::unique_ptr<Engine> (*)(const EngineOptions&);
  constexpr Make kNotBuilt = nullptr;
  Make leveldb_table = kNotBuilt, leveldb_table_iterator = kNotBuilt,
       leveldb_db = kNotBuilt, rocksdb_table = kNotBuilt,
       rocksdb_sst_iterator = kNotBuilt, rocksdb_db = kNotBuilt,
       leveldb_dir = kNotBuilt, bloomtable_db = kNotBuilt,
       rocksdb_readonly = kNotBuilt;
  std::string leveldb_table_left_out = kNoLevelDB;
  std::string leveldb_left_out = kNoLevelDB;
  std::string rocksdb_table_left_out = kNoRocksDB;
  std::string rocksdb_left_out = kNoRocksDB;
#ifdef BLOOMTABLE_DB_BENCH_WITH_LEVELDB
  leveldb_table_iterator = &NewLevelDBTableIteratorEngine;
  leveldb_db = &NewLevelDBEngine;
  leveldb_dir = &NewLevelDBDirEngine;
  bloomtable_db = &NewBloomtableDbEngine;
  leveldb_left_out.clear();
  leveldb_table_left_out =
      "LevelDB's source package is not unpacked (bench/build_peers.sh "
      "--fetch, then configure again)";
#ifdef BLOOMTABLE_DB_BENCH_WITH_LEVELDB_TABLE_LOOKUP
  leveldb_table = &NewLevelDBTableLookupEngine;
  leveldb_table_left_out.clear();
#endif
#endif
#ifdef BLOOMTABLE_DB_BENCH_WITH_ROCKSDB
  rocksdb_sst_iterator = &NewRocksDBSstIteratorEngine;
  rocksdb_db = &NewRocksDBEngine;
  rocksdb_readonly = &NewRocksDBReadOnlyEngine;
  rocksdb_left_out.clear();
  rocksdb_table_left_out =
      "TableReader::Get is built only against a release build of RocksDB "
      "from source, whose compile definitions it needs "
      "(-DBLOOMTABLE_RELEASE_PEERS=$(bench/build_peers.sh --print))";
#ifdef BLOOMTABLE_DB_BENCH_WITH_ROCKSDB_TABLE_READER
  rocksdb_table = &NewRocksDBTableReaderEngine;
  rocksdb_table_left_out.clear();
#endif
#endif
  return {
      {"bloomtable", "table", "bloomtable", "bloomtable::Table::Get",
       &NewBloomtableEngine, ""},
      {"leveldb_table", "table", "leveldb",
       "leveldb::TableCache::Get -> Table::InternalGet (filter-aware)",
       leveldb_table, leveldb_table_left_out},
      {"leveldb_table_iterator", "table", "leveldb",
       "leveldb::Table::NewIterator()->Seek (never asks the filter)",
       leveldb_table_iterator, leveldb_left_out},
      {"rocksdb_table", "table", "rocksdb",
       "rocksdb::TableReader::Get (BlockBasedTable, whole-key filter)",
       rocksdb_table, rocksdb_table_left_out},
      {"rocksdb_sst_iterator", "table", "rocksdb",
       "rocksdb::SstFileReader::NewIterator()->Seek (prefix filter check)",
       rocksdb_sst_iterator, rocksdb_left_out},
      {"leveldb", "db", "leveldb", "leveldb::DB::Get", leveldb_db,
       leveldb_left_out},
      {"leveldb+bloomtable", "db", "leveldb",
       "leveldb::DB::Get with bloomtable's filter through the adapter",
       leveldb_db, leveldb_left_out},
      {"rocksdb", "db", "rocksdb", "rocksdb::DB::Get", rocksdb_db,
       rocksdb_left_out},
      // The read-only rows. bloomtable_db needs LevelDB, which writes the
      // directory it reads.
      {"bloomtable_db", "db", "bloomtable",
       "bloomtable::Database::Get (read-only view of a LevelDB directory)",
       bloomtable_db, leveldb_left_out},
      {"leveldb_dir", "db", "leveldb",
       "leveldb::DB::Get (the same LevelDB directory, reuse_logs)", leveldb_dir,
       leveldb_left_out},
      {"rocksdb_readonly", "db", "rocksdb",
       "rocksdb::DB::Get (DB::OpenForReadOnly)", rocksdb_readonly,
       rocksdb_left_out},
  };
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
