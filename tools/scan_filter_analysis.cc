#include "tools/scan_filter_analysis.h"

#include <memory>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "filter/range_filter.h"
#include "table/prefix_filter_block.h"
#include "table/scan_filters.h"
#include "tools/escaping.h"
#include "tools/filter_policies.h"
#include "util/string_util.h"

namespace bloomtable {
namespace tool {
namespace {

double BitsPerKey(uint64_t bytes, uint64_t keys) {
  return keys == 0 ? 0 : 8.0 * static_cast<double>(bytes) / keys;
}

}  // namespace

bool AnalyzeScanFilter(std::string_view metaindex_key,
                       const BlockHandle& handle, std::string_view contents,
                       uint64_t entries, ScanFilterAnalysis* analysis) {
  *analysis = ScanFilterAnalysis();
  std::string_view name;
  if (StartsWith(metaindex_key, kPrefixFilterMetaPrefix)) {
    name = metaindex_key.substr(kPrefixFilterMetaPrefix.size());
  } else if (StartsWith(metaindex_key, kRangeFilterMetaPrefix)) {
    name = metaindex_key.substr(kRangeFilterMetaPrefix.size());
    analysis->is_range = true;
  } else {
    return false;
  }
  analysis->metaindex_key = EscapeBytes(metaindex_key);
  analysis->name = EscapeBytes(name);
  analysis->handle = handle;
  analysis->bits_per_key = BitsPerKey(contents.size(), entries);
  if (!analysis->is_range) {
    absl::StatusOr<PrefixFilterParts> parts = ParsePrefixFilterBlock(contents);
    if (!parts.ok()) {
      analysis->problem = std::string(parts.status().message());
      return true;
    }
    analysis->extractor = EscapeBytes(parts->extractor_name);
    analysis->whole_keys = parts->whole_keys;
    return true;
  }
  if (name != RangeFilterBuilder::kName) {
    analysis->problem = "unknown range filter";
    return true;
  }
  absl::StatusOr<std::unique_ptr<RangeFilterReader>> reader =
      RangeFilterReader::Parse(contents);
  if (!reader.ok()) {
    analysis->problem = std::string(reader.status().message());
    return true;
  }
  analysis->num_keys = (*reader)->num_keys();
  analysis->max_range_length = (*reader)->max_range_length();
  analysis->bits_per_key = (*reader)->stored_bits_per_key();
  return true;
}

void AnalyzeScanFilterBlocks(const TableWalker& walker, uint64_t entries,
                             std::vector<ScanFilterAnalysis>* filters) {
  for (const MetaBlock& meta : walker.meta_blocks()) {
    if (!StartsWith(meta.entry.key, kPrefixFilterMetaPrefix) &&
        !StartsWith(meta.entry.key, kRangeFilterMetaPrefix)) {
      continue;
    }
    ScanFilterAnalysis analysis;
    AnalyzeScanFilter(meta.entry.key, meta.entry.handle, meta.contents.data,
                      entries, &analysis);
    filters->push_back(std::move(analysis));
  }
}

absl::StatusOr<std::unique_ptr<ScanFilterCheck>> ScanFilterCheck::Make(
    std::string_view metaindex_key, std::string_view block) {
  auto check = std::unique_ptr<ScanFilterCheck>(new ScanFilterCheck());
  if (StartsWith(metaindex_key, kPrefixFilterMetaPrefix)) {
    const std::string_view policy_name =
        metaindex_key.substr(kPrefixFilterMetaPrefix.size());
    check->policy_ = FindFilterPolicy(policy_name);
    if (check->policy_ == nullptr) return nullptr;
    absl::StatusOr<PrefixFilterParts> parts = ParsePrefixFilterBlock(block);
    if (!parts.ok()) return parts.status();
    check->extractor_ = NewPrefixExtractorFromName(parts->extractor_name);
    absl::StatusOr<std::unique_ptr<PrefixFilterReader>> reader =
        PrefixFilterReader::Parse(check->policy_.get(), check->extractor_.get(),
                                  block);
    if (!reader.ok()) return reader.status();
    check->prefix_ = *std::move(reader);
    check->name_ = absl::StrCat("prefix filter, ", EscapeBytes(policy_name));
    return check;
  }
  if (!StartsWith(metaindex_key, kRangeFilterMetaPrefix) ||
      metaindex_key.substr(kRangeFilterMetaPrefix.size()) !=
          RangeFilterBuilder::kName) {
    return nullptr;
  }
  absl::StatusOr<std::unique_ptr<RangeFilterReader>> reader =
      RangeFilterReader::Parse(block);
  if (!reader.ok()) return reader.status();
  check->range_ = *std::move(reader);
  check->name_ =
      absl::StrCat("range filter, ", EscapeBytes(RangeFilterBuilder::kName));
  return check;
}

ScanFilterCheck::~ScanFilterCheck() = default;

bool ScanFilterCheck::KeyMayMatch(std::string_view user_key) const {
  if (range_ != nullptr) return range_->MayContainKey(user_key);
  if (!prefix_->KeyMayMatch(user_key)) return false;
  // The whole key answered (or could not): the prefix must answer too.
  const PrefixExtractor* extractor = prefix_->extractor();
  return extractor == nullptr || !extractor->InDomain(user_key) ||
         prefix_->PrefixMayMatch(extractor->Transform(user_key));
}

std::string ScanFilterSummary(const ScanFilterAnalysis& filter) {
  std::string line = absl::StrFormat(
      "%-20s%s, %d bytes, %.2f bits per key",
      filter.is_range ? "range filter:" : "prefix filter:", filter.name,
      filter.handle.size(), filter.bits_per_key);
  if (!filter.problem.empty()) {
    absl::StrAppend(&line, ", unusable: ", filter.problem);
  } else if (filter.is_range) {
    absl::StrAppend(&line, ", ", filter.num_keys, " keys, ranges up to ",
                    filter.max_range_length);
  } else {
    absl::StrAppend(&line, ", extractor ", filter.extractor,
                    filter.whole_keys ? ", whole keys too" : ", prefixes only");
  }
  return line;
}

nlohmann::json ScanFilterJson(const ScanFilterAnalysis& filter) {
  nlohmann::json json = {{"metaindex_key", filter.metaindex_key},
                         {"kind", filter.is_range ? "range" : "prefix"},
                         {"name", filter.name},
                         {"bytes", filter.handle.size()},
                         {"bits_per_key", filter.bits_per_key}};
  if (!filter.problem.empty()) {
    json["problem"] = filter.problem;
  } else if (filter.is_range) {
    json["num_keys"] = filter.num_keys;
    json["max_range_length"] = filter.max_range_length;
  } else {
    json["extractor"] = filter.extractor;
    json["whole_keys"] = filter.whole_keys;
  }
  return json;
}

}  // namespace tool
}  // namespace bloomtable
