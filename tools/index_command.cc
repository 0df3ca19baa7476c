// bloomtable index DIR|FILE --into SIDECAR_DIR [--policy NAME]
//     [--bits_per_key N] [--threads N] [--prefix_extractor SPEC]
//     [--range_filter_bits_per_key B] [--max_range_length L] [--prune]
//     [--json] [--internal_keys]
//
// Builds sidecar filters (bloomtable/sidecar.h): for a database directory,
// one per table that has none bound to it; for a table file, its one.

#include <unistd.h>

#include <cstdio>
#include <string>
#include <utility>

#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "bloomtable/sidecar.h"
#include "nlohmann/json.hpp"
#include "tools/cli_flags.h"
#include "tools/commands.h"
#include "tools/database_commands.h"
#include "tools/exit_status.h"
#include "tools/filter_policies.h"
#include "tools/output_format.h"
#include "tools/scan_filter_flags.h"
#include "tools/tool_errors.h"

namespace bloomtable {
namespace tool {
namespace {

constexpr int kMaxThreads = 256;
constexpr int kBarWidth = 30;

// Reads the index flags into `*options`; prints a usage error and returns
// false if one is bad.
bool ReadIndexFlags(const CommandLine& command_line,
                    SidecarBuildOptions* options) {
  if (absl::GetFlag(FLAGS_into).empty()) {
    ReportUsageError("index", "--into SIDECAR_DIR is required");
    return false;
  }
  const std::string policy_name = absl::GetFlag(FLAGS_policy);
  const double bits_per_key = absl::GetFlag(FLAGS_bits_per_key);
  absl::StatusOr<std::shared_ptr<const FilterPolicy>> policy =
      policy_name == "none" ? absl::InvalidArgumentError(
                                  "a sidecar needs a filter: --policy "
                                  "ribbon, cache_local_bloom or bloom")
                            : FilterPolicyForBuild(policy_name, bits_per_key);
  if (policy.ok() && *policy == nullptr) {
    policy = absl::InvalidArgumentError("--bits_per_key must be positive");
  }
  if (!policy.ok()) {
    ReportUsageError("index", std::string(policy.status().message()));
    return false;
  }
  Options table_options;
  table_options.filter_policy = *policy;
  if (!ReadScanFilterFlags("index", command_line, &table_options)) {
    return false;
  }
  options->filters.filter_policy = table_options.filter_policy;
  options->filters.prefix_extractor = table_options.prefix_extractor;
  options->filters.range_filter_bits_per_key =
      table_options.range_filter_bits_per_key;
  options->filters.range_filter_max_range_length =
      table_options.range_filter_max_range_length;
  const int32_t threads = absl::GetFlag(FLAGS_threads);
  if (threads < 1 || threads > kMaxThreads) {
    ReportUsageError("index", absl::StrCat("--threads must be between 1 and ",
                                           kMaxThreads, ", got ", threads));
    return false;
  }
  options->threads = threads;
  options->prune = absl::GetFlag(FLAGS_prune);
  return true;
}

// A one-line progress bar on standard error, redrawn in place.
void DrawProgress(const SidecarBuildProgress& progress) {
  const uint64_t total = progress.tables_total > 0 ? progress.tables_total : 1;
  const int filled = static_cast<int>(kBarWidth * progress.tables_done / total);
  absl::FPrintF(stderr, "\r[%s%s] %d/%d tables, %d keys",
                std::string(filled, '#'), std::string(kBarWidth - filled, ' '),
                progress.tables_done, progress.tables_total,
                progress.keys_done);
  std::fflush(stderr);
}

void PrintSummary(const std::string& source, const std::string& into,
                  const SidecarBuildSummary& summary, bool json) {
  const double bits_per_key =
      summary.keys > 0 ? 8.0 * summary.bytes / summary.keys : 0;
  if (json) {
    PrintJson({{"source", source},
               {"into", into},
               {"tables", summary.tables},
               {"built", summary.built},
               {"up_to_date", summary.up_to_date},
               {"failed", summary.failed},
               {"entries", summary.entries},
               {"keys", summary.keys},
               {"bytes", summary.bytes},
               {"bits_per_key", bits_per_key},
               {"seconds", summary.seconds},
               {"orphaned", summary.orphaned},
               {"pruned", summary.pruned}});
    return;
  }
  absl::PrintF("%s: %d table%s: %d built, %d up to date, %d failed\n", source,
               summary.tables, summary.tables == 1 ? "" : "s", summary.built,
               summary.up_to_date, summary.failed.size());
  if (summary.built > 0) {
    absl::PrintF(
        "%s: %d keys in %d bytes (%.2f bits per key, headers included)\n", into,
        summary.keys, summary.bytes, bits_per_key);
  }
  for (const std::string& name : summary.orphaned) {
    absl::PrintF("%s/%s: orphaned (its table is gone; --prune removes it)\n",
                 into, name);
  }
  for (const std::string& name : summary.pruned) {
    absl::PrintF("%s/%s: pruned\n", into, name);
  }
}

}  // namespace

int RunIndex(const CommandLine& command_line) {
  const std::string& source = command_line.args()[0];
  SidecarBuildOptions options;
  if (!ReadIndexFlags(command_line, &options)) return kExitUsage;
  const std::string into = absl::GetFlag(FLAGS_into);
  const bool json = absl::GetFlag(FLAGS_json);
  const bool directory = IsDirectory(source);
  if (directory && command_line.FlagGiven("internal_keys")) {
    return ReportUsageError("index",
                            "--internal_keys is for table files (a "
                            "database's tables always hold internal keys)");
  }
  if (!directory && options.prune) {
    return ReportUsageError("index", "--prune is for database directories");
  }
  const bool terminal = isatty(STDERR_FILENO) == 1;
  if (terminal) options.progress = DrawProgress;
  absl::StatusOr<SidecarBuildSummary> summary =
      directory
          ? BuildSidecarFilters(source, into, options)
          : BuildTableFileSidecarFilter(
                source, absl::GetFlag(FLAGS_internal_keys), into, options);
  if (terminal) absl::FPrintF(stderr, "\r%*s\r", kBarWidth + 40, "");
  if (absl::IsInvalidArgument(summary.status())) {
    return ReportUsageError("index", std::string(summary.status().message()));
  }
  if (!summary.ok()) return ReportFileError(source, summary.status());
  PrintSummary(source, into, *summary, json);
  std::fflush(stdout);
  for (const std::string& failure : summary->failed) {
    absl::FPrintF(stderr, "bloomtable: %s: no sidecar: %s\n", source, failure);
  }
  return summary->failed.empty() ? kExitSuccess : kExitDamaged;
}

}  // namespace tool
}  // namespace bloomtable
