#include "table/partitioned_filter.h"

#include <string>
#include <utility>

#include "absl/strings/str_cat.h"

namespace bloomtable {

// One partition's bytes and the policy's reader over them.
struct PartitionedFilter::Partition {
  BlockContents contents;
  std::unique_ptr<FilterReader> reader;
};

namespace {

// Bookkeeping charged per cached partition beyond its bytes (the reader,
// the shared_ptr control block, the cache's nodes).
constexpr size_t kCacheEntryOverhead = 128;

}  // namespace

PartitionedFilter::PartitionedFilter(std::shared_ptr<const FilterPolicy> policy,
                                     const Comparator* comparator,
                                     std::shared_ptr<const Block> top_level,
                                     const Source& source)
    : policy_(std::move(policy)),
      comparator_(comparator),
      top_level_(std::move(top_level)),
      source_(source) {}

PartitionedFilter::~PartitionedFilter() = default;

absl::StatusOr<std::unique_ptr<PartitionedFilter>> PartitionedFilter::Open(
    std::shared_ptr<const FilterPolicy> policy, const Comparator* comparator,
    BlockContents top_level, const Source& source) {
  absl::StatusOr<std::shared_ptr<const Block>> block =
      Block::Parse(std::move(top_level));
  if (!block.ok()) return block.status();
  auto filter = std::unique_ptr<PartitionedFilter>(new PartitionedFilter(
      std::move(policy), comparator, *std::move(block), source));

  // The lookup trusts the separators' order and the handles: check both
  // once, so that a damaged top-level index is refused rather than sending
  // a key to the wrong partition.
  BlockIter iter(comparator, filter->top_level_.get());
  std::string previous;
  for (iter.SeekToFirst(); iter.Valid(); iter.Next()) {
    if (!filter->handles_.empty() &&
        comparator->Compare(previous, iter.key()) >= 0) {
      return absl::DataLossError(
          "partitioned filter: separators out of order in the top-level "
          "index");
    }
    previous.assign(iter.key().data(), iter.key().size());
    std::string_view encoded = iter.value();
    BlockHandle handle;
    // Partitions follow each other in the file: offsets strictly increase,
    // which KeyMayMatch's search by offset relies on.
    if (!handle.DecodeFrom(&encoded).ok() || !encoded.empty() ||
        !handle.FitsWithin(source.region_end) ||
        (!filter->handles_.empty() &&
         handle.offset() <= filter->handles_.back().offset())) {
      return absl::DataLossError(
          "partitioned filter: bad partition handle in the top-level index");
    }
    filter->handles_.push_back(handle);
  }
  if (!iter.status().ok()) {
    return absl::DataLossError(absl::StrCat(
        "partitioned filter: top-level index: ", iter.status().message()));
  }

  filter->pinned_bytes_ = filter->top_level_->contents().size();
  if (source.cache == nullptr) {
    filter->held_.reserve(filter->handles_.size());
    for (const BlockHandle& handle : filter->handles_) {
      std::shared_ptr<const Partition> partition =
          filter->LoadPartition(handle);
      if (partition != nullptr) {
        filter->pinned_bytes_ += partition->contents.data.size();
      }
      filter->held_.push_back(std::move(partition));
    }
  }
  return filter;
}

std::shared_ptr<const PartitionedFilter::Partition>
PartitionedFilter::LoadPartition(const BlockHandle& handle) const {
  BlockReadReport report;
  absl::StatusOr<BlockContents> contents =
      ReadBlock(*source_.file, handle, source_.read_options, &report);
  source_.counters->RecordRead(report);
  TableCounters::Add(source_.counters->filter_partition_reads, 1);
  if (!contents.ok()) return nullptr;
  auto partition = std::make_shared<Partition>();
  partition->contents = *std::move(contents);
  partition->reader = policy_->NewReader(partition->contents.data);
  if (partition->reader == nullptr) return nullptr;
  return partition;
}

std::shared_ptr<const PartitionedFilter::Partition>
PartitionedFilter::GetPartition(size_t i) const {
  if (source_.cache == nullptr) return held_[i];
  const BlockHandle& handle = handles_[i];
  std::shared_ptr<const void> cached =
      source_.cache->Lookup(source_.cache_id, handle.offset());
  if (cached != nullptr) {
    return std::static_pointer_cast<const Partition>(std::move(cached));
  }
  std::shared_ptr<const Partition> partition = LoadPartition(handle);
  if (partition != nullptr) {
    source_.cache->Insert(
        source_.cache_id, handle.offset(), partition,
        partition->contents.data.size() + kCacheEntryOverhead);
  }
  return partition;
}

bool PartitionedFilter::KeyMayMatch(std::string_view key) const {
  // The first partition whose separator is >= key is the only one that can
  // hold it. Binary search over the decoded separators would need them in
  // memory twice; the top-level block is searched in place instead.
  BlockIter iter(comparator_, top_level_.get());
  iter.Seek(key);
  if (!iter.Valid()) {
    // Past the last separator: after every key of the table. (A damaged
    // block was refused at Open, so a failed Seek here is "maybe".)
    return !iter.status().ok();
  }
  // Find the entry's index: its handle's position among the decoded ones.
  std::string_view encoded = iter.value();
  BlockHandle handle;
  if (!handle.DecodeFrom(&encoded).ok()) return true;
  size_t lo = 0, hi = handles_.size();
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    if (handles_[mid].offset() < handle.offset()) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  if (lo == handles_.size() || handles_[lo].offset() != handle.offset()) {
    return true;
  }
  std::shared_ptr<const Partition> partition = GetPartition(lo);
  return partition == nullptr || partition->reader->KeyMayMatch(key);
}

}  // namespace bloomtable
