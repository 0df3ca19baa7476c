// LevelDB's own filter-aware table lookup, for db_bench's "leveldb_table"
// row: what leveldb::DB::Get calls for each table file it consults,
// TableCache::Get, which opens the table once (Table::Open through
// options.env) and then calls Table::InternalGet: the index block, the
// filter block's KeyMayMatch for that data block, and only then the data
// block, handing the first entry at or after the key to a callback.
// TableCache and InternalGet are not public: this is compiled against the
// LevelDB source tree of the linked version (leveldb_table_lookup.cc), and
// declared here with public types only.
//
// The table holds user keys under LevelDB's bytewise comparator (as
// bloomtable's tables do), so the key is passed as it is, where the DB would
// pass an internal key; the callback's entry is compared with the key.
// Get is safe to call from many threads at once, as TableCache::Get is.

#ifndef BLOOMTABLE_DB_BENCH_LEVELDB_TABLE_LOOKUP_H_
#define BLOOMTABLE_DB_BENCH_LEVELDB_TABLE_LOOKUP_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "leveldb/options.h"

namespace bloomtable {
namespace db_bench {

class LevelDBTableLookup {
 public:
  virtual ~LevelDBTableLookup() = default;
  // OK with the value, NotFound, or the peer's error.
  virtual absl::Status Get(const leveldb::ReadOptions& read_options,
                           std::string_view key, std::string* value) const = 0;
};

// A lookup in table file number 1 of directory `dir` (LevelDB's name for
// it: dir/000001.ldb), `file_size` bytes, opened with `options` (its env
// opens the file; its comparator, filter policy and block cache are the
// table's). `options` must outlive the lookup.
std::unique_ptr<LevelDBTableLookup> NewLevelDBTableLookup(
    const std::string& dir, const leveldb::Options& options,
    uint64_t file_size);

}  // namespace db_bench
}  // namespace bloomtable

#endif  // BLOOMTABLE_DB_BENCH_LEVELDB_TABLE_LOOKUP_H_
