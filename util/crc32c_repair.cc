#include "util/crc32c_repair.h"

#include <array>

#include "util/crc32c.h"

namespace bloomtable {
namespace crc32c {
namespace {

// CRC32C's polynomial, bit-reflected (the form its byte-at-a-time update
// uses: reg = (reg >> 8) ^ table[(reg ^ byte) & 0xff]).
constexpr uint32_t kReflectedPolynomial = 0x82f63b78u;

struct Tables {
  // table[v]: the register after the byte v from a zero register, i.e. the
  // linear CRC of a single byte v.
  std::array<uint32_t, 256> table{};
  // The byte v whose table[v] has this top byte: each top byte belongs to
  // exactly one v, which is what makes a zero byte's step invertible.
  std::array<uint8_t, 256> by_top_byte{};
  bool invertible = true;
};

Tables MakeTables() {
  Tables t;
  std::array<bool, 256> seen{};
  for (uint32_t v = 0; v < 256; ++v) {
    uint32_t reg = v;
    for (int bit = 0; bit < 8; ++bit) {
      reg = (reg & 1) != 0 ? (reg >> 1) ^ kReflectedPolynomial : reg >> 1;
    }
    t.table[v] = reg;
    const uint8_t top = static_cast<uint8_t>(reg >> 24);
    if (seen[top]) t.invertible = false;
    seen[top] = true;
    t.by_top_byte[top] = static_cast<uint8_t>(v);
  }
  return t;
}

const Tables& GetTables() {
  static const Tables* const tables = new Tables(MakeTables());
  return *tables;
}

// The register before a zero byte that left it as `reg`.
uint32_t UndoZeroByte(const Tables& t, uint32_t reg) {
  const uint8_t low = t.by_top_byte[reg >> 24];
  return ((reg ^ t.table[low]) << 8) | low;
}

}  // namespace

std::optional<ByteRepair> FindSingleByteRepair(std::string_view data,
                                               uint32_t expected) {
  const Tables& t = GetTables();
  const uint32_t syndrome = Value(data) ^ expected;
  if (syndrome == 0 || data.empty() || !t.invertible) return std::nullopt;
  // An error v at position k leaves the linear CRC table[v] followed by
  // n-1-k zero bytes. Undo zero bytes from the syndrome one at a time: after
  // m of them, a value that is some table[v] is an error v at n-1-m.
  std::optional<ByteRepair> found;
  uint32_t reg = syndrome;
  for (size_t m = 0; m < data.size(); ++m) {
    const uint8_t v = t.by_top_byte[reg >> 24];
    if (v != 0 && t.table[v] == reg) {
      if (found.has_value()) return std::nullopt;  // ambiguous
      found = ByteRepair{data.size() - 1 - m, v};
    }
    reg = UndoZeroByte(t, reg);
  }
  return found;
}

bool DifferInOneByte(uint32_t a, uint32_t b) {
  const uint32_t diff = a ^ b;
  int bytes = 0;
  for (int i = 0; i < 4; ++i) bytes += ((diff >> (8 * i)) & 0xff) != 0;
  return bytes == 1;
}

}  // namespace crc32c
}  // namespace bloomtable
