// BoundedScan is the EngineIterator of Engine::NewScan for engines without
// bounded iterators of their own (LevelDB has none): an unbounded iterator
// seeked to the scan's start and stopped at its end. Not thread-safe, like
// the iterator it owns.

#ifndef BLOOMTABLE_DB_BENCH_BOUNDED_SCAN_H_
#define BLOOMTABLE_DB_BENCH_BOUNDED_SCAN_H_

#include <memory>
#include <string>
#include <string_view>

#include "db_bench/engine.h"

namespace bloomtable {
namespace db_bench {

// `unbounded` confined to [lower, upper) and positioned at its first entry.
std::unique_ptr<EngineIterator> NewBoundedScan(
    std::unique_ptr<EngineIterator> unbounded, std::string_view lower,
    std::string_view upper);

}  // namespace db_bench
}  // namespace bloomtable

#endif  // BLOOMTABLE_DB_BENCH_BOUNDED_SCAN_H_
