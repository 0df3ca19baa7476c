// Finding one damaged byte from a CRC32C. A CRC is linear: the XOR of the
// checksum some bytes have and the one stored for them is the CRC (without
// the initial value and final XOR) of the error pattern alone, and for an
// error confined to one byte that value says which byte and how it changed,
// unless another single-byte change gives the same value. Salvage uses it
// to read a log fragment or a table block whose checksum fails because one
// byte of it was damaged (docs/DESIGN.md, "Salvage").
//
// What it cannot promise: damage of more than one byte whose checksum
// happens to match a single-byte change. For n bytes there are 255 * n
// single-byte changes among 2^32 checksums, so other damage passes for one
// with probability about 255 * n / 2^32 (6e-5 for a 1 KiB block, 2e-3 for
// a 32 KiB log block); callers also check what the repaired bytes decode to.
//
// Pure functions, safe from any thread.

#ifndef BLOOMTABLE_UTIL_CRC32C_REPAIR_H_
#define BLOOMTABLE_UTIL_CRC32C_REPAIR_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace bloomtable {
namespace crc32c {

struct ByteRepair {
  size_t position = 0;
  uint8_t xor_mask = 0;  // the damaged byte XOR the original
};

// The one single-byte change of `data` after which its CRC32C (Value) is
// `expected`; nullopt if the CRC already matches, if none does, or if more
// than one does. O(data.size()).
std::optional<ByteRepair> FindSingleByteRepair(std::string_view data,
                                               uint32_t expected);

// True if the 32-bit values differ in exactly one of their four bytes (a
// stored checksum whose own bytes took the damage).
bool DifferInOneByte(uint32_t a, uint32_t b);

}  // namespace crc32c
}  // namespace bloomtable

#endif  // BLOOMTABLE_UTIL_CRC32C_REPAIR_H_
