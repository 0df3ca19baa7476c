// Database: OpenReadOnly reads the version (db_version.h) and replays the
// live logs into a LogView; Get walks the log view, then level 0 newest
// first, then one table per deeper level; iterators merge the same sources.

#include "bloomtable/database.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "bloomtable/db_files.h"
#include "bloomtable/db_version.h"
#include "bloomtable/log_reader.h"
#include "bloomtable/write_batch.h"
#include "db/database_rep.h"
#include "db/db_iterator.h"
#include "db/log_view.h"
#include "db/merging_iterator.h"
#include "db/table_set.h"
#include "table/internal_key.h"

namespace bloomtable {
namespace {

// NotFound without a message: an empty message keeps absl::Status inline,
// so that a lookup of an absent key allocates nothing.
absl::Status KeyNotFound() {
  return absl::Status(absl::StatusCode::kNotFound, absl::string_view());
}

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
  if (name.empty() || name == kBytewiseName) return BytewiseComparator();
  for (const Comparator* comparator : options.comparators) {
    if (comparator != nullptr && comparator->Name() == name) return comparator;
  }
  return nullptr;
}

// Adds a write batch's operations to a LogView.
class LogViewFiller final : public WriteBatchHandler {
 public:
  LogViewFiller(LogView* view, DatabaseLogFile* info, uint32_t source,
                uint64_t offset)
      : view_(view), info_(info), source_(source), offset_(offset) {}
  void Put(uint64_t sequence, std::string_view key,
           std::string_view value) override {
    Note(sequence);
    view_->Add(key, sequence, ValueType::kValue, value, source_, offset_);
  }
  void Delete(uint64_t sequence, std::string_view key) override {
    Note(sequence);
    view_->Add(key, sequence, ValueType::kDeletion, {}, source_, offset_);
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
};

// Reads the log `name` of `dir` into `view`; damage goes to `warnings`.
// Errors: the file's own (it could not be opened or read).
absl::Status ReadLogInto(const std::string& dir, const std::string& name,
                         LogView* view, DatabaseLogFile* info,
                         std::vector<std::string>* warnings) {
  const std::string path = absl::StrCat(dir, "/", name);
  absl::StatusOr<OpenedLogFile> log = OpenLogFile(path);
  if (!log.ok()) return log.status();
  const uint32_t source = view->AddSource(name);
  LogReader reader(log->file.get(), log->size);
  LogEntry entry;
  while (reader.Next(&entry)) {
    if (entry.kind == LogEntry::Kind::kDamage) {
      ++info->damaged;
      warnings->push_back(absl::StrCat(name, ": damaged bytes at offset ",
                                       entry.offset, " (", entry.length,
                                       " bytes): ", entry.reason));
      continue;
    }
    if (entry.kind != LogEntry::Kind::kRecord) continue;
    LogViewFiller filler(view, info, source, entry.offset);
    absl::StatusOr<WriteBatchHeader> header =
        IterateWriteBatch(entry.payload, &filler);
    if (!header.ok()) {
      ++info->damaged;
      warnings->push_back(
          absl::StrCat(name, ": record at offset ", entry.offset,
                       " is not a write batch: ", header.status().message()));
      continue;
    }
    info->records += header->count;
  }
  return reader.status();
}

}  // namespace

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
  }
  return "unknown";
}

Database::Database(std::unique_ptr<Rep> rep) : rep_(std::move(rep)) {}
Database::~Database() = default;

absl::StatusOr<std::unique_ptr<Database>> Database::OpenReadOnly(
    const std::string& dir, const DatabaseOptions& options) {
  absl::StatusOr<DatabaseVersion> read = ReadVersion(dir);
  if (!read.ok()) return read.status();
  const DbVersion& version = read->manifest.version;
  const Comparator* ucmp = FindComparator(version.comparator, options);

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
  for (const LogEntry& damage : read->manifest.damage) {
    rep->warnings.push_back(
        absl::StrCat(rep->manifest, ": damaged bytes at offset ", damage.offset,
                     " (", damage.length, " bytes): ", damage.reason));
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
      std::sort(files.begin(), files.end(),
                [](const DatabaseTableFile& a, const DatabaseTableFile& b) {
                  return a.number > b.number;
                });
    } else if (ucmp != nullptr) {
      const InternalKeyComparator& icmp = rep->internal_comparator;
      std::sort(
          files.begin(), files.end(),
          [&icmp](const DatabaseTableFile& a, const DatabaseTableFile& b) {
            return icmp.Compare(a.smallest, b.smallest) < 0;
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

  for (uint64_t number : read->live_logs) {
    DatabaseLogFile log;
    log.number = number;
    log.name = LogFileName(number);
    absl::Status status =
        ReadLogInto(dir, log.name, &rep->log_view, &log, &rep->warnings);
    if (!status.ok()) {
      rep->warnings.push_back(
          absl::StrCat(log.name, ": could not be read: ", status.message()));
    }
    rep->logs.push_back(std::move(log));
  }
  rep->log_view.Finish();
  if (options.build_filters_in_memory) {
    rep->sidecars->StartBuildingInMemory(&rep->tables,
                                         options.in_memory_filters);
  }
  rep->last_sequence =
      std::max(version.last_sequence, rep->log_view.max_sequence());
  return std::unique_ptr<Database>(new Database(std::move(rep)));
}

absl::StatusOr<std::string> Database::Get(
    const DatabaseReadOptions& read_options, std::string_view user_key) const {
  const Rep& r = *rep_;
  if (r.user_comparator == nullptr) return r.NotOrdered();
  const uint64_t snapshot = r.Snapshot(read_options);

  if (const LogView::Record* record = r.log_view.Lookup(user_key, snapshot)) {
    ParsedInternalKey parsed;
    ParseInternalKey(record->internal_key, &parsed);
    if (parsed.type == ValueType::kDeletion) {
      return KeyNotFound();
    }
    return record->value;
  }

  KeyVersion version;
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
                      snapshot, &version, &found);
    if (!status.ok()) return status;
  }
  if (!found) return KeyNotFound();
  if (version.deleted) return KeyNotFound();
  return std::move(version.value);
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
  std::vector<std::unique_ptr<Iterator>> children;
  children.push_back(r.log_view.NewIterator());
  for (size_t level = 0; level < r.levels.size(); ++level) {
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
