// Sidecar filters: a bloomtable filter for each table of a LevelDB database
// (or for one table file), kept in a directory of their own, outside the
// database, which is never written. A LevelDB table carries LevelDB's
// per-block Bloom filter, asked only after an index search and weak on keys
// that differ in their last bytes; its sidecar holds one filter over all of
// its keys (whole-table Ribbon at 10 stored bits per key by default) that
// Database::Get asks before the table itself, so that an absent key usually
// costs one filter probe per table and no index search. Optional prefix and
// range filters let bounded iterators skip tables too.
//
//   bloomtable::SidecarBuildOptions options;     // Ribbon, 10 bits per key
//   auto summary = bloomtable::BuildSidecarFilters("app/db", "app/db.filters",
//                                                  options);
//   bloomtable::DatabaseOptions db_options;
//   db_options.filters_dir = "app/db.filters";
//   auto db = bloomtable::Database::OpenReadOnly("app/db", db_options);
//
// Each sidecar file (docs/FORMAT.md, "Sidecar filter files") is bound to its
// table by what proves it is the same file without reading it whole: the
// table's number and size, its footer, the checksums of its index and meta
// blocks (LevelDB's filter block among them, which covers every key), and
// the key range the MANIFEST records. It carries a CRC32C of its own and is
// written through WriteFileDurably (temporary file, sync, rename), so that
// builders running at once into one directory never leave a partial file. A
// sidecar that is missing, stale (its table was replaced), damaged or
// foreign is not used: the view warns and asks the table's own filter. A
// filter never answers "absent" for a key its table holds.
//
// The functions are thread-safe; separate processes may build into one
// directory at once (each writes whole files; the last rename wins).

#ifndef BLOOMTABLE_INCLUDE_BLOOMTABLE_SIDECAR_H_
#define BLOOMTABLE_INCLUDE_BLOOMTABLE_SIDECAR_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "bloomtable/filter_policy.h"
#include "bloomtable/prefix_extractor.h"

namespace bloomtable {

// What a sidecar holds.
struct SidecarFilterOptions {
  // The filter of each table's keys (user keys of a database's tables, each
  // distinct key once; deletion markers included, since a lookup stops at
  // them). Null (the default): NewRibbonFilterPolicy(10), a whole-table
  // Ribbon filter of 10 stored bits per key (about 0.1% false positives).
  // Any policy works: its whole-table filter is what is stored.
  std::shared_ptr<const FilterPolicy> filter_policy;

  // Also a prefix filter of the keys' prefixes under this extractor (a
  // built-in one: NewFixedPrefixExtractor, ...), stored with the
  // point filter's policy: iterators whose bounds lie within one prefix skip
  // the tables that hold none. Null (the default): none.
  std::shared_ptr<const PrefixExtractor> prefix_extractor;

  // Also a range filter ("bloomtable.Grafite", Options::
  // range_filter_bits_per_key) of this many bits per key: iterators with
  // both bounds skip the tables that hold no key in them. 0 (the default):
  // none. Needs the bytewise comparator (a database of another comparator
  // gets no range filter).
  double range_filter_bits_per_key = 0;
  uint64_t range_filter_max_range_length = 64;
};

// How far a build has got, for a progress display.
struct SidecarBuildProgress {
  uint64_t tables_done = 0;  // tables finished (built, kept or failed)
  uint64_t tables_total = 0;
  uint64_t keys_done = 0;  // keys read so far
};

struct SidecarBuildOptions {
  SidecarFilterOptions filters;

  // Tables built at once, each on a thread of its own (at least 1).
  int threads = 1;

  // Remove the sidecars of tables the database no longer lists (a
  // compaction deleted them); without it they are only listed.
  bool prune = false;

  // Called as the build progresses (after each table, and every 65,536 keys
  // within one), from the building threads, one call at a time. Null: none.
  std::function<void(const SidecarBuildProgress&)> progress;
};

struct SidecarBuildSummary {
  uint64_t tables = 0;      // tables of the database (1 for a table file)
  uint64_t built = 0;       // sidecars written
  uint64_t up_to_date = 0;  // sidecars already bound to their table and
                            // built with the same settings: kept
  uint64_t entries = 0;     // entries read from the tables built
  uint64_t keys = 0;        // distinct keys in the sidecars written
  uint64_t bytes = 0;       // bytes of the sidecars written
  double seconds = 0;       // wall time of the call
  // Tables whose sidecar could not be built ("NAME: reason": a damaged or
  // missing table). The others are built regardless.
  std::vector<std::string> failed;
  // Sidecar files of tables the database no longer lists, and those
  // removed (with SidecarBuildOptions::prune).
  std::vector<std::string> orphaned;
  std::vector<std::string> pruned;
};

// Builds a sidecar for every table of the LevelDB database in `db_dir` that
// has none in `sidecar_dir` (created if missing) bound to it and built with
// these settings: an incremental build after the writer compacted builds
// only the new tables. Reads the MANIFEST, never the logs, and writes
// nothing into `db_dir`. Errors: InvalidArgument if `sidecar_dir` is
// `db_dir` or inside it; ReadVersion's (NotFound: not a database); the
// sidecar directory's. A table that cannot be read is listed in `failed`,
// not an error.
absl::StatusOr<SidecarBuildSummary> BuildSidecarFilters(
    const std::string& db_dir, const std::string& sidecar_dir,
    const SidecarBuildOptions& options = {});

// The same for one table file (plain keys, or a database's internal keys,
// whose user keys are filtered): its sidecar is bound by size, footer and
// block checksums (there is no MANIFEST to record a number or keys). A
// table that cannot be read is this call's error (the file's, or DataLoss
// naming the damage).
absl::StatusOr<SidecarBuildSummary> BuildTableFileSidecarFilter(
    const std::string& table_path, bool internal_keys,
    const std::string& sidecar_dir, const SidecarBuildOptions& options = {});

// The name of the sidecar of the table file named `table_file_name` (no
// directory): "000123.ldb" -> "000123.ldb.sidecar".
std::string SidecarFileName(std::string_view table_file_name);

// The sidecar files of `sidecar_dir` whose table the database in `db_dir`
// no longer lists (file names, sorted); removes them if `prune`.
absl::StatusOr<std::vector<std::string>> ListOrphanedSidecars(
    const std::string& db_dir, const std::string& sidecar_dir, bool prune);

}  // namespace bloomtable

#endif  // BLOOMTABLE_INCLUDE_BLOOMTABLE_SIDECAR_H_
