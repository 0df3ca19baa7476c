#include "db_bench/rocksdb_scan.h"

#include <string>

#include "db_bench/peer_iterator.h"

namespace bloomtable {
namespace db_bench {
namespace {

class RocksDBScan final : public EngineIterator {
 public:
  RocksDBScan(
      const rocksdb::ReadOptions& base, bool auto_prefix_mode,
      std::string_view lower, std::string_view upper,
      const std::function<rocksdb::Iterator*(const rocksdb::ReadOptions&)>&
          make)
      : lower_(lower),
        upper_(upper),
        lower_slice_(lower_),
        upper_slice_(upper_),
        options_(base) {
    options_.iterate_lower_bound = &lower_slice_;
    options_.iterate_upper_bound = &upper_slice_;
    // auto_prefix_mode asks the prefix filter only where the result is the
    // total order's; without it, a prefix-mode seek would confine the scan
    // to the lower bound's prefix.
    options_.auto_prefix_mode = auto_prefix_mode;
    options_.total_order_seek = !auto_prefix_mode;
    iter_.reset(make(options_));
    iter_->Seek(lower_slice_);
  }

  void SeekToFirst() override { iter_->SeekToFirst(); }
  void Seek(std::string_view target) override {
    iter_->Seek(ToPeerSlice<rocksdb::Slice>(target));
  }
  void Next() override { iter_->Next(); }
  bool Valid() const override { return iter_->Valid(); }
  std::string_view key() const override { return FromPeerSlice(iter_->key()); }
  std::string_view value() const override {
    return FromPeerSlice(iter_->value());
  }
  absl::Status status() const override {
    return FromPeerStatus(iter_->status());
  }

 private:
  // The iterator reads the bounds through options_: declared first, so that
  // they are destroyed after it.
  const std::string lower_;
  const std::string upper_;
  const rocksdb::Slice lower_slice_;
  const rocksdb::Slice upper_slice_;
  rocksdb::ReadOptions options_;
  std::unique_ptr<rocksdb::Iterator> iter_;
};

}  // namespace

std::unique_ptr<EngineIterator> NewRocksDBScan(
    const rocksdb::ReadOptions& base, bool auto_prefix_mode,
    std::string_view lower, std::string_view upper,
    const std::function<rocksdb::Iterator*(const rocksdb::ReadOptions&)>&
        make) {
  return std::make_unique<RocksDBScan>(base, auto_prefix_mode, lower, upper,
                                       make);
}

}  // namespace db_bench
}  // namespace bloomtable
