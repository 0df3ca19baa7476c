// Database is a read-only view of a whole LevelDB database directory: the
// tables the MANIFEST lists as live, level by level, and the records of the
// live logs, as LevelDB itself would see them after recovery.
//
// It never writes into the directory and takes no LOCK: it may open a copy,
// a read-only mount, or a directory that a running program holds, and reads
// a state as consistent as the files allow (a table that vanished between
// the MANIFEST and a read is an error for the reads that need it, never
// fatal to the view). Tables are opened when first needed, and at most
// DatabaseOptions::max_open_files of them are kept open.
//
// Every variant the table reader reads is read here: LevelDB and its
// bindings, upstream zstd tables, goleveldb and geth (their older Bloom
// filter name included), Mojang's Bedrock fork (zlib and raw-deflate blocks).
//
// Thread-safety: a Database is immutable after OpenReadOnly, except for its
// table cache, which is locked: Get, MultiGet, NewIterator and ListVersions
// may be called from many threads at once. An iterator is used by one thread
// at a time and must not outlive its Database.

#ifndef BLOOMTABLE_INCLUDE_BLOOMTABLE_DATABASE_H_
#define BLOOMTABLE_INCLUDE_BLOOMTABLE_DATABASE_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "bloomtable/cache.h"
#include "bloomtable/comparator.h"
#include "bloomtable/file.h"
#include "bloomtable/filter_policy.h"
#include "bloomtable/iterator.h"
#include "bloomtable/pinned_value.h"
#include "bloomtable/sidecar.h"
#include "bloomtable/table.h"

namespace bloomtable {

// What the view reads past, with a warning, where leveldb::DB::Open (with
// its default Options) refuses the database. Everything off by default: the
// view then answers as LevelDB does, or refuses where it refuses.
// SalvageOptions::All() turns on every kind this library can skip, which is
// what the tool's --salvage and Python's salvage=True ask for.
struct SalvageOptions {
  // MANIFEST records that LevelDB's recovery refuses (damage its log
  // reader reports, records that are not version edits, an edit naming a
  // second comparator) are left out, each with a warning naming the
  // MANIFEST and the offset, and the version is what the other edits give:
  // possibly older than the database's own, so that Get may return a value
  // the database has since overwritten.
  bool manifest_edits = false;

  // Log regions LevelDB's recovery gives up (the rest of a block after a
  // checksum mismatch or a bad length): a fragment with one damaged byte
  // (of its payload, type, checksum or length) is repaired when exactly one
  // such change makes its checksum match, and after damage the reader
  // resynchronises at the next whole fragment of the block. Records read
  // so are in the view, and ListVersions gives them RecordStatus::
  // kRecovered; a warning names each. Live and leftover logs alike.
  bool log_regions = false;

  // Damaged tables. Every table is read whole at open (its entries held in
  // memory, decompressed): a data block whose checksum fails is repaired
  // if one damaged byte explains it, else skipped; a table whose footer or
  // index cannot be read is walked from its first byte, its blocks found by
  // their checksums; a missing table is skipped. A MANIFEST that gives no
  // version at all (DataLoss) makes every table and log of the directory
  // live, as leveldb::RepairDB would (the comparator is then
  // DatabaseOptions::comparator, or bytewise). A warning names each block,
  // table and file with its offset and what was wrong. Nothing is read that
  // no checksum vouches for.
  bool table_blocks = false;

  // Every kind of damage the view can skip.
  static SalvageOptions All();
};

struct DatabaseOptions {
  // The comparator the caller says the database was written with. Set:
  // OpenReadOnly refuses (InvalidArgument, as leveldb::DB::Open refuses) a
  // database whose MANIFEST names another, and orders keys with it. Null
  // (the default): the comparator the MANIFEST names, if it is built in
  // ("leveldb.BytewiseComparator"; "idb_cmp1", IndexedDBComparator()) or
  // one of `comparators`. Must outlive the Database.
  const Comparator* comparator = nullptr;

  // Comparators the database may name in its MANIFEST, besides the built-in
  // ones. Each must outlive the Database. A database naming none of them
  // still opens: see Database::ordered().
  std::vector<const Comparator*> comparators;

  // Filter policies a table may name. Empty (the default): every policy the
  // library has (LevelDB's Bloom filter under both of its names, the
  // cache-local Bloom and Ribbon filters).
  std::vector<std::shared_ptr<const FilterPolicy>> filter_policies;

  // A cache of uncompressed data blocks shared by the tables (NewLRUCache);
  // null (the default): none.
  std::shared_ptr<Cache> block_cache;

  // Tables kept open at once (at least 1; default 1000). A table beyond the
  // limit closes the one least recently used, to be opened again when
  // needed: a low limit costs re-opening (reading footer, index and filter
  // again); a high one costs a file descriptor and the index and filter's
  // memory per table. An open table keeps its file readable even if the
  // writer deletes it meanwhile (a compaction); a closed one must be found
  // again by name.
  int max_open_files = 1000;

  // Also read, for ListVersions, the table and log files in the directory
  // that the MANIFEST's version does not list (leftovers of compactions, old
  // logs); their records get RecordStatus::kLeftover. Off by default. Get
  // and iterators never read them. A leftover file that does not open as a
  // table (LevelDB leaves a compaction's unfinished output behind when it
  // closes during one) is skipped; damage met while reading one that opened
  // is ListVersions' error.
  bool read_leftovers = false;

  // Read table files through memory maps (OpenMmapRandomAccessFile) instead
  // of pread (the default, false). See file.h for what a mapped file risks
  // (SIGBUS if a file is truncated while mapped): use it on a copy or a
  // directory that no writer changes.
  bool mmap_reads = false;

  // Read table files with O_DIRECT (RandomAccessFileOptions::use_direct_io),
  // past the page cache: for callers that keep their own block cache
  // (block_cache) and for measurements that must reach the device. Every
  // data-block read is then a device read, aligned to kDirectIOAlignment.
  // OpenReadOnly fails with InvalidArgument if mmap_reads is set too; a
  // table on a file system that refuses O_DIRECT fails the lookups that
  // need it (InvalidArgument naming the file). Default false.
  bool use_direct_io = false;

  // Most reads one table file's MultiRead (a MultiGet's blocks of that
  // table) keeps in flight through io_uring
  // (RandomAccessFileOptions::io_uring_queue_depth, clamped to [1, 4096]).
  // Default 32.
  uint32_t io_uring_queue_depth = 32;

  // Threads on which MultiGet reads the missing data blocks of different
  // tables at once (each table's blocks still with one MultiRead), so that
  // reads of many files wait on the device together: worth it where a
  // block read is a device read (use_direct_io, or a cold page cache), not
  // where it is a copy from the page cache, which costs less than handing
  // it to a thread. Started by the first MultiGet that reads from two
  // tables; stopped when the Database is destroyed. Default 0: one table's
  // reads after another, on the calling thread.
  int multi_get_read_threads = 0;

  // Reading past damage that LevelDB refuses (see SalvageOptions). Default:
  // none; OpenReadOnly then fails where leveldb::DB::Open fails.
  SalvageOptions salvage;

  // Called on every table file the view opens (listed or leftover), once,
  // with the file as opened; the view reads the file it returns instead, e.g.
  // NewCountingRandomAccessFile to count reads. Called from any thread that
  // opens a table, so it must be thread-safe. Null (the default): files are
  // read as opened. Logs and the MANIFEST are not passed to it.
  std::function<std::unique_ptr<RandomAccessFile>(
      std::unique_ptr<RandomAccessFile>)>
      wrap_table_file;

  // Sidecar filters (bloomtable/sidecar.h): a directory of sidecars that
  // BuildSidecarFilters (or `bloomtable index DIR --into FILTERS_DIR`) wrote
  // for this database. Each one bound to its table is read at open (with a
  // few small reads at the end of its table: no data block) and asked by
  // Get before the table, and by bounded iterators before they open the
  // table; a table with one is opened without its own filter block, so
  // that no filter is held twice. A sidecar that is missing, stale, damaged
  // or foreign is not used (a warning says why) and the table's own filter
  // answers. Empty (the default): none.
  std::string filters_dir;

  // Build a sidecar filter in memory for every table that has none (in
  // filters_dir, or at all), on a background thread started by
  // OpenReadOnly, level 0 first: opening still reads no data block, and
  // each table's filter is asked as soon as it is built (until then, the
  // table's own filter answers). Nothing is written anywhere. The thread
  // reads each table whole once; it stops when the Database is destroyed.
  // A table opened before its filter was built keeps its own filter too.
  bool build_filters_in_memory = false;
  // What the in-memory filters hold (default: whole-table Ribbon, 10 bits
  // per key).
  SidecarFilterOptions in_memory_filters;
};

struct DatabaseReadOptions {
  // Read the database as it was at this sequence number: versions written
  // later are ignored. Unset (the default): the newest state, as of
  // Database::last_sequence() (what LevelDB reads).
  std::optional<uint64_t> sequence;

  // Iterators and the version listing: user keys in [lower_bound,
  // upper_bound). The listing needs ordered() for them (FailedPrecondition
  // otherwise).
  std::optional<std::string> lower_bound;
  std::optional<std::string> upper_bound;

  // Verify the checksum of every data block read (default true).
  bool verify_checksums = true;

  // Put the data blocks read into DatabaseOptions::block_cache (default true).
  bool fill_cache = true;

  // Iterators only: how far a table's iterator reads ahead when it moves
  // forward block after block (ReadOptions::max_readahead_size; 0: never).
  size_t max_readahead_size = 256 * 1024;
};

// A table file the version lists.
struct DatabaseTableFile {
  int level = 0;
  uint64_t number = 0;
  uint64_t size = 0;     // the size the MANIFEST records
  std::string smallest;  // internal keys
  std::string largest;
  std::string name;  // the file's name in the directory
};

// A log file whose records the view holds.
struct DatabaseLogFile {
  uint64_t number = 0;
  std::string name;
  uint64_t records = 0;  // Put and Delete records read from it
  uint64_t damaged = 0;  // damaged byte ranges skipped
  // The smallest and largest sequence number of its records (0 if none).
  uint64_t min_sequence = 0;
  uint64_t max_sequence = 0;
};

// Statistics of the tables a Database holds open.
struct DatabaseStats {
  // Tables open now (at most DatabaseOptions::max_open_files).
  uint64_t open_tables = 0;
  // The sum of the open tables' TableStats. A table closed by the
  // max_open_files limit takes its counts with it: with fewer tables than
  // the limit, nothing is lost.
  TableStats tables;
  // The sum of the open tables' Table::ApproximateMemoryUsage.
  uint64_t table_memory_bytes = 0;

  // Sidecar filters (DatabaseOptions::filters_dir, build_filters_in_memory):
  // tables whose sidecar is in use, and the bytes those filters hold.
  uint64_t sidecar_tables = 0;
  uint64_t sidecar_memory_bytes = 0;
  // Get's questions to a sidecar's filter, and the answers "absent", each a
  // table not asked at all.
  uint64_t sidecar_filter_checks = 0;
  uint64_t sidecar_filter_negatives = 0;
  // Bounded iterators' questions to a sidecar's prefix or range filter, and
  // the answers "no key in range", each a table not opened.
  uint64_t sidecar_range_checks = 0;
  uint64_t sidecar_range_negatives = 0;
  // build_filters_in_memory: tables whose filter is still to be built, and
  // those that could not be read (they answer through their own filter).
  uint64_t sidecars_pending = 0;
  uint64_t sidecar_build_failures = 0;
};

// What RecordStatus a version has in ListVersions.
enum class RecordStatus {
  kLive,         // the newest version of its key, a value: what Get returns
  kOverwritten,  // a newer value of the key exists
  kDeleted,      // a deletion marker that is the newest version, or a value
                 // that the next newer version (a deletion marker) deletes
  kLeftover,     // only in a file the MANIFEST's version does not list
  kRecovered,    // read only by salvage (SalvageOptions::log_regions): a
                 // log record LevelDB's recovery skips
};

std::string_view RecordStatusName(RecordStatus status);

// One version of one key, as ListVersions yields it.
struct VersionRecord {
  std::string user_key;
  uint64_t sequence = 0;
  bool deletion = false;
  std::string value;  // empty for a deletion
  // Where it came from: a file name of the directory, and for a log the
  // offset of the record holding its batch, for a table the offset of the
  // data block holding it.
  std::string file;
  uint64_t offset = 0;
  RecordStatus status = RecordStatus::kLive;
};

// The version listing, one record at a time (Database::NewVersionStream).
// Used by one thread at a time; must not outlive its Database.
class VersionStream {
 public:
  VersionStream() = default;
  VersionStream(const VersionStream&) = delete;
  VersionStream& operator=(const VersionStream&) = delete;
  virtual ~VersionStream();

  // Sets `*record` (reusing its strings' buffers) to the next version and
  // returns true; false at the end.
  virtual bool Next(VersionRecord* record) = 0;
  // The first error met so far, in the order of the files (logs, tables
  // level by level, leftover logs, leftover tables): a file that cannot be
  // read ends its own part of the listing, not the listing.
  virtual absl::Status status() const = 0;
};

class Database {
 public:
  // Opens the database in `dir`: reads CURRENT and the MANIFEST it names
  // (or the newest MANIFEST present, with a warning), then the live logs,
  // whose records it keeps in memory, as leveldb::DB::Open recovers them
  // (docs/DESIGN.md, "The view answers as LevelDB does", says where it
  // differs on purpose). Tables are opened when first needed. Errors:
  // NotFound when `dir` holds no LevelDB database (no CURRENT and no
  // MANIFEST); DataLoss for a MANIFEST that cannot be read or that LevelDB's
  // recovery refuses (naming the MANIFEST and the offset; see
  // DatabaseOptions::salvage); Unimplemented for a directory of another
  // engine (RocksDB, Pebble); FailedPrecondition for a CURRENT or MANIFEST
  // that is not a regular file (a FIFO, a device, a socket: never opened
  // for reading in a way that could block). Damaged log records and tables
  // listed but missing do not fail the open: see warnings().
  static absl::StatusOr<std::unique_ptr<Database>> OpenReadOnly(
      const std::string& dir, const DatabaseOptions& options = {});

  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;
  ~Database();

  // The newest value of `user_key` (as of read_options.sequence; unset:
  // last_sequence(), as LevelDB reads, so that a write recorded past it is
  // not seen). NotFound
  // if it has none or its newest version is a deletion. A table on the
  // lookup's path that is missing, shorter than recorded or damaged is an
  // error (DataLoss or the file's error naming it), never a reason to answer
  // from an older level. FailedPrecondition if !ordered(). InvalidArgument
  // if the comparator cannot order `user_key` itself (an IndexedDB
  // database's comparator and a key that is not an encoded IndexedDB key);
  // DataLoss naming the key if it cannot order a key of the database met on
  // the way (ReportComparisonError).
  absl::StatusOr<std::string> Get(const DatabaseReadOptions& read_options,
                                  std::string_view user_key) const;
  // As above without copying a value found in a table: `*value` is pinned
  // to the data block holding it (the block cache's, or the one read for
  // this call; Table::Get(..., PinnedValue*)). A value found in the log
  // view, which has no block, is copied into `*value` (pinned() false).
  // Answers as the copying Get: on any error or NotFound `*value` is left
  // empty. The value stays valid until `*value` lets go of it, even after
  // this Database is destroyed, with mmap_reads or without: every data
  // block owns its bytes (a mapped file's are copied out of the mapping),
  // so a pinned value never points into a file, a mapping or the
  // Database's memory. Holding it holds its block (pinned_value.h says
  // what that costs). `user_key` may lie in what `*value` holds. A block
  // cache hit into a reused PinnedValue allocates nothing.
  absl::Status Get(const DatabaseReadOptions& read_options,
                   std::string_view user_key, PinnedValue* value) const;

  // Get for many keys at once: one result per key, in the order of
  // `user_keys`, each what Get returns for that key (a value, NotFound,
  // or an error of that key alone: a damaged table fails only the keys
  // whose lookups reach it). Keys may repeat and need not be sorted; an
  // empty batch gives an empty result. Each key asks the log view, then
  // the tables Get would ask, in Get's order, each table's sidecar filter
  // first, stopping at the newest version it finds; the keys at one table
  // are looked up there together (Table::MultiGetVersion: the table's
  // filter per key, then one read per distinct data block, the blocks
  // read together), so that keys in one block cost one read. The lookups
  // run in rounds, each key asking its next table: a round's keys are
  // looked up together whatever their tables (filters and index searches
  // first, then every table's missing blocks, on
  // DatabaseOptions::multi_get_read_threads where set, then the searches
  // in the blocks).
  std::vector<absl::StatusOr<std::string>> MultiGet(
      const DatabaseReadOptions& read_options,
      const std::vector<std::string_view>& user_keys) const;
  // As above without copying the values: one status per key, and
  // (*values)[i] holding key i's value as Get(..., PinnedValue*) holds it
  // (pinned to its data block; a value in the log view copied), empty where
  // the status is not OK. `*values` is resized to the batch; what it held
  // before is released after the lookups, so keys may lie in it. A pinned
  // value outlives this Database (see Get).
  std::vector<absl::Status> MultiGet(
      const DatabaseReadOptions& read_options,
      const std::vector<std::string_view>& user_keys,
      std::vector<PinnedValue>* values) const;

  // An iterator over user keys (the newest version of each, deletions
  // hidden), in the comparator's order, forward or reverse, within the
  // bounds. key() is a user key. On a damaged or missing table, or a key
  // the comparator cannot order (ReportComparisonError), it becomes
  // !Valid() with status() saying why (DataLoss naming the key). If !ordered(),
  // the iterator is !Valid() at once with a FailedPrecondition status.
  std::unique_ptr<Iterator> NewIterator(
      const DatabaseReadOptions& read_options) const;

  // Every version of every key in the live tables and logs (and the
  // leftover files with DatabaseOptions::read_leftovers), with its status
  // as of read_options.sequence (later versions are left out). Ordered by
  // user key, newest first, if ordered(); else in file order (logs, then
  // tables level by level). `visit` returns false to stop. Needs the
  // comparator only for the order: works on every database. Errors are the
  // first unreadable table or leftover file's; what was read before is
  // visited.
  absl::Status ListVersions(
      const DatabaseReadOptions& read_options,
      const std::function<bool(const VersionRecord&)>& visit) const;

  // ListVersions as a stream, for callers that take the records at their
  // own pace. With ordered(), the listing is a merge of the log view, the
  // tables and (with read_leftovers) the leftover files in key order, and
  // it holds one data block per table that overlaps its position (a
  // leftover log whole): its memory does not grow with the database. Without
  // (file order), the whole listing is gathered first, since a version's
  // status depends on versions in other files; so it is when salvage read
  // the tables into memory at open (SalvageOptions::table_blocks).
  std::unique_ptr<VersionStream> NewVersionStream(
      const DatabaseReadOptions& read_options) const;

  // At most `parts - 1` user keys, increasing, that cut the database into
  // `parts` key ranges of about equal bytes in its tables and logs: (-inf,
  // k1), [k1, k2), ..., [kn, +inf), for scans that split the work (each
  // range an iterator's bounds). From the MANIFEST's key ranges, the index
  // blocks of tables larger than a range's share and the log view: no data
  // block is read. Fewer keys when the database is too small to tell ranges
  // apart. FailedPrecondition if !ordered(); a table that cannot be opened
  // is that table's error.
  absl::StatusOr<std::vector<std::string>> ApproximateSplitKeys(
      size_t parts) const;

  // True if the database's comparator is known (built in, given as
  // DatabaseOptions::comparator, or one of DatabaseOptions::comparators):
  // Get and iterators need it.
  bool ordered() const;
  // The comparator name the MANIFEST records.
  const std::string& comparator_name() const;
  // The table files of the version, by level, then as the level orders them
  // (level 0: newest first).
  const std::vector<DatabaseTableFile>& tables() const;
  // The live logs, oldest first.
  const std::vector<DatabaseLogFile>& logs() const;
  // The last sequence number, as LevelDB's recovery sets it: the
  // MANIFEST's, or the largest a log batch's header gives (its sequence
  // plus its count, less 1), at most 2^56 - 1.
  uint64_t last_sequence() const;
  // The MANIFEST read (its file name).
  const std::string& manifest() const;
  // Problems found at open that did not fail it, one line each: a MANIFEST
  // found without CURRENT, damaged log records skipped, a torn log tail, a
  // malformed write batch (and how much of it was applied), LevelDB's
  // end-of-file marker in a log, what salvage skipped. Each names its file
  // and, where it has one, the offset.
  const std::vector<std::string>& warnings() const;

  // True if salvage (DatabaseOptions::salvage) skipped, repaired or
  // recovered anything, or damage was skipped in a log: the answers are
  // partial. warnings() names each.
  bool salvaged() const;

  // Statistics of the tables open now; opens none. Thread-safe.
  DatabaseStats GetStats() const;

  // The table file of the version numbered `number`, opened (or taken from
  // the open-table cache). For verification and statistics.
  absl::StatusOr<std::shared_ptr<const Table>> OpenTable(
      const DatabaseTableFile& file) const;

 private:
  struct Rep;
  explicit Database(std::unique_ptr<Rep> rep);
  // Both Gets: the value copied into `*value`, or with `pinned` set, pinned
  // into `*pinned` (`value` then unused).
  absl::Status GetInto(const DatabaseReadOptions& read_options,
                       std::string_view user_key, std::string* value,
                       PinnedValue* pinned) const;
  // GetInto once the key is known to be one the comparator orders.
  absl::Status GetOrdered(const DatabaseReadOptions& read_options,
                          std::string_view user_key, std::string* value,
                          PinnedValue* pinned) const;
  // Both MultiGets: (*statuses)[i] is key i's answer, its value copied into
  // (*values)[i], or with `pinned` set pinned into (*pinned)[i] (sized to
  // the batch by the caller; `values` then unused).
  void MultiGetInto(const DatabaseReadOptions& read_options,
                    const std::vector<std::string_view>& user_keys,
                    std::vector<absl::Status>* statuses,
                    std::vector<std::string>* values,
                    std::vector<PinnedValue>* pinned) const;
  // MultiGetInto once the keys are known to be ones the comparator orders.
  void MultiGetOrdered(const DatabaseReadOptions& read_options,
                       const std::vector<std::string_view>& user_keys,
                       std::vector<absl::Status>* statuses,
                       std::vector<std::string>* values,
                       std::vector<PinnedValue>* pinned) const;
  std::unique_ptr<Rep> rep_;
};

}  // namespace bloomtable

#endif  // BLOOMTABLE_INCLUDE_BLOOMTABLE_DATABASE_H_
