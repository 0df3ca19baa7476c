#include "db/sidecar_filter.h"

#include <filesystem>
#include <system_error>
#include <utility>

#include "absl/strings/str_cat.h"
#include "bloomtable/file.h"
#include "bloomtable/options.h"
#include "db/sidecar_binding.h"
#include "table/prefix_filter_block.h"
#include "util/string_util.h"

namespace bloomtable {
namespace {

std::shared_ptr<const FilterPolicy> FindPolicy(
    const std::vector<std::shared_ptr<const FilterPolicy>>& policies,
    std::string_view name) {
  for (const std::shared_ptr<const FilterPolicy>& policy : policies) {
    if (policy != nullptr && policy->Name() == name) return policy;
  }
  return nullptr;
}

// What a sidecar may hold beyond twice its table's size: its header and
// binding, and the fixed parts of small filters.
constexpr uint64_t kSidecarSlack = 64 << 10;

absl::Status UnknownPolicy(std::string_view what, std::string_view name) {
  return absl::UnimplementedError(absl::StrCat("sidecar file: ", ToAbsl(what),
                                               " of an unknown policy \"",
                                               ToAbsl(name), "\""));
}

}  // namespace

SidecarFilter::~SidecarFilter() = default;

absl::StatusOr<std::unique_ptr<SidecarFilter>> SidecarFilter::Make(
    SidecarContents contents,
    const std::vector<std::shared_ptr<const FilterPolicy>>& policies,
    bool bytewise) {
  auto filter = std::unique_ptr<SidecarFilter>(new SidecarFilter());
  filter->keys_ = contents.keys;
  SidecarSection* point = nullptr;
  for (SidecarSection& section : contents.sections) {
    if (section.type == SidecarSectionType::kPointFilter) {
      point = &section;
      break;
    }
  }
  if (point == nullptr) {
    return absl::InvalidArgumentError("sidecar file: no point filter");
  }
  filter->policy_ = FindPolicy(policies, point->name);
  if (filter->policy_ == nullptr) return UnknownPolicy("filter", point->name);
  filter->point_bytes_ = std::move(point->data);
  filter->point_ = filter->policy_->NewReader(filter->point_bytes_);
  if (filter->policy_->Name() == NewRibbonFilterPolicy(10)->Name()) {
    auto ribbon = std::make_unique<RibbonView>(filter->point_bytes_);
    if (ribbon->is_ribbon()) filter->ribbon_ = std::move(ribbon);
  }

  Options options;
  options.comparator = bytewise ? BytewiseComparator() : nullptr;
  std::string_view prefix_block;
  std::string_view prefix_policy;
  const SidecarSection* prefix =
      FindSidecarSection(contents, SidecarSectionType::kPrefixFilter);
  if (prefix != nullptr) {
    absl::StatusOr<PrefixFilterParts> parts =
        ParsePrefixFilterBlock(prefix->data);
    if (!parts.ok()) {
      return absl::Status(
          parts.status().code(),
          absl::StrCat("sidecar file: ", parts.status().message()));
    }
    options.filter_policy = FindPolicy(policies, prefix->name);
    if (options.filter_policy == nullptr) {
      return UnknownPolicy("prefix filter", prefix->name);
    }
    filter->extractor_ = NewPrefixExtractorFromName(parts->extractor_name);
    if (filter->extractor_ == nullptr) {
      return absl::UnimplementedError(
          absl::StrCat("sidecar file: prefix filter of an unknown extractor \"",
                       ToAbsl(parts->extractor_name), "\""));
    }
    options.prefix_extractor = filter->extractor_;
    prefix_block = prefix->data;
    prefix_policy = prefix->name;
  }
  const SidecarSection* range =
      FindSidecarSection(contents, SidecarSectionType::kRangeFilter);
  std::string_view range_block;
  if (range != nullptr) {
    if (range->name != RangeFilterBuilder::kName) {
      return absl::UnimplementedError(absl::StrCat(
          "sidecar file: unknown range filter \"", range->name, "\""));
    }
    range_block = range->data;
  }
  if (!prefix_block.empty() || !range_block.empty()) {
    ScanFilterInfo info;
    ScanFilters::FromBlocks(options, prefix_policy, prefix_block, range_block,
                            &filter->counters_, &filter->scan_, &info);
    if (!prefix_block.empty() && !info.prefix_in_use) {
      return absl::DataLossError(absl::StrCat("sidecar file: prefix filter: ",
                                              info.prefix_unused_reason));
    }
    if (!range_block.empty() && !info.range_in_use && bytewise) {
      return absl::DataLossError(absl::StrCat("sidecar file: range filter: ",
                                              info.range_unused_reason));
    }
    filter->has_prefix_ = info.prefix_in_use;
    filter->has_range_ = info.range_in_use;
  }
  filter->binding_ = std::move(contents.binding);
  return filter;
}

bool SidecarFilter::RangeMayMatch(std::string_view lo,
                                  std::string_view hi) const {
  return scan_ == nullptr || !scan_->CanAnswerRanges() ||
         scan_->RangeMayMatch(lo, hi, /*ask_prefix=*/true);
}

size_t SidecarFilter::MemoryUsage() const {
  return sizeof(*this) + point_bytes_.size() +
         (scan_ != nullptr ? scan_->size() : 0);
}

SidecarLoad LoadTableSidecar(
    const std::string& db_dir, const std::string& sidecar_path,
    const DatabaseTableFile& table,
    const std::vector<std::shared_ptr<const FilterPolicy>>& policies,
    bool bytewise) {
  SidecarLoad load;
  const auto fail = [&load](SidecarState state, absl::Status status) {
    load.state = state;
    load.status = std::move(status);
    return std::move(load);
  };
  std::error_code error;
  if (!std::filesystem::exists(sidecar_path, error) && !error) {
    return fail(SidecarState::kMissing, absl::OkStatus());
  }
  // No filter of a table needs more bytes than twice the table (at most 64
  // bits per key of each kind, where an entry takes at least a key, its
  // 8-byte tag and 3 bytes of lengths) and a header: a larger file is not
  // read into memory.
  absl::StatusOr<uint64_t> size = GetFileSize(sidecar_path);
  if (size.ok() && *size > 2 * table.size + kSidecarSlack) {
    return fail(SidecarState::kDamaged,
                absl::DataLossError(absl::StrCat(
                    "sidecar file: ", *size, " bytes, more than a filter of a ",
                    table.size, "-byte table can take")));
  }
  absl::StatusOr<std::string> bytes = ReadFileToString(sidecar_path);
  if (absl::IsNotFound(bytes.status())) {
    return fail(SidecarState::kMissing, absl::OkStatus());
  }
  if (!bytes.ok()) return fail(SidecarState::kUnusable, bytes.status());
  absl::StatusOr<SidecarContents> contents = DecodeSidecar(*bytes);
  bytes = std::string();  // the contents hold their own copy
  if (!contents.ok()) {
    return fail(absl::IsDataLoss(contents.status()) ? SidecarState::kDamaged
                                                    : SidecarState::kUnusable,
                contents.status());
  }
  // What the MANIFEST records first: a sidecar of another table (or
  // database) is told apart without touching the table.
  SidecarBinding expected;
  expected.kind = SidecarTableKind::kDatabaseTable;
  expected.file_number = table.number;
  expected.file_size = table.size;
  expected.smallest = table.smallest;
  expected.largest = table.largest;
  SidecarBinding recorded = contents->binding;
  recorded.footer.clear();
  recorded.index_trailer.clear();
  recorded.meta_trailers.clear();
  std::string mismatch = BindingMismatch(recorded, expected);
  if (mismatch.empty() && !contents->internal_keys) {
    mismatch = "it filters plain keys, not a database's user keys";
  }
  if (!mismatch.empty()) {
    return fail(SidecarState::kStale, absl::FailedPreconditionError(mismatch));
  }
  absl::StatusOr<SidecarBinding> actual =
      ReadDatabaseTableBinding(db_dir, table);
  if (!actual.ok()) {
    return fail(SidecarState::kUnusable,
                absl::Status(actual.status().code(),
                             absl::StrCat("its table could not be checked: ",
                                          actual.status().message())));
  }
  mismatch = BindingMismatch(contents->binding, *actual);
  if (!mismatch.empty()) {
    return fail(SidecarState::kStale, absl::FailedPreconditionError(mismatch));
  }
  absl::StatusOr<std::unique_ptr<SidecarFilter>> filter =
      SidecarFilter::Make(*std::move(contents), policies, bytewise);
  if (!filter.ok()) {
    return fail(absl::IsDataLoss(filter.status()) ? SidecarState::kDamaged
                                                  : SidecarState::kUnusable,
                filter.status());
  }
  load.state = SidecarState::kUsable;
  load.filter = *std::move(filter);
  return load;
}

}  // namespace bloomtable
