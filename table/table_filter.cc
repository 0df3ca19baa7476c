#include "table/table_filter.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "table/corruption.h"
#include "util/string_util.h"

namespace bloomtable {
namespace {

// A filter the metaindex names.
struct Candidate {
  const MetaindexEntry* entry = nullptr;
  FilterLayout layout = FilterLayout::kPerBlock;
  std::string_view policy_name;                // points into entry->key
  std::shared_ptr<const FilterPolicy> policy;  // null if not supplied
};

}  // namespace

absl::StatusOr<BlockContents> ReadFilterBlock(
    const RandomAccessFile& file, const BlockHandle& handle,
    const ReadBlockOptions& read_options, TableCounters* counters) {
  BlockReadReport report;
  absl::StatusOr<BlockContents> contents =
      ReadBlock(file, handle, read_options, &report);
  counters->RecordRead(report);
  return contents;
}

std::shared_ptr<const FilterPolicy> FindFilterPolicy(const Options& options,
                                                     std::string_view name) {
  if (options.filter_policy != nullptr &&
      options.filter_policy->Name() == name) {
    return options.filter_policy;
  }
  for (const auto& policy : options.extra_filter_policies) {
    if (policy != nullptr && policy->Name() == name) return policy;
  }
  return nullptr;
}

TableFilter::TableFilter(FilterLayout layout,
                         std::shared_ptr<const FilterPolicy> policy,
                         BlockContents contents)
    : layout_(layout),
      policy_(std::move(policy)),
      contents_(std::move(contents)) {
  if (layout_ == FilterLayout::kPerBlock) {
    block_reader_ =
        std::make_unique<FilterBlockReader>(policy_.get(), contents_.data);
  } else if (layout_ == FilterLayout::kWholeTable) {
    whole_table_reader_ = policy_->NewReader(contents_.data);
  }
}

TableFilter::~TableFilter() = default;

void TableFilter::Load(const Options& options, const RandomAccessFile& file,
                       const std::vector<MetaindexEntry>& metaindex,
                       const ReadBlockOptions& read_options,
                       const PartitionSource& partitions,
                       TableCounters* counters,
                       std::unique_ptr<TableFilter>* filter,
                       TableFilterInfo* info) {
  filter->reset();
  *info = TableFilterInfo();

  std::vector<Candidate> candidates;
  // Metaindex keys of the candidates whose policy is known: at most one per
  // supplied policy and layout.
  std::vector<std::string_view> known_keys;
  for (const MetaindexEntry& entry : metaindex) {
    Candidate candidate;
    std::string_view name;
    if (!ParseFilterMetaindexKey(entry.key, &name, &candidate.layout)) {
      continue;  // some other meta block (RocksDB's properties, ...)
    }
    candidate.policy = FindFilterPolicy(options, name);
    candidate.policy_name = name;
    // A valid metaindex names each filter once (its keys are sorted and
    // distinct). Reading a repeated name again could only cost another
    // block read per entry of a damaged metaindex: skip it. (Only filters of
    // known policies are ever read, at most one per policy and layout.)
    if (candidate.policy != nullptr) {
      if (std::find(known_keys.begin(), known_keys.end(), entry.key) !=
          known_keys.end()) {
        continue;
      }
      known_keys.emplace_back(entry.key);
    }
    candidate.entry = &entry;
    candidates.push_back(std::move(candidate));
  }
  if (candidates.empty()) return;  // no filter

  std::string first_failure;
  std::string first_failure_key;
  for (FilterLayout layout :
       {FilterLayout::kWholeTable, FilterLayout::kPartitioned,
        FilterLayout::kPerBlock}) {
    for (const Candidate& candidate : candidates) {
      if (candidate.layout != layout || candidate.policy == nullptr) continue;
      const BlockHandle& handle = candidate.entry->handle;
      std::string reason;
      absl::StatusOr<BlockContents> contents =
          ReadFilterBlock(file, handle, read_options, counters);
      if (contents.ok() && layout == FilterLayout::kPartitioned) {
        PartitionedFilter::Source source;
        source.file = &file;
        source.read_options = read_options;
        source.counters = counters;
        source.cache = partitions.cache;
        source.cache_id = partitions.cache_id;
        source.region_end = partitions.region_end;
        absl::StatusOr<std::unique_ptr<PartitionedFilter>> partitioned =
            PartitionedFilter::Open(candidate.policy, options.comparator,
                                    *std::move(contents), source);
        if (partitioned.ok()) {
          auto loaded = std::unique_ptr<TableFilter>(
              new TableFilter(layout, candidate.policy, BlockContents()));
          loaded->partitioned_ = *std::move(partitioned);
          *filter = std::move(loaded);
          info->metaindex_key = candidate.entry->key;
          info->in_use = true;
          return;
        }
        contents = partitioned.status();
      }
      if (contents.ok()) {
        auto loaded = std::unique_ptr<TableFilter>(
            new TableFilter(layout, candidate.policy, *std::move(contents)));
        if (layout == FilterLayout::kWholeTable ||
            loaded->block_reader_->usable()) {
          *filter = std::move(loaded);
          info->metaindex_key = candidate.entry->key;
          info->in_use = true;
          return;
        }
        reason = std::string(
            BlockError(
                "", "filter", handle,
                absl::DataLossError(ToAbsl(FilterBlockReader::kUnusableReason)))
                .message());
      } else {
        // Worded as the tool's verify words the same damage, without the
        // file name (the table's own).
        reason = std::string(
            BlockError("", "filter", handle, contents.status()).message());
      }
      if (first_failure.empty()) {
        first_failure = std::move(reason);
        first_failure_key = candidate.entry->key;
      }
    }
  }

  if (!first_failure.empty()) {
    info->metaindex_key = first_failure_key;
    info->unused_reason = first_failure;
  } else {
    info->metaindex_key = candidates.front().entry->key;
    info->unused_reason = absl::StrCat("no filter policy named \"",
                                       ToAbsl(candidates.front().policy_name),
                                       "\" among the options");
  }
}

}  // namespace bloomtable
