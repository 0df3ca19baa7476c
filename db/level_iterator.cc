#include "db/level_iterator.h"

#include <string>
#include <utility>

#include "absl/strings/str_cat.h"

namespace bloomtable {
namespace {

class LevelIterator final : public MergeSource {
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
    return deferred_ || (status_.ok() && iter_ != nullptr && iter_->Valid());
  }
  bool deferred() const override { return deferred_; }

  void SeekToFirst() override {
    Restart();
    // Not deferred: a scan from the first key reads every level's first
    // table anyway, and reading it at once never trusts the MANIFEST's
    // smallest key for the order of what comes out.
    if (files_.empty() || AtOrPastUpper(0)) return Close();
    if (!OpenAt(0)) return;
    iter_->SeekToFirst();
    SkipEmptyForward();
  }
  void SeekToLast() override {
    Restart();
    // The last file holding a key below the upper bound (files past it
    // hold none: they are not opened).
    size_t lo = 0;
    size_t hi = files_.size();
    while (lo < hi) {
      const size_t mid = lo + (hi - lo) / 2;
      if (AtOrPastUpper(mid)) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    if (lo == 0 || BelowLower(lo - 1)) return Close();
    if (!OpenAt(lo - 1)) return;
    iter_->SeekToLast();
    SkipEmptyBackward();
  }
  void Seek(std::string_view target) override {
    Restart();
    // The first file whose largest key is >= target.
    size_t lo = 0;
    size_t hi = files_.size();
    while (lo < hi) {
      const size_t mid = lo + (hi - lo) / 2;
      if (comparator_->CompareKeys(files_[mid].largest, target) < 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    if (lo == files_.size() || AtOrPastUpper(lo)) return Close();
    if (comparator_->CompareKeys(target, files_[lo].smallest) < 0) {
      return Defer(lo, target);
    }
    if (!OpenAt(lo)) return;
    iter_->Seek(target);
    SkipEmptyForward();
  }
  void Position() override {
    deferred_ = false;
    if (!OpenAt(deferred_index_)) return;
    iter_->Seek(target_);
    if (iter_->Valid() &&
        comparator_->CompareKeys(iter_->key(), files_[index_].smallest) < 0) {
      status_ = absl::DataLossError(absl::StrCat(
          files_[index_].name, " (level ", files_[index_].level,
          "): holds a key below the smallest key the MANIFEST records"));
      return;
    }
    SkipEmptyForward();
  }
  void Next() override {
    iter_->Next();
    if (!iter_->Valid()) SkipEmptyForward();
  }
  void Prev() override {
    iter_->Prev();
    if (!iter_->Valid()) SkipEmptyBackward();
  }
  std::string_view key() const override {
    return deferred_ ? std::string_view(files_[deferred_index_].smallest)
                     : iter_->key();
  }
  std::string_view value() const override { return iter_->value(); }
  absl::Status status() const override {
    if (!status_.ok()) return status_;
    return iter_ != nullptr && !deferred_ ? iter_->status() : absl::OkStatus();
  }

 private:
  void Restart() {
    status_ = absl::OkStatus();
    deferred_ = false;
  }

  void Close() {
    iter_.reset();
    table_.reset();
    index_ = files_.size();
  }

  // Leaves the iterator showing the first key of file `index`, unopened.
  void Defer(size_t index, std::string_view target) {
    deferred_ = true;
    deferred_index_ = index;
    target_.assign(target.data(), target.size());
  }

  // True if every key of file `index` is at or past the upper bound.
  bool AtOrPastUpper(size_t index) const {
    const std::optional<std::string>& upper = read_options_.iterate_upper_bound;
    return upper.has_value() &&
           comparator_->user_comparator()->Compare(
               ExtractUserKey(files_[index].smallest), *upper) >= 0;
  }

  // True if every key of file `index` is below the lower bound.
  bool BelowLower(size_t index) const {
    const std::optional<std::string>& lower = read_options_.iterate_lower_bound;
    return lower.has_value() &&
           comparator_->user_comparator()->Compare(
               ExtractUserKey(files_[index].largest), *lower) < 0;
  }

  // Opens file `index` (if not already); false (and !Valid()) on error.
  bool OpenAt(size_t index) {
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
      if (index_ + 1 >= files_.size() || AtOrPastUpper(index_ + 1)) {
        return Close();
      }
      if (!OpenAt(index_ + 1)) return;
      iter_->SeekToFirst();
    }
  }
  void SkipEmptyBackward() {
    while (iter_ != nullptr && !iter_->Valid() && iter_->status().ok() &&
           status_.ok()) {
      if (index_ == 0 || BelowLower(index_ - 1)) return Close();
      if (!OpenAt(index_ - 1)) return;
      iter_->SeekToLast();
    }
  }

  TableSet* const tables_;
  const InternalKeyComparator* const comparator_;
  const std::vector<DatabaseTableFile> files_;
  const ReadOptions read_options_;
  // The open file's index (files_.size() when none).
  size_t index_;
  std::shared_ptr<const Table> table_;
  std::unique_ptr<Iterator> iter_;
  absl::Status status_;
  // Deferred (MergeSource): the file whose first key is shown, and the
  // target Position seeks there.
  bool deferred_ = false;
  size_t deferred_index_ = 0;
  std::string target_;
};

}  // namespace

std::unique_ptr<MergeSource> NewLevelIterator(
    TableSet* tables, const InternalKeyComparator* comparator,
    std::vector<DatabaseTableFile> files, const ReadOptions& read_options) {
  return std::make_unique<LevelIterator>(tables, comparator, std::move(files),
                                         read_options);
}

}  // namespace bloomtable
