#include "table/scan_filters.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "table/table_filter.h"
#include "util/string_util.h"

namespace bloomtable {
ScanFilters::ScanFilters(TableCounters* counters, bool bytewise)
    : counters_(counters), bytewise_(bytewise) {}

ScanFilters::~ScanFilters() = default;

void ScanFilters::Load(const Options& options, const RandomAccessFile& file,
                       const std::vector<MetaindexEntry>& metaindex,
                       const ReadBlockOptions& read_options,
                       TableCounters* counters,
                       std::unique_ptr<ScanFilters>* filters,
                       ScanFilterInfo* info) {
  std::unique_ptr<ScanFilters> loaded = Start(options, counters, filters, info);
  for (const MetaindexEntry& entry : metaindex) {
    const std::string_view key = entry.key;
    const BlockSource read = [&]() {
      return ReadFilterBlock(file, entry.handle, read_options, counters);
    };
    if (StartsWith(key, kPrefixFilterMetaPrefix)) {
      loaded->LoadPrefixFilter(options, key, read, info);
    } else if (StartsWith(key, kRangeFilterMetaPrefix)) {
      loaded->LoadRangeFilter(key, read, info);
    }
  }
  KeepIfAny(std::move(loaded), filters);
}

std::unique_ptr<ScanFilters> ScanFilters::Start(
    const Options& options, TableCounters* counters,
    std::unique_ptr<ScanFilters>* filters, ScanFilterInfo* info) {
  filters->reset();
  *info = ScanFilterInfo();
  return std::unique_ptr<ScanFilters>(
      new ScanFilters(counters, options.comparator == BytewiseComparator()));
}

void ScanFilters::KeepIfAny(std::unique_ptr<ScanFilters> loaded,
                            std::unique_ptr<ScanFilters>* filters) {
  if (loaded->prefix_ != nullptr || loaded->range_ != nullptr) {
    *filters = std::move(loaded);
  }
}

void ScanFilters::FromBlocks(const Options& options,
                             std::string_view prefix_policy_name,
                             std::string_view prefix_block,
                             std::string_view range_block,
                             TableCounters* counters,
                             std::unique_ptr<ScanFilters>* filters,
                             ScanFilterInfo* info) {
  std::unique_ptr<ScanFilters> loaded = Start(options, counters, filters, info);
  // The loaders keep what they are given: a copy, owned like a read block.
  const auto copy_of = [](std::string_view bytes) {
    return [bytes]() -> absl::StatusOr<BlockContents> {
      BlockContents contents;
      contents.owned = std::make_unique<char[]>(bytes.size());
      if (!bytes.empty()) {
        std::memcpy(contents.owned.get(), bytes.data(), bytes.size());
      }
      contents.data = std::string_view(contents.owned.get(), bytes.size());
      return contents;
    };
  };
  if (!prefix_block.empty()) {
    loaded->LoadPrefixFilter(options,
                             absl::StrCat(ToAbsl(kPrefixFilterMetaPrefix),
                                          ToAbsl(prefix_policy_name)),
                             copy_of(prefix_block), info);
  }
  if (!range_block.empty()) {
    loaded->LoadRangeFilter(absl::StrCat(ToAbsl(kRangeFilterMetaPrefix),
                                         ToAbsl(RangeFilterBuilder::kName)),
                            copy_of(range_block), info);
  }
  KeepIfAny(std::move(loaded), filters);
}

void ScanFilters::LoadPrefixFilter(const Options& options, std::string_view key,
                                   const BlockSource& read,
                                   ScanFilterInfo* info) {
  if (prefix_ != nullptr) return;  // the first usable one serves
  // Info names the first prefix filter, or the one with a known policy.
  if (info->prefix_metaindex_key.empty()) {
    info->prefix_metaindex_key = std::string(key);
  }
  const std::string_view policy_name =
      key.substr(kPrefixFilterMetaPrefix.size());
  std::shared_ptr<const FilterPolicy> policy =
      FindFilterPolicy(options, policy_name);
  if (policy == nullptr) {
    if (info->prefix_unused_reason.empty()) {
      info->prefix_unused_reason =
          absl::StrCat("no filter policy named \"", ToAbsl(policy_name),
                       "\" among the options");
    }
    return;
  }
  // A policy's block is read once: a repeated entry (a valid metaindex
  // names each filter once) keeps the first one's outcome.
  if (std::find(prefix_policies_read_.begin(), prefix_policies_read_.end(),
                policy.get()) != prefix_policies_read_.end()) {
    return;
  }
  prefix_policies_read_.push_back(policy.get());
  info->prefix_metaindex_key = std::string(key);
  absl::StatusOr<BlockContents> contents = read();
  absl::Status status = contents.status();
  if (contents.ok()) {
    prefix_contents_ = *std::move(contents);
    absl::StatusOr<std::unique_ptr<PrefixFilterReader>> reader =
        PrefixFilterReader::Parse(policy.get(), options.prefix_extractor.get(),
                                  prefix_contents_.data);
    status = reader.status();
    if (reader.ok()) prefix_ = *std::move(reader);
  }
  if (!status.ok()) {
    prefix_contents_ = BlockContents();
    info->prefix_unused_reason = std::string(status.message());
    return;
  }
  prefix_policy_ = std::move(policy);
  prefix_extractor_ = options.prefix_extractor;
  info->prefix_extractor = std::string(prefix_->extractor_name());
  info->prefix_whole_keys = prefix_->whole_keys();
  info->prefix_loaded = true;
  info->prefix_in_use = prefix_->extractor() != nullptr;
  info->prefix_unused_reason.clear();
  if (!info->prefix_in_use) {
    info->prefix_unused_reason = absl::StrCat(
        "the table's prefix extractor is \"", ToAbsl(prefix_->extractor_name()),
        "\", the options' ",
        options.prefix_extractor == nullptr
            ? std::string("none")
            : absl::StrCat("\"", ToAbsl(options.prefix_extractor->Name()),
                           "\""));
  }
}

void ScanFilters::LoadRangeFilter(std::string_view key, const BlockSource& read,
                                  ScanFilterInfo* info) {
  // The first range filter entry this reader can use is read, once; later
  // ones (a valid metaindex has one) are ignored, whatever became of it.
  if (range_read_) return;
  info->range_metaindex_key = std::string(key);
  if (key.substr(kRangeFilterMetaPrefix.size()) != RangeFilterBuilder::kName) {
    info->range_unused_reason = "unknown range filter";
    return;
  }
  if (!bytewise_) {
    // Its ranges are bytewise ranges: under another order they would not
    // be the ranges asked for.
    info->range_unused_reason = "the comparator is not bytewise";
    return;
  }
  range_read_ = true;
  absl::StatusOr<BlockContents> contents = read();
  absl::Status status = contents.status();
  if (contents.ok()) {
    range_contents_ = *std::move(contents);
    absl::StatusOr<std::unique_ptr<RangeFilterReader>> reader =
        RangeFilterReader::Parse(range_contents_.data);
    status = reader.status();
    if (reader.ok()) range_ = *std::move(reader);
  }
  if (!status.ok()) {
    range_contents_ = BlockContents();
    info->range_unused_reason = std::string(status.message());
    return;
  }
  info->range_in_use = true;
  info->range_unused_reason.clear();
  info->range_num_keys = range_->num_keys();
  info->range_bits_per_key = range_->stored_bits_per_key();
  info->range_filter_bytes = range_contents_.data.size();
}

bool ScanFilters::PrefixMayMatch(std::string_view prefix) const {
  return counters_->prefix_filter.Record(prefix_->PrefixMayMatch(prefix));
}

bool ScanFilters::CanAnswerRanges() const {
  return bytewise_ && (prefix_extractor() != nullptr || range_ != nullptr);
}

bool ScanFilters::RangeMayMatch(std::string_view lo, std::string_view hi,
                                bool ask_prefix) const {
  if (lo >= hi) return false;
  // Every key of [lo, hi) has lo's prefix P when P is a prefix of lo that
  // any appended bytes keep, and hi <= the first string after all those
  // that start with P.
  const PrefixExtractor* extractor = ask_prefix ? prefix_extractor() : nullptr;
  if (extractor != nullptr && extractor->InDomain(lo)) {
    const std::string_view prefix = extractor->Transform(lo);
    if (StartsWith(lo, prefix) && extractor->SameResultWhenAppended(prefix)) {
      const std::string successor = PrefixSuccessor(prefix);
      if ((successor.empty() || hi <= successor) && !PrefixMayMatch(prefix)) {
        return false;
      }
    }
  }
  if (range_ != nullptr) {
    if (!counters_->range_filter.Record(range_->MayContainRange(lo, hi))) {
      return false;
    }
  }
  return true;
}

size_t ScanFilters::size() const {
  return prefix_contents_.data.size() + range_contents_.data.size();
}

}  // namespace bloomtable
