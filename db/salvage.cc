#include "db/salvage.h"

#include <filesystem>
#include <functional>
#include <optional>
#include <system_error>
#include <utility>

#include "absl/strings/str_cat.h"
#include "bloomtable/db_files.h"
#include "bloomtable/log_reader.h"
#include "bloomtable/write_batch.h"
#include "table/internal_key.h"
#include "table/table_salvage.h"
#include "util/posix_file.h"

namespace bloomtable {
namespace {

// Reads a table file past its damage, calling `add` for each entry.
void ReadTable(const std::string& dir, const std::string& name,
               const std::function<void(const ParsedInternalKey& key,
                                        std::string_view value,
                                        uint64_t block_offset)>& add,
               std::vector<std::string>* warnings, uint64_t* events) {
  absl::StatusOr<SizedRandomAccessFile> file =
      OpenSizedRandomAccessFile(absl::StrCat(dir, "/", name));
  if (!file.ok()) {
    warnings->push_back(absl::StrCat(
        name, ": could not be read, skipped: ", file.status().message()));
    ++*events;
    return;
  }
  std::vector<std::string> problems;
  const absl::Status read = SalvageTable(
      *file->file, file->size, TableSalvageOptions(),
      [&add](std::string_view key, std::string_view value, uint64_t offset) {
        ParsedInternalKey parsed;
        if (ParseInternalKey(key, &parsed)) add(parsed, value, offset);
      },
      &problems);
  for (const std::string& problem : problems) {
    warnings->push_back(absl::StrCat(name, ": ", problem));
    ++*events;
  }
  if (!read.ok()) {
    warnings->push_back(
        absl::StrCat(name, ": could not be read, skipped: ", read.message()));
    ++*events;
  }
}

}  // namespace

void LeftoverRecordCollector::Put(uint64_t sequence, std::string_view key,
                                  std::string_view value) {
  Add(sequence, key, false, value);
}

void LeftoverRecordCollector::Delete(uint64_t sequence, std::string_view key) {
  Add(sequence, key, true, {});
}

void LeftoverRecordCollector::Add(uint64_t sequence, std::string_view key,
                                  bool deletion, std::string_view value) {
  if (sequence > snapshot_) return;
  VersionRecord record;
  record.user_key.assign(key);
  record.sequence = sequence;
  record.deletion = deletion;
  record.value.assign(value);
  record.file = file_;
  record.offset = offset_;
  record.status = RecordStatus::kLeftover;
  out_->push_back(std::move(record));
}

LeftoverFiles FindLeftoverFiles(const std::string& dir,
                                const std::set<uint64_t>& live_tables,
                                const std::set<uint64_t>& live_logs) {
  LeftoverFiles files;
  std::error_code error;
  for (std::filesystem::directory_iterator it(dir, error), end;
       !error && it != end; it.increment(error)) {
    const std::string name = it->path().filename().string();
    std::optional<DbFileName> parsed = ParseDbFileName(name);
    if (!parsed.has_value()) continue;
    if (parsed->type == DbFileType::kTable &&
        live_tables.count(parsed->number) == 0) {
      files.tables.emplace(parsed->number, name);
    } else if (parsed->type == DbFileType::kLog &&
               live_logs.count(parsed->number) == 0) {
      files.logs.emplace(parsed->number, name);
    }
  }
  return files;
}

DatabaseVersion VersionFromDirectory(const std::string& dir,
                                     const Comparator* comparator) {
  DatabaseVersion version;
  version.manifest_name = "(no MANIFEST gives a version)";
  version.current = CurrentFileState::kValid;
  if (comparator != nullptr) {
    version.manifest.version.comparator = std::string(comparator->Name());
  }
  const LeftoverFiles files = FindLeftoverFiles(dir, {}, {});
  for (const auto& [number, name] : files.tables) {
    TableFileInfo info;
    info.number = number;
    std::error_code error;
    const uintmax_t size =
        std::filesystem::file_size(absl::StrCat(dir, "/", name), error);
    info.size = error ? 0 : static_cast<uint64_t>(size);
    version.manifest.version.files[0].push_back(info);
    version.table_files.emplace(number, name);
  }
  for (const auto& [number, name] : files.logs) {
    version.live_logs.push_back(number);
  }
  return version;
}

void SalvageTableInto(const std::string& dir, const std::string& name,
                      LogView* view, std::vector<std::string>* warnings,
                      uint64_t* events) {
  const uint32_t source = view->AddSource(name);
  ReadTable(
      dir, name,
      [view, source](const ParsedInternalKey& key, std::string_view value,
                     uint64_t offset) {
        view->Add(key.user_key, key.sequence, key.type, value, source, offset);
      },
      warnings, events);
}

void SalvageLeftovers(const std::string& dir, const LeftoverFiles& files,
                      std::vector<VersionRecord>* records,
                      std::vector<std::string>* warnings, uint64_t* events) {
  for (const auto& [number, name] : files.logs) {
    absl::StatusOr<OpenedLogFile> log =
        OpenLogFile(absl::StrCat(dir, "/", name));
    if (!log.ok()) {
      warnings->push_back(absl::StrCat(
          name, ": could not be read, skipped: ", log.status().message()));
      ++*events;
      continue;
    }
    LogReader::Options options;
    options.salvage = true;
    LogReader reader(log->file.get(), log->size, options);
    LogEntry entry;
    while (reader.Next(&entry)) {
      if (entry.kind == LogEntry::Kind::kDamage) {
        warnings->push_back(absl::StrCat(
            name, ": at offset ", entry.offset, ": damaged bytes skipped (",
            entry.length, " bytes): ", entry.reason));
        ++*events;
      }
      if (entry.kind != LogEntry::Kind::kRecord) continue;
      LeftoverRecordCollector collector(records, name, entry.offset,
                                        kMaxSequenceNumber);
      (void)ReplayWriteBatch(entry.payload, &collector);
    }
  }
  for (const auto& table : files.tables) {
    const std::string& name = table.second;
    ReadTable(
        dir, name,
        [records, &name](const ParsedInternalKey& key, std::string_view value,
                         uint64_t offset) {
          VersionRecord record;
          record.user_key.assign(key.user_key);
          record.sequence = key.sequence;
          record.deletion = key.type == ValueType::kDeletion;
          if (!record.deletion) record.value.assign(value);
          record.file = name;
          record.offset = offset;
          record.status = RecordStatus::kLeftover;
          records->push_back(std::move(record));
        },
        warnings, events);
  }
}

}  // namespace bloomtable
