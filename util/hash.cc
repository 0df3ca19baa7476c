#include "util/hash.h"

#include "util/coding.h"

namespace bloomtable {

uint32_t LevelDBHash(const char* data, size_t n, uint32_t seed) {
  // Constants of the format: a Murmur-style multiplier and final shift.
  constexpr uint32_t kMultiplier = 0xc6a4a793;
  constexpr int kShift = 24;
  const unsigned char* p = reinterpret_cast<const unsigned char*>(data);
  const unsigned char* const limit = p + n;
  uint32_t h = seed ^ (static_cast<uint32_t>(n) * kMultiplier);

  while (limit - p >= 4) {
    h += DecodeFixed32(reinterpret_cast<const char*>(p));
    p += 4;
    h *= kMultiplier;
    h ^= (h >> 16);
  }

  // The tail bytes are unsigned (leveldb.BuiltinBloomFilter2; an older hash
  // read them as signed).
  switch (limit - p) {
    case 3:
      h += static_cast<uint32_t>(p[2]) << 16;
      [[fallthrough]];
    case 2:
      h += static_cast<uint32_t>(p[1]) << 8;
      [[fallthrough]];
    case 1:
      h += p[0];
      h *= kMultiplier;
      h ^= (h >> kShift);
      break;
  }
  return h;
}

}  // namespace bloomtable
