// bloomtable build OUT --input FILE|- [--input_format tsv|hex]
//     [--block_size N] [--block_restart_interval N]
//     [--compression none|snappy|zstd] [--compression_level N]
//     [--filter none|bloom|cache_local_bloom|ribbon] [--bits_per_key N]
//     [--filter_layout per_block|whole_table|partitioned]
//     [--prefix_extractor SPEC] [--[no]whole_key_filtering]
//     [--range_filter_bits_per_key N] [--max_range_length N]

#include <cstdio>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "bloomtable/durable_file.h"
#include "bloomtable/file.h"
#include "bloomtable/options.h"
#include "bloomtable/table_builder.h"
#include "tools/build_input.h"
#include "tools/cli_flags.h"
#include "tools/commands.h"
#include "tools/exit_status.h"
#include "tools/filter_policies.h"
#include "tools/scan_filter_flags.h"
#include "tools/tool_errors.h"

namespace bloomtable {
namespace tool {
namespace {

// zstd's levels: 1 to 22, 0 for its default, and negative ones that trade
// ratio for speed (zstd accepts down to -131072; -7 is already as fast as
// LZ4 and of little use in a table).
constexpr int32_t kMinZstdLevel = -7;
constexpr int32_t kMaxZstdLevel = 22;

// Reads the build flags into `*options` and `*format`; prints a usage error
// and returns false if one is bad.
bool ReadBuildFlags(const CommandLine& command_line, Options* options,
                    InputFormat* format) {
  if (!command_line.FlagGiven("input") || absl::GetFlag(FLAGS_input).empty()) {
    ReportUsageError("build",
                     "--input FILE (or --input - for standard "
                     "input) is required");
    return false;
  }
  const std::string input_format = absl::GetFlag(FLAGS_input_format);
  if (input_format == "tsv") {
    *format = InputFormat::kTsv;
  } else if (input_format == "hex") {
    *format = InputFormat::kHex;
  } else {
    ReportUsageError("build", absl::StrCat("unknown --input_format '",
                                           input_format, "' (tsv or hex)"));
    return false;
  }
  const int64_t block_size = absl::GetFlag(FLAGS_block_size);
  if (block_size < 1) {
    ReportUsageError("build", absl::StrCat("--block_size must be at least 1, "
                                           "got ",
                                           block_size));
    return false;
  }
  options->block_size = static_cast<size_t>(block_size);
  const int32_t restart_interval = absl::GetFlag(FLAGS_block_restart_interval);
  if (restart_interval < 1) {
    ReportUsageError("build", absl::StrCat("--block_restart_interval must be "
                                           "at least 1, got ",
                                           restart_interval));
    return false;
  }
  options->block_restart_interval = restart_interval;
  const std::string compression = absl::GetFlag(FLAGS_compression);
  if (compression == "none") {
    options->compression = CompressionType::kNone;
  } else if (compression == "snappy") {
    options->compression = CompressionType::kSnappy;
  } else if (compression == "zstd") {
    options->compression = CompressionType::kZstd;
  } else {
    ReportUsageError("build",
                     absl::StrCat("unknown --compression '", compression,
                                  "' (none, snappy or zstd)"));
    return false;
  }
  if (command_line.FlagGiven("compression_level")) {
    const int32_t level = absl::GetFlag(FLAGS_compression_level);
    if (options->compression != CompressionType::kZstd) {
      ReportUsageError("build", "--compression_level needs --compression zstd");
      return false;
    }
    if (level < kMinZstdLevel || level > kMaxZstdLevel) {
      ReportUsageError("build", absl::StrCat("--compression_level must be "
                                             "between ",
                                             kMinZstdLevel, " and ",
                                             kMaxZstdLevel, ", got ", level));
      return false;
    }
    options->zstd_compression_level = level;
  }
  const std::string filter = absl::GetFlag(FLAGS_filter);
  const double bits_per_key = absl::GetFlag(FLAGS_bits_per_key);
  if (filter == "none" && command_line.FlagGiven("bits_per_key") &&
      bits_per_key != 0) {
    ReportUsageError("build",
                     "--bits_per_key needs a filter, but --filter "
                     "is none");
    return false;
  }
  absl::StatusOr<std::shared_ptr<const FilterPolicy>> policy =
      FilterPolicyForBuild(filter, bits_per_key);
  if (!policy.ok()) {
    ReportUsageError("build", std::string(policy.status().message()));
    return false;
  }
  options->filter_policy = *std::move(policy);
  const std::string layout = absl::GetFlag(FLAGS_filter_layout);
  if (layout == "per_block") {
    options->filter_layout = FilterLayout::kPerBlock;
  } else if (layout == "whole_table") {
    options->filter_layout = FilterLayout::kWholeTable;
  } else if (layout == "partitioned") {
    options->filter_layout = FilterLayout::kPartitioned;
  } else {
    ReportUsageError("build",
                     absl::StrCat("unknown --filter_layout '", layout,
                                  "' (per_block, whole_table or partitioned)"));
    return false;
  }
  return ReadScanFilterFlags("build", command_line, options);
}

}  // namespace

int RunBuild(const CommandLine& command_line) {
  const std::string& out_path = command_line.args()[0];
  Options options;
  InputFormat format = InputFormat::kTsv;
  if (!ReadBuildFlags(command_line, &options, &format)) return kExitUsage;

  const std::string input_path = absl::GetFlag(FLAGS_input);
  const std::string input_name = InputName(input_path);
  absl::StatusOr<std::string> text = ReadInputText(input_path);
  if (!text.ok()) return ReportFileError(input_name, text.status());

  absl::StatusOr<std::vector<InputEntry>> entries = ParseInput(*text, format);
  if (!entries.ok()) return ReportFileError(input_name, entries.status());
  text->clear();
  text->shrink_to_fit();
  absl::Status sorted = SortInput(options.comparator, &*entries);
  if (!sorted.ok()) return ReportFileError(input_name, sorted);

  uint64_t file_size = 0;
  const absl::Status written =
      WriteFileDurably(out_path, [&](WritableFile* file) -> absl::Status {
        TableBuilder builder(options, file);
        for (const InputEntry& entry : *entries) {
          absl::Status status = builder.Add(entry.key, entry.value);
          if (!status.ok()) {
            builder.Abandon();
            return status;
          }
        }
        absl::Status status = builder.Finish();
        file_size = builder.FileSize();
        return status;
      });
  if (!written.ok()) {
    // Anything but a file-system error here is a bug, not bad input: the
    // input was sorted and checked for duplicates above.
    absl::FPrintF(stderr, "bloomtable: %s\n",
                  DescribeFileError(out_path, written));
    return kExitIoError;
  }
  absl::PrintF("%s: %d entries, %d bytes\n", out_path, entries->size(),
               file_size);
  return kExitSuccess;
}

}  // namespace tool
}  // namespace bloomtable
