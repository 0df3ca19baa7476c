// The parts of a db_bench plan that scans add: the key scheme (sparse keys
// leave room for empty ranges), the scan lengths and the scan filters.

#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "bloomtable/prefix_extractor.h"
#include "db_bench/bench_plan.h"

namespace bloomtable {
namespace db_bench {
namespace {

// A range of a million numbers is no longer a short scan; and a prefix
// longer than any key is a whole-key filter.
constexpr int64_t kMaxScanLength = 1000000;
constexpr int64_t kMaxSeekNexts = 1000000;
constexpr int64_t kMaxPrefixLength = 1024;

absl::Status Invalid(const std::string& message) {
  return absl::InvalidArgumentError(message);
}

}  // namespace

absl::Status ApplyKeyFlags(BenchPlan* plan) {
  PlanFlags& flags = plan->flags;
  absl::StatusOr<KeyScheme> scheme = ParseKeyScheme(flags.key_scheme);
  if (!scheme.ok()) return scheme.status();
  if (flags.key_stride < 2) return Invalid("--key_stride must be at least 2");
  plan->key_scheme.scheme = *scheme;
  plan->key_scheme.stride = static_cast<uint64_t>(flags.key_stride);
  plan->key_scheme.seed = flags.seed;
  if (*scheme == KeyScheme::kRandom64) flags.key_size = 8;
  absl::Status status = KeyGenerator::Validate(
      static_cast<size_t>(flags.key_size), plan->num, plan->key_scheme);
  if (!status.ok()) return status;
  if (flags.seek_nexts < 0 || flags.seek_nexts > kMaxSeekNexts ||
      flags.scan_length < 1 || flags.scan_length > kMaxScanLength) {
    return Invalid(absl::StrCat("--seek_nexts must be in [0, ", kMaxSeekNexts,
                                "], --scan_length in [1, ", kMaxScanLength,
                                "]"));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<std::string>> ParseScanFilters(
    const PlanFlags& flags) {
  std::vector<std::string> list;
  for (absl::string_view name :
       absl::StrSplit(flags.scan_filters, ',', absl::SkipWhitespace())) {
    if (name != "none" && name != "prefix" && name != "range") {
      return Invalid(absl::StrCat("--scan_filters: '", name,
                                  "': expected none, prefix or range"));
    }
    if (std::find(list.begin(), list.end(), name) == list.end()) {
      list.emplace_back(name);
    }
  }
  if (list.empty()) return Invalid("--scan_filters is empty");
  auto has = [&list](const char* name) {
    return std::find(list.begin(), list.end(), name) != list.end();
  };
  if (has("prefix") &&
      (flags.prefix_length < 1 || flags.prefix_length > kMaxPrefixLength)) {
    return Invalid(
        absl::StrCat("--scan_filters=prefix needs --prefix_length in [1, ",
                     kMaxPrefixLength, "]"));
  }
  if (has("range") && !(flags.range_bits >= 4 && flags.range_bits <= 40)) {
    return Invalid("--scan_filters=range needs --range_bits in [4, 40]");
  }
  return list;
}

void ApplyScanFilter(const PlanFlags& flags, ConfigPlan* config) {
  EngineOptions& options = config->engine_options;
  const bool bloomtable = config->engine == "bloomtable";
  if (config->scan_filter == "prefix") {
    const size_t length = static_cast<size_t>(flags.prefix_length);
    if (bloomtable) {
      options.bloomtable_prefix_extractor = NewFixedPrefixExtractor(length);
      // A prefix filter is whole-table whatever the layout asked.
      config->filter_layout = "whole_table";
    } else {
      options.rocksdb_prefix_length = length;
    }
  } else if (config->scan_filter == "range" && bloomtable) {
    options.bloomtable_range_bits = flags.range_bits;
  }
}

void AddScanNotes(BenchPlan* plan) {
  const PlanFlags& flags = plan->flags;
  bool prefix = false;
  bool range = false;
  for (const ConfigPlan& config : plan->configs) {
    prefix |= config.scan_filter == "prefix";
    range |= config.scan_filter == "range";
  }
  if (prefix) {
    plan->notes.push_back(absl::StrCat(
        "+prefix: bloomtable's prefix filter, or RocksDB's prefix Bloom, of "
        "the keys' first ",
        flags.prefix_length, " bytes (whole keys kept)."));
  }
  if (range) {
    plan->notes.push_back(absl::StrCat("+range: bloomtable's range filter at ",
                                       flags.range_bits, " bits per key."));
  }
}

}  // namespace db_bench
}  // namespace bloomtable
