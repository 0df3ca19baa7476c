#include "table/full_filter_builder.h"

namespace bloomtable {

std::string_view FullFilterBuilder::LastKey() const {
  return std::string_view(keys_).substr(key_starts_.back());
}

void FullFilterBuilder::AddKey(std::string_view key) {
  if (!key_starts_.empty() && LastKey() == key) return;
  key_starts_.push_back(keys_.size());
  keys_.append(key.data(), key.size());
}

void FullFilterBuilder::Finish(std::string* dst) {
  const size_t num_keys = key_starts_.size();
  std::vector<std::string_view> keys;
  keys.reserve(num_keys);
  for (size_t i = 0; i < num_keys; ++i) {
    const size_t end = i + 1 < num_keys ? key_starts_[i + 1] : keys_.size();
    keys.emplace_back(keys_.data() + key_starts_[i], end - key_starts_[i]);
  }
  policy_->CreateFilter(keys.data(), num_keys, dst);
  keys_.clear();
  keys_.shrink_to_fit();
  key_starts_.clear();
  key_starts_.shrink_to_fit();
}

}  // namespace bloomtable
