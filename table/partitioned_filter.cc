#include "table/partitioned_filter.h"

#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "table/block.h"

namespace bloomtable {
namespace {

// Bookkeeping charged per cached partition beyond its bytes (the reader,
// the shared_ptr control block, the cache's nodes).
constexpr size_t kCacheEntryOverhead = 128;

}  // namespace

PartitionedFilter::PartitionedFilter(std::shared_ptr<const FilterPolicy> policy,
                                     const Comparator* comparator,
                                     const Source& source)
    : policy_(std::move(policy)), source_(source), separators_(comparator) {}

PartitionedFilter::~PartitionedFilter() = default;

absl::StatusOr<std::unique_ptr<PartitionedFilter>> PartitionedFilter::Open(
    std::shared_ptr<const FilterPolicy> policy, const Comparator* comparator,
    BlockContents top_level, const Source& source) {
  absl::StatusOr<std::shared_ptr<const Block>> block =
      Block::Parse(std::move(top_level));
  if (!block.ok()) return block.status();
  auto filter = std::unique_ptr<PartitionedFilter>(
      new PartitionedFilter(std::move(policy), comparator, source));

  // The lookup trusts the separators' order (its binary search) and the
  // handles: check both once, so that a damaged top-level index is refused
  // rather than sending a key to the wrong partition. Partitions are
  // written one after another in key order, so handles that do not
  // strictly increase in offset are damage too (two swapped handles would
  // otherwise pass every other check).
  std::vector<BlockHandle> handles;
  BlockIter iter(comparator, block->get());
  std::string_view previous;
  for (iter.SeekToFirst(); iter.Valid(); iter.Next()) {
    const size_t count = handles.size();
    if (count > 0 && comparator->Compare(previous, iter.key()) >= 0) {
      return absl::DataLossError(
          "partitioned filter: separators out of order in the top-level "
          "index");
    }
    std::string_view encoded = iter.value();
    BlockHandle handle;
    if (!handle.DecodeFrom(&encoded).ok() || !encoded.empty() ||
        !handle.FitsWithin(source.region_end) ||
        (count > 0 && handle.offset() <= handles.back().offset())) {
      return absl::DataLossError(
          "partitioned filter: bad partition handle in the top-level index");
    }
    filter->separators_.Add(iter.key());
    previous = filter->separators_.separator(count);
    handles.push_back(handle);
  }
  if (!iter.status().ok()) {
    return absl::DataLossError(absl::StrCat(
        "partitioned filter: top-level index: ", iter.status().message()));
  }
  filter->separators_.Finish();
  // The block is dropped here: the separators and handles are all a lookup
  // needs.

  size_t pinned = filter->separators_.MemoryUsage();
  if (source.cache != nullptr) {
    handles.shrink_to_fit();
    filter->handles_ = std::move(handles);
    pinned += filter->handles_.capacity() * sizeof(BlockHandle);
  } else {
    filter->held_.resize(handles.size());
    pinned += filter->held_.capacity() * sizeof(Partition);
    for (size_t i = 0; i < handles.size(); ++i) {
      pinned += filter->LoadPartition(handles[i], &filter->held_[i]);
    }
  }
  filter->pinned_bytes_ = pinned;
  return filter;
}

size_t PartitionedFilter::LoadPartition(const BlockHandle& handle,
                                        Partition* partition) const {
  BlockReadReport report;
  absl::StatusOr<BlockContents> contents =
      ReadBlock(*source_.file, handle, source_.read_options, &report);
  source_.counters->RecordRead(report);
  TableCounters::Add(source_.counters->filter_partition_reads, 1);
  if (!contents.ok()) return 0;
  partition->reader = policy_->NewReader(contents->data);
  if (partition->reader == nullptr) return 0;
  partition->owned = std::move(contents->owned);
  return contents->data.size();
}

std::shared_ptr<const PartitionedFilter::Partition>
PartitionedFilter::GetCachedPartition(size_t i) const {
  const BlockHandle& handle = handles_[i];
  std::shared_ptr<const void> cached =
      source_.cache->Lookup(source_.cache_id, handle.offset());
  if (cached != nullptr) {
    return std::static_pointer_cast<const Partition>(std::move(cached));
  }
  auto partition = std::make_shared<Partition>();
  const size_t bytes = LoadPartition(handle, partition.get());
  // A partition that cannot be used is not cached: the next lookup tries
  // again.
  if (partition->reader != nullptr) {
    source_.cache->Insert(source_.cache_id, handle.offset(), partition,
                          bytes + kCacheEntryOverhead);
  }
  return partition;
}

void PartitionedFilter::Prefetch(std::string_view key) const {
  if (source_.cache != nullptr) return;
  const size_t i = separators_.Find(key);
  if (i == separators_.size()) return;
  const FilterReader* reader = held_[i].reader.get();
  if (reader != nullptr) reader->Prefetch(key);
}

bool PartitionedFilter::KeyMayMatch(std::string_view key) const {
  // The first partition whose separator is >= key is the only one that can
  // hold it; past the last separator the key is after every key of the
  // table.
  const size_t i = separators_.Find(key);
  if (i == separators_.size()) return false;
  if (source_.cache == nullptr) {
    const FilterReader* reader = held_[i].reader.get();
    return reader == nullptr || reader->KeyMayMatch(key);
  }
  std::shared_ptr<const Partition> partition = GetCachedPartition(i);
  return partition->reader == nullptr || partition->reader->KeyMayMatch(key);
}

}  // namespace bloomtable
