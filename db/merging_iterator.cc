#include "db/merging_iterator.h"

#include <algorithm>
#include <string>
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

class PlainSource final : public MergeSource {
 public:
  explicit PlainSource(std::unique_ptr<Iterator> iter)
      : iter_(std::move(iter)) {}
  bool Valid() const override { return iter_->Valid(); }
  void SeekToFirst() override { iter_->SeekToFirst(); }
  void SeekToLast() override { iter_->SeekToLast(); }
  void Seek(std::string_view target) override { iter_->Seek(target); }
  void Next() override { iter_->Next(); }
  void Prev() override { iter_->Prev(); }
  std::string_view key() const override { return iter_->key(); }
  std::string_view value() const override { return iter_->value(); }
  absl::Status status() const override { return iter_->status(); }

 private:
  const std::unique_ptr<Iterator> iter_;
};

class MergingIterator final : public Iterator {
 public:
  MergingIterator(const InternalKeyComparator* comparator,
                  std::vector<std::unique_ptr<MergeSource>> children)
      : comparator_(comparator), sources_(std::move(children)) {
    children_.resize(sources_.size());
    for (size_t i = 0; i < sources_.size(); ++i) {
      children_[i].iter = sources_[i].get();
      children_[i].order = static_cast<uint32_t>(i);
    }
    heap_.reserve(children_.size());
  }

  bool Valid() const override { return current_ != nullptr; }

  void SeekToFirst() override {
    failed_ = false;
    for (Child& child : children_) {
      child.iter->SeekToFirst();
      Refresh(&child);
    }
    Start(/*forward=*/true);
  }
  void SeekToLast() override {
    failed_ = false;
    for (Child& child : children_) {
      child.iter->SeekToLast();
      Refresh(&child);
      Undefer(&child);
    }
    Start(/*forward=*/false);
  }
  void Seek(std::string_view target) override {
    failed_ = false;
    for (Child& child : children_) {
      child.iter->Seek(target);
      Refresh(&child);
    }
    Start(/*forward=*/true);
  }

  void Next() override {
    if (!forward_) {
      TurnForward();
      if (current_ == nullptr) return;  // a child failed
    }
    Child* child = current_;
    child->iter->Next();
    RefreshMoved(child);
    Replace(child);
  }
  void Prev() override {
    if (forward_) {
      TurnBackward();
      if (current_ == nullptr) return;  // a child failed
    }
    Child* child = current_;
    child->iter->Prev();
    RefreshMoved(child);
    Replace(child);
  }

  std::string_view key() const override { return current_->key; }
  std::string_view value() const override { return current_->iter->value(); }
  absl::Status status() const override {
    for (const Child& child : children_) {
      absl::Status status = child.iter->status();
      if (!status.ok()) return status;
    }
    return absl::OkStatus();
  }

 private:
  struct Child {
    MergeSource* iter = nullptr;
    // The source's key, cached while it is valid.
    std::string_view key;
    bool valid = false;
    bool deferred = false;
    // Its place among the sources: the order of equal keys.
    uint32_t order = 0;
  };

  // True if `a` comes out before `b` in the current direction: a strict
  // total order of the children (equal keys go by `order`). A comparison
  // that fails is reported naming `a`'s key first, so callers put the
  // child that moved there.
  bool Before(const Child& a, const Child& b) const {
    const int order = comparator_->CompareKeys(a.key, b.key);
    if (order != 0) return forward_ ? order < 0 : order > 0;
    return forward_ ? a.order < b.order : a.order > b.order;
  }
  // The heap's order: its front is the child that comes out first.
  auto HeapOrder() const {
    return [this](const Child* a, const Child* b) { return Before(*b, *a); };
  }

  void Refresh(Child* child) {
    child->valid = child->iter->Valid();
    if (child->valid) {
      child->key = child->iter->key();
      child->deferred = child->iter->deferred();
    } else if (!child->iter->status().ok()) {
      failed_ = true;
    }
  }
  // After Next or Prev, which never defer.
  void RefreshMoved(Child* child) {
    child->valid = child->iter->Valid();
    if (child->valid) {
      child->key = child->iter->key();
      child->deferred = false;
    } else if (!child->iter->status().ok()) {
      failed_ = true;
    }
  }
  void Undefer(Child* child) {
    if (!child->valid || !child->deferred) return;
    child->iter->Position();
    Refresh(child);
  }

  // After every child was positioned (or deferred) anew.
  void Start(bool forward) {
    forward_ = forward;
    heap_.clear();
    current_ = nullptr;
    for (Child& child : children_) {
      if (child.valid) heap_.push_back(&child);
    }
    std::make_heap(heap_.begin(), heap_.end(), HeapOrder());
    Settle();
  }

  // `child`, the current one, moved: it stays current while it still
  // comes out first, else goes back into the heap.
  void Replace(Child* child) {
    current_ = nullptr;
    if (child->valid) {
      if (heap_.empty() || Before(*child, *heap_.front())) {
        current_ = child;
      } else {
        Push(child);
      }
    }
    Settle();
  }

  // Makes current_ the child that comes out first, positioning deferred
  // children as they reach the top; null when none is left or one failed.
  void Settle() {
    while (!failed_) {
      if (current_ == nullptr) {
        if (heap_.empty()) return;
        current_ = Pop();
      }
      if (!current_->deferred) return;
      Child* child = current_;
      current_ = nullptr;
      Undefer(child);
      if (child->valid) {
        if (heap_.empty() || Before(*child, *heap_.front())) {
          current_ = child;
        } else {
          Push(child);
        }
      }
    }
    current_ = nullptr;
  }

  void Push(Child* child) {
    heap_.push_back(child);
    std::push_heap(heap_.begin(), heap_.end(), HeapOrder());
  }
  Child* Pop() {
    std::pop_heap(heap_.begin(), heap_.end(), HeapOrder());
    Child* child = heap_.back();
    heap_.pop_back();
    return child;
  }

  // Every child but the current one moves to the first entry after key(),
  // as a forward walk would have left it.
  void TurnForward() {
    const std::string key(current_->key);
    for (Child& child : children_) {
      if (&child == current_) continue;
      child.iter->Seek(key);
      Refresh(&child);
      // A deferred child's first key lies beyond `key`.
      if (child.valid && !child.deferred &&
          comparator_->CompareKeys(key, child.key) == 0) {
        child.iter->Next();
        RefreshMoved(&child);
      }
    }
    RebuildAround(/*forward=*/true);
  }

  // Every child but the current one moves to the last entry before key().
  void TurnBackward() {
    const std::string key(current_->key);
    for (Child& child : children_) {
      if (&child == current_) continue;
      child.iter->Seek(key);
      Refresh(&child);
      Undefer(&child);
      if (child.valid) {
        child.iter->Prev();
        RefreshMoved(&child);
      } else if (child.iter->status().ok()) {
        child.iter->SeekToLast();
        Refresh(&child);
        Undefer(&child);
      }
    }
    RebuildAround(/*forward=*/false);
  }

  // The heap of every valid child but the current one, in a new direction.
  void RebuildAround(bool forward) {
    forward_ = forward;
    heap_.clear();
    for (Child& child : children_) {
      if (&child != current_ && child.valid) heap_.push_back(&child);
    }
    std::make_heap(heap_.begin(), heap_.end(), HeapOrder());
    if (failed_) current_ = nullptr;
  }

  const InternalKeyComparator* const comparator_;
  const std::vector<std::unique_ptr<MergeSource>> sources_;
  std::vector<Child> children_;
  // The valid children but current_, front first.
  std::vector<Child*> heap_;
  // The child whose entry is shown; null when !Valid().
  Child* current_ = nullptr;
  bool forward_ = true;
  // A child reported an error: stopped until the next Seek*.
  bool failed_ = false;
};

}  // namespace

std::unique_ptr<MergeSource> AsMergeSource(std::unique_ptr<Iterator> iterator) {
  return std::make_unique<PlainSource>(std::move(iterator));
}

std::unique_ptr<Iterator> NewMergingIterator(
    const InternalKeyComparator* comparator,
    std::vector<std::unique_ptr<MergeSource>> children) {
  return std::make_unique<MergingIterator>(comparator, std::move(children));
}

std::unique_ptr<Iterator> NewErrorIterator(absl::Status status) {
  return std::make_unique<ErrorIterator>(std::move(status));
}

}  // namespace bloomtable
