// TableSet opens a database's table files when they are first needed and
// keeps at most `max_open` of them open, closing the least recently used
// beyond that (LevelDB's table cache, without writing anything).
//
// A table is handed out as a shared_ptr: a table closed by the limit stays
// usable by whoever still holds it (an iterator), and its file descriptor
// stays open until then. When every table of the version fits under the
// limit (PinVersion), no table is ever closed, and a point lookup finds an
// open one without the lock or a reference count (OpenForLookup).
// Thread-safe: every method but PinVersion may be called from many threads.

#ifndef BLOOMTABLE_DB_TABLE_SET_H_
#define BLOOMTABLE_DB_TABLE_SET_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "bloomtable/database.h"
#include "bloomtable/options.h"
#include "bloomtable/table.h"

namespace bloomtable {

class TableSet {
 public:
  // `options` are the tables' reading options (internal keys, the filter
  // policies, the block cache). `dir` is the database directory. Files are
  // mapped if `mmap`, else read with pread as `file_options` say (direct
  // I/O, io_uring's queue depth), and passed through `wrap` if it is set
  // (DatabaseOptions::wrap_table_file).
  TableSet(std::string dir, Options options, size_t max_open, bool mmap,
           const RandomAccessFileOptions& file_options,
           std::function<std::unique_ptr<RandomAccessFile>(
               std::unique_ptr<RandomAccessFile>)>
               wrap);

  TableSet(const TableSet&) = delete;
  TableSet& operator=(const TableSet&) = delete;

  // The table of `file`, opened at the size the MANIFEST records. Errors
  // name the file: NotFound turned into DataLoss ("missing") so that no
  // caller mistakes a vanished table for an absent key; DataLoss for a file
  // shorter than recorded; Table::Open's errors.
  absl::StatusOr<std::shared_ptr<const Table>> Open(
      const DatabaseTableFile& file);

  // Called once, before any other method: the numbers of the version's
  // tables. If there are at most `max_open` of them, their tables stay open
  // once opened, until the set is destroyed.
  void PinVersion(std::vector<uint64_t> numbers);

  // Called once, before any table is opened: the numbers of the tables
  // that a sidecar filter answers for (sidecar_set.h). They are opened
  // without reading their own filter block, so that no filter is held
  // twice.
  void OmitOwnFilters(std::vector<uint64_t> numbers);

  // For one lookup: sets *table to the table of `file`, valid while *held
  // (which it may leave empty, for a pinned table) or the set lives.
  // Errors as Open's.
  absl::Status OpenForLookup(const DatabaseTableFile& file,
                             std::shared_ptr<const Table>* held,
                             const Table** table);

  // Opens a table file of the directory that the version does not list (a
  // leftover), at its actual size, without caching it.
  absl::StatusOr<std::shared_ptr<const Table>> OpenUnlisted(
      const std::string& name) const;

  const Options& options() const { return options_; }
  size_t open_tables() const;
  // Calls `visit` on every open table, most recently used first, under the
  // lock: `visit` must not call back into the set.
  void ForEachOpen(const std::function<void(const Table&)>& visit) const;

 private:
  absl::StatusOr<std::shared_ptr<const Table>> OpenFile(
      const std::string& name, std::optional<uint64_t> recorded_size,
      const Options& options) const;

  const std::string dir_;
  const Options options_;
  // options_ without filter policies, for the tables OmitOwnFilters names
  // (sorted).
  Options options_without_filters_;
  std::vector<uint64_t> without_filters_;
  const size_t max_open_;
  const bool mmap_;
  const RandomAccessFileOptions file_options_;
  const std::function<std::unique_ptr<RandomAccessFile>(
      std::unique_ptr<RandomAccessFile>)>
      wrap_;
  mutable std::mutex mutex_;
  // Most recently used first.
  std::list<std::pair<uint64_t, std::shared_ptr<const Table>>> lru_;
  std::unordered_map<uint64_t, decltype(lru_)::iterator> by_number_;
  // PinVersion: the version's table numbers, sorted; each one's table once
  // opened (set once, under mutex_), and a pointer to it for lookups.
  std::vector<uint64_t> pinned_numbers_;
  std::unique_ptr<std::shared_ptr<const Table>[]> pinned_owners_;
  std::unique_ptr<std::atomic<const Table*>[]> pinned_tables_;
};

}  // namespace bloomtable

#endif  // BLOOMTABLE_DB_TABLE_SET_H_
