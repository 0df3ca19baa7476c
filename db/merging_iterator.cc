#include "db/merging_iterator.h"

#include <utility>

namespace bloomtable {
namespace {

class ErrorIterator final : public Iterator {
 public:
  explicit ErrorIterator(absl::Status status) : status_(std::move(status)) {}
  bool Valid() const override { return false; }
  void SeekToFirst() override {}
  void SeekToLast() override {}
  void Seek(std::string_view) override {}
  void Next() override {}
  void Prev() override {}
  std::string_view key() const override { return {}; }
  std::string_view value() const override { return {}; }
  absl::Status status() const override { return status_; }

 private:
  const absl::Status status_;
};

class LevelIterator final : public Iterator {
 public:
  LevelIterator(TableSet* tables, const InternalKeyComparator* comparator,
                std::vector<DatabaseTableFile> files,
                const ReadOptions& read_options)
      : tables_(tables),
        comparator_(comparator),
        files_(std::move(files)),
        read_options_(read_options),
        index_(files_.size()) {}

  bool Valid() const override {
    return status_.ok() && iter_ != nullptr && iter_->Valid();
  }
  void SeekToFirst() override {
    if (!OpenAt(0)) return;
    iter_->SeekToFirst();
    SkipEmptyForward();
  }
  void SeekToLast() override {
    if (files_.empty()) {
      Close();
      return;
    }
    if (!OpenAt(files_.size() - 1)) return;
    iter_->SeekToLast();
    SkipEmptyBackward();
  }
  void Seek(std::string_view target) override {
    // The first file whose largest key is >= target.
    size_t lo = 0;
    size_t hi = files_.size();
    while (lo < hi) {
      const size_t mid = lo + (hi - lo) / 2;
      if (comparator_->Compare(files_[mid].largest, target) < 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    if (!OpenAt(lo)) return;
    iter_->Seek(target);
    SkipEmptyForward();
  }
  void Next() override {
    iter_->Next();
    SkipEmptyForward();
  }
  void Prev() override {
    iter_->Prev();
    SkipEmptyBackward();
  }
  std::string_view key() const override { return iter_->key(); }
  std::string_view value() const override { return iter_->value(); }
  absl::Status status() const override {
    if (!status_.ok()) return status_;
    return iter_ != nullptr ? iter_->status() : absl::OkStatus();
  }

 private:
  void Close() {
    iter_.reset();
    table_.reset();
    index_ = files_.size();
  }

  // Opens file `index` (if not already); false (and !Valid()) past the end
  // or on error.
  bool OpenAt(size_t index) {
    status_ = absl::OkStatus();
    if (index >= files_.size()) {
      Close();
      return false;
    }
    if (index == index_ && iter_ != nullptr) return true;
    Close();
    absl::StatusOr<std::shared_ptr<const Table>> table =
        tables_->Open(files_[index]);
    if (!table.ok()) {
      status_ = table.status();
      return false;
    }
    table_ = *std::move(table);
    iter_ = table_->NewIterator(read_options_);
    index_ = index;
    return true;
  }

  void SkipEmptyForward() {
    while (iter_ != nullptr && !iter_->Valid() && iter_->status().ok() &&
           status_.ok()) {
      if (!OpenAt(index_ + 1)) return;
      iter_->SeekToFirst();
    }
  }
  void SkipEmptyBackward() {
    while (iter_ != nullptr && !iter_->Valid() && iter_->status().ok() &&
           status_.ok()) {
      if (index_ == 0) {
        Close();
        return;
      }
      if (!OpenAt(index_ - 1)) return;
      iter_->SeekToLast();
    }
  }

  TableSet* const tables_;
  const InternalKeyComparator* const comparator_;
  const std::vector<DatabaseTableFile> files_;
  const ReadOptions read_options_;
  size_t index_;
  std::shared_ptr<const Table> table_;
  std::unique_ptr<Iterator> iter_;
  absl::Status status_;
};

class MergingIterator final : public Iterator {
 public:
  MergingIterator(const InternalKeyComparator* comparator,
                  std::vector<std::unique_ptr<Iterator>> children)
      : comparator_(comparator), children_(std::move(children)) {}

  bool Valid() const override { return current_ != nullptr; }
  void SeekToFirst() override {
    for (auto& child : children_) child->SeekToFirst();
    forward_ = true;
    FindSmallest();
  }
  void SeekToLast() override {
    for (auto& child : children_) child->SeekToLast();
    forward_ = false;
    FindLargest();
  }
  void Seek(std::string_view target) override {
    for (auto& child : children_) child->Seek(target);
    forward_ = true;
    FindSmallest();
  }
  void Next() override {
    if (!forward_) {
      // Every other child moves to the first entry after key().
      const std::string key(current_->key());
      for (auto& child : children_) {
        if (child.get() == current_) continue;
        child->Seek(key);
        if (child->Valid() && comparator_->Compare(key, child->key()) == 0) {
          child->Next();
        }
      }
      forward_ = true;
    }
    current_->Next();
    FindSmallest();
  }
  void Prev() override {
    if (forward_) {
      // Every other child moves to the last entry before key().
      const std::string key(current_->key());
      for (auto& child : children_) {
        if (child.get() == current_) continue;
        child->Seek(key);
        if (child->Valid()) {
          child->Prev();
        } else if (child->status().ok()) {
          child->SeekToLast();
        }
      }
      forward_ = false;
    }
    current_->Prev();
    FindLargest();
  }
  std::string_view key() const override { return current_->key(); }
  std::string_view value() const override { return current_->value(); }
  absl::Status status() const override {
    for (const auto& child : children_) {
      absl::Status status = child->status();
      if (!status.ok()) return status;
    }
    return absl::OkStatus();
  }

 private:
  // False (and current_ null) if a child failed.
  bool ChildrenOk() {
    for (const auto& child : children_) {
      if (!child->status().ok()) {
        current_ = nullptr;
        return false;
      }
    }
    return true;
  }
  void FindSmallest() {
    current_ = nullptr;
    if (!ChildrenOk()) return;
    for (auto& child : children_) {
      if (!child->Valid()) continue;
      if (current_ == nullptr ||
          comparator_->Compare(child->key(), current_->key()) < 0) {
        current_ = child.get();
      }
    }
  }
  void FindLargest() {
    current_ = nullptr;
    if (!ChildrenOk()) return;
    for (auto& child : children_) {
      if (!child->Valid()) continue;
      if (current_ == nullptr ||
          comparator_->Compare(child->key(), current_->key()) > 0) {
        current_ = child.get();
      }
    }
  }

  const InternalKeyComparator* const comparator_;
  std::vector<std::unique_ptr<Iterator>> children_;
  Iterator* current_ = nullptr;
  bool forward_ = true;
};

}  // namespace

std::unique_ptr<Iterator> NewLevelIterator(
    TableSet* tables, const InternalKeyComparator* comparator,
    std::vector<DatabaseTableFile> files, const ReadOptions& read_options) {
  return std::make_unique<LevelIterator>(tables, comparator, std::move(files),
                                         read_options);
}

std::unique_ptr<Iterator> NewMergingIterator(
    const InternalKeyComparator* comparator,
    std::vector<std::unique_ptr<Iterator>> children) {
  return std::make_unique<MergingIterator>(comparator, std::move(children));
}

std::unique_ptr<Iterator> NewErrorIterator(absl::Status status) {
  return std::make_unique<ErrorIterator>(std::move(status));
}

}  // namespace bloomtable
