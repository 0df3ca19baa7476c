// Database: OpenReadOnly reads the version (db_version.h) and replays the
// live logs into a LogView; Get walks the log view, then level 0 newest
// first, then one table per deeper level; iterators merge the same sources.

#include "bloomtable/database.h"

#include <algorithm>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include "absl/strings/cord.h"
#include "absl/strings/str_cat.h"
#include "bloomtable/db_files.h"
#include "bloomtable/db_version.h"
#include "bloomtable/log_reader.h"
#include "bloomtable/write_batch.h"
#include "db/database_rep.h"
#include "db/db_iterator.h"
#include "db/level_iterator.h"
#include "db/log_view.h"
#include "db/merging_iterator.h"
#include "db/salvage.h"
#include "db/table_set.h"
#include "table/corruption.h"
#include "table/internal_key.h"
#include "util/comparison_errors.h"
#include "util/string_util.h"

namespace bloomtable {
namespace {

constexpr std::string_view kBytewiseName = "leveldb.BytewiseComparator";

// The library's filter policies, under every name a table may store.
std::vector<std::shared_ptr<const FilterPolicy>> BuiltinFilterPolicies() {
  // Policies that read their parameters from the filter bytes answer for
  // every parameter; 10 bits per key only matters for writing.
  return {NewLevelDBBloomFilterPolicy(10),
          NewLegacyLevelDBBloomFilterPolicy(10),
          NewCacheLocalBloomFilterPolicy(10), NewRibbonFilterPolicy(10)};
}

const Comparator* FindComparator(const std::string& name,
                                 const DatabaseOptions& options) {
  if (options.comparator != nullptr) return options.comparator;
  if (name.empty()) return BytewiseComparator();
  if (const Comparator* builtin = BuiltinComparator(name)) return builtin;
  for (const Comparator* comparator : options.comparators) {
    if (comparator != nullptr && comparator->Name() == name) return comparator;
  }
  return nullptr;
}

// Adds a write batch's operations to a LogView.
class LogViewFiller final : public WriteBatchHandler {
 public:
  LogViewFiller(LogView* view, DatabaseLogFile* info, uint32_t source,
                uint64_t offset, bool recovered)
      : view_(view),
        info_(info),
        source_(source),
        offset_(offset),
        recovered_(recovered) {}
  void Put(uint64_t sequence, std::string_view key,
           std::string_view value) override {
    Note(sequence);
    view_->Add(key, sequence, ValueType::kValue, value, source_, offset_,
               recovered_);
  }
  void Delete(uint64_t sequence, std::string_view key) override {
    Note(sequence);
    view_->Add(key, sequence, ValueType::kDeletion, {}, source_, offset_,
               recovered_);
  }

 private:
  void Note(uint64_t sequence) {
    if (info_->records == 0 && info_->max_sequence == 0 &&
        info_->min_sequence == 0) {
      info_->min_sequence = sequence;
    }
    info_->min_sequence = std::min(info_->min_sequence, sequence);
    info_->max_sequence = std::max(info_->max_sequence, sequence);
  }

  LogView* const view_;
  DatabaseLogFile* const info_;
  const uint32_t source_;
  const uint64_t offset_;
  const bool recovered_;
};

// One warning line about `file`, at `offset` when it has one.
std::string FileWarning(std::string_view file, std::optional<uint64_t> offset,
                        std::string_view what) {
  if (!offset.has_value())
    return absl::StrCat(ToAbsl(file), ": ", ToAbsl(what));
  return absl::StrCat(ToAbsl(file), ": at offset ", *offset, ": ",
                      ToAbsl(what));
}

// Reads the log `name` of `dir` into `view` as LevelDB's recovery replays
// it: records up to LevelDB's end-of-file marker, damage skipped, each
// batch applied as far as it decodes. What was skipped or is malformed goes
// to `warnings`; `*last_sequence` rises to what the batch headers give.
// Errors: the file's own (it could not be opened or read).
absl::Status ReadLogInto(const std::string& dir, const std::string& name,
                         bool salvage, LogView* view, DatabaseLogFile* info,
                         uint64_t* last_sequence,
                         std::vector<std::string>* warnings,
                         uint64_t* salvage_events) {
  const std::string path = absl::StrCat(dir, "/", name);
  absl::StatusOr<OpenedLogFile> log = OpenLogFile(path);
  if (!log.ok()) return log.status();
  const uint32_t source = view->AddSource(name);
  LogReader::Options reader_options;
  reader_options.salvage = salvage;
  LogReader reader(log->file.get(), log->size, reader_options);
  LogEntry entry;
  while (reader.Next(&entry)) {
    switch (entry.kind) {
      case LogEntry::Kind::kPadding:
        continue;
      case LogEntry::Kind::kDamage:
        ++info->damaged;
        ++*salvage_events;
        warnings->push_back(
            FileWarning(name, entry.offset,
                        absl::StrCat("damaged bytes skipped (", entry.length,
                                     " bytes): ", entry.reason)));
        continue;
      case LogEntry::Kind::kEndOfLog:
        warnings->push_back(
            FileWarning(name, entry.offset,
                        absl::StrCat(entry.reason, " (", entry.length,
                                     " bytes not read)")));
        continue;
      case LogEntry::Kind::kRecord:
        break;
    }
    if (entry.recovered) {
      ++*salvage_events;
      warnings->push_back(
          FileWarning(name, entry.offset,
                      absl::StrCat("record recovered: ", entry.reason)));
    }
    LogViewFiller filler(view, info, source, entry.offset, entry.recovered);
    absl::StatusOr<WriteBatchReplay> replay =
        ReplayWriteBatch(entry.payload, &filler);
    if (!replay.ok()) {
      ++info->damaged;
      warnings->push_back(
          FileWarning(name, entry.offset,
                      absl::StrCat("record is not a write batch, skipped: ",
                                   replay.status().message())));
      continue;
    }
    info->records += replay->applied;
    // LevelDB takes the header's word for the batch's last sequence number;
    // past 2^56 - 1 its snapshots would wrap (a count of 0 in a batch of
    // sequence 0 gives 2^64 - 1, which reads as 2^56 - 1 there).
    *last_sequence =
        std::max(*last_sequence,
                 std::min(replay->leveldb_last_sequence, kMaxSequenceNumber));
    if (!replay->problem.ok()) {
      ++info->damaged;
      warnings->push_back(FileWarning(
          name, entry.offset,
          absl::StrCat(replay->problem.message(), "; ", replay->applied,
                       " of its operations applied, as LevelDB applies them")));
    }
  }
  return reader.status();
}

// Adds to a DataLoss about a MANIFEST that LevelDB refuses (a status made by
// CorruptionAt) what the caller may do about it.
absl::Status WithSalvageHint(const absl::Status& status) {
  if (!absl::IsDataLoss(status) || !CorruptionOffset(status).has_value()) {
    return status;
  }
  absl::Status hinted(
      status.code(),
      absl::StrCat(status.message(),
                   " (leveldb::DB::Open refuses this MANIFEST too; salvage "
                   "skips its damaged edits)"));
  status.ForEachPayload(
      [&hinted](absl::string_view url, const absl::Cord& payload) {
        hinted.SetPayload(url, payload);
      });
  return hinted;
}

// The warnings about the MANIFEST: what LevelDB skips silently, and what
// salvage skipped.
void WarnAboutManifest(const std::string& manifest,
                       const std::vector<LogEntry>& damage,
                       std::vector<std::string>* warnings) {
  for (const LogEntry& entry : damage) {
    std::string what;
    if (entry.kind == LogEntry::Kind::kEndOfLog) {
      what = absl::StrCat(entry.reason, " (", entry.length, " bytes not read)");
    } else if (entry.leveldb_reports) {
      what =
          absl::StrCat("salvage skipped ", entry.length,
                       " bytes that leveldb::DB::Open refuses: ", entry.reason);
    } else {
      what = absl::StrCat("damaged bytes skipped (", entry.length,
                          " bytes): ", entry.reason);
    }
    warnings->push_back(FileWarning(manifest, entry.offset, what));
  }
}

}  // namespace

SalvageOptions SalvageOptions::All() {
  SalvageOptions all;
  all.manifest_edits = true;
  all.log_regions = true;
  all.table_blocks = true;
  return all;
}

std::string_view RecordStatusName(RecordStatus status) {
  switch (status) {
    case RecordStatus::kLive:
      return "live";
    case RecordStatus::kOverwritten:
      return "overwritten";
    case RecordStatus::kDeleted:
      return "deleted";
    case RecordStatus::kLeftover:
      return "leftover";
    case RecordStatus::kRecovered:
      return "recovered";
  }
  return "unknown";
}

Database::Database(std::unique_ptr<Rep> rep) : rep_(std::move(rep)) {}
Database::~Database() = default;

absl::StatusOr<std::unique_ptr<Database>> Database::OpenReadOnly(
    const std::string& dir, const DatabaseOptions& options) {
  ReadVersionOptions version_options;
  version_options.skip_damaged_edits = options.salvage.manifest_edits;
  absl::StatusOr<DatabaseVersion> read = ReadVersion(dir, version_options);
  std::string no_version;  // why the MANIFEST gave no version, if so
  if (!read.ok()) {
    if (!options.salvage.table_blocks || !absl::IsDataLoss(read.status())) {
      return WithSalvageHint(read.status());
    }
    no_version = std::string(read.status().message());
    read = VersionFromDirectory(dir, options.comparator);
  }
  const DbVersion& version = read->manifest.version;
  const std::string_view named = version.comparator.empty()
                                     ? kBytewiseName
                                     : std::string_view(version.comparator);
  if (options.comparator != nullptr && options.comparator->Name() != named) {
    // As leveldb::DB::Open, which refuses a database of another comparator.
    return absl::InvalidArgumentError(absl::StrCat(
        "the database's comparator is '", ToAbsl(named), "', not '",
        ToAbsl(options.comparator->Name()), "' (", read->manifest_name, ")"));
  }
  const Comparator* ucmp = FindComparator(version.comparator, options);
  // Keys the comparator cannot order while the view is made (the tables'
  // ranges, the log records) are warnings; reads report their own.
  ComparisonErrorScope comparison_errors;

  Options table_options;
  table_options.key_format = KeyFormat::kLevelDBInternal;
  // A table of an unknown comparator is only walked in file order, which
  // compares no keys.
  table_options.comparator = ucmp != nullptr ? ucmp : BytewiseComparator();
  std::vector<std::shared_ptr<const FilterPolicy>> policies =
      options.filter_policies.empty() ? BuiltinFilterPolicies()
                                      : options.filter_policies;
  table_options.filter_policy = policies.front();
  table_options.extra_filter_policies.assign(policies.begin() + 1,
                                             policies.end());
  table_options.block_cache = options.block_cache;

  if (options.use_direct_io && options.mmap_reads) {
    return absl::InvalidArgumentError(
        "DatabaseOptions: use_direct_io and mmap_reads exclude each other");
  }
  auto rep = std::make_unique<Rep>(dir, options, ucmp, table_options);
  rep->comparator_name = version.comparator.empty() ? std::string(kBytewiseName)
                                                    : version.comparator;
  rep->manifest = read->manifest_name;
  switch (read->current) {
    case CurrentFileState::kValid:
      break;
    case CurrentFileState::kMissing:
      rep->warnings.push_back(absl::StrCat(
          "no CURRENT file: read the newest MANIFEST, ", rep->manifest));
      break;
    case CurrentFileState::kMalformed:
      rep->warnings.push_back(absl::StrCat(
          "CURRENT is malformed: read the newest MANIFEST, ", rep->manifest));
      break;
    case CurrentFileState::kNamesMissingFile:
      rep->warnings.push_back(absl::StrCat(
          "CURRENT names a missing MANIFEST (", read->current_contents,
          "): read the newest, ", rep->manifest));
      break;
  }
  WarnAboutManifest(rep->manifest, read->manifest.damage, &rep->warnings);
  if (!no_version.empty()) {
    rep->warnings.push_back(absl::StrCat(
        no_version,
        ": salvage reads every table and log of the directory as live, as "
        "leveldb::RepairDB would"));
    ++rep->salvage_events;
  }
  for (const LogEntry& entry : read->manifest.damage) {
    // What LevelDB passes over silently may have cost edits too (a torn
    // tail): the tables they named are leftovers now.
    if (entry.kind == LogEntry::Kind::kDamage) ++rep->salvage_events;
  }
  for (uint64_t number : read->missing_tables) {
    rep->warnings.push_back(
        absl::StrCat("table ", number,
                     " listed in the MANIFEST is missing: lookups that "
                     "need it fail"));
  }

  rep->levels.resize(kNumLevels);
  for (int level = 0; level < kNumLevels; ++level) {
    for (const TableFileInfo& info : version.files[level]) {
      DatabaseTableFile file;
      file.level = level;
      file.number = info.number;
      file.size = info.size;
      file.smallest = info.smallest;
      file.largest = info.largest;
      auto name = read->table_files.find(info.number);
      file.name = name != read->table_files.end() ? name->second
                                                  : TableFileName(info.number);
      rep->levels[level].push_back(std::move(file));
    }
    std::vector<DatabaseTableFile>& files = rep->levels[level];
    if (level == 0) {
      std::stable_sort(
          files.begin(), files.end(),
          [](const DatabaseTableFile& a, const DatabaseTableFile& b) {
            return a.number > b.number;
          });
    } else if (ucmp != nullptr) {
      const InternalKeyComparator& icmp = rep->internal_comparator;
      std::stable_sort(
          files.begin(), files.end(),
          [&icmp](const DatabaseTableFile& a, const DatabaseTableFile& b) {
            // LevelDB's order: smallest key, then file number.
            const int order = icmp.Compare(a.smallest, b.smallest);
            return order != 0 ? order < 0 : a.number < b.number;
          });
    }
    rep->all_tables.insert(rep->all_tables.end(), files.begin(), files.end());
  }

  if (rep->bytewise) {
    for (const std::vector<DatabaseTableFile>& files : rep->levels) {
      rep->ranges.emplace_back(&files);
    }
  }

  std::vector<uint64_t> numbers;
  for (const DatabaseTableFile& file : rep->all_tables) {
    numbers.push_back(file.number);
  }
  rep->tables.PinVersion(std::move(numbers));
  if (!options.filters_dir.empty() || options.build_filters_in_memory) {
    // A sidecar's filter may be of any of the library's policies, whatever
    // the tables' own filters are restricted to.
    std::vector<std::shared_ptr<const FilterPolicy>> sidecar_policies =
        policies;
    for (std::shared_ptr<const FilterPolicy>& policy :
         BuiltinFilterPolicies()) {
      sidecar_policies.push_back(std::move(policy));
    }
    rep->sidecars =
        std::make_unique<SidecarSet>(&rep->levels, std::move(sidecar_policies),
                                     ucmp == BytewiseComparator());
    if (!options.filters_dir.empty()) {
      rep->sidecars->Load(dir, options.filters_dir, &rep->warnings);
    }
    rep->tables.OmitOwnFilters(rep->sidecars->Covered());
  }

  uint64_t last_sequence = std::min(version.last_sequence, kMaxSequenceNumber);
  for (uint64_t number : read->live_logs) {
    DatabaseLogFile log;
    log.number = number;
    log.name = LogFileName(number);
    absl::Status status =
        ReadLogInto(dir, log.name, options.salvage.log_regions, &rep->log_view,
                    &log, &last_sequence, &rep->warnings, &rep->salvage_events);
    if (!status.ok()) {
      // As LevelDB, which skips a log it cannot open (paranoid_checks off).
      rep->warnings.push_back(
          FileWarning(log.name, std::nullopt,
                      absl::StrCat("could not be read: ", status.message())));
    }
    rep->logs.push_back(std::move(log));
  }
  if (options.salvage.table_blocks) {
    // Every table whole, into the in-memory records: Get and iterators
    // then read no table.
    for (const DatabaseTableFile& file : rep->all_tables) {
      if (read->table_files.count(file.number) == 0) {
        ++rep->salvage_events;  // missing: warned about above
        continue;
      }
      SalvageTableInto(dir, file.name, &rep->log_view, &rep->warnings,
                       &rep->salvage_events);
    }
    rep->tables_in_memory = true;
    if (options.read_leftovers) {
      std::set<uint64_t> live_tables;
      for (const DatabaseTableFile& file : rep->all_tables) {
        live_tables.insert(file.number);
      }
      std::set<uint64_t> live_logs;
      for (const DatabaseLogFile& log : rep->logs) live_logs.insert(log.number);
      SalvageLeftovers(dir, FindLeftoverFiles(dir, live_tables, live_logs),
                       &rep->leftover_records, &rep->warnings,
                       &rep->salvage_events);
    }
  }
  rep->log_view.Finish();
  if (options.salvage.table_blocks) {
    // Without a version, the records say how far the database got.
    last_sequence =
        std::max(last_sequence,
                 std::min(rep->log_view.max_sequence(), kMaxSequenceNumber));
  }
  rep->last_sequence = last_sequence;
  if (comparison_errors.failed()) {
    rep->warnings.push_back(absl::StrCat("keys ordered by their bytes: ",
                                         comparison_errors.status().message()));
  }
  if (options.build_filters_in_memory && !rep->tables_in_memory) {
    rep->sidecars->StartBuildingInMemory(&rep->tables,
                                         options.in_memory_filters);
  }
  return std::unique_ptr<Database>(new Database(std::move(rep)));
}

absl::StatusOr<std::string> Database::Get(
    const DatabaseReadOptions& read_options, std::string_view user_key) const {
  std::string value;
  absl::Status status = GetInto(read_options, user_key, &value, nullptr);
  if (!status.ok()) return status;
  return value;
}

absl::Status Database::Get(const DatabaseReadOptions& read_options,
                           std::string_view user_key,
                           PinnedValue* value) const {
  absl::Status status = GetInto(read_options, user_key, nullptr, value);
  // Only now: `user_key` may lie in what `*value` held.
  if (!status.ok()) value->Reset();
  return status;
}

absl::Status Database::GetInto(const DatabaseReadOptions& read_options,
                               std::string_view user_key, std::string* value,
                               PinnedValue* pinned) const {
  const Rep& r = *rep_;
  if (r.user_comparator == nullptr) return r.NotOrdered();
  // The bytewise comparator orders every key: no scope on its hot path.
  if (r.user_comparator == BytewiseComparator()) {
    return GetOrdered(read_options, user_key, value, pinned);
  }
  {
    // A key that the comparator cannot order is the caller's mistake (a
    // plain string given to an IndexedDB database), not damage.
    ComparisonErrorScope key_errors;
    r.user_comparator->Compare(user_key, user_key);
    if (key_errors.failed()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "key not valid for the database's comparator '", r.comparator_name,
          "': ", key_errors.status().message()));
    }
  }
  ComparisonErrorScope comparison_errors;
  absl::Status status = GetOrdered(read_options, user_key, value, pinned);
  if (comparison_errors.failed()) return comparison_errors.status();
  return status;
}

absl::Status Database::GetOrdered(const DatabaseReadOptions& read_options,
                                  std::string_view user_key, std::string* value,
                                  PinnedValue* pinned) const {
  const Rep& r = *rep_;
  const uint64_t snapshot = r.Snapshot(read_options);

  if (const LogView::Record* record = r.log_view.Lookup(user_key, snapshot)) {
    ParsedInternalKey parsed;
    ParseInternalKey(record->internal_key, &parsed);
    if (parsed.type == ValueType::kDeletion) {
      return KeyNotFound();
    }
    // The log view's value lies in the Database's memory: no block to pin
    // it to, so it is copied either way.
    if (pinned != nullptr) {
      pinned->CopyFrom(record->value);
    } else {
      value->assign(record->value);
    }
    return absl::OkStatus();
  }

  if (r.tables_in_memory) return KeyNotFound();
  KeyVersion version;
  // A table's value is pinned here first and handed to `*pinned` at the
  // end: `user_key` may lie in what `*pinned` holds, and a table that does
  // not hold the key empties the PinnedValue it is given.
  PinnedValue table_value;
  PinnedValue* const table_pinned = pinned != nullptr ? &table_value : nullptr;
  bool found = false;
  // The tables to ask, found first, so that their sidecar filters can be
  // prefetched together: their cache misses overlap instead of following
  // one another.
  Rep::Candidates candidates;
  r.FindCandidates(user_key, PackSequenceAndType(snapshot, ValueType::kValue),
                   &candidates);
  const SidecarSet* const sidecars = r.sidecars.get();
  SidecarSet::LookupCounts sidecar_counts(sidecars);
  const SidecarKey sidecar_key =
      sidecars != nullptr ? SidecarKey(user_key) : SidecarKey();
  if (sidecars != nullptr) {
    for (size_t c = 0; c < candidates.size(); ++c) {
      sidecars->Prefetch(candidates[c].level, candidates[c].index, sidecar_key);
    }
  }
  for (size_t c = 0; c < candidates.size() && !found; ++c) {
    const Rep::Candidates::Table& table = candidates[c];
    if (sidecars != nullptr &&
        !sidecars->KeyMayMatch(table.level, table.index, sidecar_key,
                               &sidecar_counts)) {
      continue;
    }
    // Made here, for the tables asked (an absent key's sidecars usually
    // leave none): it is 96 bytes to clear.
    ReadOptions table_read;
    table_read.verify_checksums = read_options.verify_checksums;
    table_read.fill_cache = read_options.fill_cache;
    absl::Status status =
        r.LookupTable(r.levels[table.level][table.index], table_read, user_key,
                      snapshot, &version, table_pinned, &found);
    if (!status.ok()) return status;
  }
  if (!found) return KeyNotFound();
  if (version.deleted) return KeyNotFound();
  if (pinned != nullptr) {
    *pinned = std::move(table_value);
  } else {
    *value = std::move(version.value);
  }
  return absl::OkStatus();
}

std::unique_ptr<Iterator> Database::NewIterator(
    const DatabaseReadOptions& read_options) const {
  const Rep& r = *rep_;
  if (r.user_comparator == nullptr) return NewErrorIterator(r.NotOrdered());
  ReadOptions table_read;
  table_read.verify_checksums = read_options.verify_checksums;
  table_read.fill_cache = read_options.fill_cache;
  table_read.iterate_lower_bound = read_options.lower_bound;
  table_read.iterate_upper_bound = read_options.upper_bound;
  table_read.max_readahead_size = read_options.max_readahead_size;
  std::vector<std::unique_ptr<MergeSource>> children;
  children.push_back(AsMergeSource(r.log_view.NewIterator()));
  for (size_t level = 0; level < r.levels.size() && !r.tables_in_memory;
       ++level) {
    std::vector<DatabaseTableFile> files = r.levels[level];
    if (r.sidecars != nullptr && read_options.lower_bound.has_value() &&
        read_options.upper_bound.has_value()) {
      // Tables whose sidecar rules out every key of the bounds give the
      // iterator nothing: they are left out unopened.
      size_t kept = 0;
      for (size_t i = 0; i < files.size(); ++i) {
        if (!r.sidecars->RangeMayMatch(level, i, *read_options.lower_bound,
                                       *read_options.upper_bound)) {
          continue;
        }
        if (kept != i) files[kept] = std::move(files[i]);
        ++kept;
      }
      files.resize(kept);
    }
    if (level == 0) {
      for (DatabaseTableFile& file : files) {
        children.push_back(NewLevelIterator(&r.tables, &r.internal_comparator,
                                            {std::move(file)}, table_read));
      }
    } else if (!files.empty()) {
      children.push_back(NewLevelIterator(&r.tables, &r.internal_comparator,
                                          std::move(files), table_read));
    }
  }
  return NewDbIterator(
      r.user_comparator,
      NewMergingIterator(&r.internal_comparator, std::move(children)),
      r.Snapshot(read_options), read_options.lower_bound,
      read_options.upper_bound);
}

bool Database::ordered() const { return rep_->user_comparator != nullptr; }
bool Database::salvaged() const {
  const SalvageOptions& salvage = rep_->options.salvage;
  const bool on =
      salvage.manifest_edits || salvage.log_regions || salvage.table_blocks;
  return on && rep_->salvage_events > 0;
}
const std::string& Database::comparator_name() const {
  return rep_->comparator_name;
}
const std::vector<DatabaseTableFile>& Database::tables() const {
  return rep_->all_tables;
}
const std::vector<DatabaseLogFile>& Database::logs() const {
  return rep_->logs;
}
uint64_t Database::last_sequence() const { return rep_->last_sequence; }
const std::string& Database::manifest() const { return rep_->manifest; }
const std::vector<std::string>& Database::warnings() const {
  return rep_->warnings;
}

DatabaseStats Database::GetStats() const {
  DatabaseStats stats;
  rep_->tables.ForEachOpen([&stats](const Table& table) {
    const TableStats t = table.GetStats();
    TableStats& sum = stats.tables;
    sum.filter_checks += t.filter_checks;
    sum.filter_negatives += t.filter_negatives;
    sum.data_block_reads += t.data_block_reads;
    sum.bytes_read += t.bytes_read;
    sum.checksum_failures += t.checksum_failures;
    sum.block_cache_hits += t.block_cache_hits;
    sum.block_cache_misses += t.block_cache_misses;
    sum.filter_partition_reads += t.filter_partition_reads;
    sum.multiget_io_uring_batches += t.multiget_io_uring_batches;
    sum.multiget_pread_batches += t.multiget_pread_batches;
    sum.multiget_coalesced_reads += t.multiget_coalesced_reads;
    sum.prefix_filter_checks += t.prefix_filter_checks;
    sum.prefix_filter_negatives += t.prefix_filter_negatives;
    sum.range_filter_checks += t.range_filter_checks;
    sum.range_filter_negatives += t.range_filter_negatives;
    ++stats.open_tables;
    stats.table_memory_bytes += table.ApproximateMemoryUsage();
  });
  if (rep_->sidecars != nullptr) rep_->sidecars->AddStats(&stats);
  return stats;
}

absl::StatusOr<std::shared_ptr<const Table>> Database::OpenTable(
    const DatabaseTableFile& file) const {
  return rep_->tables.Open(file);
}

}  // namespace bloomtable
