#include "db/db_iterator.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "table/internal_key.h"
#include "util/comparison_errors.h"
#include "util/string_util.h"

namespace bloomtable {
namespace {

// Forward, the iterator stays on the internal entry it shows: key() and
// value() are views of it, and a step copies only the user key it passes
// over. Backward, it must read past the entry it shows (to the versions
// before it), so it keeps copies.
class DbIterator final : public Iterator {
 public:
  DbIterator(const Comparator* user_comparator,
             std::unique_ptr<Iterator> internal, uint64_t sequence,
             std::optional<std::string> lower, std::optional<std::string> upper)
      : ucmp_(user_comparator),
        bytewise_(user_comparator == BytewiseComparator()),
        checked_(!bytewise_),
        iter_(std::move(internal)),
        sequence_(std::min(sequence, kMaxSequenceNumber)),
        lower_(std::move(lower)),
        upper_(std::move(upper)) {}

  bool Valid() const override { return valid_; }
  std::string_view key() const override { return key_; }
  std::string_view value() const override { return value_; }
  absl::Status status() const override {
    if (!status_.ok()) return status_;
    return iter_->status();
  }

  void SeekToFirst() override {
    if (!checked_) return SeekToFirstUnchecked();
    ComparisonErrorScope errors;
    SeekToFirstUnchecked();
    Check(errors);
  }
  void SeekToFirstUnchecked() {
    if (lower_.has_value()) {
      SeekUnchecked(*lower_);
      return;
    }
    iter_->SeekToFirst();
    FindNext(/*skipping=*/false);
  }
  void Seek(std::string_view target) override {
    if (!checked_) return SeekUnchecked(target);
    ComparisonErrorScope errors;
    SeekUnchecked(target);
    Check(errors);
  }
  void SeekUnchecked(std::string_view target) {
    std::string_view start = target;
    if (lower_.has_value() && UserCompare(start, *lower_) < 0) {
      start = *lower_;
    }
    iter_->Seek(SeekKey(start, sequence_));
    FindNext(/*skipping=*/false);
  }
  void SeekToLast() override {
    if (!checked_) return SeekToLastUnchecked();
    ComparisonErrorScope errors;
    SeekToLastUnchecked();
    Check(errors);
  }
  void SeekToLastUnchecked() {
    if (upper_.has_value()) {
      // The last entry of a user key below upper.
      iter_->Seek(SeekKey(*upper_, kMaxSequenceNumber));
      if (iter_->Valid()) {
        iter_->Prev();
      } else if (iter_->status().ok()) {
        iter_->SeekToLast();
      }
    } else {
      iter_->SeekToLast();
    }
    FindPrev();
  }
  void SeekForPrev(std::string_view target) override {
    if (!checked_) return SeekForPrevUnchecked(target);
    ComparisonErrorScope errors;
    SeekForPrevUnchecked(target);
    Check(errors);
  }
  void SeekForPrevUnchecked(std::string_view target) {
    if (upper_.has_value() && UserCompare(target, *upper_) >= 0) {
      SeekToLastUnchecked();
      return;
    }
    // Every version of target, then step back to its last one.
    iter_->Seek(SeekKey(target, 0, ValueType::kDeletion));
    if (iter_->Valid()) {
      ParsedInternalKey parsed;
      if (!ParseInternalKey(iter_->key(), &parsed) ||
          UserCompare(parsed.user_key, target) != 0) {
        iter_->Prev();
      }
    } else if (iter_->status().ok()) {
      iter_->SeekToLast();
    }
    FindPrev();
  }
  void Next() override {
    if (!checked_) return NextUnchecked();
    ComparisonErrorScope errors;
    NextUnchecked();
    Check(errors);
  }
  void NextUnchecked() {
    if (forward_) {
      // The internal iterator is at key_'s newest visible version. A
      // comparator that may fail sees that entry compared with key_ too, as
      // FindNext compares each later version: a key it cannot order is
      // reported on the step that reaches it, whatever lies around it.
      skip_.assign(key_.data(), key_.size());
      if (!checked_) iter_->Next();
    } else {
      // The internal iterator is before key_'s versions: go to them.
      skip_ = std::move(saved_key_);
      iter_->Seek(SeekKey(skip_, kMaxSequenceNumber));
    }
    FindNext(/*skipping=*/true);
  }
  void Prev() override {
    if (!checked_) return PrevUnchecked();
    ComparisonErrorScope errors;
    PrevUnchecked();
    Check(errors);
  }
  void PrevUnchecked() {
    if (forward_) {
      // The internal iterator is at key_'s versions: go before them.
      saved_key_.assign(key_.data(), key_.size());
      iter_->Seek(SeekKey(saved_key_, kMaxSequenceNumber));
      if (iter_->Valid()) {
        iter_->Prev();
      } else if (iter_->status().ok()) {
        iter_->SeekToLast();
      }
    }
    FindPrev();
  }

 private:
  int UserCompare(std::string_view a, std::string_view b) const {
    return bytewise_ ? BytewiseCompare(a, b) : ucmp_->Compare(a, b);
  }

  // A key the comparator could not order ends the iteration: the order
  // around it is the comparator's fallback, not the database's.
  void Check(const ComparisonErrorScope& errors) {
    if (errors.failed() && status_.ok()) status_ = errors.status();
    if (!status_.ok()) valid_ = false;
  }

  // The internal key (user_key, sequence, type), in a buffer reused from
  // one seek to the next.
  std::string_view SeekKey(std::string_view user_key, uint64_t sequence,
                           ValueType type = ValueType::kValue) {
    seek_key_.clear();
    AppendInternalKey(&seek_key_, user_key, sequence, type);
    return seek_key_;
  }

  bool Parse(ParsedInternalKey* parsed) {
    if (ParseInternalKey(iter_->key(), parsed)) return true;
    status_ = absl::DataLossError(
        absl::StrCat("malformed internal key in the database (",
                     iter_->key().size(), " bytes)"));
    valid_ = false;
    return false;
  }

  // Moves forward to the first visible value at or after the internal
  // iterator's position, passing over versions of user keys up to skip_
  // while `skipping`; leaves the internal iterator on it.
  void FindNext(bool skipping) {
    forward_ = true;
    valid_ = false;
    for (; iter_->Valid(); iter_->Next()) {
      ParsedInternalKey parsed;
      if (!Parse(&parsed)) return;
      if (parsed.sequence > sequence_) continue;
      if (skipping && UserCompare(parsed.user_key, skip_) <= 0) continue;
      if (upper_.has_value() && UserCompare(parsed.user_key, *upper_) >= 0) {
        return;
      }
      if (parsed.type == ValueType::kDeletion) {
        skip_.assign(parsed.user_key.data(), parsed.user_key.size());
        skipping = true;
        continue;
      }
      key_ = parsed.user_key;
      value_ = iter_->value();
      valid_ = true;
      return;
    }
  }

  // Moves backward from the internal iterator's position (the last version
  // of some user key) to the previous visible value, copied into
  // saved_key_ and saved_value_; leaves the internal iterator before that
  // key's versions.
  void FindPrev() {
    forward_ = false;
    valid_ = false;
    bool have = false;  // saved_value_ holds the newest visible value so far
    bool seen = false;  // a visible version of saved_key_ was met
    for (; iter_->Valid(); iter_->Prev()) {
      ParsedInternalKey parsed;
      if (!Parse(&parsed)) return;
      if (parsed.sequence > sequence_) continue;
      if (seen && UserCompare(parsed.user_key, saved_key_) < 0) {
        if (have) break;
        seen = false;
      }
      if (!seen && lower_.has_value() &&
          UserCompare(parsed.user_key, *lower_) < 0) {
        break;
      }
      seen = true;
      saved_key_.assign(parsed.user_key.data(), parsed.user_key.size());
      if (parsed.type == ValueType::kDeletion) {
        have = false;
        saved_value_.clear();
      } else {
        have = true;
        const std::string_view value = iter_->value();
        saved_value_.assign(value.data(), value.size());
      }
    }
    if (!iter_->status().ok()) return;
    valid_ = have;
    key_ = saved_key_;
    value_ = saved_value_;
  }

  const Comparator* const ucmp_;
  const bool bytewise_;
  // Whether comparisons may fail (every comparator but the bytewise one).
  const bool checked_;
  const std::unique_ptr<Iterator> iter_;
  const uint64_t sequence_;
  const std::optional<std::string> lower_;
  const std::optional<std::string> upper_;
  bool valid_ = false;
  bool forward_ = true;
  // What key() and value() show: views of the internal iterator's entry
  // (forward) or of saved_key_ and saved_value_ (backward).
  std::string_view key_;
  std::string_view value_;
  // The user key whose versions a forward step passes over.
  std::string skip_;
  std::string saved_key_;
  std::string saved_value_;
  std::string seek_key_;
  absl::Status status_;
};

}  // namespace

std::unique_ptr<Iterator> NewDbIterator(const Comparator* user_comparator,
                                        std::unique_ptr<Iterator> internal,
                                        uint64_t sequence,
                                        std::optional<std::string> lower,
                                        std::optional<std::string> upper) {
  return std::make_unique<DbIterator>(user_comparator, std::move(internal),
                                      sequence, std::move(lower),
                                      std::move(upper));
}

}  // namespace bloomtable
