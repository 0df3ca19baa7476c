// The constants of LevelDB's log format (docs/FORMAT.md, "Log files"),
// shared by the log reader and the tests' log writer.
//
//   block := fragment* trailer?              (kBlockSize bytes, the last
//                                              block of a file may be short)
//   fragment := checksum: fixed32            masked CRC32C of type + payload
//               length: fixed16              payload bytes
//               type: uint8                  RecordType
//               payload: uint8[length]
//   trailer := zero bytes                    fewer than kHeaderSize left

#ifndef BLOOMTABLE_DB_LOG_FORMAT_H_
#define BLOOMTABLE_DB_LOG_FORMAT_H_

#include <cstddef>

namespace bloomtable {
namespace log {

enum RecordType : unsigned char {
  // Preallocated or mapped files hold zeros after their data: a header of
  // all zeros is padding, never a record.
  kZeroType = 0,
  kFullType = 1,
  // A record that does not fit in the rest of a block is split.
  kFirstType = 2,
  kMiddleType = 3,
  kLastType = 4,
};
inline constexpr int kMaxRecordType = kLastType;

// Types that LevelDB's reader gives a meaning of its own (they are its
// internal markers, one past and two past kMaxRecordType): a fragment of
// type 5 is taken as the end of the file, and reading stops; one of type 6
// as a bad record, skipped (silently, unless it breaks a record's chain).
// RocksDB's recyclable log format uses types 5-8, so LevelDB stops at the
// first record of such a log.
inline constexpr int kLevelDBEndOfFileType = 5;
inline constexpr int kLevelDBBadRecordType = 6;

// 32 KiB: a reader that loses its place skips at most one block.
inline constexpr size_t kBlockSize = 32768;

// checksum (4) + length (2) + type (1).
inline constexpr size_t kHeaderSize = 4 + 2 + 1;

}  // namespace log
}  // namespace bloomtable

#endif  // BLOOMTABLE_DB_LOG_FORMAT_H_
