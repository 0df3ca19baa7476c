// The table part of `bloomtable dump`: what a walk over a table's data
// blocks gathers (DumpReport), and the table printed as one JSON document
// (--json) or as JSON Lines (--jsonl). The aligned text is dump_command.cc's.

#ifndef BLOOMTABLE_TOOLS_TABLE_DUMP_H_
#define BLOOMTABLE_TOOLS_TABLE_DUMP_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "nlohmann/json.hpp"
#include "tools/filter_analysis.h"
#include "tools/scan_filter_analysis.h"
#include "tools/table_walker.h"

namespace bloomtable {
namespace tool {

// One entry of a data block (with --keys).
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
  std::vector<DataBlockReport> blocks;  // unless streamed (--jsonl)
  uint64_t block_count = 0;
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
// With `stream`, each block's report goes to it as soon as the block is read
// instead of into report.blocks.
DumpReport Collect(
    const TableWalker& walker, const DumpSettings& settings,
    const std::function<void(const DataBlockReport&)>& stream = nullptr);

// The document --json prints for a table.
nlohmann::json ToJson(const std::string& path, const TableWalker& walker,
                      const DumpReport& report, const DumpSettings& settings);

// --jsonl: a line per part, in file order, each block's as it is read:
// "table" (file, file_size), "footer", "metaindex_block", "metaindex_entry"
// per entry, "index_block", "index_entry" per entry, with --keys "entry"
// per entry (block_offset, key, value), with --blocks "data_block" per
// block (after its entries), "data" (the totals), "filter" per filter
// block, "prefix_filter" or "range_filter" per scan filter block (the kind
// of --json's scan_filters[]), and "error" on damage. Fields as --json's.
// `opened` is the walker's status at Open. Returns the damage that stopped
// the walk, if any.
absl::Status PrintLines(const std::string& path, const TableWalker& walker,
                        const absl::Status& opened,
                        const DumpSettings& settings);

}  // namespace tool
}  // namespace bloomtable

#endif  // BLOOMTABLE_TOOLS_TABLE_DUMP_H_
