#include "db_bench/bounded_scan.h"

#include <utility>

namespace bloomtable {
namespace db_bench {
namespace {

class BoundedScan final : public EngineIterator {
 public:
  BoundedScan(std::unique_ptr<EngineIterator> unbounded, std::string_view lower,
              std::string_view upper)
      : iter_(std::move(unbounded)), lower_(lower), upper_(upper) {
    iter_->Seek(lower_);
  }

  void SeekToFirst() override { iter_->Seek(lower_); }
  void Seek(std::string_view target) override {
    iter_->Seek(target < lower_ ? std::string_view(lower_) : target);
  }
  void Next() override { iter_->Next(); }
  bool Valid() const override {
    return iter_->Valid() && iter_->key() < upper_;
  }
  std::string_view key() const override { return iter_->key(); }
  std::string_view value() const override { return iter_->value(); }
  absl::Status status() const override { return iter_->status(); }

 private:
  const std::unique_ptr<EngineIterator> iter_;
  const std::string lower_;
  const std::string upper_;
};

}  // namespace

std::unique_ptr<EngineIterator> NewBoundedScan(
    std::unique_ptr<EngineIterator> unbounded, std::string_view lower,
    std::string_view upper) {
  return std::make_unique<BoundedScan>(std::move(unbounded), lower, upper);
}

std::unique_ptr<EngineIterator> Engine::NewScan(std::string_view lower,
                                                std::string_view upper) const {
  return NewBoundedScan(NewIterator(), lower, upper);
}

}  // namespace db_bench
}  // namespace bloomtable
