// VersionEdit is one record of a LevelDB MANIFEST: a change to the set of
// live table files and to the database's counters (docs/FORMAT.md,
// "MANIFEST files"). A MANIFEST is a log (log_reader.h) of edits; applying
// them in order gives the live version (db_version.h).
//
// An edit is a sequence of (varint32 tag, fields) pairs:
//
//   1 comparator name         length-prefixed bytes
//   2 log number              varint64
//   3 next file number        varint64
//   4 last sequence           varint64
//   5 compaction pointer      varint32 level, length-prefixed internal key
//   6 deleted file            varint32 level, varint64 file number
//   7 new file                varint32 level, varint64 number, varint64
//                             size, length-prefixed smallest and largest
//                             internal keys
//   9 previous log number     varint64
//
// DecodeFrom is DataLoss for a truncated field, an unknown tag, a level past
// kNumLevels - 1 or an internal key shorter than its 8-byte tag (LevelDB
// takes any non-empty key there, and later reads out of bounds taking its
// user key: refused here, the message saying so); it is
// Unimplemented, naming RocksDB, for a tag that only RocksDB writes (10, 100
// and up: column families, newer file metadata, ...). A plain struct: no
// locking; safe from any thread when not shared with a writer.

#ifndef BLOOMTABLE_INCLUDE_BLOOMTABLE_VERSION_EDIT_H_
#define BLOOMTABLE_INCLUDE_BLOOMTABLE_VERSION_EDIT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"

namespace bloomtable {

// LevelDB's number of levels.
inline constexpr int kNumLevels = 7;

// A table file as the MANIFEST describes it.
struct TableFileInfo {
  uint64_t number = 0;
  uint64_t size = 0;
  // Internal keys: user key + fixed64 (sequence << 8 | type).
  std::string smallest;
  std::string largest;

  bool operator==(const TableFileInfo& other) const;
};

struct VersionEdit {
  std::optional<std::string> comparator;
  std::optional<uint64_t> log_number;
  std::optional<uint64_t> prev_log_number;
  std::optional<uint64_t> next_file_number;
  std::optional<uint64_t> last_sequence;

  struct CompactionPointer {
    int level = 0;
    std::string key;  // an internal key
  };
  struct DeletedFile {
    int level = 0;
    uint64_t number = 0;
  };
  struct NewFile {
    int level = 0;
    TableFileInfo file;
  };
  // In the order the edit holds them.
  std::vector<CompactionPointer> compaction_pointers;
  std::vector<DeletedFile> deleted_files;
  std::vector<NewFile> new_files;

  // Appends the edit's encoding to `*dst`, fields in LevelDB's order.
  void EncodeTo(std::string* dst) const;

  // Replaces `*this` with the edit encoded in `record`; errors as in the
  // file comment (on error `*this` is left cleared).
  absl::Status DecodeFrom(std::string_view record);
};

}  // namespace bloomtable

#endif  // BLOOMTABLE_INCLUDE_BLOOMTABLE_VERSION_EDIT_H_
