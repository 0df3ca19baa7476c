#include "db_bench/cold_rocksdb.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "db_bench/cold_keys.h"
#include "db_bench/directory.h"
#include "db_bench/filter_budget.h"
#include "db_bench/peer_iterator.h"
#include "db_bench/rocksdb_env.h"
#include "db_bench/sharded_counter.h"
#include "rocksdb/cache.h"
#include "rocksdb/db.h"
#include "rocksdb/env.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/options.h"
#include "rocksdb/sst_file_reader.h"
#include "rocksdb/sst_file_writer.h"
#include "rocksdb/table.h"
#include "rocksdb/table_properties.h"

namespace bloomtable {
namespace db_bench {
namespace {

// A reused database's filter may store this far from the target.
constexpr double kReuseTolerance = 0.01;

rocksdb::Options TableOptionsFor(const ColdRocksDBOptions& options,
                                 double bits_per_key, bool no_block_cache,
                                 std::shared_ptr<rocksdb::Cache> cache) {
  rocksdb::BlockBasedTableOptions table;
  table.block_size = options.block_size;
  table.filter_policy.reset(
      rocksdb::NewBloomFilterPolicy(bits_per_key,
                                    /*use_block_based_builder=*/false));
  table.whole_key_filtering = true;
  table.cache_index_and_filter_blocks = false;
  table.no_block_cache = no_block_cache;
  if (!no_block_cache) table.block_cache = std::move(cache);
  rocksdb::Options db;
  db.compression =
      options.snappy ? rocksdb::kSnappyCompression : rocksdb::kNoCompression;
  db.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
  return db;
}

// Writes keys ColdStoredKey(0 .. count - 1) into one table file at `path`.
absl::Status WriteSst(const ColdRocksDBOptions& options, double bits_per_key,
                      uint64_t count, const std::string& path) {
  rocksdb::Options db = TableOptionsFor(options, bits_per_key,
                                        /*no_block_cache=*/true, nullptr);
  rocksdb::SstFileWriter writer(rocksdb::EnvOptions(), db);
  rocksdb::Status s = writer.Open(path);
  const std::string value(options.value_size, 'v');
  for (uint64_t i = 0; s.ok() && i < count; ++i) {
    s = writer.Put(ColdStoredKey(i), value);
  }
  if (s.ok()) s = writer.Finish();
  return FromPeerStatus(s);
}

// The filter bits per key stored by the table file at `path`.
absl::StatusOr<double> StoredBitsOfSst(const std::string& path) {
  rocksdb::SstFileReader reader(rocksdb::Options{});
  rocksdb::Status s = reader.Open(path);
  if (!s.ok()) return FromPeerStatus(s);
  auto properties = reader.GetTableProperties();
  if (properties == nullptr || properties->num_entries == 0) {
    return absl::InternalError(path + ": no entries");
  }
  return properties->filter_size * 8.0 / properties->num_entries;
}

struct StoredFacts {
  uint64_t entries = 0;
  uint64_t filter_bytes = 0;
  uint64_t file_bytes = 0;
  uint64_t files = 0;
};

// What the database in `dir` holds, opened read-only.
absl::StatusOr<StoredFacts> FactsOf(const std::string& dir) {
  rocksdb::Options options;
  rocksdb::DB* raw = nullptr;
  rocksdb::Status s = rocksdb::DB::OpenForReadOnly(options, dir, &raw);
  if (!s.ok()) return FromPeerStatus(s);
  std::unique_ptr<rocksdb::DB> db(raw);
  rocksdb::TablePropertiesCollection properties;
  s = db->GetPropertiesOfAllTables(&properties);
  if (!s.ok()) return FromPeerStatus(s);
  StoredFacts facts;
  for (const auto& [path, table] : properties) {
    facts.entries += table->num_entries;
    facts.filter_bytes += table->filter_size;
    ++facts.files;
  }
  std::vector<rocksdb::LiveFileMetaData> files;
  db->GetLiveFilesMetaData(&files);
  for (const rocksdb::LiveFileMetaData& file : files) {
    facts.file_bytes += file.size;
  }
  db->Close().PermitUncheckedError();
  return facts;
}

class RocksDBColdReader final : public ColdReader {
 public:
  RocksDBColdReader(std::unique_ptr<ReadCounters> io,
                    std::shared_ptr<rocksdb::FileSystem> file_system,
                    std::unique_ptr<rocksdb::Env> env,
                    std::unique_ptr<rocksdb::DB> db)
      : io_(std::move(io)),
        file_system_(std::move(file_system)),
        env_(std::move(env)),
        db_(std::move(db)),
        reads_at_open_(io_->reads.Sum()) {}

  ~RocksDBColdReader() override {
    // The last Get's value may pin a block of the database: release it first.
    value_.Reset();
    db_->Close().PermitUncheckedError();
  }

  absl::StatusOr<uint64_t> Lookup(const std::string_view* keys, size_t n,
                                  bool batched) override {
    uint64_t found = 0;
    if (!batched) {
      for (size_t i = 0; i < n; ++i) {
        value_.Reset();
        rocksdb::Status s =
            db_->Get(read_options_, db_->DefaultColumnFamily(),
                     ToPeerSlice<rocksdb::Slice>(keys[i]), &value_);
        if (s.ok()) {
          ++found;
        } else if (!s.IsNotFound()) {
          return FromPeerStatus(s);
        }
      }
      return found;
    }
    slices_.resize(n);
    for (size_t i = 0; i < n; ++i) {
      slices_[i] = ToPeerSlice<rocksdb::Slice>(keys[i]);
    }
    // Fresh each batch: a PinnableSlice must be reset before reuse.
    std::vector<rocksdb::PinnableSlice> values(n);
    statuses_.assign(n, rocksdb::Status());
    db_->MultiGet(read_options_, db_->DefaultColumnFamily(), n, slices_.data(),
                  values.data(), statuses_.data(),
                  /*sorted_input=*/false);
    for (const rocksdb::Status& s : statuses_) {
      if (s.ok()) {
        ++found;
      } else if (!s.IsNotFound()) {
        return FromPeerStatus(s);
      }
    }
    return found;
  }

  uint64_t file_reads() const override {
    return io_->reads.Sum() - reads_at_open_;
  }

 private:
  // Declared in this order so that the database closes before its
  // environment and file system go.
  const std::unique_ptr<ReadCounters> io_;
  const std::shared_ptr<rocksdb::FileSystem> file_system_;
  const std::unique_ptr<rocksdb::Env> env_;
  const std::unique_ptr<rocksdb::DB> db_;
  const uint64_t reads_at_open_;
  // async_io and optimize_multiget_for_io at RocksDB's defaults
  // (MultiGetReadOptionsJson).
  const rocksdb::ReadOptions read_options_;
  rocksdb::PinnableSlice value_;
  std::vector<rocksdb::Slice> slices_;
  std::vector<rocksdb::Status> statuses_;
};

}  // namespace

ColdRocksDB::ColdRocksDB(const ColdRocksDBOptions& options, double bits_per_key,
                         double stored_bits_per_key, uint64_t file_bytes)
    : options_(options),
      bits_per_key_(bits_per_key),
      stored_bits_per_key_(stored_bits_per_key),
      file_bytes_(file_bytes) {}

absl::StatusOr<std::unique_ptr<ColdRocksDB>> ColdRocksDB::Prepare(
    const ColdRocksDBOptions& options) {
  if (options.num == 0) return absl::InvalidArgumentError("no keys");
  const double target = options.target_stored_bits_per_key;
  if (options.use_existing) {
    absl::StatusOr<StoredFacts> facts = FactsOf(options.dir);
    if (facts.ok() && facts->files == 1 && facts->entries == options.num) {
      const double stored = facts->filter_bytes * 8.0 / facts->entries;
      if (std::abs(stored - target) <= kReuseTolerance * target) {
        return std::unique_ptr<ColdRocksDB>(
            new ColdRocksDB(options, 0, stored, facts->file_bytes));
      }
    }
  }
  absl::Status status = RecreateDirectory(options.dir);
  if (!status.ok()) return status;
  const std::string scratch = options.dir + "/calibration.sst";
  const uint64_t entries = std::min<uint64_t>(options.num, kCalibrationEntries);
  absl::StatusOr<BitsForBudget> budget = FindBitsForStoredBudget(
      target, /*whole_bits=*/false, [&](double bits) -> absl::StatusOr<double> {
        absl::Status written = WriteSst(options, bits, entries, scratch);
        if (!written.ok()) return written;
        return StoredBitsOfSst(scratch);
      });
  std::remove(scratch.c_str());
  if (!budget.ok()) return budget.status();

  const std::string sst = options.dir + "/ingest.sst";
  status = WriteSst(options, budget->bits_per_key, options.num, sst);
  if (!status.ok()) return status;
  rocksdb::Options db_options = TableOptionsFor(
      options, budget->bits_per_key, /*no_block_cache=*/true, nullptr);
  db_options.create_if_missing = true;
  rocksdb::DB* raw = nullptr;
  rocksdb::Status s = rocksdb::DB::Open(db_options, options.dir, &raw);
  if (!s.ok()) return FromPeerStatus(s);
  std::unique_ptr<rocksdb::DB> db(raw);
  rocksdb::IngestExternalFileOptions ingest;
  ingest.move_files = true;
  s = db->IngestExternalFile({sst}, ingest);
  if (s.ok()) s = db->Close();
  db.reset();
  if (!s.ok()) return FromPeerStatus(s);
  absl::StatusOr<StoredFacts> facts = FactsOf(options.dir);
  if (!facts.ok()) return facts.status();
  if (facts->entries != options.num) {
    return absl::InternalError(absl::StrCat(
        "RocksDB database holds ", facts->entries, " keys, not ", options.num));
  }
  return std::unique_ptr<ColdRocksDB>(new ColdRocksDB(
      options, budget->bits_per_key, facts->filter_bytes * 8.0 / facts->entries,
      facts->file_bytes));
}

absl::StatusOr<std::unique_ptr<ColdReader>> ColdRocksDB::Open(
    bool cold, uint64_t cache_bytes) const {
  auto io = std::make_unique<ReadCounters>();
  std::shared_ptr<rocksdb::FileSystem> file_system =
      NewCountingFileSystem(io.get());
  std::unique_ptr<rocksdb::Env> env = rocksdb::NewCompositeEnv(file_system);
  // The filter policy only names the filter to read; the setting written is
  // in the file.
  rocksdb::Options db_options =
      TableOptionsFor(options_, std::max(bits_per_key_, 1.0), cold,
                      cold ? nullptr : rocksdb::NewLRUCache(cache_bytes));
  db_options.env = env.get();
  db_options.use_direct_reads = cold;
  rocksdb::DB* raw = nullptr;
  rocksdb::Status s =
      rocksdb::DB::OpenForReadOnly(db_options, options_.dir, &raw);
  if (!s.ok()) return FromPeerStatus(s);
  return std::unique_ptr<ColdReader>(
      new RocksDBColdReader(std::move(io), std::move(file_system),
                            std::move(env), std::unique_ptr<rocksdb::DB>(raw)));
}

nlohmann::json ColdRocksDB::SettingsJson() const {
  return {
      {"database", options_.dir},
      {"file", "one BlockBasedTable written with SstFileWriter and ingested"},
      {"filter",
       "NewBloomFilterPolicy (whole-key full filter, FastLocalBloom)"},
      {"bits_per_key_setting", bits_per_key_ > 0
                                   ? nlohmann::json(bits_per_key_)
                                   : nlohmann::json("reused database")},
      {"stored_filter_bits_per_key", stored_bits_per_key_},
      {"block_size", options_.block_size},
      {"compression", options_.snappy ? "snappy" : "none"},
      {"file_bytes", file_bytes_},
      {"cold",
       "use_direct_reads, no_block_cache, index and filter held by the "
       "table (cache_index_and_filter_blocks off)"},
      {"warm", "buffered reads (page cache), LRU block cache"},
      {"device_reads",
       "counted by a FileSystem wrapper: each request of a MultiRead is one "
       "read"},
      {"multiget_read_options", MultiGetReadOptionsJson()}};
}

nlohmann::json MultiGetReadOptionsJson() {
  const rocksdb::ReadOptions defaults;
  return {
      {"async_io", defaults.async_io},
      {"optimize_multiget_for_io", defaults.optimize_multiget_for_io},
      {"set", "neither: both at RocksDB's defaults"},
      {"why",
       "RocksDB 7.8.3 without coroutines (USE_COROUTINES off in Debian's "
       "package and in bench/build_peers.sh's build) honours neither in "
       "MultiGet: Version::MultiGet asks async_io and "
       "optimize_multiget_for_io only for its coroutine paths "
       "(MultiGetAsync, MultiGetFromSSTCoroutine), and async_io otherwise "
       "drives only iterators' readahead (FilePrefetchBuffer, BlockFetcher). "
       "The synchronous MultiGet reads each table file's data blocks for a "
       "batch with one MultiRead (RetrieveMultipleBlocks), through io_uring "
       "where RocksDB was built with liburing and the program's "
       "RocksDbIOUringEnable() returns true"}};
}

}  // namespace db_bench
}  // namespace bloomtable
