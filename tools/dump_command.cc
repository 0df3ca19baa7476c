// bloomtable dump FILE [--blocks] [--keys] [--json|--jsonl] [--internal_keys]
//
// A log or a MANIFEST (told by its content) is dumped by log_dump.h. A table:
// collects what the file holds into a DumpReport, then prints it as aligned
// text or as JSON. Damage found midway stops the walk: what was read before
// it is printed (at least the footer, once it is read), then the error, with
// exit status 3; JSON carries the error in an `error` field.

#include <cstdio>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "bloomtable/comparator.h"
#include "bloomtable/db_files.h"
#include "bloomtable/file.h"
#include "nlohmann/json.hpp"
#include "table/block.h"
#include "table/format.h"
#include "tools/cli_flags.h"
#include "tools/commands.h"
#include "tools/database_commands.h"
#include "tools/exit_status.h"
#include "tools/filter_analysis.h"
#include "tools/log_dump.h"
#include "tools/output_format.h"
#include "tools/scan_filter_analysis.h"
#include "tools/table_dump.h"
#include "tools/sidecar_commands.h"
#include "tools/table_walker.h"
#include "tools/tool_errors.h"
#include "util/coding.h"
#include "util/string_util.h"

namespace bloomtable {
namespace tool {
namespace {

std::string DescribeBlock(const BlockSummary& summary) {
  return absl::StrFormat(
      "offset %d, size %d, raw %d, %s", summary.handle.offset(),
      summary.handle.size(), summary.raw_size,
      CompressionName(summary.codec, summary.compression_type));
}

// One "label: value" line of the filter section, values aligned.
void PrintField(std::string_view label, std::string_view value) {
  absl::PrintF("  %-26s %s\n", absl::StrCat(ToAbsl(label), ":"), ToAbsl(value));
}

void PrintText(const std::string& path, const TableWalker& walker,
               const DumpReport& report, const DumpSettings& settings) {
  const bool internal = settings.internal_keys;
  absl::PrintF("file: %s (%d bytes)\n", path, walker.file_size());
  absl::PrintF("footer: offset %d\n", walker.footer_offset());
  absl::PrintF("  metaindex handle: offset %d, size %d\n",
               walker.footer().metaindex_handle().offset(),
               walker.footer().metaindex_handle().size());
  absl::PrintF("  index handle:     offset %d, size %d\n",
               walker.footer().index_handle().offset(),
               walker.footer().index_handle().size());
  if (!walker.footer_padding_is_zero()) {
    absl::PrintF("  padding:          not zero\n");
  }
  if (walker.stage() < TableWalker::Stage::kMetaindex) return;
  absl::PrintF("metaindex block: %s; %d entr%s\n",
               DescribeBlock(walker.metaindex_block()),
               walker.metaindex().size(),
               walker.metaindex().size() == 1 ? "y" : "ies");
  for (const MetaindexEntry& entry : walker.metaindex()) {
    absl::PrintF("  %s -> offset %d, size %d\n", DisplayKey(entry.key, false),
                 entry.handle.offset(), entry.handle.size());
  }
  if (walker.stage() < TableWalker::Stage::kIndex) return;
  absl::PrintF("index block: %s; %d entr%s\n",
               DescribeBlock(walker.index_block()), walker.index().size(),
               walker.index().size() == 1 ? "y" : "ies");
  for (const MetaindexEntry& entry : walker.index()) {
    absl::PrintF("  %s -> offset %d, size %d\n",
                 DisplayKey(entry.key, internal), entry.handle.offset(),
                 entry.handle.size());
  }
  absl::PrintF("data blocks: %d, entries %d, raw bytes %d, stored bytes %d\n",
               report.block_count, report.entries, report.raw_bytes,
               report.stored_bytes);
  if (settings.blocks) {
    for (size_t i = 0; i < report.blocks.size(); ++i) {
      const DataBlockReport& block = report.blocks[i];
      absl::PrintF("  data block %d: %s; %d entr%s\n", i,
                   DescribeBlock(block.summary), block.entries,
                   block.entries == 1 ? "y" : "ies");
      if (block.entries > 0) {
        absl::PrintF("    first key: %s\n",
                     DisplayKey(block.first_key, internal));
        absl::PrintF("    last key:  %s\n",
                     DisplayKey(block.last_key, internal));
      }
      for (const Entry& entry : block.listed) {
        absl::PrintF("    %s => %s\n", DisplayKey(entry.key, internal),
                     DisplayKey(entry.value, false));
      }
    }
  }
  if (report.filters.empty() && report.error.ok()) {
    absl::PrintF("filter: none\n");
  }
  for (const FilterAnalysis& filter : report.filters) {
    absl::PrintF("filter block: %s (%s), offset %d, size %d\n",
                 filter.policy_name, LayoutName(filter, /*spaced=*/true),
                 filter.handle.offset(), filter.handle.size());
    PrintField("filters", absl::StrCat(filter.num_filters));
    PrintField("filter bytes", absl::StrCat(filter.filter_bytes));
    PrintField("keys covered", absl::StrCat(filter.keys_covered));
    PrintField("bits per key", absl::StrFormat("%.2f", filter.bits_per_key));
    if (filter.has_bloom_details) {
      PrintField("probes (k)", filter.min_probes == filter.max_probes
                                   ? absl::StrCat(filter.min_probes)
                                   : absl::StrCat(filter.min_probes, " to ",
                                                  filter.max_probes));
      PrintField("bits set",
                 absl::StrFormat("%.2f%%", 100 * filter.fraction_bits_set));
      PrintField("est. false-positive rate",
                 absl::StrFormat("%.3f%%",
                                 100 * filter.estimated_false_positive_rate));
    }
    if (!filter.problem.empty()) PrintField("problem", filter.problem);
  }
  for (const ScanFilterAnalysis& filter : report.scan_filters) {
    absl::PrintF("%s filter block: %s, offset %d, size %d\n",
                 filter.is_range ? "range" : "prefix", filter.name,
                 filter.handle.offset(), filter.handle.size());
    if (filter.is_range && filter.problem.empty()) {
      PrintField("keys", absl::StrCat(filter.num_keys));
      PrintField("max range length", absl::StrCat(filter.max_range_length));
    } else if (filter.problem.empty()) {
      PrintField("extractor", filter.extractor);
      PrintField("whole keys", filter.whole_keys ? "yes" : "no");
    }
    PrintField("bits per key", absl::StrFormat("%.2f", filter.bits_per_key));
    if (!filter.problem.empty()) PrintField("problem", filter.problem);
  }
}

// What `path` holds when it is a log or a MANIFEST, told by its content:
// a file that ends in a table magic number is a table; else a file whose
// first record is a write batch or a version edit is a log or a MANIFEST,
// and an empty (or zero-filled) file is one when its name says so. nullopt
// for anything else, and when the file cannot be read: the table path then
// reports it.
std::optional<LogContents> LogFileKind(const std::string& path,
                                       const FileOpener& open_file,
                                       std::unique_ptr<RandomAccessFile>* file,
                                       uint64_t* file_size) {
  absl::StatusOr<uint64_t> size = GetFileSize(path);
  if (!size.ok()) return std::nullopt;
  absl::StatusOr<std::unique_ptr<RandomAccessFile>> opened = open_file(path);
  if (!opened.ok()) return std::nullopt;
  if (*size >= 8) {
    char scratch[8];
    std::string_view tail;
    if (!(*opened)->Read(*size - 8, 8, &tail, scratch).ok() ||
        tail.size() != 8) {
      return std::nullopt;
    }
    const uint64_t magic = DecodeFixed64(tail.data());
    if (magic == kTableMagicNumber ||
        magic == kRocksDBBlockBasedTableMagicNumber) {
      return std::nullopt;
    }
  }
  absl::StatusOr<LogContents> kind = IdentifyLogContents(**opened, *size);
  if (!kind.ok()) return std::nullopt;
  if (*kind == LogContents::kEmptyLog) {
    const std::string name = std::filesystem::path(path).filename().string();
    const std::optional<DbFileName> parsed = ParseDbFileName(name);
    if (!parsed) return std::nullopt;
    if (parsed->type == DbFileType::kLog) {
      kind = LogContents::kWriteAheadLog;
    } else if (parsed->type == DbFileType::kManifest) {
      kind = LogContents::kManifest;
    } else {
      return std::nullopt;
    }
  }
  if (*kind == LogContents::kNotALog) return std::nullopt;
  *file = *std::move(opened);
  *file_size = *size;
  return *kind;
}

}  // namespace

int RunDump(const CommandLine& command_line) {
  const std::string& path = command_line.args()[0];
  if (IsDirectory(path)) return RunDatabaseDump(command_line);
  if (command_line.FlagGiven("salvage")) {
    return ReportUsageError(
        "dump", "--salvage applies to a database directory, not to a file");
  }
  DumpSettings settings;
  settings.keys = absl::GetFlag(FLAGS_keys);
  settings.blocks = absl::GetFlag(FLAGS_blocks) || settings.keys;
  settings.internal_keys = absl::GetFlag(FLAGS_internal_keys);
  OutputFormat format;
  if (!ReadOutputFormat("dump", &format)) return kExitUsage;
  const bool json = format == OutputFormat::kJson;

  if (IsSidecarFile(path, command_line.open_file())) {
    return DumpSidecarFile(path, json);
  }
  {
    std::unique_ptr<RandomAccessFile> log_file;
    uint64_t log_size = 0;
    const std::optional<LogContents> log_kind =
        LogFileKind(path, command_line.open_file(), &log_file, &log_size);
    if (log_kind)
      return DumpLogFile(path, *log_file, log_size, *log_kind, format);
  }

  std::unique_ptr<TableWalker> walker;
  const absl::Status opened =
      TableWalker::Open(path, command_line.open_file(), &walker);
  if (walker == nullptr) {
    // Nothing was read: not even a footer to show.
    if (json) PrintJson(FileErrorJson(path, opened));
    if (format == OutputFormat::kJsonLines) {
      PrintJsonLine("table", {{"file", path}});
      PrintJsonLine("error", ErrorJson(path, opened));
    }
    return ReportFileError(path, opened);
  }
  if (format == OutputFormat::kJsonLines) {
    const absl::Status error = PrintLines(path, *walker, opened, settings);
    if (error.ok()) return kExitSuccess;
    std::fflush(stdout);
    return ReportFileError(path, error);
  }
  DumpReport report;
  if (opened.ok()) {
    report = Collect(*walker, settings);
  } else {
    report.error = opened;
  }
  if (json) {
    PrintJson(ToJson(path, *walker, report, settings));
  } else {
    PrintText(path, *walker, report, settings);
  }
  if (!report.error.ok()) {
    std::fflush(stdout);
    return ReportFileError(path, report.error);
  }
  return kExitSuccess;
}

}  // namespace tool
}  // namespace bloomtable
