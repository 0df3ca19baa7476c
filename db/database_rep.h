// Database::Rep: what an open read-only database view holds, shared by
// database.cc (open, Get, iterators) and all_versions.cc (ListVersions).
// Immutable after OpenReadOnly except the table set, which locks itself, and
// the sidecar set, whose slots fill once each.

#ifndef BLOOMTABLE_DB_DATABASE_REP_H_
#define BLOOMTABLE_DB_DATABASE_REP_H_

#include <algorithm>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "bloomtable/database.h"
#include "db/level_ranges.h"
#include "db/log_view.h"
#include "db/sidecar_set.h"
#include "db/table_set.h"
#include "table/internal_key.h"
#include "util/read_workers.h"

namespace bloomtable {

// A lookup's "no such key": NotFound without a message, which absl::Status
// keeps inline, so that an absent key allocates nothing.
inline absl::Status KeyNotFound() {
  return absl::Status(absl::StatusCode::kNotFound, absl::string_view());
}

struct Database::Rep {
  Rep(std::string d, const DatabaseOptions& o, const Comparator* ucmp,
      Options table_options)
      : dir(std::move(d)),
        options(o),
        user_comparator(ucmp),
        internal_comparator(ucmp != nullptr ? ucmp : BytewiseComparator()),
        bytewise(ucmp == BytewiseComparator()),
        tables(dir, std::move(table_options),
               static_cast<size_t>(std::max(o.max_open_files, 1)), o.mmap_reads,
               TableFileOptions(o), o.wrap_table_file),
        log_view(ucmp),
        read_workers(
            static_cast<size_t>(std::max(o.multi_get_read_threads, 0))) {}

  static RandomAccessFileOptions TableFileOptions(const DatabaseOptions& o) {
    RandomAccessFileOptions file_options;
    file_options.use_direct_io = o.use_direct_io;
    file_options.io_uring_queue_depth = o.io_uring_queue_depth;
    return file_options;
  }

  const std::string dir;
  const DatabaseOptions options;
  const Comparator* const user_comparator;  // null: unknown comparator
  const InternalKeyComparator internal_comparator;
  const bool bytewise;  // the user comparator is BytewiseComparator()
  mutable TableSet tables;
  LogView log_view;
  // MultiGet's readers of many tables' blocks at once
  // (DatabaseOptions::multi_get_read_threads; none by default).
  mutable ReadWorkers read_workers;
  std::string comparator_name;
  std::string manifest;
  // By level; level 0 newest first, deeper levels by smallest key.
  std::vector<std::vector<DatabaseTableFile>> levels;
  // Per level, its tables' ranges as integers (bytewise comparator only;
  // else empty). Each refers to its level in `levels`.
  std::vector<LevelRanges> ranges;
  std::vector<DatabaseTableFile> all_tables;
  std::vector<DatabaseLogFile> logs;
  uint64_t last_sequence = 0;
  std::vector<std::string> warnings;
  // SalvageOptions::table_blocks: every table's entries are in log_view,
  // and Get and iterators read no table.
  bool tables_in_memory = false;
  // What salvage skipped, repaired or recovered, and log damage skipped.
  uint64_t salvage_events = 0;
  // SalvageOptions::table_blocks with read_leftovers: the leftover files'
  // records, read at open.
  std::vector<VersionRecord> leftover_records;
  // The sidecar filters (null without DatabaseOptions::filters_dir or
  // build_filters_in_memory). Declared last: destroyed first, since its
  // background builder reads through `tables`.
  std::unique_ptr<SidecarSet> sidecars;

  // The sequence number a read sees up to: the one asked for, or as
  // LevelDB reads, the last sequence (a batch whose count is short leaves
  // operations past it, which LevelDB keeps but never shows).
  uint64_t Snapshot(const DatabaseReadOptions& read_options) const {
    return read_options.sequence.has_value()
               ? std::min(*read_options.sequence, kMaxSequenceNumber)
               : last_sequence;
  }

  absl::Status NotOrdered() const {
    return absl::FailedPreconditionError(absl::StrCat(
        "the database's comparator '", comparator_name,
        "' is not known: ordered lookups (get, scan) need it registered "
        "(DatabaseOptions::comparators); the all-versions listing works "
        "without it"));
  }

  // Looks `user_key` up in one table: OK with *found set, or *found false
  // when the table holds no visible version. The value is copied into
  // version->value, or with `pinned` set, pinned into *pinned
  // (Table::GetVersion's pinning form). Errors name the file.
  absl::Status LookupTable(const DatabaseTableFile& file,
                           const ReadOptions& read_options,
                           std::string_view user_key, uint64_t snapshot,
                           KeyVersion* version, PinnedValue* pinned,
                           bool* found) const {
    *found = false;
    std::shared_ptr<const Table> held;
    const Table* table = nullptr;
    absl::Status status = tables.OpenForLookup(file, &held, &table);
    if (!status.ok()) return status;
    status = pinned != nullptr
                 ? table->GetVersion(read_options, user_key, snapshot, version,
                                     pinned)
                 : table->GetVersion(read_options, user_key, snapshot, version);
    if (absl::IsNotFound(status)) return absl::OkStatus();
    if (!status.ok()) return TableLookupError(file, status);
    *found = true;
    return absl::OkStatus();
  }

  // A lookup's error in `file`, naming it.
  static absl::Status TableLookupError(const DatabaseTableFile& file,
                                       const absl::Status& status) {
    // Never NotFound from here: that would read as "no such key".
    return absl::Status(status.code() == absl::StatusCode::kNotFound
                            ? absl::StatusCode::kDataLoss
                            : status.code(),
                        absl::StrCat(file.name, " (level ", file.level,
                                     "): ", status.message()));
  }

  // The tables one lookup asks, in the order it asks them: every level-0
  // table whose range holds the key, newest first, then on each deeper
  // level the one that may hold its newest version visible at the tag's
  // sequence. Room for 16 without allocating (more level-0 tables than
  // that overlapping one key are rare).
  class Candidates {
   public:
    struct Table {
      uint32_t level;
      uint32_t index;
    };
    void Add(size_t level, size_t index) {
      // Each field stored where it goes: built elsewhere and copied, the
      // pair is two 4-byte stores read back as one 8-byte load, which the
      // processor cannot forward (a stall measured on every lookup).
      Table* table;
      if (size_ < kInline) {
        table = &inline_[size_];
      } else {
        overflow_.emplace_back();
        table = &overflow_.back();
      }
      table->level = static_cast<uint32_t>(level);
      table->index = static_cast<uint32_t>(index);
      ++size_;
    }
    size_t size() const { return size_; }
    const Table& operator[](size_t i) const {
      return i < kInline ? inline_[i] : overflow_[i - kInline];
    }

   private:
    static constexpr size_t kInline = 16;
    Table inline_[kInline];
    std::vector<Table> overflow_;
    size_t size_ = 0;
  };

  void FindCandidates(std::string_view user_key, uint64_t tag,
                      Candidates* candidates) const {
    for (size_t level = 0; level < levels.size(); ++level) {
      const std::vector<DatabaseTableFile>& files = levels[level];
      if (files.empty()) continue;
      const LevelKey key = KeyIn(level, user_key);
      if (level == 0) {
        for (size_t i = 0; i < files.size(); ++i) {
          if (MayHold(0, i, key)) candidates->Add(0, i);
        }
        continue;
      }
      const size_t i = FirstEndingAtOrAfter(level, key, tag);
      if (i < files.size() && MayHold(level, i, key)) {
        candidates->Add(level, i);
      }
    }
  }

  // A user key as the lookup helpers below take it for one level: digested
  // for the level's LevelRanges where there are some.
  using LevelKey = LevelRanges::Target;

  LevelKey KeyIn(size_t level, std::string_view user_key) const {
    if (!ranges.empty()) return ranges[level].Digest(user_key);
    LevelKey key;
    key.user_key = user_key;
    return key;
  }

  // Whether table `index` of `level` records a user-key range that holds
  // the key.
  bool MayHold(size_t level, size_t index, const LevelKey& key) const {
    if (!ranges.empty()) return ranges[level].MayHold(index, key);
    const DatabaseTableFile& file = levels[level][index];
    return user_comparator->Compare(key.user_key,
                                    ExtractUserKey(file.smallest)) >= 0 &&
           user_comparator->Compare(key.user_key,
                                    ExtractUserKey(file.largest)) <= 0;
  }

  // On a level above 0: the first table whose largest key is at or after
  // (key, tag), the one that may hold the newest version visible at the
  // tag's sequence; the number of tables if none.
  size_t FirstEndingAtOrAfter(size_t level, const LevelKey& key,
                              uint64_t tag) const {
    if (!ranges.empty() && ranges[level].sorted()) {
      return ranges[level].FirstEndingAtOrAfter(key, tag);
    }
    const std::vector<DatabaseTableFile>& files = levels[level];
    const Comparator* ucmp = bytewise ? nullptr : user_comparator;
    return std::lower_bound(files.begin(), files.end(), key.user_key,
                            [ucmp, tag](const DatabaseTableFile& file,
                                        std::string_view user_key) {
                              return FileEndsBefore(ucmp, file, user_key, tag);
                            }) -
           files.begin();
  }
};

}  // namespace bloomtable

#endif  // BLOOMTABLE_DB_DATABASE_REP_H_
