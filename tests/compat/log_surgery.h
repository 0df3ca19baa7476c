// Test helpers that damage a LevelDB log or MANIFEST on purpose, so that the
// damage is semantic: a record's payload rewritten and the log framed anew
// (RecordsOf, then WriteLogBytes: every checksum right), a fragment given
// another type or length with its checksum fixed. The
// fragments are found by walking the headers of an intact log, as LevelDB's
// writer lays them out. Test-only code; not thread-safe.

#ifndef BLOOMTABLE_TESTS_COMPAT_LOG_SURGERY_H_
#define BLOOMTABLE_TESTS_COMPAT_LOG_SURGERY_H_

#include <cstdint>
#include <string>
#include <vector>

#include "db/log_format.h"
#include "tests/log_test_util.h"
#include "util/coding.h"
#include "util/crc32c.h"

namespace bloomtable {
namespace compat_test {

// One fragment of an intact log: its header's offset, type and payload
// length.
struct LogFragment {
  uint64_t offset = 0;
  int type = 0;
  uint32_t length = 0;
};

// The fragments of the intact log `bytes`, in order (block trailers and
// zero padding skipped).
inline std::vector<LogFragment> FragmentsOf(const std::string& bytes) {
  std::vector<LogFragment> fragments;
  uint64_t pos = 0;
  while (pos < bytes.size()) {
    const uint64_t in_block = pos % log::kBlockSize;
    if (log::kBlockSize - in_block < log::kHeaderSize ||
        bytes.size() - pos < log::kHeaderSize) {
      pos += log::kBlockSize - in_block;  // a trailer (or the torn end)
      continue;
    }
    LogFragment fragment;
    fragment.offset = pos;
    fragment.length =
        static_cast<unsigned char>(bytes[pos + 4]) |
        (static_cast<uint32_t>(static_cast<unsigned char>(bytes[pos + 5]))
         << 8);
    fragment.type = static_cast<unsigned char>(bytes[pos + 6]);
    if (fragment.type == log::kZeroType && fragment.length == 0) {
      pos += log::kBlockSize - in_block;  // zeros to the end of the block
      continue;
    }
    fragments.push_back(fragment);
    pos += log::kHeaderSize + fragment.length;
  }
  return fragments;
}

// The payloads of the records of the intact log `bytes`, in order.
inline std::vector<std::string> RecordsOf(const std::string& bytes) {
  return RecordPayloads(ReadLogEntries(bytes));
}

// Gives `fragment` of `*bytes` the type `type`, with a checksum that
// matches: LevelDB's reader then takes the type at its word.
inline void SetFragmentType(std::string* bytes, const LogFragment& fragment,
                            int type) {
  char* header = bytes->data() + fragment.offset;
  header[6] = static_cast<char>(type);
  EncodeFixed32(header,
                crc32c::Mask(crc32c::Value(header + 6, 1 + fragment.length)));
}

// Sets the length field of `fragment` to `length`, with a checksum over
// what that length covers where it fits in `*bytes` (so that only the
// length is wrong).
inline void SetFragmentLength(std::string* bytes, const LogFragment& fragment,
                              uint32_t length) {
  char* header = bytes->data() + fragment.offset;
  header[4] = static_cast<char>(length & 0xff);
  header[5] = static_cast<char>(length >> 8);
  const uint64_t available = bytes->size() - fragment.offset - 6;
  EncodeFixed32(header,
                crc32c::Mask(crc32c::Value(
                    header + 6, std::min<uint64_t>(available, 1 + length))));
}

}  // namespace compat_test
}  // namespace bloomtable

#endif  // BLOOMTABLE_TESTS_COMPAT_LOG_SURGERY_H_
