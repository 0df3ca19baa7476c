#include "db_bench/rocksdb_scan.h"

#include <string>

#include "db_bench/peer_iterator.h"

namespace bloomtable {
namespace db_bench {
namespace {

// The bounds a scan's rocksdb::ReadOptions point to.
struct ScanBounds {
  ScanBounds(std::string_view lower_bytes, std::string_view upper_bytes)
      : lower_copy(lower_bytes),
        upper_copy(upper_bytes),
        lower(lower_copy),
        upper(upper_copy) {}

  const std::string lower_copy;
  const std::string upper_copy;
  const rocksdb::Slice lower;
  const rocksdb::Slice upper;
};

}  // namespace

std::unique_ptr<EngineIterator> NewRocksDBScan(
    const rocksdb::ReadOptions& base, bool auto_prefix_mode,
    std::string_view lower, std::string_view upper,
    const std::function<rocksdb::Iterator*(const rocksdb::ReadOptions&)>&
        make) {
  auto bounds = std::make_shared<const ScanBounds>(lower, upper);
  rocksdb::ReadOptions options = base;
  options.iterate_lower_bound = &bounds->lower;
  options.iterate_upper_bound = &bounds->upper;
  // auto_prefix_mode asks the prefix filter only where the result is the
  // total order's; without it, a prefix-mode seek would confine the scan to
  // the lower bound's prefix.
  options.auto_prefix_mode = auto_prefix_mode;
  options.total_order_seek = !auto_prefix_mode;
  std::unique_ptr<rocksdb::Iterator> iter(make(options));
  iter->Seek(bounds->lower);
  // The iterator keeps a copy of the options, whose bounds point into
  // `bounds`: the scan holds them for as long as it lives.
  return std::make_unique<PeerIterator<rocksdb::Iterator>>(std::move(iter),
                                                           std::move(bounds));
}

}  // namespace db_bench
}  // namespace bloomtable
