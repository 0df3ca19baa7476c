#include "tools/scan_filter_flags.h"

#include <string>

#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "tools/cli_flags.h"
#include "tools/prefix_extractor_spec.h"
#include "tools/tool_errors.h"

namespace bloomtable {
namespace tool {

bool ReadScanFilterFlags(std::string_view subcommand,
                         const CommandLine& command_line, Options* options) {
  const std::string spec = absl::GetFlag(FLAGS_prefix_extractor);
  if (command_line.FlagGiven("prefix_extractor")) {
    if (options->filter_policy == nullptr) {
      ReportUsageError(subcommand,
                       "--prefix_extractor needs a filter, but --filter is "
                       "none");
      return false;
    }
    absl::StatusOr<std::shared_ptr<const PrefixExtractor>> extractor =
        ParsePrefixExtractorSpec(spec);
    if (!extractor.ok()) {
      ReportUsageError(subcommand, std::string(extractor.status().message()));
      return false;
    }
    options->prefix_extractor = *std::move(extractor);
  } else if (command_line.FlagGiven("whole_key_filtering")) {
    ReportUsageError(subcommand,
                     "--whole_key_filtering needs --prefix_extractor");
    return false;
  }
  options->whole_key_filtering = absl::GetFlag(FLAGS_whole_key_filtering);
  const double range_bits = absl::GetFlag(FLAGS_range_filter_bits_per_key);
  if (!(range_bits == 0 || (range_bits >= 4 && range_bits <= 40))) {
    ReportUsageError(subcommand,
                     absl::StrCat("--range_filter_bits_per_key must "
                                  "be 0 (none) or in [4, 40], got ",
                                  range_bits));
    return false;
  }
  options->range_filter_bits_per_key = range_bits;
  const int64_t max_range_length = absl::GetFlag(FLAGS_max_range_length);
  if (max_range_length < 1) {
    ReportUsageError(subcommand, absl::StrCat("--max_range_length must be at "
                                              "least 1, got ",
                                              max_range_length));
    return false;
  }
  if (range_bits == 0 && command_line.FlagGiven("max_range_length")) {
    ReportUsageError(subcommand,
                     "--max_range_length needs --range_filter_bits_per_key");
    return false;
  }
  options->range_filter_max_range_length =
      static_cast<uint64_t>(max_range_length);
  return true;
}

}  // namespace tool
}  // namespace bloomtable
