// Reading a MANIFEST and a database directory's version.

#include "bloomtable/db_version.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "bloomtable/db_files.h"
#include "table/corruption.h"
#include "util/file_errors.h"

namespace bloomtable {
namespace {

// The live files while edits are applied: per level, by number.
using LevelFiles = std::array<std::map<uint64_t, TableFileInfo>, kNumLevels>;

void Apply(const VersionEdit& edit, DbVersion* version, LevelFiles* files) {
  if (edit.comparator) version->comparator = *edit.comparator;
  if (edit.log_number) version->log_number = *edit.log_number;
  if (edit.prev_log_number) version->prev_log_number = *edit.prev_log_number;
  if (edit.next_file_number) {
    version->next_file_number = *edit.next_file_number;
  }
  if (edit.last_sequence) version->last_sequence = *edit.last_sequence;
  for (const VersionEdit::CompactionPointer& pointer :
       edit.compaction_pointers) {
    version->compaction_pointers[pointer.level] = pointer.key;
  }
  for (const VersionEdit::DeletedFile& deleted : edit.deleted_files) {
    (*files)[deleted.level].erase(deleted.number);
  }
  for (const VersionEdit::NewFile& added : edit.new_files) {
    (*files)[added.level][added.file.number] = added.file;
  }
}

// What LevelDB's recovery requires of the edits taken together.
absl::Status CheckComplete(const std::string& name,
                           const std::vector<ManifestEdit>& edits) {
  if (edits.empty()) {
    return absl::DataLossError(absl::StrCat(name, ": no version edit"));
  }
  bool log_number = false;
  bool next_file = false;
  bool last_sequence = false;
  for (const ManifestEdit& entry : edits) {
    log_number |= entry.edit.log_number.has_value();
    next_file |= entry.edit.next_file_number.has_value();
    last_sequence |= entry.edit.last_sequence.has_value();
  }
  std::vector<std::string> missing;
  if (!log_number) missing.push_back("no log number");
  if (!next_file) missing.push_back("no next file number");
  if (!last_sequence) missing.push_back("no last sequence");
  if (missing.empty()) return absl::OkStatus();
  return absl::DataLossError(absl::StrCat(
      name, ": incomplete version: ", absl::StrJoin(missing, ", ")));
}

bool FileContains(const std::filesystem::path& path, std::string_view text) {
  absl::StatusOr<std::string> contents = ReadFileToString(path.string());
  return contents.ok() && contents->find(text) != std::string::npos;
}

// Unimplemented for a directory another engine wrote, by the files only it
// writes; OK otherwise.
absl::Status CheckForeignDirectory(const std::string& dir,
                                   const std::vector<std::string>& names) {
  for (const std::string& name : names) {
    if (name.rfind("marker.", 0) == 0) {
      return absl::UnimplementedError(absl::StrCat(
          dir, ": a Pebble database (it has Pebble's marker file ", name,
          "): not supported; bloomtable reads LevelDB databases"));
    }
  }
  for (const std::string& name : names) {
    if (name.rfind("OPTIONS-", 0) != 0) continue;
    const std::filesystem::path path = std::filesystem::path(dir) / name;
    if (FileContains(path, "pebble_version")) {
      return absl::UnimplementedError(absl::StrCat(
          dir, ": a Pebble database (", name,
          " names pebble_version): not supported; bloomtable reads LevelDB "
          "databases"));
    }
    if (FileContains(path, "rocksdb_version")) {
      return absl::UnimplementedError(absl::StrCat(
          dir, ": a RocksDB database (", name,
          " names rocksdb_version): not supported; bloomtable reads LevelDB "
          "databases"));
    }
  }
  return absl::OkStatus();
}

// Where a directory holds no database but names one inside it: a
// Minecraft Bedrock world keeps its database in db/ beside level.dat.
// Empty if not.
std::string NestedDatabaseHint(const std::string& dir,
                               const std::vector<std::string>& names) {
  if (std::find(names.begin(), names.end(), "db") == names.end()) return "";
  std::error_code error;
  const std::filesystem::path inner = std::filesystem::path(dir) / "db";
  if (!std::filesystem::is_regular_file(inner / "CURRENT", error)) return "";
  const bool bedrock =
      std::find(names.begin(), names.end(), "level.dat") != names.end();
  return absl::StrCat("; the database is in db/",
                      bedrock ? " (a Minecraft Bedrock world)" : "", ": open ",
                      inner.string());
}

}  // namespace

bool DbVersion::IsLiveLog(uint64_t number) const {
  return number >= log_number ||
         (prev_log_number != 0 && number == prev_log_number);
}

absl::StatusOr<ManifestContents> ReadManifest(const RandomAccessFile& file,
                                              uint64_t file_size) {
  ManifestContents contents;
  LevelFiles files;
  LogReader reader(&file, file_size);
  LogEntry entry;
  // The first comparator an edit names: LevelDB refuses an edit naming
  // another (it checks each against the one it was opened with).
  std::optional<std::string> comparator;
  auto refuse = [&](LogEntry damage) {
    if (damage.leveldb_reports && contents.leveldb_status.ok()) {
      contents.leveldb_status =
          CorruptionAt(file.name(), damage.offset, damage.reason);
    }
    contents.damage.push_back(std::move(damage));
  };
  while (reader.Next(&entry)) {
    if (entry.kind == LogEntry::Kind::kPadding) continue;
    if (entry.kind != LogEntry::Kind::kRecord) {
      refuse(std::move(entry));
      continue;
    }
    ManifestEdit edit;
    edit.offset = entry.offset;
    edit.length = entry.length;
    const absl::Status decoded = edit.edit.DecodeFrom(entry.payload);
    if (absl::IsUnimplemented(decoded)) {
      return absl::UnimplementedError(
          absl::StrCat(file.name(), ": record at offset ", entry.offset, ": ",
                       decoded.message()));
    }
    entry.kind = LogEntry::Kind::kDamage;
    entry.leveldb_reports = true;
    if (!decoded.ok()) {
      entry.reason = absl::StrCat("not a version edit: ", decoded.message());
      refuse(std::move(entry));
      continue;
    }
    if (edit.edit.comparator) {
      if (comparator && *comparator != *edit.edit.comparator) {
        entry.reason =
            absl::StrCat("edit names comparator '", *edit.edit.comparator,
                         "', an earlier edit '", *comparator, "'");
        refuse(std::move(entry));
        continue;
      }
      comparator = edit.edit.comparator;
    }
    Apply(edit.edit, &contents.version, &files);
    contents.edits.push_back(std::move(edit));
  }
  if (!reader.status().ok()) return reader.status();
  contents.accounting = reader.accounting();
  for (int level = 0; level < kNumLevels; ++level) {
    for (auto& [number, info] : files[level]) {
      contents.version.files[level].push_back(std::move(info));
    }
  }
  contents.version_status = CheckComplete(file.name(), contents.edits);
  return contents;
}

absl::StatusOr<DatabaseVersion> ReadVersion(const std::string& dir,
                                            const ReadVersionOptions& options) {
  namespace fs = std::filesystem;
  std::error_code error;
  fs::directory_iterator it(dir, error);
  if (error) {
    // With its errno (ENOENT is NotFound, ENOTDIR FailedPrecondition), so
    // that a caller tells a missing directory from a missing key.
    if (error.category() == std::generic_category() ||
        error.category() == std::system_category()) {
      return FileError(dir, "list directory", error.value());
    }
    return absl::UnavailableError(absl::StrCat(dir, ": ", error.message()));
  }
  std::vector<std::string> names;
  for (; it != fs::directory_iterator(); it.increment(error)) {
    names.push_back(it->path().filename().string());
  }
  if (error) {
    return absl::UnavailableError(absl::StrCat(dir, ": ", error.message()));
  }
  std::sort(names.begin(), names.end());
  if (absl::Status foreign = CheckForeignDirectory(dir, names); !foreign.ok()) {
    return foreign;
  }

  std::vector<uint64_t> manifests;
  std::vector<uint64_t> logs;
  std::map<uint64_t, std::string> tables;
  bool has_current = false;
  for (const std::string& name : names) {
    const std::optional<DbFileName> parsed = ParseDbFileName(name);
    if (!parsed) continue;
    switch (parsed->type) {
      case DbFileType::kManifest:
        manifests.push_back(parsed->number);
        break;
      case DbFileType::kLog:
        logs.push_back(parsed->number);
        break;
      case DbFileType::kTable: {
        // When both names are there, the .ldb one, as LevelDB opens it
        // first.
        auto [where, inserted] = tables.emplace(parsed->number, name);
        if (!inserted && name.size() > 4 &&
            name.substr(name.size() - 4) == ".ldb") {
          where->second = name;
        }
        break;
      }
      case DbFileType::kCurrent:
        has_current = true;
        break;
      default:
        break;
    }
  }
  std::sort(manifests.begin(), manifests.end());
  std::sort(logs.begin(), logs.end());

  DatabaseVersion result;
  const fs::path base(dir);
  if (!has_current) {
    result.current = CurrentFileState::kMissing;
  } else {
    absl::StatusOr<std::string> current =
        ReadFileToString((base / "CURRENT").string());
    if (!current.ok()) return current.status();
    result.current_contents = *current;
    std::string_view named = *current;
    std::optional<DbFileName> parsed;
    if (!named.empty() && named.back() == '\n') {
      named.remove_suffix(1);
      parsed = ParseDbFileName(named);
    }
    if (!parsed || parsed->type != DbFileType::kManifest) {
      result.current = CurrentFileState::kMalformed;
    } else if (std::find(manifests.begin(), manifests.end(), parsed->number) ==
               manifests.end()) {
      result.current = CurrentFileState::kNamesMissingFile;
    } else {
      result.manifest_name = std::string(named);
    }
    if (!result.current_contents.empty() &&
        result.current_contents.back() == '\n') {
      result.current_contents.pop_back();
    }
  }
  if (result.manifest_name.empty()) {
    if (manifests.empty()) {
      return absl::NotFoundError(absl::StrCat(
          dir,
          has_current ? ": CURRENT names no MANIFEST that is there, and there "
                        "is no MANIFEST-* file"
                      : ": no CURRENT and no MANIFEST-* file: not a LevelDB "
                        "database",
          NestedDatabaseHint(dir, names)));
    }
    result.manifest_name = ManifestFileName(manifests.back());
    // The name as it is in the directory (it may have other digits).
    for (const std::string& name : names) {
      const std::optional<DbFileName> parsed = ParseDbFileName(name);
      if (parsed && parsed->type == DbFileType::kManifest &&
          parsed->number == manifests.back()) {
        result.manifest_name = name;
      }
    }
  }

  const std::string manifest_path = (base / result.manifest_name).string();
  absl::StatusOr<OpenedLogFile> log = OpenLogFile(manifest_path);
  if (!log.ok()) return log.status();
  absl::StatusOr<ManifestContents> manifest =
      ReadManifest(*log->file, log->size);
  if (!manifest.ok()) return manifest.status();
  if (!options.skip_damaged_edits && !manifest->leveldb_status.ok()) {
    return manifest->leveldb_status;
  }
  if (!manifest->version_status.ok()) return manifest->version_status;
  result.manifest = *std::move(manifest);

  const DbVersion& version = result.manifest.version;
  for (uint64_t number : logs) {
    if (version.IsLiveLog(number)) result.live_logs.push_back(number);
  }
  std::vector<uint64_t> missing;
  for (const std::vector<TableFileInfo>& level : version.files) {
    for (const TableFileInfo& info : level) {
      auto found = tables.find(info.number);
      if (found == tables.end()) {
        missing.push_back(info.number);
      } else {
        result.table_files[info.number] = found->second;
      }
    }
  }
  std::sort(missing.begin(), missing.end());
  missing.erase(std::unique(missing.begin(), missing.end()), missing.end());
  result.missing_tables = std::move(missing);
  return result;
}

}  // namespace bloomtable
