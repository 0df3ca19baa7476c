// LogReader reads a LevelDB log file: the write-ahead log (NNNNNN.log) and
// the MANIFEST, which is a log of version edits (docs/FORMAT.md, "Log
// files").
//
// A log is a sequence of 32 KiB blocks. Each block holds fragments, each with
// a 7-byte header (masked CRC32C of type and payload, 2-byte length, 1-byte
// type); a record is one FULL fragment or a FIRST, MIDDLE*, LAST chain that
// may cross blocks. Fewer than 7 bytes left at the end of a block are a
// zero-filled trailer.
//
// The reader turns the whole file into a sequence of entries that cover it
// exactly, in file order, with no gap and no overlap: the first starts at
// offset 0, each next one starts where the previous ended, and the last ends
// at the file's size (unless an I/O error stops the reading). An entry is
//
//   kRecord    a record whose every fragment passed its checksum: the
//              payload (fragments joined) and the bytes it spans, headers
//              and any block trailer between its fragments included;
//   kPadding   bytes that carry nothing: a block trailer, or zero-type
//              zero-length headers (a writer that preallocated or mapped
//              the file leaves zeros after its data); runs are merged;
//   kDamage    bytes that are neither, with the reason. As LevelDB's
//              reader does, a fragment whose checksum or length is wrong
//              costs the rest of its block (its length cannot be trusted),
//              and reading goes on at the next block; a fragment of an
//              unknown type (7 and up, or 0 with a payload) or of type 6 is
//              skipped alone, reading going on with the next fragment of
//              its block; fragments of a record whose chain is broken are
//              damage too. A record cut short by the end of the file (a torn
//              write after a crash) is damage at the tail;
//   kEndOfLog  a fragment of type 5, which LevelDB's reader takes as its
//              end-of-file marker, and every byte after it: LevelDB reads no
//              further, and neither does this reader. Always the last entry.
//
// Each kDamage entry says whether LevelDB's own reader reports that damage
// to its caller (LogEntry::leveldb_reports): LevelDB's MANIFEST recovery
// fails on reported damage, and passes over the rest silently (a torn tail,
// a block trailer's bytes, what follows zero padding in a block, a lone
// fragment of type 6). A caller that follows LevelDB's recovery applies the
// records in order up to kEndOfLog.
//
// A record is returned only if every fragment of it was read whole and
// passed its checksum (with Options::verify_checksums, the default), so the
// reader never returns bytes that the writer did not write as one record.
// Memory: the reader holds one block, plus the payload of the record being
// assembled, which is never larger than the bytes read for it.
//
// Thread-safety: a LogReader is used by one thread at a time. The file must
// outlive the reader.

#ifndef BLOOMTABLE_INCLUDE_BLOOMTABLE_LOG_READER_H_
#define BLOOMTABLE_INCLUDE_BLOOMTABLE_LOG_READER_H_

#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "bloomtable/file.h"

namespace bloomtable {

// One stretch of a log file; see the file comment.
struct LogEntry {
  enum class Kind { kRecord, kPadding, kDamage, kEndOfLog };

  Kind kind = Kind::kRecord;
  // The stretch of the file: [offset, offset + length).
  uint64_t offset = 0;
  uint64_t length = 0;
  // kRecord: the record's payload, its fragments joined.
  std::string payload;
  // kRecord: how many fragments it had (1 for a FULL fragment).
  int fragments = 0;
  // kDamage and kEndOfLog: what is wrong: "checksum mismatch", "bad record
  // length N", "unknown record type N", "record of type 6 (LevelDB's reader
  // skips it)", "partial record without end", "middle (or last) fragment
  // without a first fragment", "truncated record at end of file",
  // "truncated record header at end of file", "non-zero block trailer",
  // "record of reserved type 0", "data after zero padding in the same
  // block"; for kEndOfLog, "record of type 5, LevelDB's end-of-file marker:
  // LevelDB reads no further".
  std::string reason;
  // kDamage: true if LevelDB's log reader reports this damage to its
  // caller (which fails LevelDB's MANIFEST recovery, and is logged and
  // skipped in its log recovery); false for what it passes over silently.
  bool leveldb_reports = false;
  // kRecord, with Options::salvage only: a record LevelDB's reader would
  // not return, read because salvage repaired one damaged byte of it or
  // resynchronised after damage earlier in its block; `reason` says which.
  bool recovered = false;
};

// Bytes of a log file by what they held, as the entries reported them.
struct LogAccounting {
  uint64_t records = 0;
  uint64_t record_bytes = 0;
  uint64_t padding_bytes = 0;
  uint64_t damaged_ranges = 0;
  uint64_t damaged_bytes = 0;
  // The kEndOfLog entry's bytes: the marker and what follows it.
  uint64_t unread_bytes = 0;
};

class LogReader {
 public:
  struct Options {
    // Check each fragment's CRC32C. Off, a fragment is taken on its length
    // and type alone (for looking at damaged files; never for recovery).
    bool verify_checksums = true;
    // Salvage (with verify_checksums): where LevelDB gives up the rest of a
    // block (a checksum mismatch, a bad length, data after zero padding),
    // first try to repair the fragment: one damaged byte of its type or
    // payload, of its checksum, or of its length, if exactly one such
    // change makes the checksum match (util/crc32c_repair.h); else look for
    // the next fragment in the block whose header and checksum are whole,
    // and read on from there. Records read so are LogEntry::recovered; the
    // bytes passed over are kDamage as before. Off by default: LevelDB's
    // reading.
    bool salvage = false;
  };

  // Reads `file`, whose size is `file_size`. `file` must outlive the reader.
  LogReader(const RandomAccessFile* file, uint64_t file_size,
            const Options& options);
  LogReader(const RandomAccessFile* file, uint64_t file_size);
  ~LogReader();
  LogReader(const LogReader&) = delete;
  LogReader& operator=(const LogReader&) = delete;

  // Sets `*entry` to the next stretch of the file and returns true; returns
  // false at the end of the file or after an I/O error (see status()).
  bool Next(LogEntry* entry);

  // Like Next, but passes over padding and damage (counted in accounting())
  // and returns only records, and returns false at kEndOfLog too: the
  // records LevelDB's recovery reads.
  bool NextRecord(LogEntry* entry);

  // OK, or the file's first read error. Damage is not an error.
  const absl::Status& status() const;

  // Totals of the entries returned so far (and passed over by NextRecord).
  const LogAccounting& accounting() const;

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

// A log (or MANIFEST) file opened for reading, with the size a LogReader
// needs. Owns the file.
struct OpenedLogFile {
  std::unique_ptr<RandomAccessFile> file;
  uint64_t size = 0;
};

// Opens the file at `path` for a LogReader. Errors: the file layer's
// (NotFound naming the path, a directory, ...).
absl::StatusOr<OpenedLogFile> OpenLogFile(const std::string& path);

}  // namespace bloomtable

#endif  // BLOOMTABLE_INCLUDE_BLOOMTABLE_LOG_READER_H_
