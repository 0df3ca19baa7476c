#include "filter/filter_block.h"

#include <algorithm>
#include <cassert>

#include "util/coding.h"

namespace bloomtable {

FilterBlockBuilder::FilterBlockBuilder(const FilterPolicy* policy,
                                       uint64_t max_filter_bytes)
    : policy_(policy), max_filter_bytes_(max_filter_bytes) {}

void FilterBlockBuilder::StartBlock(uint64_t block_offset) {
  const uint64_t filter_index = block_offset / kFilterBase;
  assert(full_ || filter_index >= filter_offsets_.size());
  while (!full_ && filter_index > filter_offsets_.size()) GenerateFilter();
}

void FilterBlockBuilder::AddKey(std::string_view key) {
  if (full_) return;
  key_starts_.push_back(keys_.size());
  keys_.append(key.data(), key.size());
}

std::string_view FilterBlockBuilder::Finish() {
  if (!full_ && !key_starts_.empty()) GenerateFilter();
  const auto array_offset = static_cast<uint32_t>(result_.size());
  for (uint32_t offset : filter_offsets_) PutFixed32(&result_, offset);
  PutFixed32(&result_, array_offset);
  result_.push_back(static_cast<char>(kFilterBaseLg));
  return result_;
}

void FilterBlockBuilder::GenerateFilter() {
  const size_t num_keys = key_starts_.size();
  if (num_keys == 0) {
    // An empty filter: no bytes at all (where the last one ended fits).
    filter_offsets_.push_back(static_cast<uint32_t>(result_.size()));
    return;
  }

  key_views_.clear();
  for (size_t i = 0; i < num_keys; ++i) {
    const size_t end = i + 1 < num_keys ? key_starts_[i + 1] : keys_.size();
    key_views_.emplace_back(keys_.data() + key_starts_[i],
                            end - key_starts_[i]);
  }
  const size_t start = result_.size();
  policy_->CreateFilter(key_views_.data(), num_keys, &result_);
  keys_.clear();
  key_starts_.clear();
  if (result_.size() > max_filter_bytes_) {
    result_.resize(start);
    full_ = true;
    return;
  }
  filter_offsets_.push_back(static_cast<uint32_t>(start));
}

FilterBlockReader::FilterBlockReader(const FilterPolicy* policy,
                                     std::string_view contents)
    : policy_(policy) {
  // Trailer: fixed32 array offset, then the base_lg byte.
  constexpr size_t kTrailerSize = 5;
  const size_t n = contents.size();
  if (n < kTrailerSize) return;
  const int base_lg = static_cast<unsigned char>(contents[n - 1]);
  // A shift of 0 or above 30 was never written by any builder.
  if (base_lg < 1 || base_lg > 30) return;
  const uint32_t array_offset =
      DecodeFixed32(contents.data() + n - kTrailerSize);
  if (array_offset > n - kTrailerSize) return;
  data_ = contents.data();
  offsets_ = data_ + array_offset;
  array_offset_ = array_offset;
  num_filters_ = (n - kTrailerSize - array_offset) / 4;
  base_lg_ = base_lg;
}

void FilterBlockReader::Prefetch(uint64_t block_offset) const {
  if (offsets_ == nullptr) return;
  const uint64_t index = block_offset >> base_lg_;
  if (index >= num_filters_) return;
  const uint32_t start = DecodeFixed32(offsets_ + index * 4);
  const uint32_t limit = DecodeFixed32(offsets_ + index * 4 + 4);
  if (!(start < limit && limit <= array_offset_)) return;
  const size_t bytes = std::min<size_t>(limit - start, kMaxPrefetchBytes);
  for (size_t at = 0; at < bytes; at += 64) {  // 64-byte cache lines
    __builtin_prefetch(data_ + start + at);
  }
}

bool FilterBlockReader::KeyMayMatch(uint64_t block_offset,
                                    std::string_view key) const {
  if (offsets_ == nullptr) return true;
  const uint64_t index = block_offset >> base_lg_;
  if (index >= num_filters_) return true;
  // The limit of the last filter is the array offset stored right after the
  // array, which also lies inside the block.
  const uint32_t start = DecodeFixed32(offsets_ + index * 4);
  const uint32_t limit = DecodeFixed32(offsets_ + index * 4 + 4);
  if (start <= limit && limit <= array_offset_) {
    if (start == limit) return false;  // no key starts a block here
    return policy_->KeyMayMatch(key,
                                std::string_view(data_ + start, limit - start));
  }
  return true;  // damaged offsets: maybe
}

}  // namespace bloomtable
