// The byte format of the Ribbon filter "bloomtable.Ribbon", version 1, shared
// by its builder (ribbon.cc, ribbon_solver.cc) and its reader. Described in
// docs/FILTERS.md:
//
//   +----------------+------------+-------------+-------+------+------+
//   | solution words | fixed32    | fixed32     | uint8 | uint8| uint8|
//   | (fixed64 each) | num_blocks | upper_start | lower | seed | 0xA1 |
//   +----------------+------------+-------------+-------+------+------+
//
// The filter has 64 * num_blocks slots; each slot holds `lower` result bits
// (columns) in blocks [0, upper_start) and lower + 1 in the rest. A block's
// columns are stored as fixed64 words, word j holding column j of the
// block's 64 slots (bit t = slot 64 b + t): "interleaved column-major". The
// words of columns 0 and 1 of every block come first (the head region, block
// by block), then those of columns 2 and up (the tail region, block by
// block).
//
// A key hashes (XXH3, seed kRibbonHashSeedBase + seed) to a start slot s, a
// 128-bit coefficient row c with bit 0 set, and a 32-bit fingerprint. It may
// be present iff for every column j of s's block, the parity of
// c & (column j's bits at slots s .. s+127) equals fingerprint bit j.
//
// Everything here is a pure function or an immutable value.

#ifndef BLOOMTABLE_FILTER_RIBBON_FORMAT_H_
#define BLOOMTABLE_FILTER_RIBBON_FORMAT_H_

#include <cstddef>
#include <cstdint>

namespace bloomtable {

// The last byte of every version-1 Ribbon filter. Above 30 so that LevelDB's
// Bloom reader fails open on it; distinct from the cache-local Bloom's last
// bytes (kCacheLocalBloomFormatV1, 0xB1, and the compact form's 0xC1..0xE0),
// which mark a Ribbon filter stored as a cache-local Bloom fallback.
inline constexpr uint8_t kRibbonFormatV1 = 0xA1;

// fixed32 num_blocks, fixed32 upper_start, uint8 lower, uint8 seed, format.
inline constexpr size_t kRibbonTrailerBytes = 11;

// Width of a coefficient row: 128 bits. 64-bit rows need about 8% more slots
// than keys at a million keys for the system to be solvable; 128-bit rows
// need about 4% (measured: docs/FILTERS.md).
inline constexpr int kRibbonCoeffBits = 128;
inline constexpr uint64_t kRibbonBlockSlots = 64;
// At least two blocks, so that a 128-slot row fits.
inline constexpr uint32_t kRibbonMinBlocks = 2;
// Result bits per slot are at most 32 (fingerprints are 32 bits).
inline constexpr int kRibbonMaxColumns = 32;
// The first two columns of every block are stored apart from the others, so
// that a query that fails on them (three absent keys in four) reads only
// that region, a quarter of a 7-bit filter, which stays in cache.
inline constexpr int kRibbonHeadColumns = 2;

// Building and querying compute many parities of 64-bit words. Where the
// processor has POPCNT that is one instruction, but x86-64's baseline lacks
// it and the portable code takes about eight. So on x86-64 (ELF, GCC or
// Clang) the functions marked with this are compiled twice and the dynamic
// loader picks the POPCNT version where the processor supports it (measured
// at 1,000,000 keys: queries about 15% faster). Elsewhere it is nothing.
// Mark only a function's first declaration (Clang requires it). Not under
// ThreadSanitizer, whose runtime is not ready when the loader resolves the
// clones (the process crashes at start).
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define BLOOMTABLE_RIBBON_UNDER_TSAN 1
#endif
#endif
#if defined(__SANITIZE_THREAD__)
#define BLOOMTABLE_RIBBON_UNDER_TSAN 1
#endif
#if defined(__x86_64__) && defined(__ELF__) &&   \
    (defined(__GNUC__) || defined(__clang__)) && \
    !defined(BLOOMTABLE_RIBBON_UNDER_TSAN)
#define BLOOMTABLE_RIBBON_POPCNT_CLONES \
  __attribute__((target_clones("popcnt", "default")))
#else
#define BLOOMTABLE_RIBBON_POPCNT_CLONES
#endif

// The XXH3 seed of attempt `seed` is kRibbonHashSeedBase + seed. Fixed (part
// of the format); it spells "Ribbon1\0" so that it differs from the seed of
// the cache-local Bloom.
inline constexpr uint64_t kRibbonHashSeedBase = 0x526962626f6e3100;

// The equation of one key.
struct RibbonRow {
  uint64_t start;     // first slot, in [0, num_starts)
  uint64_t coeff_lo;  // coefficient bits for slots start .. start+63; bit 0 set
  uint64_t coeff_hi;  // coefficient bits for slots start+64 .. start+127
  uint32_t fingerprint;
};

// The number of possible start slots of a filter with `num_blocks` blocks
// (so that start + 127 is the last slot at most).
inline uint64_t RibbonNumStarts(uint32_t num_blocks) {
  return uint64_t{num_blocks} * kRibbonBlockSlots - (kRibbonCoeffBits - 1);
}

// Derives a key's equation from its 64-bit hash.
//   - start: the hash scaled to [0, num_starts) by multiply-shift, so the
//     high bits of the hash choose it and starts are in hash order;
//   - coefficients: the hash through MurmurHash3's 64-bit finalizer (a
//     bijection in which every input bit affects every output bit), so keys
//     with nearby starts (equal high hash bits) still get independent rows;
//     the high word is a further multiply-xorshift of the low one;
//   - fingerprint: the low 32 bits of the hash, which the start barely uses.
inline RibbonRow RibbonRowOf(uint64_t hash, uint64_t num_starts) {
  RibbonRow row;
  row.start = static_cast<uint64_t>(
      (static_cast<unsigned __int128>(hash) * num_starts) >> 64);
  uint64_t mixed = hash;
  mixed ^= mixed >> 33;
  mixed *= 0xff51afd7ed558ccd;
  mixed ^= mixed >> 33;
  mixed *= 0xc4ceb9fe1a85ec53;
  mixed ^= mixed >> 33;
  row.coeff_lo = mixed | 1;
  uint64_t high = mixed * 0x9e3779b97f4a7c15;  // 2^64 / golden ratio, odd
  high ^= high >> 32;
  row.coeff_hi = high;
  row.fingerprint = static_cast<uint32_t>(hash);
  return row;
}

// The sizes a trailer announces, once validated.
struct RibbonShape {
  uint32_t num_blocks = 0;
  uint32_t upper_start = 0;  // blocks from here hold lower_columns + 1
  int lower_columns = 0;
  uint8_t seed = 0;

  int ColumnsOf(uint64_t block) const {
    return lower_columns + (block >= upper_start ? 1 : 0);
  }
  // The most columns any block holds.
  int MaxColumns() const {
    return lower_columns + (upper_start < num_blocks ? 1 : 0);
  }
  // A block's columns below kRibbonHeadColumns are in the head region, the
  // others in the tail region.
  int HeadColumnsOf(uint64_t block) const {
    const int columns = ColumnsOf(block);
    return columns < kRibbonHeadColumns ? columns : kRibbonHeadColumns;
  }
  int TailColumnsOf(uint64_t block) const {
    return ColumnsOf(block) - HeadColumnsOf(block);
  }
  // Index of block `block`'s first word in the head region (the blocks
  // before it hold min(columns, 2) words each) and in the tail region.
  uint64_t FirstHeadWordOf(uint64_t block) const {
    const uint64_t upper_blocks_before =
        block > upper_start ? block - upper_start : 0;
    return lower_columns >= kRibbonHeadColumns
               ? block * kRibbonHeadColumns
               : block * lower_columns + upper_blocks_before;
  }
  uint64_t FirstTailWordOf(uint64_t block) const {
    const uint64_t upper_blocks_before =
        block > upper_start ? block - upper_start : 0;
    return lower_columns >= kRibbonHeadColumns
               ? block * (lower_columns - kRibbonHeadColumns) +
                     upper_blocks_before
               : 0;
  }
  uint64_t NumHeadWords() const { return FirstHeadWordOf(num_blocks); }
  uint64_t NumWords() const {
    return NumHeadWords() + FirstTailWordOf(num_blocks);
  }
  uint64_t NumSlots() const { return uint64_t{num_blocks} * kRibbonBlockSlots; }
};

}  // namespace bloomtable

#endif  // BLOOMTABLE_FILTER_RIBBON_FORMAT_H_
