// bloomtable get DIR KEY | get DIR --key_file F
// bloomtable scan DIR [--from K] [--to K] [--limit N] [--reverse]
//                     [--sequence N] [--hex] [--json|--jsonl]
//                     [--all_versions [--leftovers]]

#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "bloomtable/comparator.h"
#include "nlohmann/json.hpp"
#include "tools/cli_flags.h"
#include "tools/database_commands.h"
#include "tools/escaping.h"
#include "tools/exit_status.h"
#include "tools/local_storage_format.h"
#include "tools/output_format.h"
#include "tools/tool_errors.h"
#include "util/string_util.h"

namespace bloomtable {
namespace tool {
namespace {

// Warnings beyond this many are counted, not printed.
constexpr size_t kMaxWarningsShown = 10;
// Output is gathered and written in chunks of about this size.
constexpr size_t kOutputChunk = 64 * 1024;

// kExitPartial instead of `status` when --salvage skipped, repaired or
// recovered anything (its warnings were printed when the database opened).
int PartialOr(const Database& db, int status) {
  if (status == kExitSuccess && absl::GetFlag(FLAGS_salvage) && db.salvaged()) {
    std::fflush(stdout);
    absl::FPrintF(stderr,
                  "bloomtable: salvage: the answer is partial (see the "
                  "warnings above)\n");
    return kExitPartial;
  }
  return status;
}

std::string Format(std::string_view bytes, bool hex) {
  return hex ? HexEncode(bytes) : EscapeBytes(bytes);
}

// --sequence: -1 (the default) reads the newest state.
bool ReadSequence(std::string_view subcommand, DatabaseReadOptions* options) {
  const int64_t sequence = absl::GetFlag(FLAGS_sequence);
  if (sequence < -1) {
    ReportUsageError(subcommand,
                     absl::StrCat("--sequence must be -1 (newest) or at least "
                                  "0, got ",
                                  sequence));
    return false;
  }
  if (sequence >= 0) options->sequence = static_cast<uint64_t>(sequence);
  return true;
}

// Reads --from and --to (hex with --hex) into `options`.
bool ReadBounds(const CommandLine& command_line, bool hex,
                DatabaseReadOptions* options) {
  struct Bound {
    const char* name;
    std::string value;
    std::optional<std::string>* out;
  };
  Bound bounds[] = {
      {"from", absl::GetFlag(FLAGS_from), &options->lower_bound},
      {"to", absl::GetFlag(FLAGS_to), &options->upper_bound},
  };
  for (Bound& bound : bounds) {
    if (!command_line.FlagGiven(bound.name)) continue;
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
  return true;
}

// Prints a scan's lines in chunks.
class LinePrinter {
 public:
  void Add(std::string line) {
    absl::StrAppend(&output_, line, "\n");
    if (output_.size() >= kOutputChunk) Flush();
  }
  void Flush() {
    std::fwrite(output_.data(), 1, output_.size(), stdout);
    output_.clear();
  }

 private:
  std::string output_;
};

nlohmann::json VersionJson(const VersionRecord& record) {
  return {{"user_key", BytesJson(record.user_key)},
          {"sequence", record.sequence},
          {"type", record.deletion ? "del" : "put"},
          {"value", BytesJson(record.value)},
          {"status", std::string(RecordStatusName(record.status))},
          {"file", record.file},
          {"offset", record.offset}};
}

// Lists every version from the database's version stream as it comes, so
// that memory stays bounded by one record (one data block per table), except
// with --reverse, which gathers the listing first.
int ScanAllVersions(const std::string& dir, const Database& db,
                    const DatabaseReadOptions& options, int64_t limit,
                    bool reverse, bool hex, OutputFormat format) {
  if ((options.lower_bound || options.upper_bound) && !db.ordered()) {
    return ReportDatabaseError(
        dir, db,
        absl::FailedPreconditionError(
            absl::StrCat("--from and --to need the database's comparator '",
                         db.comparator_name(), "'")));
  }
  std::unique_ptr<VersionStream> stream = db.NewVersionStream(options);
  LinePrinter printer;
  nlohmann::json entries = nlohmann::json::array();
  auto print = [&](const VersionRecord& record) {
    switch (format) {
      case OutputFormat::kText:
        printer.Add(absl::StrCat(
            Format(record.user_key, hex), "\t", record.sequence, "\t",
            record.deletion ? "del" : "put", "\t", Format(record.value, hex),
            "\t", ToAbsl(RecordStatusName(record.status)), "\t", record.file,
            "\t", record.offset));
        break;
      case OutputFormat::kJson:
        entries.push_back(VersionJson(record));
        break;
      case OutputFormat::kJsonLines:
        PrintJsonLine("", VersionJson(record));
        break;
    }
  };
  VersionRecord record;
  int64_t printed = 0;
  if (reverse) {
    std::vector<VersionRecord> records;
    while (stream->Next(&record)) records.push_back(record);
    for (auto it = records.rbegin();
         it != records.rend() && (limit < 0 || printed < limit); ++it) {
      print(*it);
      ++printed;
    }
  } else {
    while ((limit < 0 || printed < limit) && stream->Next(&record)) {
      print(record);
      ++printed;
    }
  }
  const absl::Status status = stream->status();
  if (format == OutputFormat::kJson) {
    nlohmann::json document = {{"database", dir},
                               {"comparator", db.comparator_name()},
                               {"versions", std::move(entries)}};
    if (!status.ok()) document["error"] = std::string(status.message());
    PrintJson(document);
  } else {
    printer.Flush();
  }
  if (!status.ok()) return ReportDatabaseError(dir, db, status);
  return PartialOr(db, kExitSuccess);
}

}  // namespace

bool IsDirectory(const std::string& path) {
  std::error_code error;
  return std::filesystem::is_directory(path, error);
}

absl::StatusOr<std::unique_ptr<Database>> OpenDatabaseForTool(
    const std::string& dir, const DatabaseOptions& options) {
  DatabaseOptions with_flags = options;
  if (absl::GetFlag(FLAGS_salvage)) {
    with_flags.salvage = SalvageOptions::All();
  }
  const std::string comparator = absl::GetFlag(FLAGS_comparator);
  if (!comparator.empty()) {
    with_flags.comparator = BuiltinComparator(comparator);
    if (with_flags.comparator == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--comparator ", comparator,
          " is not a built-in comparator (leveldb.BytewiseComparator, "
          "idb_cmp1)"));
    }
  }
  absl::StatusOr<std::unique_ptr<Database>> db =
      Database::OpenReadOnly(dir, with_flags);
  if (!db.ok()) {
    if (absl::IsNotFound(db.status())) {
      // The library's message says what is missing (and where the
      // database is, if it is in a subdirectory): damaged input, exit 3.
      return absl::DataLossError(db.status().message());
    }
    return db.status();
  }
  const std::vector<std::string>& warnings = (*db)->warnings();
  for (size_t i = 0; i < warnings.size() && i < kMaxWarningsShown; ++i) {
    absl::FPrintF(stderr, "bloomtable: %s: warning: %s\n", dir, warnings[i]);
  }
  if (warnings.size() > kMaxWarningsShown) {
    absl::FPrintF(stderr, "bloomtable: %s: %d more warnings\n", dir,
                  warnings.size() - kMaxWarningsShown);
  }
  return db;
}

DatabaseOptions ToolDatabaseOptions() {
  DatabaseOptions options;
  options.filters_dir = absl::GetFlag(FLAGS_filters);
  return options;
}

int ReportDatabaseError(const std::string& dir, const Database& db,
                        const absl::Status& status) {
  std::fflush(stdout);
  if (absl::IsFailedPrecondition(status) && !db.ordered()) {
    absl::FPrintF(stderr, "bloomtable: %s\n", DescribeFileError(dir, status));
    return kExitUnsupported;
  }
  return ReportFileError(dir, status);
}

int RunDatabaseGet(const CommandLine& command_line,
                   const std::vector<std::string>& keys, bool from_file) {
  const std::string& dir = command_line.args()[0];
  const bool hex = absl::GetFlag(FLAGS_hex);
  const bool local_storage = absl::GetFlag(FLAGS_local_storage);
  if (local_storage && hex) {
    return ReportUsageError("get",
                            "--local_storage and --hex exclude each other");
  }
  DatabaseReadOptions options;
  if (!ReadSequence("get", &options)) return kExitUsage;
  absl::StatusOr<std::unique_ptr<Database>> db =
      OpenDatabaseForTool(dir, ToolDatabaseOptions());
  if (!db.ok()) return ReportFileError(dir, db.status());
  uint64_t missing = 0;
  for (const std::string& key : keys) {
    absl::StatusOr<std::string> value = (*db)->Get(options, key);
    if (absl::IsNotFound(value.status())) {
      ++missing;
      if (from_file) {
        absl::PrintF("missing\n");
      } else {
        absl::FPrintF(stderr, "bloomtable: %s: no such key: %s\n", dir,
                      Format(key, hex));
      }
      continue;
    }
    if (!value.ok()) return ReportDatabaseError(dir, **db, value.status());
    std::string shown = Format(*value, hex);
    if (local_storage) {
      // The value alone: the line's last column.
      const std::string line = LocalStorageLine(key, *value);
      shown = line.substr(line.rfind('\t') + 1);
    }
    if (from_file) {
      absl::PrintF("found\t%s\n", shown);
    } else {
      absl::PrintF("%s\n", shown);
    }
  }
  if (from_file) {
    std::fflush(stdout);
    absl::FPrintF(stderr, "%d keys: %d found, %d missing\n", keys.size(),
                  keys.size() - missing, missing);
  }
  if (command_line.FlagGiven("filters")) {
    const DatabaseStats stats = (*db)->GetStats();
    std::fflush(stdout);
    absl::FPrintF(stderr,
                  "bloomtable: sidecar filters: %d of %d tables have one; "
                  "asked %d times, %d answered absent (no table read)\n",
                  stats.sidecar_tables, (*db)->tables().size(),
                  stats.sidecar_filter_checks, stats.sidecar_filter_negatives);
  }
  if (missing > 0) return kExitKeyNotFound;
  return PartialOr(**db, kExitSuccess);
}

int RunDatabaseScan(const CommandLine& command_line) {
  const std::string& dir = command_line.args()[0];
  const bool hex = absl::GetFlag(FLAGS_hex);
  const bool reverse = absl::GetFlag(FLAGS_reverse);
  OutputFormat format;
  if (!ReadOutputFormat("scan", &format)) return kExitUsage;
  const bool json = format == OutputFormat::kJson;
  const bool local_storage = absl::GetFlag(FLAGS_local_storage);
  const int64_t limit = absl::GetFlag(FLAGS_limit);
  if (local_storage && (hex || absl::GetFlag(FLAGS_all_versions))) {
    return ReportUsageError("scan",
                            "--local_storage applies to the newest values' "
                            "text or JSON (not with --hex or --all_versions)");
  }
  if (limit < -1) {
    return ReportUsageError(
        "scan",
        absl::StrCat("--limit must be -1 (all) or at least 0, got ", limit));
  }
  DatabaseReadOptions options;
  if (!ReadSequence("scan", &options)) return kExitUsage;
  if (!ReadBounds(command_line, hex, &options)) return kExitUsage;
  const bool all_versions = absl::GetFlag(FLAGS_all_versions);
  const bool leftovers = absl::GetFlag(FLAGS_leftovers);
  if (leftovers && !all_versions) {
    return ReportUsageError("scan", "--leftovers needs --all_versions");
  }
  DatabaseOptions db_options = ToolDatabaseOptions();
  db_options.read_leftovers = leftovers;
  absl::StatusOr<std::unique_ptr<Database>> db =
      OpenDatabaseForTool(dir, db_options);
  if (!db.ok()) return ReportFileError(dir, db.status());
  if (all_versions) {
    return ScanAllVersions(dir, **db, options, limit, reverse, hex, format);
  }

  std::unique_ptr<Iterator> it = (*db)->NewIterator(options);
  if (reverse) {
    it->SeekToLast();
  } else {
    it->SeekToFirst();
  }
  LinePrinter printer;
  nlohmann::json entries = nlohmann::json::array();
  int64_t printed = 0;
  while (it->Valid() && (limit < 0 || printed < limit)) {
    if (json || format == OutputFormat::kJsonLines) {
      nlohmann::json entry = {{"key", BytesJson(it->key())},
                              {"value", BytesJson(it->value())}};
      if (local_storage) {
        entry["local_storage"] = LocalStorageJson(it->key(), it->value());
      }
      if (json) {
        entries.push_back(std::move(entry));
      } else {
        PrintJsonLine("", entry);
      }
    } else if (local_storage) {
      printer.Add(LocalStorageLine(it->key(), it->value()));
    } else {
      printer.Add(
          absl::StrCat(Format(it->key(), hex), "\t", Format(it->value(), hex)));
    }
    ++printed;
    if (reverse) {
      it->Prev();
    } else {
      it->Next();
    }
  }
  const absl::Status status = it->status();
  if (json) {
    nlohmann::json document = {{"database", dir},
                               {"comparator", (*db)->comparator_name()},
                               {"entries", std::move(entries)}};
    if (!status.ok()) document["error"] = std::string(status.message());
    PrintJson(document);
  } else {
    printer.Flush();
  }
  if (!status.ok()) return ReportDatabaseError(dir, **db, status);
  if (command_line.FlagGiven("filters")) {
    const DatabaseStats stats = (*db)->GetStats();
    absl::FPrintF(stderr,
                  "bloomtable: sidecar filters: %d of %d tables have one; "
                  "%d tables left out of the scan\n",
                  stats.sidecar_tables, (*db)->tables().size(),
                  stats.sidecar_range_negatives);
  }
  return PartialOr(**db, kExitSuccess);
}

}  // namespace tool
}  // namespace bloomtable
