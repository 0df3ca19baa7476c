// LevelDB's Bloom filter policy, "leveldb.BuiltinBloomFilter2", written from
// the format in FORMAT.md, and the reader of its older name,
// "leveldb.BuiltinBloomFilter" (goleveldb, geth, LevelDB before 2014). Filters
// are byte-identical to LevelDB 1.23's for every key set and bits_per_key
// (tests/compat/leveldb_bloom_compat_test.cc).
//
// Speed (measured by db_bench/filter_bench against LevelDB's own code on the
// same run; see BENCHMARKS.md):
//   - building sizes the output once, hashes keys in batches, and replaces
//     the per-probe division `h % bits` by an exact multiply-based remainder
//     whose constant is computed once per filter;
//   - probing tests two bits per branch, and divides with 32 bits rather than
//     64 (on the AMD Zen 3 measured, division beat the multiply-based
//     remainder when probing, but not when building); a reader (NewReader)
//     parses the size and k once.

#include "filter/leveldb_bloom.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <string_view>

#include "bloomtable/filter_policy.h"
#include "util/hash.h"

namespace bloomtable {
namespace {

// Filters hold at least this many bits, so that tiny key sets do not get a
// filter so small that almost every probe lands on a set bit.
constexpr size_t kMinFilterBits = 64;

// Positioners map a 32-bit hash to a bit position: hash % num_bits, exactly.

// The largest bit count below which positions need a remainder: at 2^32 bits
// and more (filters over 512 MiB) every hash is already smaller than the bit
// count, so the position is the hash itself.
constexpr uint64_t kMaxBitsNeedingRemainder =
    std::numeric_limits<uint32_t>::max();

inline bool HashIsPosition(uint64_t num_bits) {
  return num_bits > kMaxBitsNeedingRemainder;
}

// For num_bits >= 2^32.
class IdentityPositioner {
 public:
  uint64_t Position(uint32_t hash) const { return hash; }
};

// Divides, with a 32-bit division (cheaper than LevelDB's 64-bit one). Free
// to construct. Used to probe. REQUIRES: 0 < num_bits < 2^32.
class DividingPositioner {
 public:
  explicit DividingPositioner(uint64_t num_bits)
      : divisor_(static_cast<uint32_t>(num_bits)) {}

  uint64_t Position(uint32_t hash) const { return hash % divisor_; }

 private:
  uint32_t divisor_;
};

// Multiplies instead: Lemire, Kaser and Kurz's "direct remainder" (Software:
// Practice and Experience, 2019). With M = floor((2^64 - 1) / d) + 1,
// ((M * h) mod 2^64) * d / 2^64 equals h % d for every 32-bit h and d. Costs
// one division to construct. Used to build. REQUIRES: 0 < num_bits < 2^32.
class MultiplyingPositioner {
 public:
  explicit MultiplyingPositioner(uint64_t num_bits)
      : divisor_(num_bits),
        multiplier_(std::numeric_limits<uint64_t>::max() / num_bits + 1) {}

  uint64_t Position(uint32_t hash) const {
    const uint64_t fraction = multiplier_ * hash;
    return static_cast<uint64_t>(
        (static_cast<unsigned __int128>(fraction) * divisor_) >> 64);
  }

 private:
  uint64_t divisor_;
  uint64_t multiplier_;
};

// Double hashing: the probe sequence is h, h + delta, h + 2 delta, ... (mod
// 2^32), with delta the hash rotated right by 17 bits. Both are part of the
// format.
inline uint32_t ProbeDelta(uint32_t hash) {
  return (hash >> 17) | (hash << 15);
}

inline uint32_t KeyHash(std::string_view key) {
  return LevelDBHash(key.data(), key.size(), kLevelDBBloomHashSeed);
}

inline unsigned BitAt(const unsigned char* bit_array, uint64_t position) {
  return (bit_array[position >> 3] >> (position & 7)) & 1;
}

// True if all `num_probes` bits of `hash`'s probe sequence are set. Bits are
// tested two at a time with no branch between them: both loads are in flight
// together, and an absent key (which usually fails within the first two or
// three probes) costs about half as many unpredictable branches.
template <typename Positioner>
inline bool AllProbesSet(const unsigned char* bit_array,
                         const Positioner& positioner, int num_probes,
                         uint32_t hash) {
  const uint32_t delta = ProbeDelta(hash);
  int probe = 0;
  for (; probe + 2 <= num_probes; probe += 2) {
    const unsigned both = BitAt(bit_array, positioner.Position(hash)) &
                          BitAt(bit_array, positioner.Position(hash + delta));
    if (both == 0) return false;
    hash += 2 * delta;
  }
  return probe == num_probes || BitAt(bit_array, positioner.Position(hash));
}

// Sets the `num_probes` bits of each key's probe sequence.
template <typename Positioner>
void AddKeys(const std::string_view* keys, size_t n, int num_probes,
             const Positioner& positioner, unsigned char* bit_array) {
  // Keys are hashed a batch at a time before any of their bits are set: the
  // hash loops then run back to back, and so do the bit updates (measured
  // 5-15% faster than alternating them key by key).
  constexpr size_t kHashBatch = 64;
  uint32_t hashes[kHashBatch];
  for (size_t batch_start = 0; batch_start < n; batch_start += kHashBatch) {
    const size_t batch_size = std::min(kHashBatch, n - batch_start);
    for (size_t i = 0; i < batch_size; ++i) {
      hashes[i] = KeyHash(keys[batch_start + i]);
    }
    for (size_t i = 0; i < batch_size; ++i) {
      uint32_t hash = hashes[i];
      const uint32_t delta = ProbeDelta(hash);
      for (int probe = 0; probe < num_probes; ++probe) {
        const uint64_t position = positioner.Position(hash);
        bit_array[position >> 3] |=
            static_cast<unsigned char>(1u << (position & 7));
        hash += delta;
      }
    }
  }
}

// What the trailing k byte and the length say about a filter (FORMAT.md).
enum class FilterShape {
  kNoKeys,    // shorter than 2 bytes: answers "absent" to everything
  kReserved,  // k > 30: another encoding, answers "maybe" to everything
  kProbe,     // a bit array of (size - 1) * 8 bits and k in [0, 30]
};

FilterShape ShapeOf(std::string_view filter) {
  if (filter.size() < 2) return FilterShape::kNoKeys;
  const int num_probes = static_cast<unsigned char>(filter.back());
  if (num_probes > kLevelDBBloomMaxProbes) return FilterShape::kReserved;
  return FilterShape::kProbe;
}

// Which hashes a reader tries. Filters named leveldb.BuiltinBloomFilter2
// were built with LevelDBHash. Those named leveldb.BuiltinBloomFilter were
// built with LevelDBHash (goleveldb, geth, LevelDB where char is unsigned) or
// LevelDBHashSignedTail (LevelDB before 2014 where char is signed), and the
// bytes do not say which: the reader answers "maybe" if either hash's probes
// are all set, so it is never wrong about a key that was added, whoever
// built the filter.
enum class Hashes { kUnsignedTail, kEitherTail };

inline uint32_t KeyHashSignedTail(std::string_view key) {
  return LevelDBHashSignedTail(key.data(), key.size(), kLevelDBBloomHashSeed);
}

// The probes of `key` under `hashes`: the signed-tail hash is only tried
// when the unsigned one says absent and differs from it.
template <Hashes kHashes, typename Positioner>
inline bool KeyProbesSet(const unsigned char* bit_array,
                         const Positioner& positioner, int num_probes,
                         std::string_view key) {
  const uint32_t hash = KeyHash(key);
  if (AllProbesSet(bit_array, positioner, num_probes, hash)) return true;
  if constexpr (kHashes == Hashes::kEitherTail) {
    const uint32_t signed_hash = KeyHashSignedTail(key);
    return signed_hash != hash &&
           AllProbesSet(bit_array, positioner, num_probes, signed_hash);
  }
  return false;
}

// A filter parsed once: its bit array, size and k.
template <Hashes kHashes>
class LevelDBBloomReader final : public FilterReader {
 public:
  explicit LevelDBBloomReader(std::string_view filter)
      : shape_(ShapeOf(filter)),
        bit_array_(reinterpret_cast<const unsigned char*>(filter.data())),
        num_probes_(shape_ == FilterShape::kProbe
                        ? static_cast<unsigned char>(filter.back())
                        : 0),
        hash_is_position_(shape_ == FilterShape::kProbe &&
                          HashIsPosition((filter.size() - 1) * uint64_t{8})),
        positioner_(shape_ == FilterShape::kProbe && !hash_is_position_
                        ? (filter.size() - 1) * 8
                        : 1) {}

  bool KeyMayMatch(std::string_view key) const override {
    if (shape_ != FilterShape::kProbe) return shape_ == FilterShape::kReserved;
    if (hash_is_position_) {
      return KeyProbesSet<kHashes>(bit_array_, IdentityPositioner(),
                                   num_probes_, key);
    }
    return KeyProbesSet<kHashes>(bit_array_, positioner_, num_probes_, key);
  }

  // The same answer without a reader.
  static bool OneOffKeyMayMatch(std::string_view key, std::string_view filter) {
    switch (ShapeOf(filter)) {
      case FilterShape::kNoKeys:
        return false;
      case FilterShape::kReserved:
        return true;
      case FilterShape::kProbe:
        break;
    }
    const auto* bit_array =
        reinterpret_cast<const unsigned char*>(filter.data());
    const int num_probes = static_cast<unsigned char>(filter.back());
    const uint64_t num_bits = (filter.size() - 1) * uint64_t{8};
    if (HashIsPosition(num_bits)) {
      return KeyProbesSet<kHashes>(bit_array, IdentityPositioner(), num_probes,
                                   key);
    }
    return KeyProbesSet<kHashes>(bit_array, DividingPositioner(num_bits),
                                 num_probes, key);
  }

 private:
  const FilterShape shape_;
  const unsigned char* const bit_array_;
  const int num_probes_;
  const bool hash_is_position_;
  const DividingPositioner positioner_;
};

// Both names write the same bytes (LevelDBHash, as goleveldb writes the
// older name); they differ in what their readers accept.
template <Hashes kHashes>
class LevelDBBloomPolicy final : public FilterPolicy {
 public:
  explicit LevelDBBloomPolicy(int bits_per_key)
      : bits_per_key_(std::max(bits_per_key, 0)),
        num_probes_(LevelDBBloomNumProbes(bits_per_key)) {}

  std::string_view Name() const override {
    return kHashes == Hashes::kUnsignedTail ? "leveldb.BuiltinBloomFilter2"
                                            : "leveldb.BuiltinBloomFilter";
  }

  void CreateFilter(const std::string_view* keys, size_t n,
                    std::string* dst) const override {
    const size_t filter_size = LevelDBBloomFilterSize(n, bits_per_key_);
    const size_t array_bytes = filter_size - 1;
    const size_t start = dst->size();
    // One allocation: the zeroed bit array and the k byte together.
    dst->resize(start + filter_size, '\0');
    unsigned char* bit_array =
        reinterpret_cast<unsigned char*>(dst->data() + start);
    bit_array[array_bytes] = static_cast<unsigned char>(num_probes_);

    const uint64_t num_bits = uint64_t{array_bytes} * 8;
    if (HashIsPosition(num_bits)) {
      AddKeys(keys, n, num_probes_, IdentityPositioner(), bit_array);
    } else {
      AddKeys(keys, n, num_probes_, MultiplyingPositioner(num_bits), bit_array);
    }
  }

  bool KeyMayMatch(std::string_view key,
                   std::string_view filter) const override {
    return LevelDBBloomReader<kHashes>::OneOffKeyMayMatch(key, filter);
  }

  std::unique_ptr<FilterReader> NewReader(
      std::string_view filter) const override {
    return std::make_unique<LevelDBBloomReader<kHashes>>(filter);
  }

 private:
  const int bits_per_key_;  // >= 0
  const int num_probes_;    // in [1, kLevelDBBloomMaxProbes]
};

}  // namespace

int LevelDBBloomNumProbes(int bits_per_key) {
  // 0.69 ~= ln 2, the optimal k per bit per key; the double product and the
  // truncation are LevelDB's, so the same k comes out for every input.
  const int num_probes = static_cast<int>(std::max(bits_per_key, 0) * 0.69);
  return std::clamp(num_probes, 1, kLevelDBBloomMaxProbes);
}

size_t LevelDBBloomFilterSize(size_t num_keys, int bits_per_key) {
  const size_t bits =
      std::max(num_keys * static_cast<size_t>(std::max(bits_per_key, 0)),
               kMinFilterBits);
  return (bits + 7) / 8 + 1;
}

std::shared_ptr<const FilterPolicy> NewLevelDBBloomFilterPolicy(
    int bits_per_key) {
  return std::make_shared<LevelDBBloomPolicy<Hashes::kUnsignedTail>>(
      bits_per_key);
}

std::shared_ptr<const FilterPolicy> NewLegacyLevelDBBloomFilterPolicy(
    int bits_per_key) {
  return std::make_shared<LevelDBBloomPolicy<Hashes::kEitherTail>>(
      bits_per_key);
}

}  // namespace bloomtable
