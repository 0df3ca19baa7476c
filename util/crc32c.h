// CRC32C (Castagnoli), computed by Intel ISA-L, and LevelDB's checksum
// masking (FORMAT.md). The only CRC code in the project is this wrapper
// (and crc32c_repair.h, which inverts its steps to find a damaged byte).

#ifndef BLOOMTABLE_UTIL_CRC32C_H_
#define BLOOMTABLE_UTIL_CRC32C_H_

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace bloomtable {
namespace crc32c {

// The CRC32C of data[0, n) continued from `crc`, the CRC of the bytes before
// them: Extend(Value(a), b) == Value(a + b).
uint32_t Extend(uint32_t crc, const char* data, size_t n);

inline uint32_t Value(const char* data, size_t n) { return Extend(0, data, n); }
inline uint32_t Value(std::string_view data) {
  return Extend(0, data.data(), data.size());
}

// Stored CRCs are masked, because computing the CRC of a string that itself
// contains embedded CRCs is weak: rotate right by 15 bits, add a constant.
constexpr uint32_t kMaskDelta = 0xa282ead8u;

inline uint32_t Mask(uint32_t crc) {
  return ((crc >> 15) | (crc << 17)) + kMaskDelta;
}

inline uint32_t Unmask(uint32_t masked) {
  uint32_t rotated = masked - kMaskDelta;
  return (rotated >> 17) | (rotated << 15);
}

}  // namespace crc32c
}  // namespace bloomtable

#endif  // BLOOMTABLE_UTIL_CRC32C_H_
