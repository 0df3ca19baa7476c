#include "util/crc32c.h"

#include <climits>

#include "isa-l/crc.h"

namespace bloomtable {
namespace crc32c {

// ISA-L's crc32_iscsi takes and returns the raw CRC register (no initial or
// final inversion), a non-const pointer and an int length; CRC32C as stored
// inverts both ends, so Extend(crc, data) = ~crc32_iscsi(data, n, ~crc).
uint32_t Extend(uint32_t crc, const char* data, size_t n) {
  uint32_t reg = ~crc;
  auto* bytes = reinterpret_cast<unsigned char*>(const_cast<char*>(data));
  while (n > 0) {
    const int chunk =
        n > static_cast<size_t>(INT_MAX) ? INT_MAX : static_cast<int>(n);
    reg = crc32_iscsi(bytes, chunk, reg);
    bytes += chunk;
    n -= static_cast<size_t>(chunk);
  }
  return ~reg;
}

}  // namespace crc32c
}  // namespace bloomtable
