#include "table/table_filter.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"

namespace bloomtable {
namespace {

absl::string_view ToAbsl(std::string_view s) {
  return absl::string_view(s.data(), s.size());
}

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

// A filter the metaindex names.
struct Candidate {
  std::string metaindex_key;
  FilterLayout layout;
  std::string encoded_handle;
  std::shared_ptr<const FilterPolicy> policy;  // null if not supplied
};

}  // namespace

absl::StatusOr<BlockContents> ReadFilterBlock(
    const RandomAccessFile& file, std::string_view encoded_handle,
    const ReadBlockOptions& read_options, TableCounters* counters) {
  BlockHandle handle;
  if (!handle.DecodeFrom(&encoded_handle).ok()) {
    return absl::DataLossError("bad filter block handle");
  }
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
  } else {
    whole_table_reader_ = policy_->NewReader(contents_.data);
  }
}

TableFilter::~TableFilter() = default;

absl::Status TableFilter::Load(const Options& options,
                               const RandomAccessFile& file,
                               const Block& metaindex,
                               const ReadBlockOptions& read_options,
                               TableCounters* counters,
                               std::unique_ptr<TableFilter>* filter,
                               TableFilterInfo* info) {
  filter->reset();
  *info = TableFilterInfo();

  std::vector<Candidate> candidates;
  // Metaindex keys of the candidates whose policy is known: at most one per
  // supplied policy and layout.
  std::vector<std::string> known_keys;
  BlockIter iter(BytewiseComparator(), &metaindex);
  for (iter.SeekToFirst(); iter.Valid(); iter.Next()) {
    const std::string_view key = iter.key();
    Candidate candidate;
    std::string_view name;
    if (StartsWith(key, kWholeTableFilterPrefix)) {
      candidate.layout = FilterLayout::kWholeTable;
      name = key.substr(kWholeTableFilterPrefix.size());
    } else if (StartsWith(key, kPerBlockFilterPrefix)) {
      candidate.layout = FilterLayout::kPerBlock;
      name = key.substr(kPerBlockFilterPrefix.size());
    } else {
      continue;  // some other meta block (RocksDB's properties, ...)
    }
    candidate.policy = FindFilterPolicy(options, name);
    // A valid metaindex names each filter once (its keys are sorted and
    // distinct). Reading a repeated name again could only cost another
    // block read per entry of a damaged metaindex: skip it. (Only filters of
    // known policies are ever read, at most one per policy and layout.)
    if (candidate.policy != nullptr) {
      if (std::find(known_keys.begin(), known_keys.end(), key) !=
          known_keys.end()) {
        continue;
      }
      known_keys.emplace_back(key);
    }
    candidate.metaindex_key = std::string(key);
    candidate.encoded_handle = std::string(iter.value());
    candidates.push_back(std::move(candidate));
  }
  if (!iter.status().ok()) {
    return absl::DataLossError(
        absl::StrCat("metaindex block: ", iter.status().message()));
  }
  if (candidates.empty()) return absl::OkStatus();  // no filter

  std::string first_failure;
  std::string first_failure_key;
  for (FilterLayout layout :
       {FilterLayout::kWholeTable, FilterLayout::kPerBlock}) {
    for (const Candidate& candidate : candidates) {
      if (candidate.layout != layout || candidate.policy == nullptr) continue;
      std::string reason;
      absl::StatusOr<BlockContents> contents = ReadFilterBlock(
          file, candidate.encoded_handle, read_options, counters);
      if (contents.ok()) {
        auto loaded = std::unique_ptr<TableFilter>(
            new TableFilter(layout, candidate.policy, *std::move(contents)));
        if (layout == FilterLayout::kWholeTable ||
            loaded->block_reader_->usable()) {
          *filter = std::move(loaded);
          info->metaindex_key = candidate.metaindex_key;
          info->in_use = true;
          return absl::OkStatus();
        }
        reason = "malformed filter block (bad offset array or base_lg)";
      } else {
        reason = std::string(contents.status().message());
      }
      if (first_failure.empty()) {
        first_failure = std::move(reason);
        first_failure_key = candidate.metaindex_key;
      }
    }
  }

  if (!first_failure.empty()) {
    info->metaindex_key = first_failure_key;
    info->unused_reason = first_failure;
  } else {
    info->metaindex_key = candidates.front().metaindex_key;
    info->unused_reason =
        absl::StrCat("no filter policy named \"",
                     ToAbsl(std::string_view(info->metaindex_key)
                                .substr(candidates.front().layout ==
                                                FilterLayout::kWholeTable
                                            ? kWholeTableFilterPrefix.size()
                                            : kPerBlockFilterPrefix.size())),
                     "\" among the options");
  }
  return absl::OkStatus();
}

}  // namespace bloomtable
