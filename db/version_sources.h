// The sources that the version listing (all_versions.cc) merges when the
// database's comparator is known: the log view, each table file (live or
// leftover) and each leftover log. A source yields its versions in the
// merge's order, by user key under the user comparator, then newest first,
// each with where it came from; it skips versions newer than the snapshot
// and, from its start, user keys below the lower bound.
//
// A table source opens its table only when the merge reaches the table's
// smallest key (from the MANIFEST), reads one data block at a time, and
// lets the table go once read: the listing holds one block per table that
// overlaps its position, never a whole table.
//
// Thread-compatible: one thread at a time. The view's parts a source reads
// (the log view, the table set, the table files' records) must outlive it.

#ifndef BLOOMTABLE_DB_VERSION_SOURCES_H_
#define BLOOMTABLE_DB_VERSION_SOURCES_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "bloomtable/database.h"
#include "db/log_view.h"
#include "db/table_set.h"

namespace bloomtable {

// One version as a source holds it: the views are valid until the source
// moves.
struct SourceVersion {
  std::string_view user_key;
  uint64_t sequence = 0;
  bool deletion = false;
  std::string_view value;
  const std::string* file = nullptr;  // the directory's file name
  uint64_t offset = 0;
  bool recovered = false;  // read only by salvage (LogView::Record)
};

// What every source shares: the user comparator (known), the snapshot and
// the lower bound (a user key; none if empty).
struct SourceSettings {
  const Comparator* user_comparator = nullptr;
  uint64_t snapshot = 0;
  std::optional<std::string> lower_bound;
};

// Calls `add` with every Put and Delete of the write batches in the log at
// `path`, in file order, with the offset of the record holding its batch;
// a record that is not a whole write batch gives nothing. Errors: the
// file's, or the reader's (after what was read before).
absl::Status ForEachLogVersion(
    const std::string& path,
    const std::function<void(uint64_t sequence, std::string_view user_key,
                             bool deletion, std::string_view value,
                             uint64_t offset)>& add);

class VersionSource {
 public:
  virtual ~VersionSource();

  // Before Start, the merge orders the source by this key: a user key and
  // sequence that no version of the source precedes; false if the source
  // knows none (it may hold the first version of all: it starts first).
  virtual bool StartKey(std::string_view* user_key,
                        uint64_t* sequence) const = 0;
  // Reads up to the first version. A source that cannot be read is !Valid()
  // with status() saying why.
  virtual void Start() = 0;
  virtual bool Valid() const = 0;
  // REQUIRES: Valid().
  virtual const SourceVersion& version() const = 0;
  // REQUIRES: Valid().
  virtual void Next() = 0;
  // The error that ended the source, or that it met while reading what it
  // holds (a leftover log's damaged tail).
  virtual absl::Status status() const = 0;
};

// The live logs' records, which the view holds sorted.
std::unique_ptr<VersionSource> NewLogViewSource(const LogView* view,
                                                const SourceSettings& settings);

// A table the version lists: opened through `tables` when first needed;
// not at all if it lies wholly below the lower bound.
std::unique_ptr<VersionSource> NewLiveTableSource(
    TableSet* tables, const DatabaseTableFile* file,
    const SourceSettings& settings);

// A table file the version does not list, opened at Start; one that does
// not open as a table (the unfinished output of a compaction) holds nothing
// and is no error.
std::unique_ptr<VersionSource> NewLeftoverTableSource(
    TableSet* tables, std::string name, const SourceSettings& settings);

// A log the version does not list: read whole and sorted at Start (a log is
// at most a write buffer's worth of records).
std::unique_ptr<VersionSource> NewLeftoverLogSource(
    std::string dir, std::string name, const SourceSettings& settings);

}  // namespace bloomtable

#endif  // BLOOMTABLE_DB_VERSION_SOURCES_H_
