#include "db_bench/merging_iterator.h"

#include <utility>

namespace bloomtable {
namespace db_bench {

MergingIterator::MergingIterator(
    const Comparator* comparator,
    std::vector<std::unique_ptr<Iterator>> newest_first)
    : comparator_(comparator), children_(std::move(newest_first)) {}

void MergingIterator::SeekToFirst() {
  for (auto& child : children_) child->SeekToFirst();
  FindSmallest();
}

void MergingIterator::Seek(std::string_view target) {
  for (auto& child : children_) child->Seek(target);
  FindSmallest();
}

void MergingIterator::Next() {
  // Older children positioned at the same key hold shadowed entries: step
  // past them too.
  const std::string_view current_key = current_->key();
  for (auto& child : children_) {
    if (child.get() != current_ && child->Valid() &&
        comparator_->Compare(child->key(), current_key) == 0) {
      child->Next();
    }
  }
  current_->Next();
  FindSmallest();
}

absl::Status MergingIterator::status() const {
  for (const auto& child : children_) {
    absl::Status status = child->status();
    if (!status.ok()) return status;
  }
  return absl::OkStatus();
}

void MergingIterator::FindSmallest() {
  current_ = nullptr;
  for (auto& child : children_) {
    if (!child->Valid()) continue;
    // Strictly smaller only: on equal keys the earlier (newer) child wins.
    if (current_ == nullptr ||
        comparator_->Compare(child->key(), current_->key()) < 0) {
      current_ = child.get();
    }
  }
}

}  // namespace db_bench
}  // namespace bloomtable
