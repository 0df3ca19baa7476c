// MergingIterator walks several sorted bloomtable iterators as one, forward
// only, the way an LSM reads overlapping level-0 files: children are given
// newest first, and when two children hold the same key the newest one's
// entry is yielded and the older ones are skipped.
//
// Each step compares the children's current keys linearly: db_bench merges a
// handful of tables, where a heap would not pay for itself.
// Used by one thread at a time, like the iterators it owns.

#ifndef BLOOMTABLE_DB_BENCH_MERGING_ITERATOR_H_
#define BLOOMTABLE_DB_BENCH_MERGING_ITERATOR_H_

#include <memory>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "bloomtable/comparator.h"
#include "bloomtable/iterator.h"

namespace bloomtable {
namespace db_bench {

class MergingIterator {
 public:
  // `comparator` must outlive the iterator.
  MergingIterator(const Comparator* comparator,
                  std::vector<std::unique_ptr<Iterator>> newest_first);

  void SeekToFirst();
  void Seek(std::string_view target);
  // REQUIRES: Valid().
  void Next();
  bool Valid() const { return current_ != nullptr; }
  std::string_view key() const { return current_->key(); }
  std::string_view value() const { return current_->value(); }
  // The first child error, if any.
  absl::Status status() const;

 private:
  // Points current_ at the child with the smallest key (newest on ties).
  void FindSmallest();

  const Comparator* const comparator_;
  std::vector<std::unique_ptr<Iterator>> children_;
  Iterator* current_ = nullptr;
};

}  // namespace db_bench
}  // namespace bloomtable

#endif  // BLOOMTABLE_DB_BENCH_MERGING_ITERATOR_H_
