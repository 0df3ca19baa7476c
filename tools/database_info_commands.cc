// bloomtable stats DIR [--json]
// bloomtable verify DIR
// bloomtable dump DIR [--json|--jsonl]

#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "bloomtable/db_version.h"
#include "bloomtable/log_reader.h"
#include "bloomtable/write_batch.h"
#include "nlohmann/json.hpp"
#include "table/corruption.h"
#include "table/internal_key.h"
#include "tools/cli_flags.h"
#include "tools/database_commands.h"
#include "tools/escaping.h"
#include "tools/exit_status.h"
#include "tools/output_format.h"
#include "tools/sidecar_commands.h"
#include "tools/tool_errors.h"
#include "tools/verify_file.h"

namespace bloomtable {
namespace tool {
namespace {

struct LevelStats {
  uint64_t files = 0;
  uint64_t bytes = 0;
  uint64_t puts = 0;
  uint64_t deletions = 0;
};

struct SequenceRange {
  bool any = false;
  uint64_t min = 0;
  uint64_t max = 0;
  void Add(uint64_t sequence) {
    if (!any || sequence < min) min = sequence;
    if (!any || sequence > max) max = sequence;
    any = true;
  }
};

// Counts the entries of one live table into `level`.
absl::Status CountTable(const Database& db, const DatabaseTableFile& file,
                        LevelStats* level, SequenceRange* range) {
  absl::StatusOr<std::shared_ptr<const Table>> table = db.OpenTable(file);
  if (!table.ok()) return table.status();
  ReadOptions read_options;
  read_options.fill_cache = false;
  absl::Status malformed;
  absl::Status status = (*table)->ForEachEntry(
      read_options, [&](std::string_view key, std::string_view, uint64_t) {
        ParsedInternalKey parsed;
        if (!ParseInternalKey(key, &parsed)) {
          malformed = absl::DataLossError(
              absl::StrCat(file.name, ": malformed internal key"));
          return false;
        }
        range->Add(parsed.sequence);
        if (parsed.type == ValueType::kDeletion) {
          ++level->deletions;
        } else {
          ++level->puts;
        }
        return true;
      });
  return status.ok() ? malformed : status;
}

class NoOpHandler final : public WriteBatchHandler {
 public:
  void Put(uint64_t, std::string_view, std::string_view) override {}
  void Delete(uint64_t, std::string_view) override {}
};

// The first problem of the log `name`: damage, or a record that is not a
// write batch; OK with `*records` set if it has none.
absl::Status CheckLog(const std::string& dir, const std::string& name,
                      uint64_t* records) {
  const std::string path = absl::StrCat(dir, "/", name);
  absl::StatusOr<OpenedLogFile> log = OpenLogFile(path);
  if (!log.ok()) return log.status();
  LogReader reader(log->file.get(), log->size);
  LogEntry entry;
  *records = 0;
  while (reader.Next(&entry)) {
    if (entry.kind == LogEntry::Kind::kDamage ||
        entry.kind == LogEntry::Kind::kEndOfLog) {
      return CorruptionAt(path, entry.offset, entry.reason);
    }
    if (entry.kind != LogEntry::Kind::kRecord) continue;
    NoOpHandler handler;
    absl::StatusOr<WriteBatchHeader> header =
        IterateWriteBatch(entry.payload, &handler);
    if (!header.ok()) {
      return CorruptionAt(
          path, entry.offset,
          absl::StrCat("not a write batch: ", header.status().message()));
    }
    *records += header->count;
  }
  return reader.status();
}

// The first key and last key of a live table agree with the MANIFEST.
absl::Status CheckKeyRange(const Database& db, const DatabaseTableFile& file) {
  absl::StatusOr<std::shared_ptr<const Table>> table = db.OpenTable(file);
  if (!table.ok()) return table.status();
  std::unique_ptr<Iterator> it = (*table)->NewIterator(ReadOptions());
  it->SeekToFirst();
  if (!it->Valid()) {
    return it->status().ok() ? absl::DataLossError("the table has no entry")
                             : it->status();
  }
  if (it->key() != file.smallest) {
    return absl::DataLossError(absl::StrCat(
        "first key ", DisplayKey(it->key(), true),
        " is not the MANIFEST's smallest, ", DisplayKey(file.smallest, true)));
  }
  it->SeekToLast();
  if (!it->Valid()) return it->status();
  if (it->key() != file.largest) {
    return absl::DataLossError(absl::StrCat(
        "last key ", DisplayKey(it->key(), true),
        " is not the MANIFEST's largest, ", DisplayKey(file.largest, true)));
  }
  return absl::OkStatus();
}

// Reads every entry of a live table (every block's checksum and
// structure), comparing no keys.
absl::Status ReadEveryEntry(const Database& db, const DatabaseTableFile& file) {
  absl::StatusOr<std::shared_ptr<const Table>> table = db.OpenTable(file);
  if (!table.ok()) return table.status();
  ReadOptions read_options;
  read_options.fill_cache = false;
  return (*table)->ForEachEntry(
      read_options,
      [](std::string_view, std::string_view, uint64_t) { return true; });
}

// Prints one verify line; returns the exit status it stands for.
int PrintVerdict(const std::string& path, const absl::Status& status,
                 std::string_view ok_note = "") {
  if (status.ok()) {
    absl::PrintF("%s: OK%s\n", path, ok_note);
    return kExitSuccess;
  }
  const int exit_status = ExitStatusFor(status);
  switch (exit_status) {
    case kExitDamaged:
      absl::PrintF("%s: CORRUPT at offset %d: %s\n", path,
                   CorruptionOffset(status).value_or(0),
                   DescribeProblem(path, status));
      break;
    case kExitUnsupported:
      absl::PrintF("%s: UNSUPPORTED: %s\n", path,
                   DescribeProblem(path, status));
      break;
    default:
      absl::PrintF("%s: ERROR: %s\n", path, DescribeProblem(path, status));
      break;
  }
  return exit_status;
}

}  // namespace

int RunDatabaseStats(const CommandLine& command_line) {
  const std::string& dir = command_line.args()[0];
  const bool json = absl::GetFlag(FLAGS_json);
  absl::StatusOr<std::unique_ptr<Database>> opened = OpenDatabaseForTool(dir);
  if (!opened.ok()) return ReportFileError(dir, opened.status());
  const Database& db = **opened;
  std::vector<LevelStats> levels(kNumLevels);
  SequenceRange range;
  absl::Status first_error;
  for (const DatabaseTableFile& file : db.tables()) {
    LevelStats& level = levels[file.level];
    ++level.files;
    level.bytes += file.size;
    absl::Status status = CountTable(db, file, &level, &range);
    if (first_error.ok() && !status.ok()) first_error = status;
  }
  uint64_t log_records = 0;
  for (const DatabaseLogFile& log : db.logs()) {
    log_records += log.records;
    if (log.records > 0) {
      range.Add(log.min_sequence);
      range.Add(log.max_sequence);
    }
  }

  if (json) {
    nlohmann::json level_docs = nlohmann::json::array();
    for (int i = 0; i < kNumLevels; ++i) {
      const LevelStats& level = levels[i];
      if (level.files == 0) continue;
      level_docs.push_back({{"level", i},
                            {"files", level.files},
                            {"bytes", level.bytes},
                            {"entries", level.puts + level.deletions},
                            {"puts", level.puts},
                            {"deletions", level.deletions}});
    }
    nlohmann::json log_docs = nlohmann::json::array();
    for (const DatabaseLogFile& log : db.logs()) {
      log_docs.push_back({{"file", log.name},
                          {"records", log.records},
                          {"damaged_ranges", log.damaged}});
    }
    nlohmann::json document = {{"database", dir},
                               {"manifest", db.manifest()},
                               {"comparator", db.comparator_name()},
                               {"last_sequence", db.last_sequence()},
                               {"levels", std::move(level_docs)},
                               {"logs", std::move(log_docs)},
                               {"log_records", log_records}};
    if (range.any) {
      document["sequences"] = {{"min", range.min}, {"max", range.max}};
    }
    if (!first_error.ok()) {
      document["error"] = std::string(first_error.message());
    }
    PrintJson(document);
  } else {
    absl::PrintF("database: %s\n", dir);
    absl::PrintF("manifest: %s\n", db.manifest());
    absl::PrintF("comparator: %s%s\n", db.comparator_name(),
                 db.ordered() ? "" : " (unknown: get and scan need it)");
    absl::PrintF("last sequence: %d\n", db.last_sequence());
    if (range.any) {
      absl::PrintF("sequences: %d to %d\n", range.min, range.max);
    }
    for (int i = 0; i < kNumLevels; ++i) {
      const LevelStats& level = levels[i];
      if (level.files == 0) continue;
      absl::PrintF(
          "level %d: %d files, %d bytes, %d entries (%d puts, %d deletions)\n",
          i, level.files, level.bytes, level.puts + level.deletions, level.puts,
          level.deletions);
    }
    for (const DatabaseLogFile& log : db.logs()) {
      absl::PrintF("log %s: %d records%s\n", log.name, log.records,
                   log.damaged > 0
                       ? absl::StrCat(", ", log.damaged, " damaged ranges")
                       : "");
    }
    absl::PrintF("log records: %d\n", log_records);
  }
  if (!first_error.ok()) return ReportDatabaseError(dir, db, first_error);
  return kExitSuccess;
}

int RunDatabaseVerify(const std::string& dir, const std::string& filters_dir) {
  // Every edit that can be read, so that the MANIFEST's first damage is
  // named on its own line whether or not the database opens.
  ReadVersionOptions version_options;
  version_options.skip_damaged_edits = true;
  absl::StatusOr<DatabaseVersion> version = ReadVersion(dir, version_options);
  if (!version.ok()) {
    absl::Status status = version.status();
    if (absl::IsNotFound(status)) {
      status = absl::DataLossError(absl::StrCat(
          "not a LevelDB database directory (no CURRENT and no MANIFEST-*)"));
    }
    return PrintVerdict(dir, status);
  }
  int worst = kExitSuccess;
  auto note = [&worst](int status) {
    // I/O errors outrank damage, which outranks unsupported files.
    auto rank = [](int s) {
      return s == kExitIoError ? 3 : s == kExitDamaged ? 2 : s == 0 ? 0 : 1;
    };
    if (rank(status) > rank(worst)) worst = status;
  };
  const std::string manifest_path =
      absl::StrCat(dir, "/", version->manifest_name);
  absl::Status manifest_status;
  if (!version->manifest.damage.empty()) {
    const LogEntry& damage = version->manifest.damage.front();
    manifest_status = CorruptionAt(manifest_path, damage.offset, damage.reason);
  }
  note(PrintVerdict(manifest_path, manifest_status));

  absl::StatusOr<std::unique_ptr<Database>> opened = OpenDatabaseForTool(dir);
  if (!opened.ok()) {
    note(PrintVerdict(dir, opened.status()));
    return worst;
  }
  const Database& db = **opened;
  for (const DatabaseTableFile& file : db.tables()) {
    const std::string path = absl::StrCat(dir, "/", file.name);
    absl::StatusOr<uint64_t> size = GetFileSize(path);
    absl::Status status;
    if (!size.ok()) {
      status = absl::IsNotFound(size.status())
                   ? absl::DataLossError(absl::StrCat(
                         path, ": table listed in the MANIFEST is missing"))
                   : size.status();
    } else if (*size != file.size) {
      status = absl::DataLossError(absl::StrCat(
          path, ": ", *size, " bytes, the MANIFEST records ", file.size));
    } else {
      if (db.ordered()) {
        status = VerifyFile(path, /*internal_keys=*/true, OpenRandomAccessFile)
                     .status;
      } else {
        // Key order needs the comparator: read every block (checksums,
        // structure) without comparing keys.
        status = ReadEveryEntry(db, file);
      }
      if (status.ok()) status = CheckKeyRange(db, file);
    }
    note(PrintVerdict(path, status));
  }
  for (const DatabaseLogFile& log : db.logs()) {
    const std::string path = absl::StrCat(dir, "/", log.name);
    uint64_t records = 0;
    const absl::Status status = CheckLog(dir, log.name, &records);
    note(PrintVerdict(path, status, absl::StrCat(" (", records, " records)")));
  }
  if (!filters_dir.empty()) note(VerifyDatabaseSidecars(dir, filters_dir, db));
  return worst;
}

int RunDatabaseDump(const CommandLine& command_line) {
  const std::string& dir = command_line.args()[0];
  OutputFormat format;
  if (!ReadOutputFormat("dump", &format)) return kExitUsage;
  absl::StatusOr<std::unique_ptr<Database>> opened = OpenDatabaseForTool(dir);
  if (!opened.ok()) return ReportFileError(dir, opened.status());
  const Database& db = **opened;
  if (format == OutputFormat::kJsonLines) {
    // A "database" line, then one line per table and per live log.
    PrintJsonLine("database", {{"database", dir},
                               {"manifest", db.manifest()},
                               {"comparator", db.comparator_name()},
                               {"last_sequence", db.last_sequence()},
                               {"warnings", db.warnings()}});
    for (const DatabaseTableFile& file : db.tables()) {
      PrintJsonLine("table", {{"level", file.level},
                              {"file", file.name},
                              {"number", file.number},
                              {"size", file.size},
                              {"smallest", KeyJson(file.smallest, true)},
                              {"largest", KeyJson(file.largest, true)}});
    }
    for (const DatabaseLogFile& log : db.logs()) {
      PrintJsonLine("log", {{"file", log.name},
                            {"records", log.records},
                            {"damaged_ranges", log.damaged}});
    }
    return kExitSuccess;
  }
  if (format == OutputFormat::kJson) {
    nlohmann::json tables = nlohmann::json::array();
    for (const DatabaseTableFile& file : db.tables()) {
      tables.push_back({{"level", file.level},
                        {"file", file.name},
                        {"number", file.number},
                        {"size", file.size},
                        {"smallest", KeyJson(file.smallest, true)},
                        {"largest", KeyJson(file.largest, true)}});
    }
    nlohmann::json logs = nlohmann::json::array();
    for (const DatabaseLogFile& log : db.logs()) {
      logs.push_back({{"file", log.name},
                      {"records", log.records},
                      {"damaged_ranges", log.damaged}});
    }
    PrintJson({{"database", dir},
               {"manifest", db.manifest()},
               {"comparator", db.comparator_name()},
               {"last_sequence", db.last_sequence()},
               {"tables", std::move(tables)},
               {"logs", std::move(logs)},
               {"warnings", db.warnings()}});
    return kExitSuccess;
  }
  absl::PrintF("database: %s\n", dir);
  absl::PrintF("manifest: %s\n", db.manifest());
  absl::PrintF("comparator: %s\n", db.comparator_name());
  absl::PrintF("last sequence: %d\n", db.last_sequence());
  int level = -1;
  for (const DatabaseTableFile& file : db.tables()) {
    if (file.level != level) {
      level = file.level;
      absl::PrintF("level %d:\n", level);
    }
    absl::PrintF("  %s  %d bytes  %s .. %s\n", file.name, file.size,
                 DisplayKey(file.smallest, true),
                 DisplayKey(file.largest, true));
  }
  for (const DatabaseLogFile& log : db.logs()) {
    absl::PrintF("log %s: %d records\n", log.name, log.records);
  }
  return kExitSuccess;
}

}  // namespace tool
}  // namespace bloomtable
