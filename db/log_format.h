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

// RocksDB's recyclable log format uses types 5-8, with an 11-byte header
// (the log number follows the type). bloomtable does not read them.
inline constexpr int kFirstRocksDBRecyclableType = 5;
inline constexpr int kLastRocksDBRecyclableType = 8;

// 32 KiB: a reader that loses its place skips at most one block.
inline constexpr size_t kBlockSize = 32768;

// checksum (4) + length (2) + type (1).
inline constexpr size_t kHeaderSize = 4 + 2 + 1;

}  // namespace log
}  // namespace bloomtable

#endif  // BLOOMTABLE_DB_LOG_FORMAT_H_
