// Reading a LevelDB database's MANIFEST: the edits it holds and the live
// version they give (docs/FORMAT.md, "MANIFEST files"). The read-only
// database view is built on this; an engine or a tool can use it alone.
//
// ReadManifest reads one MANIFEST file. ReadVersion reads a database
// directory: CURRENT names the MANIFEST (when CURRENT is missing, malformed
// or names a file that is not there, the MANIFEST-* with the largest number
// is used and the result says so), and the directory's .log files are
// matched against the version's log numbers.
//
// Errors, as absl::Status: the files' own (I/O, NotFound, a file that is not
// a regular file); Unimplemented for a valid database of another engine: a
// MANIFEST with RocksDB's tags (names RocksDB), a Pebble directory (names
// Pebble), a RocksDB directory; DataLoss when no usable version can be had
// (no edit, or the edits never give a log number, a next file number or a
// last sequence).
//
// The MANIFEST is read as LevelDB's recovery (VersionSet::Recover) reads it:
// records up to the end of the file or LevelDB's end-of-file marker (a
// fragment of type 5), a torn tail and what LevelDB's log reader passes
// over silently skipped. What that recovery refuses (damage its log reader
// reports, a record that is not a version edit, an edit naming a comparator
// other than the one an earlier edit named) is listed in
// ManifestContents::damage with ManifestContents::leveldb_status saying
// why; ReadVersion then fails with that DataLoss (naming the MANIFEST and
// the offset), unless ReadVersionOptions::skip_damaged_edits, which applies
// the other edits instead. Nothing is cached: each call reads the files
// anew. Safe from any thread.

#ifndef BLOOMTABLE_INCLUDE_BLOOMTABLE_DB_VERSION_H_
#define BLOOMTABLE_INCLUDE_BLOOMTABLE_DB_VERSION_H_

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "bloomtable/file.h"
#include "bloomtable/log_reader.h"
#include "bloomtable/version_edit.h"

namespace bloomtable {

// The live version: the edits of a MANIFEST applied in order. Each edit
// first deletes its deleted files from their levels, then adds its new files
// (a file added again replaces the entry of the same number on that level);
// a deleted file that is not there is ignored, as LevelDB ignores it.
struct DbVersion {
  // The comparator's name ("leveldb.BytewiseComparator", "idb_cmp1", ...);
  // empty if no edit named one.
  std::string comparator;
  uint64_t log_number = 0;
  uint64_t prev_log_number = 0;  // 0: none
  uint64_t next_file_number = 0;
  uint64_t last_sequence = 0;
  // The latest compaction pointer per level (an internal key); empty: none.
  std::array<std::string, kNumLevels> compaction_pointers;
  // The live table files per level, by file number ascending.
  std::array<std::vector<TableFileInfo>, kNumLevels> files;

  // A log file is live, as LevelDB's recovery picks logs, if its number is
  // at least log_number or is prev_log_number (when that is not 0).
  bool IsLiveLog(uint64_t number) const;
};

// A version edit and where its record lies in the MANIFEST.
struct ManifestEdit {
  uint64_t offset = 0;  // the record's first byte (its first header)
  uint64_t length = 0;  // the bytes the record spans
  VersionEdit edit;
};

struct ManifestContents {
  // The edits that were read whole, decoded and applied, in file order.
  std::vector<ManifestEdit> edits;
  // Stretches of the file that gave no edit, in file order: LogReader's
  // kDamage entries (leveldb_reports as the reader set it), records that
  // passed their checksums but are not version edits (reason "not a version
  // edit: ...", payload kept) and edits naming a second comparator (both
  // reported, as LevelDB's recovery fails on them), and the kEndOfLog
  // entry if the file has LevelDB's end-of-file marker.
  std::vector<LogEntry> damage;
  // The file's bytes by what they held.
  LogAccounting accounting;
  // The edits applied in order.
  DbVersion version;
  // OK if the edits gave a log number, a next file number and a last
  // sequence, as LevelDB requires of a MANIFEST; else DataLoss saying what
  // is missing ("no version edit", "no log number", ...). ReadVersion
  // returns this error; ReadManifest leaves it here, so that a caller can
  // still show the edits.
  absl::Status version_status;
  // OK, or DataLoss "MANIFEST: corrupt at offset N: ..." for the first
  // entry of `damage` that LevelDB's recovery refuses the database for
  // (its offset also as CorruptionOffset's payload). `version` then holds
  // what the other edits give, which LevelDB never uses.
  absl::Status leveldb_status;
};

// Reads the MANIFEST `file` of size `file_size`. Errors: the file's own, and
// Unimplemented for RocksDB's tags; an incomplete version is reported in
// ManifestContents::version_status, not as an error.
absl::StatusOr<ManifestContents> ReadManifest(const RandomAccessFile& file,
                                              uint64_t file_size);

// What CURRENT said.
enum class CurrentFileState {
  kValid,             // CURRENT named a MANIFEST that is there: it was used
  kMissing,           // no CURRENT: the newest MANIFEST-* was used
  kMalformed,         // not "MANIFEST-N\n": the newest MANIFEST-* was used
  kNamesMissingFile,  // its MANIFEST is gone: the newest MANIFEST-* was used
};

struct DatabaseVersion {
  // The MANIFEST that was read ("MANIFEST-000005"), and why it.
  std::string manifest_name;
  CurrentFileState current = CurrentFileState::kValid;
  // What CURRENT held, as read (without its newline); empty if missing.
  std::string current_contents;
  ManifestContents manifest;
  // The numbers of the NNNNNN.log files in the directory that are live
  // (DbVersion::IsLiveLog), ascending: the order LevelDB replays them in.
  std::vector<uint64_t> live_logs;
  // The numbers of the table files (.ldb or .sst) the version names that
  // are not in the directory, ascending. Empty for a whole database.
  std::vector<uint64_t> missing_tables;
  // The file name in the directory of each table the version names that is
  // there, by number: "000012.ldb", or "000012.sst" (the older name) when
  // only that is present.
  std::map<uint64_t, std::string> table_files;
};

struct ReadVersionOptions {
  // Apply the MANIFEST's readable edits even where LevelDB's recovery
  // refuses the MANIFEST (ManifestContents::leveldb_status), instead of
  // failing: each damaged or undecodable record is left out. The version
  // may then be older than the database's own. Default false.
  bool skip_damaged_edits = false;
};

// Reads the database directory `dir`; errors as in the file comment, and
// NotFound when the directory holds neither CURRENT nor any MANIFEST-*.
absl::StatusOr<DatabaseVersion> ReadVersion(
    const std::string& dir, const ReadVersionOptions& options = {});

}  // namespace bloomtable

#endif  // BLOOMTABLE_INCLUDE_BLOOMTABLE_DB_VERSION_H_
