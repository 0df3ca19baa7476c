// RocksDBScan is Engine::NewScan for db_bench's two RocksDB engines: a
// rocksdb::Iterator made with iterate_lower_bound and iterate_upper_bound set
// to the scan's range and, when the engine has a prefix extractor,
// auto_prefix_mode on, so that RocksDB asks its prefix Bloom filter for the
// range whenever the bounds allow it (its "best prefix-Bloom path"). The
// bounds' bytes live in the scan, which outlives its iterator. Not
// thread-safe, like the iterator.

#ifndef BLOOMTABLE_DB_BENCH_ROCKSDB_SCAN_H_
#define BLOOMTABLE_DB_BENCH_ROCKSDB_SCAN_H_

#include <functional>
#include <memory>
#include <string_view>

#include "db_bench/engine.h"
#include "rocksdb/iterator.h"
#include "rocksdb/options.h"

namespace bloomtable {
namespace db_bench {

// `make` returns a new iterator for the options it is given (the engine's
// own, with the bounds and auto_prefix_mode added).
std::unique_ptr<EngineIterator> NewRocksDBScan(
    const rocksdb::ReadOptions& base, bool auto_prefix_mode,
    std::string_view lower, std::string_view upper,
    const std::function<rocksdb::Iterator*(const rocksdb::ReadOptions&)>& make);

}  // namespace db_bench
}  // namespace bloomtable

#endif  // BLOOMTABLE_DB_BENCH_ROCKSDB_SCAN_H_
