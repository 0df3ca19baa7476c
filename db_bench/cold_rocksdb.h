// cold_bench's peer: RocksDB's own file of the same keys and values as
// cold_bench's bloomtable table, in a RocksDB database, looked up through
// rocksdb::DB::Get and the batched DB::MultiGet.
//
// The database holds one BlockBasedTable file, written with SstFileWriter
// and ingested (the keys are written in order), with RocksDB's whole-key
// full Bloom filter (NewBloomFilterPolicy) at the bits per key whose stored
// size per key is nearest a target (bloomtable's table's, measured from
// both files), 4 KiB blocks and the same compression. Index and filter
// blocks are held by the open table (cache_index_and_filter_blocks off), as
// bloomtable holds them.
//
// Reading, cold: use_direct_reads and no block cache (no_block_cache), so
// that every data block comes from the device; warm: buffered reads (the
// page cache) and an LRU block cache. Reads are counted by a file-system
// wrapper (each request of a MultiRead counts as one; with direct reads
// RocksDB aligns and merges a batch's requests first, so these are the
// reads the device saw).
//
// MultiGet's ReadOptions: RocksDB 7.8.3 built without coroutines
// (USE_COROUTINES off, as Debian's package and bench/build_peers.sh build
// it) honours neither async_io nor optimize_multiget_for_io in MultiGet:
// Version::MultiGet asks them only for its coroutine paths, and the
// synchronous path reads each table file's data blocks for a batch with one
// MultiRead whatever they say: through io_uring where RocksDB was built with
// liburing and the program defines RocksDbIOUringEnable() to return true
// (RocksDB declares it weak; cold_bench defines it, as RocksDB's db_bench
// does), else one pread after another. Both options stay at RocksDB's
// defaults; MultiGetReadOptionsJson says so in the report.
//
// Thread-safety: none; one measurement at a time.

#ifndef BLOOMTABLE_DB_BENCH_COLD_ROCKSDB_H_
#define BLOOMTABLE_DB_BENCH_COLD_ROCKSDB_H_

#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "db_bench/cold_reader.h"
#include "nlohmann/json.hpp"

namespace bloomtable {
namespace db_bench {

struct ColdRocksDBOptions {
  std::string dir;          // the database directory
  uint64_t num = 0;         // stored keys: ColdStoredKey(0 .. num - 1)
  size_t value_size = 100;  // each value: value_size bytes of 'v'
  size_t block_size = 4096;
  bool snappy = true;  // Snappy, or no compression
  // Filter bits per key the file should store (filter_size * 8 / num).
  double target_stored_bits_per_key = 10;
  // Reuse a database of an earlier run if it holds `num` keys and its
  // filter stores within 1% of the target.
  bool use_existing = false;
};

class ColdRocksDB {
 public:
  // Writes the database (or reuses it). The bits per key setting is found
  // by building files of the first min(num, 200,000) keys and measuring
  // what their filters store.
  static absl::StatusOr<std::unique_ptr<ColdRocksDB>> Prepare(
      const ColdRocksDBOptions& options);

  // The filter setting the file was written with (0 if reused from an
  // earlier run) and what its filter stores per key.
  double bits_per_key() const { return bits_per_key_; }
  double stored_bits_per_key() const { return stored_bits_per_key_; }
  uint64_t file_bytes() const { return file_bytes_; }

  // Opens the database read-only: cold (direct reads, no block cache) or
  // warm (buffered reads, an LRU block cache of `cache_bytes`).
  absl::StatusOr<std::unique_ptr<ColdReader>> Open(bool cold,
                                                   uint64_t cache_bytes) const;

  // What the report says about the peer's setup and MultiGet's options.
  nlohmann::json SettingsJson() const;

 private:
  ColdRocksDB(const ColdRocksDBOptions& options, double bits_per_key,
              double stored_bits_per_key, uint64_t file_bytes);

  const ColdRocksDBOptions options_;
  const double bits_per_key_;
  const double stored_bits_per_key_;
  const uint64_t file_bytes_;
};

// async_io and optimize_multiget_for_io as MultiGet is called, which of
// them was set and why.
nlohmann::json MultiGetReadOptionsJson();

}  // namespace db_bench
}  // namespace bloomtable

#endif  // BLOOMTABLE_DB_BENCH_COLD_ROCKSDB_H_
