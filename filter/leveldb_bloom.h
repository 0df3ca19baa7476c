// Sizing facts of LevelDB's Bloom filter ("leveldb.BuiltinBloomFilter2"),
// shared by the policy (leveldb_bloom.cc), its tests and filter_bench. The
// policy itself is created with NewLevelDBBloomFilterPolicy() in
// include/bloomtable/filter_policy.h; its encoding is described in FORMAT.md:
//
//   +------------------------------+-----------+
//   | bit array, bits/8 bytes      | uint8 k   |
//   +------------------------------+-----------+
//
// Bit `pos` lives in byte pos / 8, at bit pos % 8 (least significant first).
// These are pure functions; they are safe to call from any thread.

#ifndef BLOOMTABLE_FILTER_LEVELDB_BLOOM_H_
#define BLOOMTABLE_FILTER_LEVELDB_BLOOM_H_

#include <cstddef>
#include <cstdint>

namespace bloomtable {

// Keys are hashed with LevelDBHash and this seed (part of the format).
inline constexpr uint32_t kLevelDBBloomHashSeed = 0xbc9f1d34;

// The largest probe count a filter may store. LevelDB reserves larger values
// of the trailing byte for other encodings, so readers answer "maybe" there.
inline constexpr int kLevelDBBloomMaxProbes = 30;

// The number of probes k for `bits_per_key`: floor(bits_per_key * 0.69),
// 0.69 approximating ln 2, the optimum. Rounding down trades a little false
// positive rate for cheaper probes. Clamped to [1, kLevelDBBloomMaxProbes].
// Negative bits_per_key behaves as 0.
int LevelDBBloomNumProbes(int bits_per_key);

// The size in bytes, k byte included, of a filter over `num_keys` keys
// (duplicates counted): num_keys * bits_per_key bits, at least 64, rounded up
// to whole bytes, plus one. Negative bits_per_key behaves as 0.
size_t LevelDBBloomFilterSize(size_t num_keys, int bits_per_key);

}  // namespace bloomtable

#endif  // BLOOMTABLE_FILTER_LEVELDB_BLOOM_H_
