#include "db/sidecar_builder.h"

#include <optional>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "filter/range_filter.h"
#include "table/full_filter_builder.h"
#include "table/internal_key.h"
#include "table/prefix_filter_block.h"
#include "util/crc32c.h"
#include "util/string_util.h"

namespace bloomtable {
namespace {

// Keys for the policy fingerprint: enough for a Ribbon filter proper (more
// than its 256-key minimum), few enough to cost nothing.
constexpr int kFingerprintKeys = 1024;

// Progress is reported every this many keys.
constexpr uint64_t kProgressInterval = 65536;

uint32_t PolicyFingerprint(const FilterPolicy& policy) {
  std::vector<std::string> keys;
  keys.reserve(kFingerprintKeys);
  for (int i = 0; i < kFingerprintKeys; ++i) {
    keys.push_back(absl::StrFormat("%016d", i));
  }
  std::vector<std::string_view> views(keys.begin(), keys.end());
  std::string filter;
  policy.CreateFilter(views.data(), views.size(), &filter);
  return crc32c::Value(filter);
}

}  // namespace

std::shared_ptr<const FilterPolicy> SidecarPolicy(
    const SidecarFilterOptions& options) {
  return options.filter_policy != nullptr ? options.filter_policy
                                          : NewRibbonFilterPolicy(10);
}

std::string SidecarSettings(const SidecarFilterOptions& options,
                            bool bytewise) {
  const std::shared_ptr<const FilterPolicy> policy = SidecarPolicy(options);
  std::string settings =
      absl::StrFormat("policy=%s fingerprint=%08x", ToAbsl(policy->Name()),
                      PolicyFingerprint(*policy));
  if (options.prefix_extractor != nullptr) {
    absl::StrAppend(&settings,
                    " prefix=", ToAbsl(options.prefix_extractor->Name()));
  }
  if (bytewise && options.range_filter_bits_per_key > 0) {
    absl::StrAppendFormat(&settings, " range_bits_per_key=%g range_length=%u",
                          options.range_filter_bits_per_key,
                          options.range_filter_max_range_length);
  }
  return settings;
}

absl::StatusOr<SidecarContents> BuildSidecarContents(
    const Table& table, bool internal_keys, const SidecarFilterOptions& options,
    bool bytewise, const std::function<bool(uint64_t keys)>& progress) {
  const std::shared_ptr<const FilterPolicy> policy = SidecarPolicy(options);
  FullFilterBuilder point(policy.get());
  std::optional<PrefixFilterBuilder> prefix;
  if (options.prefix_extractor != nullptr) {
    prefix.emplace(policy.get(), options.prefix_extractor.get(),
                   /*whole_keys=*/false);
  }
  std::optional<RangeFilterBuilder> range;
  if (bytewise && options.range_filter_bits_per_key > 0) {
    RangeFilterOptions range_options;
    range_options.bits_per_key = options.range_filter_bits_per_key;
    range_options.max_range_length = options.range_filter_max_range_length;
    range.emplace(range_options);
  }

  SidecarContents contents;
  contents.internal_keys = internal_keys;
  std::string last_key;
  bool has_last = false;
  bool malformed = false;
  bool cancelled = false;
  ReadOptions read_options;
  read_options.fill_cache = false;
  absl::Status status = table.ForEachEntry(
      read_options, [&](std::string_view key, std::string_view /*value*/,
                        uint64_t /*block_offset*/) {
        ++contents.entries;
        if (internal_keys) {
          if (key.size() < kInternalKeyTagSize) {
            malformed = true;
            return false;
          }
          key.remove_suffix(kInternalKeyTagSize);
        }
        // The versions of one user key are adjacent: each is filtered once.
        if (has_last && key == last_key) return true;
        last_key.assign(key.data(), key.size());
        has_last = true;
        ++contents.keys;
        point.AddKey(key);
        if (prefix) prefix->AddKey(key);
        if (range) range->AddKey(key);
        if (progress != nullptr && contents.keys % kProgressInterval == 0 &&
            !progress(contents.keys)) {
          cancelled = true;
          return false;
        }
        return true;
      });
  if (!status.ok()) return status;
  if (malformed) {
    return absl::DataLossError(
        "an internal key is shorter than its 8-byte tag");
  }
  if (cancelled) return absl::CancelledError("sidecar build stopped");

  SidecarSection point_section;
  point_section.type = SidecarSectionType::kPointFilter;
  point_section.name = std::string(policy->Name());
  point.Finish(&point_section.data);
  contents.sections.push_back(std::move(point_section));
  if (prefix) {
    SidecarSection section;
    section.type = SidecarSectionType::kPrefixFilter;
    section.name = std::string(policy->Name());
    prefix->Finish(&section.data);
    contents.sections.push_back(std::move(section));
  }
  if (range) {
    SidecarSection section;
    section.type = SidecarSectionType::kRangeFilter;
    section.name = std::string(RangeFilterBuilder::kName);
    section.data = range->Finish();
    contents.sections.push_back(std::move(section));
  }
  return contents;
}

}  // namespace bloomtable
