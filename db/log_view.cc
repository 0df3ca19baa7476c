#include "db/log_view.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace bloomtable {

class LogView::Iter final : public Iterator {
 public:
  explicit Iter(const LogView* view)
      : view_(view), index_(view->records_.size()) {}

  bool Valid() const override { return index_ < view_->records_.size(); }
  void SeekToFirst() override { index_ = 0; }
  void SeekToLast() override {
    index_ = view_->records_.empty() ? view_->records_.size()
                                     : view_->records_.size() - 1;
  }
  void Seek(std::string_view target) override {
    const auto& records = view_->records_;
    const InternalKeyComparator& cmp = view_->internal_comparator_;
    index_ = std::lower_bound(records.begin(), records.end(), target,
                              [&cmp](const Record& r, std::string_view t) {
                                return cmp.Compare(r.internal_key, t) < 0;
                              }) -
             records.begin();
  }
  void Next() override { ++index_; }
  void Prev() override {
    index_ = index_ == 0 ? view_->records_.size() : index_ - 1;
  }
  std::string_view key() const override {
    return view_->records_[index_].internal_key;
  }
  std::string_view value() const override {
    return view_->records_[index_].value;
  }
  absl::Status status() const override { return absl::OkStatus(); }

 private:
  const LogView* const view_;
  size_t index_;
};

LogView::LogView(const Comparator* user_comparator)
    : user_comparator_(user_comparator),
      internal_comparator_(user_comparator != nullptr ? user_comparator
                                                      : BytewiseComparator()) {}

uint32_t LogView::AddSource(std::string file_name) {
  sources_.push_back(std::move(file_name));
  return static_cast<uint32_t>(sources_.size() - 1);
}

void LogView::Add(std::string_view user_key, uint64_t sequence, ValueType type,
                  std::string_view value, uint32_t source, uint64_t offset,
                  bool recovered) {
  Record record;
  AppendInternalKey(&record.internal_key, user_key, sequence, type);
  if (type == ValueType::kValue) record.value.assign(value);
  record.source = source;
  record.offset = offset;
  record.recovered = recovered;
  if (records_.empty() || sequence > max_sequence_) max_sequence_ = sequence;
  if (records_.empty() || sequence < min_sequence_) min_sequence_ = sequence;
  records_.push_back(std::move(record));
}

void LogView::Finish() {
  if (user_comparator_ == nullptr) return;
  const InternalKeyComparator& cmp = internal_comparator_;
  std::stable_sort(records_.begin(), records_.end(),
                   [&cmp](const Record& a, const Record& b) {
                     return cmp.Compare(a.internal_key, b.internal_key) < 0;
                   });
  if (user_comparator_ != BytewiseComparator() || records_.empty()) return;
  std::vector<std::string_view> user_keys;
  user_keys.reserve(records_.size());
  for (const Record& record : records_) {
    user_keys.push_back(ExtractUserKey(record.internal_key));
  }
  // About 1% of absent keys still search the records.
  key_filter_policy_ = NewCacheLocalBloomFilterPolicy(10);
  key_filter_policy_->CreateFilter(user_keys.data(), user_keys.size(),
                                   &key_filter_);
  key_filter_reader_ = key_filter_policy_->NewReader(key_filter_);
}

const LogView::Record* LogView::Lookup(std::string_view user_key,
                                       uint64_t max_sequence) const {
  if (key_filter_reader_ != nullptr &&
      !key_filter_reader_->KeyMayMatch(user_key)) {
    return nullptr;
  }
  if (records_.empty()) return nullptr;
  // The first record at or after (user_key, max_sequence) in internal-key
  // order (user keys ascending, then newest first), found without building
  // that internal key.
  const uint64_t target_tag = PackSequenceAndType(
      std::min(max_sequence, kMaxSequenceNumber), ValueType::kValue);
  const InternalKeyComparator& cmp = internal_comparator_;
  auto it = std::lower_bound(
      records_.begin(), records_.end(), user_key,
      [&cmp, target_tag](const Record& r, std::string_view key) {
        const std::string_view record_key = ExtractUserKey(r.internal_key);
        const int by_user_key =
            cmp.user_bytewise()
                ? BytewiseCompare(record_key, key)
                : cmp.user_comparator()->Compare(record_key, key);
        if (by_user_key != 0) return by_user_key < 0;
        return ExtractTag(r.internal_key) > target_tag;
      });
  if (it == records_.end()) return nullptr;
  if (user_comparator_->Compare(ExtractUserKey(it->internal_key), user_key) !=
      0) {
    return nullptr;
  }
  return &*it;
}

std::unique_ptr<Iterator> LogView::NewIterator() const {
  return std::make_unique<Iter>(this);
}

}  // namespace bloomtable
