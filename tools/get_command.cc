// bloomtable get FILE KEY [--hex] [--internal_keys]
// bloomtable get FILE --key_file FILE|- [--hex] [--internal_keys]

#include <cstdio>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "tools/build_input.h"
#include "tools/cli_flags.h"
#include "tools/commands.h"
#include "tools/database_commands.h"
#include "tools/escaping.h"
#include "tools/exit_status.h"
#include "tools/table_file.h"
#include "tools/tool_errors.h"
#include "util/string_util.h"

namespace bloomtable {
namespace tool {
namespace {

std::string Plural(uint64_t n, std::string_view word) {
  return absl::StrFormat("%d %s%s", n, ToAbsl(word), n == 1 ? "" : "s");
}

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
    return absl::StrFormat("filter: not used (%s); %s read", reason,
                           Plural(block_reads, "data block"));
  }
  if (after.filter_checks == before.filter_checks) {
    return absl::StrFormat(
        "filter: not asked (no data block can hold the key); %s read",
        Plural(block_reads, "data block"));
  }
  if (after.filter_negatives > before.filter_negatives) {
    return "filter: absent (no data block read)";
  }
  return absl::StrFormat("filter: maybe; %s read",
                         Plural(block_reads, "data block"));
}

std::string Format(std::string_view bytes, bool hex) {
  return hex ? HexEncode(bytes) : EscapeBytes(bytes);
}

int GetOneKey(const std::string& path, const Table& table,
              const std::string& key, bool hex) {
  const TableStats before = table.GetStats();
  absl::StatusOr<std::string> value = table.Get(ReadOptions(), key);
  const std::string lookup = DescribeLookup(table, before, table.GetStats());
  if (absl::IsNotFound(value.status())) {
    absl::FPrintF(stderr, "%s\n", lookup);
    absl::FPrintF(stderr, "bloomtable: %s: no such key: %s\n", path,
                  Format(key, hex));
    return kExitKeyNotFound;
  }
  if (!value.ok()) return ReportFileError(path, value.status());
  absl::PrintF("%s\n", Format(*value, hex));
  absl::FPrintF(stderr, "%s\n", lookup);
  return kExitSuccess;
}

// One line per key, in order: "found<TAB>VALUE" or "missing" (the escaped
// and hex forms never hold a tab, so the two cannot be confused). Stops at
// the first error other than a missing key.
int GetEveryKey(const std::string& path, const Table& table,
                const std::vector<std::string>& keys, bool hex) {
  const TableStats before = table.GetStats();
  uint64_t missing = 0;
  std::string value;
  for (const std::string& key : keys) {
    const absl::Status status = table.Get(ReadOptions(), key, &value);
    if (absl::IsNotFound(status)) {
      ++missing;
      absl::PrintF("missing\n");
      continue;
    }
    if (!status.ok()) {
      std::fflush(stdout);
      return ReportFileError(path, status);
    }
    absl::PrintF("found\t%s\n", Format(value, hex));
  }
  const TableStats after = table.GetStats();
  std::fflush(stdout);
  absl::FPrintF(
      stderr, "%s: %d found, %d missing; filter: %d absent; %s read\n",
      Plural(keys.size(), "key"), keys.size() - missing, missing,
      after.filter_negatives - before.filter_negatives,
      Plural(after.data_block_reads - before.data_block_reads, "data block"));
  return missing > 0 ? kExitKeyNotFound : kExitSuccess;
}

}  // namespace

int RunGet(const CommandLine& command_line) {
  const std::string& path = command_line.args()[0];
  const bool hex = absl::GetFlag(FLAGS_hex);
  const bool from_file = command_line.FlagGiven("key_file");
  if (from_file == (command_line.args().size() == 2)) {
    return ReportUsageError(
        "get", "give either KEY or --key_file FILE (- for standard input)");
  }

  std::vector<std::string> keys;
  if (from_file) {
    const std::string key_file = absl::GetFlag(FLAGS_key_file);
    absl::StatusOr<std::string> text = ReadInputText(key_file);
    if (!text.ok()) return ReportFileError(InputName(key_file), text.status());
    absl::StatusOr<std::vector<std::string>> parsed =
        ParseKeyLines(*text, hex ? InputFormat::kHex : InputFormat::kTsv);
    if (!parsed.ok()) {
      return ReportFileError(InputName(key_file), parsed.status());
    }
    keys = *std::move(parsed);
  } else if (hex) {
    absl::StatusOr<std::string> decoded = HexDecode(command_line.args()[1]);
    if (!decoded.ok()) {
      return ReportUsageError(
          "get", absl::StrCat("KEY is not hex: ", decoded.status().message()));
    }
    keys.push_back(*std::move(decoded));
  } else {
    // The escaped form that scan prints, as the help says.
    absl::StatusOr<std::string> unescaped =
        UnescapeBytes(command_line.args()[1]);
    if (!unescaped.ok()) {
      return ReportUsageError("get",
                              absl::StrCat("KEY is not in the escaped form: ",
                                           unescaped.status().message()));
    }
    keys.push_back(*std::move(unescaped));
  }

  if (IsDirectory(path)) return RunDatabaseGet(command_line, keys, from_file);
  for (const char* flag :
       {"sequence", "salvage", "comparator", "local_storage"}) {
    if (command_line.FlagGiven(flag)) {
      return ReportUsageError(
          "get", absl::StrCat("--", flag,
                              " applies to a database directory, not to a "
                              "table file"));
    }
  }
  absl::StatusOr<OpenedTable> opened = OpenTableFile(
      path, absl::GetFlag(FLAGS_internal_keys), command_line.open_file());
  if (!opened.ok()) return ReportFileError(path, opened.status());
  const Table& table = *opened->table;
  return from_file ? GetEveryKey(path, table, keys, hex)
                   : GetOneKey(path, table, keys[0], hex);
}

}  // namespace tool
}  // namespace bloomtable
