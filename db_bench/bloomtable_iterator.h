// BloomtableIterator<Inner> is an EngineIterator over one of bloomtable's own
// iterators (a table's, a Database's, or db_bench's MergingIterator of
// several tables), which it owns. Like the iterator it wraps, it is not safe
// for concurrent use.

#ifndef BLOOMTABLE_DB_BENCH_BLOOMTABLE_ITERATOR_H_
#define BLOOMTABLE_DB_BENCH_BLOOMTABLE_ITERATOR_H_

#include <memory>
#include <string_view>
#include <utility>

#include "absl/status/status.h"
#include "db_bench/engine.h"

namespace bloomtable {
namespace db_bench {

template <typename Inner>
class BloomtableIterator final : public EngineIterator {
 public:
  explicit BloomtableIterator(std::unique_ptr<Inner> inner)
      : inner_(std::move(inner)) {}

  void SeekToFirst() override { inner_->SeekToFirst(); }
  void Seek(std::string_view target) override { inner_->Seek(target); }
  void Next() override { inner_->Next(); }
  bool Valid() const override { return inner_->Valid(); }
  std::string_view key() const override { return inner_->key(); }
  std::string_view value() const override { return inner_->value(); }
  absl::Status status() const override { return inner_->status(); }

 private:
  const std::unique_ptr<Inner> inner_;
};

}  // namespace db_bench
}  // namespace bloomtable

#endif  // BLOOMTABLE_DB_BENCH_BLOOMTABLE_ITERATOR_H_
