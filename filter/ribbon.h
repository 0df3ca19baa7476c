// The Ribbon filter "bloomtable.Ribbon" (format: ribbon_format.h and
// docs/FILTERS.md): building, sizing and reading. The policies are created
// with NewRibbonFilterPolicy() and NewRibbonFilterPolicyForRate() in
// include/bloomtable/filter_policy.h; this header exposes the builder's knobs
// to tests and benchmarks.
//
// A build hashes the keys, sorts their equations by start slot and solves the
// system (ribbon_solver.h). If an attempt finds no solution it starts again
// with the next seed (the seed is stored in the filter); after
// max_attempts it stores a cache-local Bloom filter of the same budget
// instead, which the reader recognises by its format byte. Key sets below
// kRibbonMinKeys are always stored as a cache-local Bloom filter.
//
// Thread-safety: the functions are reentrant; a RibbonView is immutable.

#ifndef BLOOMTABLE_FILTER_RIBBON_H_
#define BLOOMTABLE_FILTER_RIBBON_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "filter/cache_local_bloom.h"
#include "filter/ribbon_format.h"

namespace bloomtable {

// Below this many keys (duplicates counted) a Ribbon filter is stored as a
// cache-local Bloom filter: the 128-slot minimum and the rounding to 64-slot
// blocks then cost about what Ribbon saves (computed at 7 bits per key, the
// two give about the same rate near 256 keys, Ribbon less above; at 10 bits
// per key Ribbon is ahead from about 160 keys).
inline constexpr size_t kRibbonMinKeys = 256;

// Seeds tried before falling back to a cache-local Bloom filter. The sizing
// aims at a success rate above 85% per seed, so 8 failures in a row have a
// probability below 1e-6.
inline constexpr int kRibbonMaxAttempts = 8;

// Bits per key of the budget mode are clamped to [1, 32].
inline constexpr double kRibbonMinBitsPerKey = 1.0;
inline constexpr double kRibbonMaxBitsPerKey = 32.0;

struct RibbonBuildOptions {
  // Exactly one of the two sizes is used: `columns` (result bits per slot,
  // 1..32) when positive, else `bits_per_key` (the memory budget).
  double bits_per_key = 10.0;
  int columns = 0;
  // Tests only: how many seeds to try (0 = go straight to the fallback).
  int max_attempts = kRibbonMaxAttempts;
  // Tests only: the number of slots instead of RibbonNumSlots(n) (rounded up
  // to whole blocks, at least 128), to provoke failures.
  uint64_t num_slots_override = 0;
};

// What a build did, for tests and benchmarks.
struct RibbonBuildInfo {
  bool is_bloom = false;  // stored as a cache-local Bloom filter
  int attempts = 0;       // seeds tried
  RibbonShape shape;      // when !is_bloom
};

// The number of slots for `num_keys` keys: num_keys * (1 + e) rounded up to
// whole 64-slot blocks (at least 128), with the overhead e growing with the
// logarithm of the number of keys: 2% up to about 20,000 keys, 3% at 100,000,
// 4% at a million, 5% at ten million (measured: docs/FILTERS.md). Integer
// arithmetic only, so every machine computes the same size.
uint64_t RibbonNumSlots(size_t num_keys);

// The cache-local Bloom bits per key used when `columns` result bits per slot
// were requested but a Bloom filter is stored: enough for a false-positive
// rate near 2^-columns where a 512-bit-line filter can reach it.
double RibbonFallbackBloomBitsPerKey(int columns);

// The expected false-positive rate of a filter over `num_keys` distinct keys
// built with `options` when the build succeeds (or is a Bloom filter because
// of its size): 2^-r averaged over the start slots, r being the columns of
// the start's block. For display and tests; not part of the format.
double RibbonExpectedFalsePositiveRate(size_t num_keys,
                                       const RibbonBuildOptions& options);

// Appends a filter over keys[0, n) (keys may repeat) to `*dst`.
void AppendRibbonFilter(const std::string_view* keys, size_t n,
                        const RibbonBuildOptions& options, std::string* dst,
                        RibbonBuildInfo* info = nullptr);

// A filter's bytes parsed once: a Ribbon filter, a cache-local Bloom filter
// (the fallback, in either of its forms), or malformed bytes, which answer
// "maybe" to every key. It refers to the bytes it was made from, which must
// outlive it.
class RibbonView {
 public:
  explicit RibbonView(std::string_view filter);

  bool is_ribbon() const { return kind_ == Kind::kRibbon; }
  bool is_bloom() const { return kind_ == Kind::kBloom; }
  const RibbonShape& shape() const { return shape_; }

  bool KeyMayMatch(std::string_view key) const;
  // Prefetches the head words KeyMayMatch(key) reads first (Ribbon), or
  // the Bloom fallback's line (FilterReader::Prefetch).
  void Prefetch(std::string_view key) const;

  // The query in two halves, for a caller that asks many filters about one
  // key: the key's hash under a filter's seed, computed once for all the
  // filters of that seed (most are built with seed 0), then the probe.
  // KeyMayMatch(key) == HashMayMatch(Hash(key, seed())).
  // REQUIRES for the members: is_ribbon().
  uint8_t seed() const { return shape_.seed; }
  static uint64_t Hash(std::string_view key, uint8_t seed);
  void PrefetchHash(uint64_t hash) const;
  bool HashMayMatch(uint64_t hash) const;

 private:
  enum class Kind { kMalformed, kRibbon, kBloom };

  Kind kind_ = Kind::kMalformed;
  RibbonShape shape_;
  uint64_t num_starts_ = 0;
  const char* words_ = nullptr;  // the head region
  const char* tail_ = nullptr;   // the tail region
  CacheLocalBloomView bloom_;
};

}  // namespace bloomtable

#endif  // BLOOMTABLE_FILTER_RIBBON_H_
