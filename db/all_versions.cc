// Database::ListVersions: every version of every key, from the log view,
// the live tables and (when asked) the leftover files, each given a status
// by comparing it with the next newer version of the same key.

#include <algorithm>
#include <map>
#include <numeric>
#include <set>

#include "absl/strings/str_cat.h"
#include "bloomtable/database.h"
#include "bloomtable/db_files.h"
#include "bloomtable/log_reader.h"
#include "bloomtable/write_batch.h"
#include "db/database_rep.h"
#include "db/salvage.h"

namespace bloomtable {
namespace {

// Appends the entries of `table` (from file `name`) to `out`.
absl::Status CollectTable(const Table& table, const std::string& name,
                          uint64_t snapshot, RecordStatus status,
                          std::vector<VersionRecord>* out) {
  ReadOptions read_options;
  read_options.fill_cache = false;
  absl::Status malformed;
  absl::Status status_of_walk = table.ForEachEntry(
      read_options,
      [&](std::string_view key, std::string_view value, uint64_t offset) {
        ParsedInternalKey parsed;
        if (!ParseInternalKey(key, &parsed)) {
          malformed = absl::DataLossError(absl::StrCat(
              name, ": malformed internal key in the data block at offset ",
              offset));
          return false;
        }
        if (parsed.sequence > snapshot) return true;
        VersionRecord record;
        record.user_key.assign(parsed.user_key);
        record.sequence = parsed.sequence;
        record.deletion = parsed.type == ValueType::kDeletion;
        if (!record.deletion) record.value.assign(value);
        record.file = name;
        record.offset = offset;
        record.status = status;
        out->push_back(std::move(record));
        return true;
      });
  if (!status_of_walk.ok()) return status_of_walk;
  return malformed;
}

// Appends the records of the log `name` in `dir` as leftovers.
absl::Status CollectLeftoverLog(const std::string& dir, const std::string& name,
                                uint64_t snapshot,
                                std::vector<VersionRecord>* out) {
  const std::string path = absl::StrCat(dir, "/", name);
  absl::StatusOr<OpenedLogFile> log = OpenLogFile(path);
  if (!log.ok()) return log.status();
  LogReader reader(log->file.get(), log->size);
  LogEntry entry;
  while (reader.NextRecord(&entry)) {
    LeftoverRecordCollector collector(out, name, entry.offset, snapshot);
    // A record that is not a whole write batch gives nothing.
    (void)IterateWriteBatch(entry.payload, &collector);
  }
  return reader.status();
}

// Sets the status of every non-leftover record: grouped by user key (equal
// bytes), newest first.
void AssignStatuses(std::vector<VersionRecord>* records) {
  std::vector<size_t> order(records->size());
  std::iota(order.begin(), order.end(), 0);
  const std::vector<VersionRecord>& r = *records;
  std::stable_sort(order.begin(), order.end(), [&r](size_t a, size_t b) {
    if (r[a].user_key != r[b].user_key) return r[a].user_key < r[b].user_key;
    return r[a].sequence > r[b].sequence;
  });
  const VersionRecord* newer = nullptr;
  for (size_t index : order) {
    VersionRecord& record = (*records)[index];
    if (record.status == RecordStatus::kLeftover ||
        record.status == RecordStatus::kRecovered) {
      continue;
    }
    if (newer == nullptr || newer->user_key != record.user_key) {
      record.status =
          record.deletion ? RecordStatus::kDeleted : RecordStatus::kLive;
    } else {
      record.status =
          newer->deletion ? RecordStatus::kDeleted : RecordStatus::kOverwritten;
    }
    newer = &record;
  }
}

}  // namespace

absl::Status Database::ListVersions(
    const DatabaseReadOptions& read_options,
    const std::function<bool(const VersionRecord&)>& visit) const {
  const Rep& r = *rep_;
  const uint64_t snapshot = r.Snapshot(read_options);
  std::vector<VersionRecord> records;
  absl::Status first_error;
  auto note = [&first_error](const absl::Status& status) {
    if (first_error.ok() && !status.ok()) first_error = status;
  };

  // The live logs, in the order they were read (the view keeps it when it
  // has no comparator; else the records are sorted, which is fine: the
  // final order is decided below).
  for (const LogView::Record& record : r.log_view.records()) {
    ParsedInternalKey parsed;
    if (!ParseInternalKey(record.internal_key, &parsed)) continue;
    if (parsed.sequence > snapshot) continue;
    VersionRecord out;
    out.user_key.assign(parsed.user_key);
    out.sequence = parsed.sequence;
    out.deletion = parsed.type == ValueType::kDeletion;
    out.value = record.value;
    out.file = r.log_view.sources()[record.source];
    out.offset = record.offset;
    if (record.recovered) out.status = RecordStatus::kRecovered;
    records.push_back(std::move(out));
  }
  if (r.tables_in_memory && r.options.read_leftovers) {
    // Salvage read the tables into the log view, and the leftovers at open.
    for (const VersionRecord& record : r.leftover_records) {
      if (record.sequence <= snapshot) records.push_back(record);
    }
  }
  for (size_t i = 0; i < r.all_tables.size() && !r.tables_in_memory; ++i) {
    const DatabaseTableFile& file = r.all_tables[i];
    absl::StatusOr<std::shared_ptr<const Table>> table = r.tables.Open(file);
    if (!table.ok()) {
      note(table.status());
      continue;
    }
    note(CollectTable(**table, file.name, snapshot, RecordStatus::kLive,
                      &records));
  }
  if (r.options.read_leftovers && !r.tables_in_memory) {
    std::set<uint64_t> live_tables;
    for (const DatabaseTableFile& file : r.all_tables) {
      live_tables.insert(file.number);
    }
    std::set<uint64_t> live_logs;
    for (const DatabaseLogFile& log : r.logs) live_logs.insert(log.number);
    const LeftoverFiles leftovers =
        FindLeftoverFiles(r.dir, live_tables, live_logs);
    for (const auto& [number, name] : leftovers.logs) {
      note(CollectLeftoverLog(r.dir, name, snapshot, &records));
    }
    for (const auto& [number, name] : leftovers.tables) {
      absl::StatusOr<std::shared_ptr<const Table>> table =
          r.tables.OpenUnlisted(name);
      // A leftover that does not open as a table is skipped: LevelDB leaves
      // the unfinished output of a compaction behind when it closes during
      // one, and that file is no part of any version.
      if (!table.ok()) continue;
      note(CollectTable(**table, name, snapshot, RecordStatus::kLeftover,
                        &records));
    }
  }

  AssignStatuses(&records);
  if (r.user_comparator != nullptr) {
    const Comparator* ucmp = r.user_comparator;
    std::stable_sort(records.begin(), records.end(),
                     [ucmp](const VersionRecord& a, const VersionRecord& b) {
                       const int c = ucmp->Compare(a.user_key, b.user_key);
                       if (c != 0) return c < 0;
                       return a.sequence > b.sequence;
                     });
  }
  for (const VersionRecord& record : records) {
    if (!visit(record)) break;
  }
  return first_error;
}

}  // namespace bloomtable
