// RocksDB's own table lookup, for db_bench's "rocksdb_table" row: what
// RocksDB's DB::Get (and DB::MultiGet) calls for each table file it consults
// and what RocksDB's table_reader_bench times, TableReader::Get (and
// TableReader::MultiGet) on a BlockBasedTable opened
// through the table factory (BlockBasedTableFactory::NewTableReader), which
// asks the full filter before the index and the data block. The key is
// looked up as the DB looks it up (a LookupKey at the newest sequence
// number) through a GetContext, whose counters are reported to the
// statistics after each lookup, as the DB reports them.
//
// TableReader, GetContext and the options behind them are RocksDB's internal
// headers: rocksdb_table_reader.cc is compiled only against a release build
// of RocksDB from source (cmake/Peers.cmake), with the definitions that build
// used, and linked to its static archive. Declared here with public types.
// Get is safe to call from many threads at once.

#ifndef BLOOMTABLE_DB_BENCH_ROCKSDB_TABLE_READER_H_
#define BLOOMTABLE_DB_BENCH_ROCKSDB_TABLE_READER_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "rocksdb/options.h"

namespace bloomtable {
namespace db_bench {

class RocksDBTableReader {
 public:
  virtual ~RocksDBTableReader() = default;
  // OK with the value, NotFound, or the peer's error.
  virtual absl::Status Get(const rocksdb::ReadOptions& read_options,
                           std::string_view key, std::string* value) const = 0;
  // TableReader::MultiGet, as DB::MultiGet calls it for one table: the keys
  // sorted and looked up in batches of MultiGetContext::MAX_BATCH_SIZE (the
  // filter asked for each, then the batch's data blocks read together).
  // (*statuses)[i] and (*values)[i] answer keys[i] as Get does.
  virtual void MultiGet(const rocksdb::ReadOptions& read_options,
                        const std::vector<std::string_view>& keys,
                        std::vector<absl::Status>* statuses,
                        std::vector<std::string>* values) const = 0;
};

// Opens the table file `path` with `options` (its env's file system opens
// the file, its table_factory reads it, its statistics count). `options`
// must outlive the reader.
absl::StatusOr<std::unique_ptr<RocksDBTableReader>> OpenRocksDBTableReader(
    const rocksdb::Options& options, const std::string& path);

}  // namespace db_bench
}  // namespace bloomtable

#endif  // BLOOMTABLE_DB_BENCH_ROCKSDB_TABLE_READER_H_
