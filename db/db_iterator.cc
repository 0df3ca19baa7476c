#include "db/db_iterator.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "table/internal_key.h"
#include "util/comparison_errors.h"

namespace bloomtable {
namespace {

class DbIterator final : public Iterator {
 public:
  DbIterator(const Comparator* user_comparator,
             std::unique_ptr<Iterator> internal, uint64_t sequence,
             std::optional<std::string> lower, std::optional<std::string> upper)
      : ucmp_(user_comparator),
        checked_(user_comparator != BytewiseComparator()),
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
    FindNext(/*skip=*/false);
  }
  void Seek(std::string_view target) override {
    if (!checked_) return SeekUnchecked(target);
    ComparisonErrorScope errors;
    SeekUnchecked(target);
    Check(errors);
  }
  void SeekUnchecked(std::string_view target) {
    std::string_view start = target;
    if (lower_.has_value() && ucmp_->Compare(start, *lower_) < 0) {
      start = *lower_;
    }
    iter_->Seek(SeekKey(start, sequence_));
    FindNext(/*skip=*/false);
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
    if (upper_.has_value() && ucmp_->Compare(target, *upper_) >= 0) {
      SeekToLastUnchecked();
      return;
    }
    // Every version of target, then step back to its last one.
    iter_->Seek(SeekKey(target, 0, ValueType::kDeletion));
    if (iter_->Valid()) {
      ParsedInternalKey parsed;
      if (!ParseInternalKey(iter_->key(), &parsed) ||
          ucmp_->Compare(parsed.user_key, target) != 0) {
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
    if (!forward_) {
      // The internal iterator is before key_'s versions: go to them.
      iter_->Seek(SeekKey(key_, kMaxSequenceNumber));
      forward_ = true;
    }
    FindNext(/*skip=*/true);
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
      iter_->Seek(SeekKey(key_, kMaxSequenceNumber));
      if (iter_->Valid()) {
        iter_->Prev();
      } else if (iter_->status().ok()) {
        iter_->SeekToLast();
      }
      forward_ = false;
    }
    FindPrev();
  }

 private:
  // A key the comparator could not order ends the iteration: the order
  // around it is the comparator's fallback, not the database's.
  void Check(const ComparisonErrorScope& errors) {
    if (errors.failed() && status_.ok()) status_ = errors.status();
    if (!status_.ok()) valid_ = false;
  }

  static std::string SeekKey(std::string_view user_key, uint64_t sequence,
                             ValueType type = ValueType::kValue) {
    std::string key;
    AppendInternalKey(&key, user_key, sequence, type);
    return key;
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
  // iterator's position; with `skip`, passes over key_'s versions first.
  void FindNext(bool skip) {
    forward_ = true;
    valid_ = false;
    std::string skip_key;
    if (skip) skip_key = key_;
    bool skipping = skip;
    for (; iter_->Valid(); iter_->Next()) {
      ParsedInternalKey parsed;
      if (!Parse(&parsed)) return;
      if (parsed.sequence > sequence_) continue;
      if (skipping && ucmp_->Compare(parsed.user_key, skip_key) <= 0) continue;
      if (upper_.has_value() && ucmp_->Compare(parsed.user_key, *upper_) >= 0) {
        return;
      }
      if (parsed.type == ValueType::kDeletion) {
        skip_key.assign(parsed.user_key);
        skipping = true;
        continue;
      }
      key_.assign(parsed.user_key);
      value_.assign(iter_->value());
      valid_ = true;
      return;
    }
  }

  // Moves backward from the internal iterator's position (the last version
  // of some user key) to the previous visible value; leaves the internal
  // iterator before that key's versions.
  void FindPrev() {
    forward_ = false;
    valid_ = false;
    bool have = false;  // key_/value_ hold the newest visible value so far
    bool seen = false;  // a visible version of key_ was met
    for (; iter_->Valid(); iter_->Prev()) {
      ParsedInternalKey parsed;
      if (!Parse(&parsed)) return;
      if (parsed.sequence > sequence_) continue;
      if (seen && ucmp_->Compare(parsed.user_key, key_) < 0) {
        if (have) break;
        seen = false;
      }
      if (!seen && lower_.has_value() &&
          ucmp_->Compare(parsed.user_key, *lower_) < 0) {
        break;
      }
      seen = true;
      key_.assign(parsed.user_key);
      if (parsed.type == ValueType::kDeletion) {
        have = false;
        value_.clear();
      } else {
        have = true;
        value_.assign(iter_->value());
      }
    }
    if (!iter_->status().ok()) return;
    valid_ = have;
  }

  const Comparator* const ucmp_;
  // Whether comparisons may fail (every comparator but the bytewise one).
  const bool checked_;
  const std::unique_ptr<Iterator> iter_;
  const uint64_t sequence_;
  const std::optional<std::string> lower_;
  const std::optional<std::string> upper_;
  bool valid_ = false;
  bool forward_ = true;
  std::string key_;
  std::string value_;
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
