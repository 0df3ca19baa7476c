// The names of the files in a LevelDB database directory, and what a log
// file holds by its content (docs/FORMAT.md, "A database directory").
//
//   NNNNNN.log        write-ahead log           (kLog, number NNNNNN)
//   NNNNNN.ldb        table                     (kTable)
//   NNNNNN.sst        table, the older name     (kTable)
//   MANIFEST-NNNNNN   version edits             (kManifest)
//   CURRENT           names the live MANIFEST   (kCurrent)
//   LOCK              the writer's lock         (kLock)
//   LOG, LOG.old      the info log (text)       (kInfoLog)
//   NNNNNN.dbtmp      a temporary file          (kTemp)
//
// Numbers have at least 6 digits in LevelDB's names, but any run of decimal
// digits that fits 64 bits is accepted. Pure functions, safe from any thread.

#ifndef BLOOMTABLE_INCLUDE_BLOOMTABLE_DB_FILES_H_
#define BLOOMTABLE_INCLUDE_BLOOMTABLE_DB_FILES_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "bloomtable/file.h"

namespace bloomtable {

enum class DbFileType {
  kLog,
  kTable,
  kManifest,
  kCurrent,
  kLock,
  kInfoLog,
  kTemp,
};

struct DbFileName {
  DbFileType type = DbFileType::kLog;
  uint64_t number = 0;  // 0 for CURRENT, LOCK, LOG and LOG.old
};

// Parses a file's name (no directory part); nullopt for any other name.
std::optional<DbFileName> ParseDbFileName(std::string_view name);

// "000123.log", "000123.ldb", "000123.sst", "MANIFEST-000123".
std::string LogFileName(uint64_t number);
std::string TableFileName(uint64_t number);
std::string SstTableFileName(uint64_t number);
std::string ManifestFileName(uint64_t number);

// What a file holds, judged by its content (not its name).
enum class LogContents {
  kWriteAheadLog,  // its first record is a write batch
  kManifest,       // its first record is a version edit
  kEmptyLog,       // no record and no damage: empty, or only padding
  kNotALog,        // anything else
};

// Reads `file` (size `file_size`) with LogReader up to its first record,
// within the first kIdentifyLogScanLimit bytes, and tells what that record
// holds: a record that decodes as a version edit is kManifest (a LevelDB
// MANIFEST starts with one naming the comparator), else one that decodes as
// a write batch is kWriteAheadLog; else a version edit with RocksDB's tags
// is kManifest and a batch with RocksDB's tags kWriteAheadLog (reading them
// then says Unimplemented); else kNotALog. Damage before the first record is
// passed over (a log whose first block is damaged is still a log). Errors: only
// the file's own read errors.
absl::StatusOr<LogContents> IdentifyLogContents(const RandomAccessFile& file,
                                                uint64_t file_size);

// How far IdentifyLogContents looks for a first record: 32 blocks.
inline constexpr uint64_t kIdentifyLogScanLimit = 32 * 32768;
}  // namespace bloomtable

#endif  // BLOOMTABLE_INCLUDE_BLOOMTABLE_DB_FILES_H_
