#include "util/hash.h"

#include "util/coding.h"

namespace bloomtable {

namespace {

// A tail byte as it enters the hash: unsigned (leveldb.BuiltinBloomFilter2)
// or sign-extended to 32 bits (the older hash where char is signed).
template <bool kSignedTail>
inline uint32_t TailByte(unsigned char byte) {
  if constexpr (kSignedTail) {
    return static_cast<uint32_t>(
        static_cast<int32_t>(static_cast<signed char>(byte)));
  } else {
    return byte;
  }
}

template <bool kSignedTail>
uint32_t Hash(const char* data, size_t n, uint32_t seed) {
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

  switch (limit - p) {
    case 3:
      h += TailByte<kSignedTail>(p[2]) << 16;
      [[fallthrough]];
    case 2:
      h += TailByte<kSignedTail>(p[1]) << 8;
      [[fallthrough]];
    case 1:
      h += TailByte<kSignedTail>(p[0]);
      h *= kMultiplier;
      h ^= (h >> kShift);
      break;
  }
  return h;
}

}  // namespace

uint32_t LevelDBHash(const char* data, size_t n, uint32_t seed) {
  return Hash<false>(data, n, seed);
}

uint32_t LevelDBHashSignedTail(const char* data, size_t n, uint32_t seed) {
  return Hash<true>(data, n, seed);
}

}  // namespace bloomtable
