#include "tools/table_dump.h"

#include <memory>
#include <utility>

#include "bloomtable/comparator.h"
#include "table/block.h"
#include "tools/output_format.h"

namespace bloomtable {
namespace tool {
namespace {

nlohmann::json BlockJson(const BlockSummary& summary) {
  return nlohmann::json{
      {"offset", summary.handle.offset()},
      {"size", summary.handle.size()},
      {"raw_size", summary.raw_size},
      {"compression",
       CompressionName(summary.codec, summary.compression_type)}};
}

nlohmann::json DataBlockJson(const DataBlockReport& block, bool internal) {
  nlohmann::json json = BlockJson(block.summary);
  json["entries"] = block.entries;
  if (block.entries > 0) {
    json["first_key"] = KeyJson(block.first_key, internal);
    json["last_key"] = KeyJson(block.last_key, internal);
  }
  return json;
}

nlohmann::json FilterJson(const FilterAnalysis& filter) {
  nlohmann::json json = {{"metaindex_key", filter.metaindex_key},
                         {"policy", filter.policy_name},
                         {"layout", LayoutName(filter, /*spaced=*/false)},
                         {"handle", HandleJson(filter.handle)},
                         {"num_filters", filter.num_filters},
                         {"filter_bytes", filter.filter_bytes},
                         {"keys_covered", filter.keys_covered},
                         {"bits_per_key", filter.bits_per_key}};
  if (filter.has_bloom_details) {
    json["min_probes"] = filter.min_probes;
    json["max_probes"] = filter.max_probes;
    json["fraction_bits_set"] = filter.fraction_bits_set;
    json["estimated_false_positive_rate"] =
        filter.estimated_false_positive_rate;
  }
  if (!filter.problem.empty()) json["problem"] = filter.problem;
  return json;
}

nlohmann::json ScanFilterBlockJson(const ScanFilterAnalysis& filter) {
  nlohmann::json json = ScanFilterJson(filter);
  json["handle"] = HandleJson(filter.handle);
  return json;
}

}  // namespace

DumpReport Collect(const TableWalker& walker, const DumpSettings& settings,
                   const std::function<void(const DataBlockReport&)>& stream) {
  DumpReport report;
  std::vector<DataBlockKeys> keys_per_block;
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
    ++report.block_count;
    keys_per_block.push_back(DataBlockKeys{block_report.summary.handle.offset(),
                                           block_report.entries});
    if (stream) {
      stream(block_report);
    } else {
      report.blocks.push_back(std::move(block_report));
    }
    if (!report.error.ok()) return report;
  }

  AnalyzeFilterBlocks(walker, keys_per_block, &report.filters);
  AnalyzeScanFilterBlocks(walker, report.entries, &report.scan_filters);
  return report;
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
  json["data"] = {{"blocks", report.block_count},
                  {"entries", report.entries},
                  {"raw_bytes", report.raw_bytes},
                  {"stored_bytes", report.stored_bytes}};
  if (settings.blocks) {
    json["data_blocks"] = nlohmann::json::array();
    for (const DataBlockReport& block : report.blocks) {
      nlohmann::json block_json = DataBlockJson(block, internal);
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
    json["filters"].push_back(FilterJson(filter));
  }
  json["scan_filters"] = nlohmann::json::array();
  for (const ScanFilterAnalysis& filter : report.scan_filters) {
    json["scan_filters"].push_back(ScanFilterBlockJson(filter));
  }
  return json;
}

absl::Status PrintLines(const std::string& path, const TableWalker& walker,
                        const absl::Status& opened,
                        const DumpSettings& settings) {
  const bool internal = settings.internal_keys;
  PrintJsonLine("table", {{"file", path}, {"file_size", walker.file_size()}});
  PrintJsonLine("footer", FooterJson(walker.footer(), walker.footer_offset(),
                                     walker.footer_padding_is_zero()));
  if (walker.stage() >= TableWalker::Stage::kMetaindex) {
    PrintJsonLine("metaindex_block", BlockJson(walker.metaindex_block()));
    for (const MetaindexEntry& entry : walker.metaindex()) {
      PrintJsonLine("metaindex_entry", {{"key", BytesJson(entry.key)},
                                        {"handle", HandleJson(entry.handle)}});
    }
  }
  if (walker.stage() >= TableWalker::Stage::kIndex) {
    PrintJsonLine("index_block", BlockJson(walker.index_block()));
    for (const MetaindexEntry& entry : walker.index()) {
      PrintJsonLine("index_entry", {{"key", KeyJson(entry.key, internal)},
                                    {"handle", HandleJson(entry.handle)}});
    }
  }
  if (!opened.ok()) {
    PrintJsonLine("error", ErrorJson(path, opened));
    return opened;
  }
  const DumpReport report =
      Collect(walker, settings, [&](const DataBlockReport& block) {
        for (const Entry& entry : block.listed) {
          PrintJsonLine("entry",
                        {{"block_offset", block.summary.handle.offset()},
                         {"key", KeyJson(entry.key, internal)},
                         {"value", BytesJson(entry.value)}});
        }
        if (settings.blocks)
          PrintJsonLine("data_block", DataBlockJson(block, internal));
      });
  PrintJsonLine("data", {{"blocks", report.block_count},
                         {"entries", report.entries},
                         {"raw_bytes", report.raw_bytes},
                         {"stored_bytes", report.stored_bytes}});
  for (const FilterAnalysis& filter : report.filters) {
    PrintJsonLine("filter", FilterJson(filter));
  }
  for (const ScanFilterAnalysis& filter : report.scan_filters) {
    // The line's kind holds the filter's ("prefix" or "range").
    PrintJsonLine(filter.is_range ? "range_filter" : "prefix_filter",
                  ScanFilterBlockJson(filter));
  }
  if (!report.error.ok()) PrintJsonLine("error", ErrorJson(path, report.error));
  return report.error;
}

}  // namespace tool
}  // namespace bloomtable
