// Log and MANIFEST dumps: the library's readers do the reading; this file
// only words what they return.

#include "tools/log_dump.h"

#include <cstdio>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "bloomtable/db_version.h"
#include "bloomtable/log_reader.h"
#include "bloomtable/version_edit.h"
#include "bloomtable/write_batch.h"
#include "nlohmann/json.hpp"
#include "tools/exit_status.h"
#include "tools/output_format.h"
#include "tools/tool_errors.h"

namespace bloomtable {
namespace tool {
namespace {

// The status the dump ends with: a read error over damage over
// unsupported content, as `verify` ranks them; the first of each kind.
class Outcome {
 public:
  void Add(const absl::Status& status) {
    if (status.ok()) return;
    if (Rank(status) > Rank(status_)) status_ = status;
  }
  const absl::Status& status() const { return status_; }

 private:
  static int Rank(const absl::Status& status) {
    if (status.ok()) return 0;
    switch (ExitStatusFor(status)) {
      case kExitUnsupported:
        return 1;
      case kExitDamaged:
        return 2;
      default:
        return 3;
    }
  }
  absl::Status status_;
};

absl::Status DamageStatus(const LogAccounting& totals, const LogEntry& first) {
  if (first.kind == LogEntry::Kind::kEndOfLog) {
    return absl::DataLossError(absl::StrFormat("at offset %d: %s (%d bytes)",
                                               first.offset, first.reason,
                                               first.length));
  }
  return absl::DataLossError(absl::StrFormat(
      "%d damaged range%s (%d bytes), the first at offset %d: %s",
      totals.damaged_ranges, totals.damaged_ranges == 1 ? "" : "s",
      totals.damaged_bytes, first.offset, first.reason));
}

std::string_view KindName(LogEntry::Kind kind) {
  switch (kind) {
    case LogEntry::Kind::kRecord:
      return "record";
    case LogEntry::Kind::kPadding:
      return "padding";
    case LogEntry::Kind::kDamage:
      return "damage";
    case LogEntry::Kind::kEndOfLog:
      return "end_of_log";
  }
  return "unknown";
}

std::string Plural(uint64_t n, const char* one, const char* many) {
  return absl::StrCat(n, " ", n == 1 ? one : many);
}

void PrintTotals(const LogAccounting& totals) {
  absl::PrintF(
      "records: %d (%d bytes), padding: %d bytes, damaged: %s (%d bytes)\n",
      totals.records, totals.record_bytes, totals.padding_bytes,
      Plural(totals.damaged_ranges, "range", "ranges"), totals.damaged_bytes);
  if (totals.unread_bytes > 0) {
    absl::PrintF("not read, from LevelDB's end-of-file marker on: %d bytes\n",
                 totals.unread_bytes);
  }
}

nlohmann::json TotalsJson(const LogAccounting& totals) {
  return {{"records", totals.records},
          {"record_bytes", totals.record_bytes},
          {"padding_bytes", totals.padding_bytes},
          {"damaged_ranges", totals.damaged_ranges},
          {"damaged_bytes", totals.damaged_bytes},
          {"unread_bytes", totals.unread_bytes}};
}

nlohmann::json StretchJson(const LogEntry& entry) {
  nlohmann::json json = {{"kind", KindName(entry.kind)},
                         {"offset", entry.offset},
                         {"length", entry.length}};
  if (entry.kind == LogEntry::Kind::kRecord) {
    json["fragments"] = entry.fragments;
  }
  if (entry.kind == LogEntry::Kind::kDamage ||
      entry.kind == LogEntry::Kind::kEndOfLog) {
    json["reason"] = entry.reason;
  }
  if (entry.kind == LogEntry::Kind::kDamage) {
    json["leveldb_reports"] = entry.leveldb_reports;
  }
  return json;
}

void PrintStretch(const LogEntry& entry) {
  switch (entry.kind) {
    case LogEntry::Kind::kPadding:
      absl::PrintF("padding at offset %d, length %d\n", entry.offset,
                   entry.length);
      break;
    case LogEntry::Kind::kDamage:
      absl::PrintF("damage at offset %d, length %d: %s\n", entry.offset,
                   entry.length, entry.reason);
      break;
    case LogEntry::Kind::kEndOfLog:
      absl::PrintF("end of log at offset %d, length %d: %s\n", entry.offset,
                   entry.length, entry.reason);
      break;
    case LogEntry::Kind::kRecord:
      break;
  }
}

int DumpWriteAheadLog(const std::string& path, const RandomAccessFile& file,
                      uint64_t file_size, bool json) {
  Outcome outcome;
  nlohmann::json document;
  if (json) {
    document["file"] = path;
    document["file_size"] = file_size;
    document["kind"] = "log";
    document["entries"] = nlohmann::json::array();
  } else {
    absl::PrintF("file: %s (%d bytes)\nkind: write-ahead log\n", path,
                 file_size);
  }
  LogReader reader(&file, file_size);
  LogEntry entry;
  std::optional<LogEntry> first_damage;
  uint64_t batches = 0;
  uint64_t puts = 0;
  uint64_t deletes = 0;
  while (reader.Next(&entry)) {
    nlohmann::json entry_json;
    if (json) entry_json = StretchJson(entry);
    if ((entry.kind == LogEntry::Kind::kDamage ||
         entry.kind == LogEntry::Kind::kEndOfLog) &&
        !first_damage) {
      first_damage = entry;
    }
    if (entry.kind != LogEntry::Kind::kRecord) {
      if (json) {
        document["entries"].push_back(std::move(entry_json));
      } else {
        PrintStretch(entry);
      }
      continue;
    }
    absl::StatusOr<DecodedWriteBatch> batch = DecodeWriteBatch(entry.payload);
    if (!batch.ok()) {
      const absl::Status error = absl::Status(
          batch.status().code(), absl::StrCat("record at offset ", entry.offset,
                                              ": ", batch.status().message()));
      outcome.Add(error);
      if (json) {
        entry_json["error"] = std::string(batch.status().message());
        document["entries"].push_back(std::move(entry_json));
      } else {
        absl::PrintF("record at offset %d, length %d: %s\n", entry.offset,
                     entry.length, batch.status().message());
      }
      continue;
    }
    ++batches;
    if (json) {
      entry_json["sequence"] = batch->sequence;
      entry_json["count"] = batch->count;
      entry_json["ops"] = nlohmann::json::array();
    } else {
      absl::PrintF(
          "record at offset %d, length %d, %s: sequence %d, count %d\n",
          entry.offset, entry.length,
          Plural(entry.fragments, "fragment", "fragments"), batch->sequence,
          batch->count);
    }
    for (const WriteOp& op : batch->ops) {
      const bool put = op.type == WriteOpType::kPut;
      (put ? puts : deletes)++;
      if (json) {
        nlohmann::json op_json = {{"type", put ? "put" : "del"},
                                  {"sequence", op.sequence},
                                  {"key", BytesJson(op.key)}};
        if (put) op_json["value"] = BytesJson(op.value);
        entry_json["ops"].push_back(std::move(op_json));
      } else if (put) {
        absl::PrintF("  put %d %s => %s\n", op.sequence,
                     DisplayKey(op.key, false), DisplayKey(op.value, false));
      } else {
        absl::PrintF("  del %d %s\n", op.sequence, DisplayKey(op.key, false));
      }
    }
    if (json) document["entries"].push_back(std::move(entry_json));
  }
  outcome.Add(reader.status());
  if (first_damage)
    outcome.Add(DamageStatus(reader.accounting(), *first_damage));
  if (json) {
    document["summary"] = TotalsJson(reader.accounting());
    document["summary"]["batches"] = batches;
    document["summary"]["puts"] = puts;
    document["summary"]["dels"] = deletes;
    if (!outcome.status().ok()) {
      document["error"] = ErrorJson(path, outcome.status());
    }
    PrintJson(document);
  } else {
    PrintTotals(reader.accounting());
    absl::PrintF("batches: %d, puts: %d, dels: %d\n", batches, puts, deletes);
  }
  if (outcome.status().ok()) return kExitSuccess;
  std::fflush(stdout);
  return ReportFileError(path, outcome.status());
}

void PrintTableFile(const char* indent, const TableFileInfo& file) {
  absl::PrintF("%sfile %d, %d bytes, %s .. %s\n", indent, file.number,
               file.size, DisplayKey(file.smallest, true),
               DisplayKey(file.largest, true));
}

void PrintEdit(const ManifestEdit& entry) {
  const VersionEdit& edit = entry.edit;
  absl::PrintF("edit at offset %d, length %d\n", entry.offset, entry.length);
  if (edit.comparator) {
    absl::PrintF("  comparator: %s\n", DisplayKey(*edit.comparator, false));
  }
  if (edit.log_number) absl::PrintF("  log number: %d\n", *edit.log_number);
  if (edit.prev_log_number) {
    absl::PrintF("  previous log number: %d\n", *edit.prev_log_number);
  }
  if (edit.next_file_number) {
    absl::PrintF("  next file number: %d\n", *edit.next_file_number);
  }
  if (edit.last_sequence) {
    absl::PrintF("  last sequence: %d\n", *edit.last_sequence);
  }
  for (const VersionEdit::CompactionPointer& pointer :
       edit.compaction_pointers) {
    absl::PrintF("  compaction pointer: level %d %s\n", pointer.level,
                 DisplayKey(pointer.key, true));
  }
  for (const VersionEdit::DeletedFile& deleted : edit.deleted_files) {
    absl::PrintF("  deleted file: level %d, file %d\n", deleted.level,
                 deleted.number);
  }
  for (const VersionEdit::NewFile& added : edit.new_files) {
    absl::PrintF("  new file: level %d, ", added.level);
    PrintTableFile("", added.file);
  }
}

nlohmann::json TableFileJson(const TableFileInfo& file) {
  return {{"number", file.number},
          {"size", file.size},
          {"smallest", KeyJson(file.smallest, true)},
          {"largest", KeyJson(file.largest, true)}};
}

nlohmann::json EditJson(const ManifestEdit& entry) {
  const VersionEdit& edit = entry.edit;
  nlohmann::json json = {
      {"kind", "edit"}, {"offset", entry.offset}, {"length", entry.length}};
  if (edit.comparator) json["comparator"] = BytesJson(*edit.comparator);
  if (edit.log_number) json["log_number"] = *edit.log_number;
  if (edit.prev_log_number) json["prev_log_number"] = *edit.prev_log_number;
  if (edit.next_file_number) {
    json["next_file_number"] = *edit.next_file_number;
  }
  if (edit.last_sequence) json["last_sequence"] = *edit.last_sequence;
  json["compaction_pointers"] = nlohmann::json::array();
  for (const VersionEdit::CompactionPointer& pointer :
       edit.compaction_pointers) {
    json["compaction_pointers"].push_back(
        {{"level", pointer.level}, {"key", KeyJson(pointer.key, true)}});
  }
  json["deleted_files"] = nlohmann::json::array();
  for (const VersionEdit::DeletedFile& deleted : edit.deleted_files) {
    json["deleted_files"].push_back(
        {{"level", deleted.level}, {"number", deleted.number}});
  }
  json["new_files"] = nlohmann::json::array();
  for (const VersionEdit::NewFile& added : edit.new_files) {
    nlohmann::json file = TableFileJson(added.file);
    file["level"] = added.level;
    json["new_files"].push_back(std::move(file));
  }
  return json;
}

void PrintVersion(const DbVersion& version) {
  absl::PrintF("version:\n");
  absl::PrintF("  comparator: %s\n", DisplayKey(version.comparator, false));
  absl::PrintF(
      "  log number: %d, previous log number: %d, next file number: %d, "
      "last sequence: %d\n",
      version.log_number, version.prev_log_number, version.next_file_number,
      version.last_sequence);
  for (int level = 0; level < kNumLevels; ++level) {
    const std::vector<TableFileInfo>& files = version.files[level];
    if (files.empty()) continue;
    uint64_t bytes = 0;
    for (const TableFileInfo& file : files) bytes += file.size;
    absl::PrintF("  level %d: %s, %d bytes\n", level,
                 Plural(files.size(), "file", "files"), bytes);
    for (const TableFileInfo& file : files) PrintTableFile("    ", file);
  }
  for (int level = 0; level < kNumLevels; ++level) {
    if (version.compaction_pointers[level].empty()) continue;
    absl::PrintF("  compaction pointer: level %d %s\n", level,
                 DisplayKey(version.compaction_pointers[level], true));
  }
}

nlohmann::json VersionJson(const DbVersion& version) {
  nlohmann::json json = {{"comparator", BytesJson(version.comparator)},
                         {"log_number", version.log_number},
                         {"prev_log_number", version.prev_log_number},
                         {"next_file_number", version.next_file_number},
                         {"last_sequence", version.last_sequence}};
  json["levels"] = nlohmann::json::array();
  json["compaction_pointers"] = nlohmann::json::array();
  for (int level = 0; level < kNumLevels; ++level) {
    nlohmann::json files = nlohmann::json::array();
    for (const TableFileInfo& file : version.files[level]) {
      files.push_back(TableFileJson(file));
    }
    json["levels"].push_back({{"level", level}, {"files", std::move(files)}});
    if (!version.compaction_pointers[level].empty()) {
      json["compaction_pointers"].push_back(
          {{"level", level},
           {"key", KeyJson(version.compaction_pointers[level], true)}});
    }
  }
  return json;
}

int DumpManifest(const std::string& path, const RandomAccessFile& file,
                 uint64_t file_size, bool json) {
  absl::StatusOr<ManifestContents> contents = ReadManifest(file, file_size);
  if (!contents.ok()) {
    if (json) PrintJson(FileErrorJson(path, contents.status()));
    return ReportFileError(path, contents.status());
  }
  Outcome outcome;
  if (!contents->damage.empty()) {
    outcome.Add(DamageStatus(contents->accounting, contents->damage.front()));
  }
  outcome.Add(contents->version_status);
  // Edits and damage in file order.
  size_t next_damage = 0;
  auto damage_before = [&](uint64_t offset) {
    return next_damage < contents->damage.size() &&
           contents->damage[next_damage].offset < offset;
  };
  if (json) {
    nlohmann::json document = {
        {"file", path}, {"file_size", file_size}, {"kind", "manifest"}};
    document["entries"] = nlohmann::json::array();
    for (const ManifestEdit& edit : contents->edits) {
      while (damage_before(edit.offset)) {
        document["entries"].push_back(
            StretchJson(contents->damage[next_damage++]));
      }
      document["entries"].push_back(EditJson(edit));
    }
    while (next_damage < contents->damage.size()) {
      document["entries"].push_back(
          StretchJson(contents->damage[next_damage++]));
    }
    document["summary"] = TotalsJson(contents->accounting);
    document["summary"]["edits"] = contents->edits.size();
    document["version"] = VersionJson(contents->version);
    if (!outcome.status().ok()) {
      document["error"] = ErrorJson(path, outcome.status());
    }
    PrintJson(document);
  } else {
    absl::PrintF("file: %s (%d bytes)\nkind: MANIFEST\n", path, file_size);
    for (const ManifestEdit& edit : contents->edits) {
      while (damage_before(edit.offset)) {
        PrintStretch(contents->damage[next_damage++]);
      }
      PrintEdit(edit);
    }
    while (next_damage < contents->damage.size()) {
      PrintStretch(contents->damage[next_damage++]);
    }
    PrintTotals(contents->accounting);
    absl::PrintF("edits: %d\n", contents->edits.size());
    PrintVersion(contents->version);
  }
  if (outcome.status().ok()) return kExitSuccess;
  std::fflush(stdout);
  return ReportFileError(path, outcome.status());
}

}  // namespace

int DumpLogFile(const std::string& path, const RandomAccessFile& file,
                uint64_t file_size, LogContents kind, bool json) {
  if (kind == LogContents::kManifest) {
    return DumpManifest(path, file, file_size, json);
  }
  return DumpWriteAheadLog(path, file, file_size, json);
}

}  // namespace tool
}  // namespace bloomtable
