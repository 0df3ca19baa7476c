// bloomtable scan FILE [--from KEY] [--to KEY] [--limit N] [--hex] [--reverse]
//                      [--internal_keys]

#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <system_error>

#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "bloomtable/db_files.h"
#include "bloomtable/iterator.h"
#include "table/internal_key.h"
#include "tools/cli_flags.h"
#include "tools/commands.h"
#include "tools/database_commands.h"
#include "tools/escaping.h"
#include "tools/exit_status.h"
#include "tools/table_file.h"
#include "tools/tool_errors.h"

namespace bloomtable {
namespace tool {
namespace {

// Output is gathered and written in chunks of about this size.
constexpr size_t kOutputChunk = 64 * 1024;

struct ScanRange {
  bool has_from = false;
  std::string from;
  bool has_to = false;
  std::string to;
  int64_t limit = -1;  // -1: no limit
};

class Scanner {
 public:
  Scanner(const Options& options, bool hex)
      : internal_keys_(options.key_format == KeyFormat::kLevelDBInternal),
        hex_(hex) {}

  // Appends the line for one entry to the output; false for an internal key
  // that does not parse.
  bool AppendLine(std::string_view key, std::string_view value) {
    if (internal_keys_) {
      ParsedInternalKey parsed;
      if (!ParseInternalKey(key, &parsed)) return false;
      absl::StrAppend(&output_, Format(parsed.user_key), "\t", parsed.sequence,
                      "\t", parsed.type == ValueType::kValue ? "put" : "del",
                      "\t", Format(value), "\n");
    } else {
      absl::StrAppend(&output_, Format(key), "\t", Format(value), "\n");
    }
    if (output_.size() >= kOutputChunk) Flush();
    return true;
  }

  void Flush() {
    std::fwrite(output_.data(), 1, output_.size(), stdout);
    output_.clear();
  }

 private:
  std::string Format(std::string_view bytes) const {
    return hex_ ? HexEncode(bytes) : EscapeBytes(bytes);
  }

  const bool internal_keys_;
  const bool hex_;
  std::string output_;
};

// Reads --from and --to (hex with --hex) into `*range`; prints a usage
// error and returns false if one is malformed.
bool ReadRange(const CommandLine& command_line, bool hex, ScanRange* range) {
  struct Bound {
    const char* name;
    std::string value;
    bool* has;
    std::string* out;
  };
  Bound bounds[] = {
      {"from", absl::GetFlag(FLAGS_from), &range->has_from, &range->from},
      {"to", absl::GetFlag(FLAGS_to), &range->has_to, &range->to},
  };
  for (Bound& bound : bounds) {
    *bound.has = command_line.FlagGiven(bound.name);
    if (!*bound.has) continue;
    if (!hex) {
      *bound.out = bound.value;
      continue;
    }
    absl::StatusOr<std::string> decoded = HexDecode(bound.value);
    if (!decoded.ok()) {
      ReportUsageError("scan", absl::StrCat("--", bound.name, " is not hex: ",
                                            decoded.status().message()));
      return false;
    }
    *bound.out = *std::move(decoded);
  }
  range->limit = absl::GetFlag(FLAGS_limit);
  if (range->limit < -1) {
    ReportUsageError("scan", absl::StrCat("--limit must be -1 (all) or at "
                                          "least 0, got ",
                                          range->limit));
    return false;
  }
  return true;
}

// Says on standard error what the table's range or prefix filter answered
// for the scan, if one was asked (from the counters around the first seek).
void ReportScanFilter(const TableStats& before, const TableStats& after) {
  const uint64_t checks =
      (after.range_filter_checks - before.range_filter_checks) +
      (after.prefix_filter_checks - before.prefix_filter_checks);
  if (checks == 0) return;
  const bool empty =
      after.range_filter_negatives > before.range_filter_negatives ||
      after.prefix_filter_negatives > before.prefix_filter_negatives;
  absl::FPrintF(stderr, "bloomtable: scan filter: %s\n",
                empty ? "empty (no block read)" : "maybe");
}

// A log or a MANIFEST given where a table is expected: the table
// reader's error (a bad magic number) says what is wrong, not what to do.
absl::Status WithDumpHint(const std::string& path, const absl::Status& status) {
  if (!absl::IsDataLoss(status) && !absl::IsInvalidArgument(status)) {
    return status;
  }
  const std::optional<DbFileName> name =
      ParseDbFileName(std::filesystem::path(path).filename().string());
  if (!name ||
      (name->type != DbFileType::kLog && name->type != DbFileType::kManifest)) {
    return status;
  }
  return absl::Status(
      status.code(),
      absl::StrCat("not a table but a LevelDB ",
                   name->type == DbFileType::kLog ? "log" : "MANIFEST",
                   ": 'bloomtable dump ", path, "' lists its records"));
}

// True if `path` is a table file (by name) in a directory that holds a
// LevelDB database (a CURRENT file).
bool InDatabaseDirectory(const std::string& path) {
  const std::filesystem::path file(path);
  const std::optional<DbFileName> name =
      ParseDbFileName(file.filename().string());
  if (!name || name->type != DbFileType::kTable) return false;
  std::error_code error;
  return std::filesystem::is_regular_file(file.parent_path().empty()
                                              ? std::filesystem::path("CURRENT")
                                              : file.parent_path() / "CURRENT",
                                          error);
}

}  // namespace

int RunScan(const CommandLine& command_line) {
  const std::string& path = command_line.args()[0];
  if (IsDirectory(path)) return RunDatabaseScan(command_line);
  for (const char* flag : {"json", "sequence", "all_versions", "leftovers",
                           "salvage", "comparator", "local_storage"}) {
    if (command_line.FlagGiven(flag)) {
      return ReportUsageError(
          "scan", absl::StrCat("--", flag,
                               " applies to a database directory, not to a "
                               "table file"));
    }
  }
  const bool hex = absl::GetFlag(FLAGS_hex);
  const bool reverse = absl::GetFlag(FLAGS_reverse);
  const bool internal_keys = absl::GetFlag(FLAGS_internal_keys);
  ScanRange range;
  if (!ReadRange(command_line, hex, &range)) return kExitUsage;

  absl::StatusOr<OpenedTable> opened =
      OpenTableFile(path, internal_keys, command_line.open_file());
  if (!opened.ok())
    return ReportFileError(path, WithDumpHint(path, opened.status()));
  if (!internal_keys && InDatabaseDirectory(path)) {
    absl::FPrintF(stderr,
                  "bloomtable: %s: note: a table of the LevelDB database in "
                  "its directory: its keys are internal keys (user key, "
                  "sequence and type); --internal_keys shows them so, and "
                  "scan DIR lists the database's newest values\n",
                  path);
  }
  const Options options = ReadingOptions(internal_keys);
  Scanner scanner(options, hex);
  // The iterator keeps to [--from, --to) itself, and asks the table's scan
  // filters first.
  ReadOptions read_options;
  if (range.has_from) read_options.iterate_lower_bound = range.from;
  if (range.has_to) read_options.iterate_upper_bound = range.to;
  std::unique_ptr<Iterator> it = opened->table->NewIterator(read_options);
  const TableStats before = opened->table->GetStats();
  if (reverse) {
    it->SeekToLast();
  } else {
    it->SeekToFirst();
  }
  ReportScanFilter(before, opened->table->GetStats());

  int64_t printed = 0;
  while (it->Valid() && (range.limit < 0 || printed < range.limit)) {
    if (!scanner.AppendLine(it->key(), it->value())) {
      scanner.Flush();
      return ReportFileError(
          path, absl::DataLossError(absl::StrCat(
                    "not a LevelDB internal key: ", EscapeBytes(it->key()),
                    " (is this a table written without a database? scan it "
                    "without --internal_keys)")));
    }
    ++printed;
    if (reverse) {
      it->Prev();
    } else {
      it->Next();
    }
  }
  scanner.Flush();
  if (!it->status().ok()) return ReportFileError(path, it->status());
  return kExitSuccess;
}

}  // namespace tool
}  // namespace bloomtable
