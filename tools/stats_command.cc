// bloomtable stats FILE [--json] [--internal_keys]
//
// On damage, what was read is the file and its footer (once read): those are
// printed, then the error (exit status 3); JSON carries it in `error`. No
// partial statistics: they would describe part of the file as the whole.

#include <cstdio>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/status/status.h"
#include "absl/strings/str_format.h"
#include "bloomtable/comparator.h"
#include "nlohmann/json.hpp"
#include "table/block.h"
#include "table/internal_key.h"
#include "tools/cli_flags.h"
#include "tools/commands.h"
#include "tools/database_commands.h"
#include "tools/exit_status.h"
#include "tools/filter_analysis.h"
#include "tools/output_format.h"
#include "tools/scan_filter_analysis.h"
#include "tools/size_distribution.h"
#include "tools/table_walker.h"
#include "tools/tool_errors.h"

namespace bloomtable {
namespace tool {
namespace {

struct Stats {
  uint64_t entries = 0;
  uint64_t data_blocks = 0;
  uint64_t raw_data_bytes = 0;
  uint64_t stored_data_bytes = 0;  // trailers excluded
  SizeDistribution key_sizes;
  SizeDistribution value_sizes;
  std::vector<FilterAnalysis> filters;
  std::vector<ScanFilterAnalysis> scan_filters;
};

absl::Status Collect(const TableWalker& walker, bool internal_keys,
                     Stats* stats) {
  std::vector<DataBlockKeys> keys_per_block;
  for (size_t i = 0; i < walker.index().size(); ++i) {
    BlockSummary summary;
    std::shared_ptr<const Block> block;
    absl::Status status = walker.ReadDataBlock(i, &summary, &block);
    if (!status.ok()) return status;
    BlockIter it(BytewiseComparator(), block.get());
    uint64_t entries = 0;
    for (it.SeekToFirst(); it.Valid(); it.Next()) {
      const std::string_view key =
          internal_keys ? ExtractUserKey(it.key()) : it.key();
      stats->key_sizes.Add(static_cast<uint32_t>(key.size()));
      stats->value_sizes.Add(static_cast<uint32_t>(it.value().size()));
      entries++;
    }
    if (!it.status().ok()) return walker.DataBlockError(i, it.status());
    stats->entries += entries;
    stats->data_blocks++;
    stats->raw_data_bytes += summary.raw_size;
    stats->stored_data_bytes += summary.handle.size();
    keys_per_block.push_back(DataBlockKeys{summary.handle.offset(), entries});
  }
  AnalyzeFilterBlocks(walker, keys_per_block, &stats->filters);
  AnalyzeScanFilterBlocks(walker, stats->entries, &stats->scan_filters);
  return absl::OkStatus();
}

double PerKey(uint64_t bytes, uint64_t entries) {
  return entries == 0
             ? 0
             : static_cast<double>(bytes) / static_cast<double>(entries);
}

double Ratio(uint64_t raw, uint64_t stored) {
  return stored == 0 ? 1
                     : static_cast<double>(raw) / static_cast<double>(stored);
}

nlohmann::json DistributionJson(SizeDistribution& sizes) {
  return nlohmann::json{
      {"min", sizes.Percentile(0)},   {"p50", sizes.Percentile(50)},
      {"p90", sizes.Percentile(90)},  {"p99", sizes.Percentile(99)},
      {"max", sizes.Percentile(100)}, {"mean", sizes.mean()},
      {"total", sizes.total()}};
}

std::string DistributionText(SizeDistribution& sizes) {
  return absl::StrFormat(
      "min %d, p50 %d, p90 %d, p99 %d, max %d, mean %.1f, "
      "total %d",
      sizes.Percentile(0), sizes.Percentile(50), sizes.Percentile(90),
      sizes.Percentile(99), sizes.Percentile(100), sizes.mean(), sizes.total());
}

// What stats shows of a damaged file: its size and footer, and in JSON the
// error.
void PrintFooter(const std::string& path, const TableWalker& walker,
                 const absl::Status& error, bool json_output) {
  if (json_output) {
    nlohmann::json json;
    json["file"] = path;
    json["file_size"] = walker.file_size();
    json["footer"] = FooterJson(walker.footer(), walker.footer_offset(),
                                walker.footer_padding_is_zero());
    json["error"] = ErrorJson(path, error);
    PrintJson(json);
    return;
  }
  const Footer& footer = walker.footer();
  absl::PrintF("file:               %s (%d bytes)\n", path, walker.file_size());
  absl::PrintF(
      "footer:             offset %d; metaindex handle: offset %d, "
      "size %d; index handle: offset %d, size %d\n",
      walker.footer_offset(), footer.metaindex_handle().offset(),
      footer.metaindex_handle().size(), footer.index_handle().offset(),
      footer.index_handle().size());
}

}  // namespace

int RunStats(const CommandLine& command_line) {
  const std::string& path = command_line.args()[0];
  if (IsDirectory(path)) return RunDatabaseStats(command_line);
  if (command_line.FlagGiven("salvage")) {
    return ReportUsageError(
        "stats", "--salvage applies to a database directory, not to a file");
  }
  const bool internal_keys = absl::GetFlag(FLAGS_internal_keys);
  const bool json_output = absl::GetFlag(FLAGS_json);
  std::unique_ptr<TableWalker> walker;
  absl::Status status =
      TableWalker::Open(path, command_line.open_file(), &walker);
  Stats stats;
  if (status.ok()) status = Collect(*walker, internal_keys, &stats);
  if (!status.ok()) {
    if (walker == nullptr) {
      if (json_output) PrintJson(FileErrorJson(path, status));
    } else {
      PrintFooter(path, *walker, status, json_output);
    }
    std::fflush(stdout);
    return ReportFileError(path, status);
  }
  // The index block is held in memory uncompressed while a table is open.
  const uint64_t index_bytes = walker->index_block().raw_size;

  if (json_output) {
    nlohmann::json json;
    json["file"] = path;
    json["file_size"] = walker->file_size();
    json["entries"] = stats.entries;
    json["data_blocks"] = stats.data_blocks;
    json["key_size"] = DistributionJson(stats.key_sizes);
    json["value_size"] = DistributionJson(stats.value_sizes);
    json["raw_data_bytes"] = stats.raw_data_bytes;
    json["stored_data_bytes"] = stats.stored_data_bytes;
    json["compression_ratio"] =
        Ratio(stats.raw_data_bytes, stats.stored_data_bytes);
    json["index_bytes"] = index_bytes;
    json["index_bytes_per_key"] = PerKey(index_bytes, stats.entries);
    json["filters"] = nlohmann::json::array();
    for (const FilterAnalysis& filter : stats.filters) {
      json["filters"].push_back(
          {{"policy", filter.policy_name},
           {"layout", LayoutName(filter, /*spaced=*/false)},
           {"bytes", StoredBytes(filter)},
           {"bytes_per_key", PerKey(StoredBytes(filter), stats.entries)},
           {"bits_per_key", filter.bits_per_key}});
    }
    json["scan_filters"] = nlohmann::json::array();
    for (const ScanFilterAnalysis& filter : stats.scan_filters) {
      json["scan_filters"].push_back(ScanFilterJson(filter));
    }
    PrintJson(json);
    return kExitSuccess;
  }
  absl::PrintF("file:               %s (%d bytes)\n", path,
               walker->file_size());
  absl::PrintF("entries:            %d\n", stats.entries);
  absl::PrintF("data blocks:        %d\n", stats.data_blocks);
  absl::PrintF("key size:           %s\n", DistributionText(stats.key_sizes));
  absl::PrintF("value size:         %s\n", DistributionText(stats.value_sizes));
  absl::PrintF("raw data bytes:     %d\n", stats.raw_data_bytes);
  absl::PrintF("stored data bytes:  %d\n", stats.stored_data_bytes);
  absl::PrintF("compression ratio:  %.2f\n",
               Ratio(stats.raw_data_bytes, stats.stored_data_bytes));
  absl::PrintF("index:              %d bytes, %.2f bytes per key\n",
               index_bytes, PerKey(index_bytes, stats.entries));
  if (stats.filters.empty()) absl::PrintF("filter:             none\n");
  for (const FilterAnalysis& filter : stats.filters) {
    absl::PrintF(
        "filter:             %s (%s), %d bytes, %.2f bytes per key, "
        "%.2f bits per key\n",
        filter.policy_name, LayoutName(filter, /*spaced=*/true),
        StoredBytes(filter), PerKey(StoredBytes(filter), stats.entries),
        filter.bits_per_key);
  }
  for (const ScanFilterAnalysis& filter : stats.scan_filters) {
    absl::PrintF("%s\n", ScanFilterSummary(filter));
  }
  return kExitSuccess;
}

}  // namespace tool
}  // namespace bloomtable
