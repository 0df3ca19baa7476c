// The cache-local Bloom filter "bloomtable.CacheLocalBloom": a Bloom filter
// cut into lines of at most 64 bytes, where all k probes of a key fall in one
// line chosen by the key's hash, so that asking about an absent key costs one
// cache miss. Keys are hashed once with 64-bit XXH3. The last byte of a filter
// says which of two forms it has (docs/FILTERS.md). Version 1:
//
//   +------------------------+-------------------+----------+-------------+
//   | line 0 ... line L-1    | fixed32 L         | uint8 k  | uint8 0xB1  |
//   | (S bytes each)         | (number of lines) | (probes) | (format)    |
//   +------------------------+-------------------+----------+-------------+
//
// The line size S is the length of the lines divided by L: 64 bytes, except
// in filters of at most 8 lines (4096 bits), where lines may be shorter (1 to
// 64 bytes) so that small per-block filters do not round up to whole 512-bit
// lines. Bit p of a line is bit p % 8 of the line's byte p / 8.
//
// The compact form, for a filter of exactly one line (nearly every per-block
// filter), spends one byte instead of six on its trailer:
//
//   +------------------------+----------------+
//   | the line (S bytes,     | uint8 0xC0 + k |
//   | 1 <= S <= 64)          | (0xC1 .. 0xE0) |
//   +------------------------+----------------+
//
// A key's hash and bits are those of a version-1 filter with L = 1 and the
// same S and k.
// Builders write it for every filter of one line and version 1 for the rest
// (more lines, or none); readers take both.
//
// The policy is created with NewCacheLocalBloomFilterPolicy() in
// include/bloomtable/filter_policy.h. This header exposes the pieces that the
// Ribbon policy reuses for its fallback and that the tests check. Everything
// here is a pure function or an immutable value: safe from any thread.

#ifndef BLOOMTABLE_FILTER_CACHE_LOCAL_BLOOM_H_
#define BLOOMTABLE_FILTER_CACHE_LOCAL_BLOOM_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace bloomtable {

// The last byte of every version-1 filter, and the base of the compact
// form's last byte 0xC0 + k (0xC1 .. 0xE0 for k = 1 .. 32). All are above 30
// on purpose: LevelDB's Bloom reader takes the last byte for its probe count
// and answers "maybe" above 30, so it fails open if ever handed these bytes.
inline constexpr uint8_t kCacheLocalBloomFormatV1 = 0xB1;
inline constexpr uint8_t kCacheLocalBloomCompactBase = 0xC0;

// Lines are at most one cache line.
inline constexpr size_t kCacheLocalBloomMaxLineBytes = 64;
// Version 1's trailer: fixed32 number of lines, uint8 probes, uint8 format.
inline constexpr size_t kCacheLocalBloomTrailerBytes = 6;
// The compact form's trailer: the byte 0xC0 + k.
inline constexpr size_t kCacheLocalBloomCompactTrailerBytes = 1;

// The XXH3 seed of version 1: fixed (part of the format); any value would do,
// this one spells "CLBloom1" so that it differs from the Ribbon's seeds.
inline constexpr uint64_t kCacheLocalBloomHashSeed = 0x434c426c6f6f6d31;

// The probe counts a reader accepts. Builders write at most 20 (the optimum
// at kCacheLocalBloomMaxBitsPerKey); up to 32 stays readable.
inline constexpr int kCacheLocalBloomMaxProbes = 32;

// True if `byte` is the last byte of a compact filter: 0xC0 + k for k in
// [1, kCacheLocalBloomMaxProbes]. One subtraction and one comparison.
inline constexpr bool IsCacheLocalBloomCompactByte(uint8_t byte) {
  return static_cast<uint8_t>(byte - kCacheLocalBloomCompactBase - 1) <
         kCacheLocalBloomMaxProbes;
}

// Bits per key outside [1, 64] are clamped to it (NaN counts as 1).
inline constexpr double kCacheLocalBloomMinBitsPerKey = 1.0;
inline constexpr double kCacheLocalBloomMaxBitsPerKey = 64.0;

// `bits_per_key` clamped to the supported range.
double ClampCacheLocalBloomBitsPerKey(double bits_per_key);

// The number of probes k used at `bits_per_key` (clamped first): the k that
// minimises the expected false-positive rate of a Bloom filter of 512-bit
// lines with Poisson-distributed line loads, taking one probe more only when
// it lowers that rate by at least 0.5% (a probe costs time). Unlike an
// unblocked filter's b ln 2, it is above that for few bits per key and below
// it for many, as uneven line loads favour fewer probes: 6 at 10 bits per
// key where an unblocked filter would use 7.
int CacheLocalBloomNumProbes(double bits_per_key);

// The shape of a filter over `num_keys` keys at `bits_per_key` (clamped):
// L = ceil(num_keys * bits_per_key / 512) lines (0 for no keys, at most
// 2^32 - 1) of S bytes, and k probes:
//   - L > 8: S = 64, k = CacheLocalBloomNumProbes(bits_per_key);
//   - 2 <= L <= 8: S = the fewest bytes that give the L lines at least
//     num_keys * bits_per_key bits, k as above (version 1);
//   - L = 1 (the compact form): S = those fewest bytes plus the 5 that the
//     1-byte trailer saves over version 1's 6, at most 64, and k =
//     CacheLocalBloomNumProbes(8 * S / num_keys), for the bits per key the
//     line actually holds. So a filter of one line takes no more bytes than
//     it did in version 1 (fewer only when S reaches 64), and more of them are
//     bits.
//   - L = 0 (no keys): k as above, and a version-1 trailer alone.
struct CacheLocalBloomShape {
  uint32_t num_lines = 0;
  uint32_t line_bytes = 0;
  int num_probes = 0;

  // True if a filter of this shape is written in the compact form.
  bool compact() const { return num_lines == 1; }
};
CacheLocalBloomShape CacheLocalBloomShapeFor(size_t num_keys,
                                             double bits_per_key);

// The expected false-positive rate of a large filter at `bits_per_key`
// (clamped): the model of docs/FILTERS.md, a Bloom filter of 512-bit lines
// whose loads are Poisson distributed with mean 512 / bits_per_key, with
// CacheLocalBloomNumProbes probes. For display and tests; not part of the
// format.
double CacheLocalBloomExpectedFalsePositiveRate(double bits_per_key);

// Appends to `*dst` a filter over keys[0, n) (keys may repeat) of the shape
// CacheLocalBloomShapeFor(n, bits_per_key): the compact form if it has one
// line, else version 1.
void AppendCacheLocalBloomFilter(const std::string_view* keys, size_t n,
                                 double bits_per_key, std::string* dst);

// A filter's bytes parsed once, in either form. The last byte decides:
// 0xB1 is version 1, 0xC1 .. 0xE0 the compact form, anything else is not a
// filter. A view of bytes that are not a well-formed filter answers "maybe"
// to every key. It refers to the bytes it was made from, which must outlive
// it. This is the one parser of the trailer; everything that reads these
// filters goes through it.
class CacheLocalBloomView {
 public:
  explicit CacheLocalBloomView(std::string_view filter);

  // False if `filter` was not a well-formed filter of either form.
  bool well_formed() const { return well_formed_; }
  // True if well formed and in the compact form (then num_lines() is 1).
  bool compact() const { return compact_; }
  uint32_t num_lines() const { return num_lines_; }
  uint32_t line_bytes() const { return line_bytes_; }
  int num_probes() const { return num_probes_; }

  bool KeyMayMatch(std::string_view key) const;
  // Prefetches the one line KeyMayMatch(key) reads (FilterReader::Prefetch).
  void Prefetch(std::string_view key) const;

 private:
  void ParseVersion1(std::string_view filter);

  const unsigned char* lines_ = nullptr;
  uint32_t num_lines_ = 0;
  uint32_t line_bytes_ = 0;
  uint32_t line_bits_ = 0;
  int num_probes_ = 0;
  bool compact_ = false;
  bool well_formed_ = false;
};

// True if `filter` ends in a format byte of either form: 0xB1 (version 1) or
// 0xC1 .. 0xE0 (compact). It may still be malformed otherwise.
inline bool HasCacheLocalBloomFormat(std::string_view filter) {
  if (filter.empty()) return false;
  const uint8_t last = static_cast<uint8_t>(filter.back());
  return last == kCacheLocalBloomFormatV1 || IsCacheLocalBloomCompactByte(last);
}

}  // namespace bloomtable

#endif  // BLOOMTABLE_FILTER_CACHE_LOCAL_BLOOM_H_
