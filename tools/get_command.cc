// bloomtable get FILE KEY [--hex] [--internal_keys]

#include <string>

#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "tools/cli_flags.h"
#include "tools/commands.h"
#include "tools/escaping.h"
#include "tools/exit_status.h"
#include "tools/table_file.h"
#include "tools/tool_errors.h"

namespace bloomtable {
namespace tool {
namespace {

// What the lookup cost, from the table's counters before and after it.
std::string DescribeLookup(const Table& table, const TableStats& before,
                           const TableStats& after) {
  const uint64_t block_reads = after.data_block_reads - before.data_block_reads;
  // A prefix filter (scan_filter_info) answers lookups when the table has
  // no other filter.
  if (!table.filter_info().in_use && !table.scan_filter_info().prefix_loaded) {
    std::string reason = table.filter_info().metaindex_key.empty()
                             ? "the table has none"
                             : table.filter_info().unused_reason;
    return absl::StrFormat("filter: not used (%s); %d data block%s read",
                           reason, block_reads, block_reads == 1 ? "" : "s");
  }
  if (after.filter_checks == before.filter_checks) {
    return absl::StrFormat(
        "filter: not asked (no data block can hold the "
        "key); %d data block%s read",
        block_reads, block_reads == 1 ? "" : "s");
  }
  if (after.filter_negatives > before.filter_negatives) {
    return "filter: absent (no data block read)";
  }
  return absl::StrFormat("filter: maybe; %d data block%s read", block_reads,
                         block_reads == 1 ? "" : "s");
}

}  // namespace

int RunGet(const CommandLine& command_line) {
  const std::string& path = command_line.args()[0];
  const std::string& key_arg = command_line.args()[1];
  const bool hex = absl::GetFlag(FLAGS_hex);
  std::string key = key_arg;
  if (hex) {
    absl::StatusOr<std::string> decoded = HexDecode(key_arg);
    if (!decoded.ok()) {
      return ReportUsageError(
          "get", absl::StrCat("KEY is not hex: ", decoded.status().message()));
    }
    key = *std::move(decoded);
  }

  absl::StatusOr<OpenedTable> opened =
      OpenTableFile(path, absl::GetFlag(FLAGS_internal_keys));
  if (!opened.ok()) return ReportFileError(path, opened.status());
  const Table& table = *opened->table;

  const TableStats before = table.GetStats();
  absl::StatusOr<std::string> value = table.Get(ReadOptions(), key);
  const TableStats after = table.GetStats();
  const std::string lookup = DescribeLookup(table, before, after);

  if (absl::IsNotFound(value.status())) {
    absl::FPrintF(stderr, "%s\n", lookup);
    absl::FPrintF(stderr, "bloomtable: %s: no such key: %s\n", path,
                  hex ? HexEncode(key) : EscapeBytes(key));
    return kExitKeyNotFound;
  }
  if (!value.ok()) return ReportFileError(path, value.status());
  absl::PrintF("%s\n", hex ? HexEncode(*value) : EscapeBytes(*value));
  absl::FPrintF(stderr, "%s\n", lookup);
  return kExitSuccess;
}

}  // namespace tool
}  // namespace bloomtable
