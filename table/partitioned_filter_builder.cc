#include "table/partitioned_filter_builder.h"

#include <algorithm>
#include <utility>

#include "table/block_builder.h"

namespace bloomtable {

PartitionedFilterBuilder::PartitionedFilterBuilder(const FilterPolicy* policy,
                                                   const Comparator* comparator,
                                                   size_t keys_per_partition)
    : policy_(policy),
      comparator_(comparator),
      keys_per_partition_(std::max<size_t>(1, keys_per_partition)) {}

void PartitionedFilterBuilder::AddKey(std::string_view key) {
  if (!key_starts_.empty()) {
    if (key == last_key_) return;
    if (key_starts_.size() >= keys_per_partition_) {
      // The separator lies in [last key, key): a lookup of any key up to the
      // last one of this partition finds this partition first.
      std::string separator = last_key_;
      comparator_->FindShortestSeparator(&separator, key);
      CutPartition(separator);
    }
  }
  key_starts_.push_back(keys_.size());
  keys_.append(key.data(), key.size());
  last_key_.assign(key.data(), key.size());
}

void PartitionedFilterBuilder::CutPartition(const std::string& separator) {
  std::vector<std::string_view> keys;
  keys.reserve(key_starts_.size());
  for (size_t i = 0; i < key_starts_.size(); ++i) {
    const size_t end =
        i + 1 < key_starts_.size() ? key_starts_[i + 1] : keys_.size();
    keys.emplace_back(keys_.data() + key_starts_[i], end - key_starts_[i]);
  }
  std::string filter;
  policy_->CreateFilter(keys.data(), keys.size(), &filter);
  filters_.push_back(std::move(filter));
  separators_.push_back(separator);
  keys_.clear();
  key_starts_.clear();
}

absl::Status PartitionedFilterBuilder::Finish(
    const WriteBlockFunction& write_block, std::string* top_level_index) {
  if (!key_starts_.empty()) {
    // Past the last partition no key can be in the table: its separator is
    // a short key >= the table's last filter key.
    std::string separator = last_key_;
    comparator_->FindShortSuccessor(&separator);
    CutPartition(separator);
  }
  // Every entry is a restart point: the reader finds a partition by binary
  // search alone.
  BlockBuilder index(1);
  std::string encoded_handle;
  for (size_t i = 0; i < filters_.size(); ++i) {
    BlockHandle handle;
    absl::Status status = write_block(filters_[i], &handle);
    if (!status.ok()) return status;
    encoded_handle.clear();
    handle.EncodeTo(&encoded_handle);
    index.Add(separators_[i], encoded_handle);
  }
  top_level_index->assign(index.Finish());
  filters_.clear();
  separators_.clear();
  return absl::OkStatus();
}

}  // namespace bloomtable
