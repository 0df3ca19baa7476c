// bloomtable dump FILE [--blocks] [--keys] [--json] [--internal_keys]
//
// A log or a MANIFEST (told by its content) is dumped by log_dump.h. A table:
// collects what the file holds into a DumpReport, then prints it as aligned
// text or as JSON. Damage found midway stops the walk: what was read before
// it is printed (at least the footer, once it is read), then the error, with
// exit status 3; JSON carries the error in an `error` field.

#include <cstdio>
#include <filesystem>
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
#include "tools/sidecar_commands.h"
#include "tools/table_walker.h"
#include "tools/tool_errors.h"
#include "util/coding.h"
#include "util/string_util.h"

namespace bloomtable {
namespace tool {
namespace {

struct Entry {
  std::string key;
  std::string value;
};

struct DataBlockReport {
  BlockSummary summary;
  uint64_t entries = 0;
  std::string first_key;
  std::string last_key;
  std::vector<Entry> listed;  // with --keys
};

struct DumpReport {
  std::vector<DataBlockReport> blocks;
  uint64_t entries = 0;
  uint64_t raw_bytes = 0;
  uint64_t stored_bytes = 0;
  std::vector<FilterAnalysis> filters;
  std::vector<ScanFilterAnalysis> scan_filters;
  absl::Status error;  // the damage that stopped the walk, if any
};

struct DumpSettings {
  bool blocks = false;
  bool keys = false;
  bool internal_keys = false;
};

// Reads the data blocks of a walker that read everything up to the index.
DumpReport Collect(const TableWalker& walker, const DumpSettings& settings) {
  DumpReport report;
  for (size_t i = 0; i < walker.index().size(); ++i) {
    DataBlockReport block_report;
    std::shared_ptr<const Block> block;
    absl::Status status =
        walker.ReadDataBlock(i, &block_report.summary, &block);
    if (!status.ok()) {
      report.error = status;
      return report;
    }
    BlockIter it(BytewiseComparator(), block.get());
    for (it.SeekToFirst(); it.Valid(); it.Next()) {
      if (block_report.entries == 0) block_report.first_key = it.key();
      block_report.last_key = it.key();
      block_report.entries++;
      if (settings.keys) {
        block_report.listed.push_back(
            Entry{std::string(it.key()), std::string(it.value())});
      }
    }
    if (!it.status().ok()) report.error = walker.DataBlockError(i, it.status());
    report.entries += block_report.entries;
    report.raw_bytes += block_report.summary.raw_size;
    report.stored_bytes += block_report.summary.handle.size();
    report.blocks.push_back(std::move(block_report));
    if (!report.error.ok()) return report;
  }

  std::vector<DataBlockKeys> keys_per_block;
  for (const DataBlockReport& block : report.blocks) {
    keys_per_block.push_back(
        DataBlockKeys{block.summary.handle.offset(), block.entries});
  }
  AnalyzeFilterBlocks(walker, keys_per_block, &report.filters);
  AnalyzeScanFilterBlocks(walker, report.entries, &report.scan_filters);
  return report;
}

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
               report.blocks.size(), report.entries, report.raw_bytes,
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

nlohmann::json BlockJson(const BlockSummary& summary) {
  return nlohmann::json{
      {"offset", summary.handle.offset()},
      {"size", summary.handle.size()},
      {"raw_size", summary.raw_size},
      {"compression",
       CompressionName(summary.codec, summary.compression_type)}};
}

nlohmann::json ToJson(const std::string& path, const TableWalker& walker,
                      const DumpReport& report, const DumpSettings& settings) {
  const bool internal = settings.internal_keys;
  nlohmann::json json;
  json["file"] = path;
  json["file_size"] = walker.file_size();
  json["footer"] = FooterJson(walker.footer(), walker.footer_offset(),
                              walker.footer_padding_is_zero());
  if (!report.error.ok()) json["error"] = ErrorJson(path, report.error);
  if (walker.stage() < TableWalker::Stage::kMetaindex) return json;
  json["metaindex_block"] = BlockJson(walker.metaindex_block());
  json["metaindex"] = nlohmann::json::array();
  for (const MetaindexEntry& entry : walker.metaindex()) {
    json["metaindex"].push_back(
        {{"key", BytesJson(entry.key)}, {"handle", HandleJson(entry.handle)}});
  }
  if (walker.stage() < TableWalker::Stage::kIndex) return json;
  json["index_block"] = BlockJson(walker.index_block());
  json["index"] = nlohmann::json::array();
  for (const MetaindexEntry& entry : walker.index()) {
    json["index"].push_back({{"key", KeyJson(entry.key, internal)},
                             {"handle", HandleJson(entry.handle)}});
  }
  json["data"] = {{"blocks", report.blocks.size()},
                  {"entries", report.entries},
                  {"raw_bytes", report.raw_bytes},
                  {"stored_bytes", report.stored_bytes}};
  if (settings.blocks) {
    json["data_blocks"] = nlohmann::json::array();
    for (const DataBlockReport& block : report.blocks) {
      nlohmann::json block_json = BlockJson(block.summary);
      block_json["entries"] = block.entries;
      if (block.entries > 0) {
        block_json["first_key"] = KeyJson(block.first_key, internal);
        block_json["last_key"] = KeyJson(block.last_key, internal);
      }
      if (settings.keys) {
        block_json["entry_list"] = nlohmann::json::array();
        for (const Entry& entry : block.listed) {
          block_json["entry_list"].push_back(
              {{"key", KeyJson(entry.key, internal)},
               {"value", BytesJson(entry.value)}});
        }
      }
      json["data_blocks"].push_back(std::move(block_json));
    }
  }
  json["filters"] = nlohmann::json::array();
  for (const FilterAnalysis& filter : report.filters) {
    nlohmann::json filter_json = {
        {"metaindex_key", filter.metaindex_key},
        {"policy", filter.policy_name},
        {"layout", LayoutName(filter, /*spaced=*/false)},
        {"handle", HandleJson(filter.handle)},
        {"num_filters", filter.num_filters},
        {"filter_bytes", filter.filter_bytes},
        {"keys_covered", filter.keys_covered},
        {"bits_per_key", filter.bits_per_key}};
    if (filter.has_bloom_details) {
      filter_json["min_probes"] = filter.min_probes;
      filter_json["max_probes"] = filter.max_probes;
      filter_json["fraction_bits_set"] = filter.fraction_bits_set;
      filter_json["estimated_false_positive_rate"] =
          filter.estimated_false_positive_rate;
    }
    if (!filter.problem.empty()) filter_json["problem"] = filter.problem;
    json["filters"].push_back(std::move(filter_json));
  }
  json["scan_filters"] = nlohmann::json::array();
  for (const ScanFilterAnalysis& filter : report.scan_filters) {
    nlohmann::json filter_json = ScanFilterJson(filter);
    filter_json["handle"] = HandleJson(filter.handle);
    json["scan_filters"].push_back(std::move(filter_json));
  }
  return json;
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
  const bool json = absl::GetFlag(FLAGS_json);

  if (IsSidecarFile(path, command_line.open_file())) {
    return DumpSidecarFile(path, json);
  }
  {
    std::unique_ptr<RandomAccessFile> log_file;
    uint64_t log_size = 0;
    const std::optional<LogContents> log_kind =
        LogFileKind(path, command_line.open_file(), &log_file, &log_size);
    if (log_kind)
      return DumpLogFile(path, *log_file, log_size, *log_kind, json);
  }

  std::unique_ptr<TableWalker> walker;
  const absl::Status opened =
      TableWalker::Open(path, command_line.open_file(), &walker);
  if (walker == nullptr) {
    // Nothing was read: not even a footer to show.
    if (json) PrintJson(FileErrorJson(path, opened));
    return ReportFileError(path, opened);
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
