// Database::ListVersions and NewVersionStream: every version of every key,
// from the log view, the live tables and (when asked) the leftover files,
// each given a status by comparing it with the next newer version of the
// same key.
//
// With a known comparator the sources (version_sources.h) are merged in
// key order, newest first, ties in the order of the files: the next newer
// version of a key is the one the merge has just passed, so the listing
// streams. Without one, the records are gathered in file order and their
// statuses assigned once all are in.

#include <algorithm>
#include <map>
#include <numeric>
#include <set>

#include "absl/strings/str_cat.h"
#include "bloomtable/database.h"
#include "bloomtable/db_files.h"
#include "db/database_rep.h"
#include "db/salvage.h"
#include "db/version_sources.h"

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
  return ForEachLogVersion(
      absl::StrCat(dir, "/", name),
      [&](uint64_t sequence, std::string_view key, bool deletion,
          std::string_view value, uint64_t offset) {
        LeftoverRecordCollector collector(out, name, offset, snapshot);
        if (deletion) {
          collector.Delete(sequence, key);
        } else {
          collector.Put(sequence, key, value);
        }
      });
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

// The listing of a database without a known comparator, gathered whole.
class GatheredVersions final : public VersionStream {
 public:
  GatheredVersions(std::vector<VersionRecord> records, absl::Status status)
      : records_(std::move(records)), status_(std::move(status)) {}

  bool Next(VersionRecord* record) override {
    if (next_ == records_.size()) return false;
    *record = std::move(records_[next_++]);
    return true;
  }
  absl::Status status() const override { return status_; }

 private:
  std::vector<VersionRecord> records_;
  size_t next_ = 0;
  const absl::Status status_;
};

// The merge of the sources, in the order of the files (which breaks ties).
class MergedVersions final : public VersionStream {
 public:
  MergedVersions(std::vector<std::unique_ptr<VersionSource>> sources,
                 std::vector<bool> leftover, const Comparator* ucmp,
                 std::optional<std::string> upper_bound)
      : sources_(std::move(sources)),
        leftover_(std::move(leftover)),
        started_(sources_.size(), false),
        ucmp_(ucmp),
        upper_bound_(std::move(upper_bound)) {
    for (size_t i = 0; i < sources_.size(); ++i) heap_.push_back(i);
    std::make_heap(heap_.begin(), heap_.end(), HeapOrder());
  }

  bool Next(VersionRecord* record) override {
    while (!heap_.empty()) {
      const size_t top = heap_.front();
      VersionSource& source = *sources_[top];
      if (!started_[top]) {
        Pop();
        started_[top] = true;
        source.Start();
        if (source.Valid()) {
          Push(top);
        } else {
          End(top);
        }
        continue;
      }
      const SourceVersion& v = source.version();
      if (upper_bound_.has_value() &&
          ucmp_->Compare(v.user_key, *upper_bound_) >= 0) {
        // Every other source is at or past it too.
        heap_.clear();
        return false;
      }
      if (has_last_ && Order(last_key_, last_sequence_, last_source_,
                             v.user_key, v.sequence, top) > 0) {
        Pop();
        Note(top,
             absl::DataLossError(absl::StrCat(
                 *v.file, ": versions out of key order at offset ", v.offset,
                 " (damaged, or outside the key range the "
                 "MANIFEST records)")));
        continue;
      }
      record->user_key.assign(v.user_key);
      record->sequence = v.sequence;
      record->deletion = v.deletion;
      record->value.assign(v.value);
      record->file.assign(*v.file);
      record->offset = v.offset;
      record->status = leftover_[top] ? RecordStatus::kLeftover
                       : v.recovered  ? RecordStatus::kRecovered
                                      : StatusOf(v);
      has_last_ = true;
      last_key_.assign(v.user_key);
      last_sequence_ = v.sequence;
      last_source_ = top;
      Pop();
      source.Next();
      if (source.Valid()) {
        Push(top);
      } else {
        End(top);
      }
      return true;
    }
    return false;
  }

  absl::Status status() const override { return first_error_; }

 private:
  // The merge's order of two versions (user key, sequence) from sources
  // `a` and `b`: by key, newest first, then in file order.
  int Order(std::string_view a_key, uint64_t a_sequence, size_t a,
            std::string_view b_key, uint64_t b_sequence, size_t b) const {
    const int c = ucmp_->Compare(a_key, b_key);
    if (c != 0) return c;
    if (a_sequence != b_sequence) return a_sequence > b_sequence ? -1 : 1;
    return a < b ? -1 : (a > b ? 1 : 0);
  }

  // The heap's order: a source before it starts stands at its StartKey.
  struct After {
    const MergedVersions* merge;
    bool operator()(size_t a, size_t b) const { return merge->Less(b, a); }
  };
  After HeapOrder() const { return {this}; }
  bool Less(size_t a, size_t b) const {
    std::string_view a_key, b_key;
    uint64_t a_sequence = 0, b_sequence = 0;
    const bool a_known = Position(a, &a_key, &a_sequence);
    const bool b_known = Position(b, &b_key, &b_sequence);
    // A source that knows no start key starts before every other.
    if (!a_known || !b_known) return a_known == b_known ? a < b : !a_known;
    return Order(a_key, a_sequence, a, b_key, b_sequence, b) < 0;
  }
  // False for a source that has not started and knows no start key.
  bool Position(size_t i, std::string_view* key, uint64_t* sequence) const {
    if (!started_[i]) return sources_[i]->StartKey(key, sequence);
    *key = sources_[i]->version().user_key;
    *sequence = sources_[i]->version().sequence;
    return true;
  }
  void Pop() {
    std::pop_heap(heap_.begin(), heap_.end(), HeapOrder());
    heap_.pop_back();
  }
  void Push(size_t i) {
    heap_.push_back(i);
    std::push_heap(heap_.begin(), heap_.end(), HeapOrder());
  }
  void End(size_t i) { Note(i, sources_[i]->status()); }
  // Keeps the error of the earliest file.
  void Note(size_t i, const absl::Status& status) {
    if (status.ok() || i >= first_error_source_) return;
    first_error_ = status;
    first_error_source_ = i;
  }

  // The status of a version that is not a leftover: from the next newer
  // version with the same bytes, which the merge passed last among the
  // versions of keys the comparator calls equal (one key, unless the
  // comparator equates different bytes).
  RecordStatus StatusOf(const SourceVersion& v) {
    if (newer_.empty() || ucmp_->Compare(newer_.front().first, v.user_key)) {
      newer_.clear();
    }
    for (auto& [key, deletion] : newer_) {
      if (key != v.user_key) continue;
      const RecordStatus status =
          deletion ? RecordStatus::kDeleted : RecordStatus::kOverwritten;
      deletion = v.deletion;
      return status;
    }
    newer_.emplace_back(std::string(v.user_key), v.deletion);
    return v.deletion ? RecordStatus::kDeleted : RecordStatus::kLive;
  }

  std::vector<std::unique_ptr<VersionSource>> sources_;
  const std::vector<bool> leftover_;
  std::vector<bool> started_;
  const Comparator* const ucmp_;
  const std::optional<std::string> upper_bound_;
  std::vector<size_t> heap_;
  bool has_last_ = false;
  std::string last_key_;
  uint64_t last_sequence_ = 0;
  size_t last_source_ = 0;
  std::vector<std::pair<std::string, bool>> newer_;
  absl::Status first_error_;
  size_t first_error_source_ = SIZE_MAX;
};

}  // namespace

VersionStream::~VersionStream() = default;

std::unique_ptr<VersionStream> Database::NewVersionStream(
    const DatabaseReadOptions& read_options) const {
  const Rep& r = *rep_;
  const uint64_t snapshot = r.Snapshot(read_options);
  LeftoverFiles leftovers;
  if (r.options.read_leftovers && !r.tables_in_memory) {
    std::set<uint64_t> live_tables;
    for (const DatabaseTableFile& file : r.all_tables) {
      live_tables.insert(file.number);
    }
    std::set<uint64_t> live_logs;
    for (const DatabaseLogFile& log : r.logs) live_logs.insert(log.number);
    leftovers = FindLeftoverFiles(r.dir, live_tables, live_logs);
  }

  // Salvage's tables are in the log view already and its leftovers in
  // memory: that listing is gathered (it holds no more than the view does).
  if (r.user_comparator != nullptr && !r.tables_in_memory) {
    SourceSettings settings;
    settings.user_comparator = r.user_comparator;
    settings.snapshot = snapshot;
    settings.lower_bound = read_options.lower_bound;
    std::vector<std::unique_ptr<VersionSource>> sources;
    std::vector<bool> leftover;
    sources.push_back(NewLogViewSource(&r.log_view, settings));
    leftover.push_back(false);
    for (const DatabaseTableFile& file : r.all_tables) {
      sources.push_back(NewLiveTableSource(&r.tables, &file, settings));
      leftover.push_back(false);
    }
    for (const auto& [number, name] : leftovers.logs) {
      sources.push_back(NewLeftoverLogSource(r.dir, name, settings));
      leftover.push_back(true);
    }
    for (const auto& [number, name] : leftovers.tables) {
      sources.push_back(NewLeftoverTableSource(&r.tables, name, settings));
      leftover.push_back(true);
    }
    return std::make_unique<MergedVersions>(
        std::move(sources), std::move(leftover), r.user_comparator,
        read_options.upper_bound);
  }

  if (r.user_comparator == nullptr && (read_options.lower_bound.has_value() ||
                                       read_options.upper_bound.has_value())) {
    return std::make_unique<GatheredVersions>(std::vector<VersionRecord>(),
                                              r.NotOrdered());
  }
  std::vector<VersionRecord> records;
  absl::Status first_error;
  auto note = [&first_error](const absl::Status& status) {
    if (first_error.ok() && !status.ok()) first_error = status;
  };
  // The live logs, in the order they were read (the view keeps it when it
  // has no comparator).
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
  AssignStatuses(&records);
  if (r.user_comparator != nullptr) {
    const Comparator* ucmp = r.user_comparator;
    std::stable_sort(records.begin(), records.end(),
                     [ucmp](const VersionRecord& a, const VersionRecord& b) {
                       const int c = ucmp->Compare(a.user_key, b.user_key);
                       if (c != 0) return c < 0;
                       return a.sequence > b.sequence;
                     });
    auto outside = [&](const VersionRecord& record) {
      return (read_options.lower_bound.has_value() &&
              ucmp->Compare(record.user_key, *read_options.lower_bound) < 0) ||
             (read_options.upper_bound.has_value() &&
              ucmp->Compare(record.user_key, *read_options.upper_bound) >= 0);
    };
    records.erase(std::remove_if(records.begin(), records.end(), outside),
                  records.end());
  }
  return std::make_unique<GatheredVersions>(std::move(records),
                                            std::move(first_error));
}

absl::Status Database::ListVersions(
    const DatabaseReadOptions& read_options,
    const std::function<bool(const VersionRecord&)>& visit) const {
  std::unique_ptr<VersionStream> stream = NewVersionStream(read_options);
  VersionRecord record;
  while (stream->Next(&record)) {
    if (!visit(record)) break;
  }
  return stream->status();
}

}  // namespace bloomtable
