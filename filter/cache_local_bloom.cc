// The cache-local Bloom filter (see cache_local_bloom.h, docs/FILTERS.md).
// Both forms, version 1 and the compact single line, share everything below
// but the trailer.
//
// A key's 64-bit XXH3 hash h picks everything:
//   - the line: the high 32 bits of h scaled to [0, L) by a multiply-shift
//     (Lemire's "fastrange": (h >> 32) * L >> 32, no division);
//   - probe i (0-based) sets or tests bit ((y_i >> 32) * line_bits) >> 32 of
//     the line, where y_i = h * M^(i+1) mod 2^64 and M is the odd 64-bit
//     constant nearest 2^64 / golden ratio. For 512-bit lines that is the top
//     9 bits of y_i.
// Multiplying by an odd constant permutes the 64-bit values, and the top bits
// of the product depend on every bit of h, so within a line (where the high
// bits of h are nearly fixed) the positions still get their randomness from
// the low 32 bits. Measured at 10 bits per key over 1,000,000 keys and 8
// million probes, the false-positive rate matches the Poisson model of a
// blocked Bloom filter (0.959% against 0.958%); a 32-bit variant of the same
// idea measured 0.970%. The powers are precomputed so the k multiplications
// are independent.

#include "filter/cache_local_bloom.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <memory>

#include "bloomtable/filter_policy.h"
#include "util/coding.h"
#include "util/xxhash64.h"

namespace bloomtable {
namespace {

constexpr uint64_t kProbeMultiplier = 0x9e3779b97f4a7c15;
constexpr uint32_t kFullLineBits = 8 * kCacheLocalBloomMaxLineBytes;

constexpr std::array<uint64_t, kCacheLocalBloomMaxProbes>
MakeProbeMultipliers() {
  std::array<uint64_t, kCacheLocalBloomMaxProbes> powers{};
  uint64_t power = 1;
  for (uint64_t& p : powers) {
    power *= kProbeMultiplier;
    p = power;
  }
  return powers;
}

constexpr std::array<uint64_t, kCacheLocalBloomMaxProbes> kProbeMultipliers =
    MakeProbeMultipliers();

// Bits per key from which k + 1 probes beat k probes (by at least 0.5% of
// the expected false-positive rate of 512-bit lines with Poisson loads; the
// computation is in docs/FILTERS.md). Entry i is the threshold for i + 2
// probes; 19 thresholds give k in [1, 20].
constexpr double kBitsPerKeyForMoreProbes[] = {
    2.10,  3.62,  5.15,  6.73,  8.38,  10.12, 11.98, 13.99, 16.17, 18.57,
    21.20, 24.13, 27.40, 31.06, 35.19, 39.86, 45.16, 51.21, 58.14};

inline uint64_t KeyHash(std::string_view key) {
  return XXH3Hash64(key, kCacheLocalBloomHashSeed);
}

inline uint32_t LineOf(uint64_t hash, uint32_t num_lines) {
  return static_cast<uint32_t>(((hash >> 32) * num_lines) >> 32);
}

// The bit of its line that probe `probe` of `hash` uses, in [0, line_bits).
inline uint32_t BitInLine(uint64_t hash, int probe, uint32_t line_bits) {
  return static_cast<uint32_t>(
      (((hash * kProbeMultipliers[probe]) >> 32) * line_bits) >> 32);
}

// The same for a 512-bit line, without the second multiplication:
// ((y >> 32) * 512) >> 32 == y >> 55.
inline uint32_t BitInFullLine(uint64_t hash, int probe) {
  return static_cast<uint32_t>((hash * kProbeMultipliers[probe]) >> 55);
}

inline unsigned BitOf(const unsigned char* line, uint32_t bit) {
  return (line[bit >> 3] >> (bit & 7)) & 1;
}

// The bytes of each line when `lines_bytes` hold `num_lines` lines, or 0 if
// there are no lines or they do not divide into lines of 1..64 bytes (64 when
// there are more than 8 lines). Per-block filters parse their trailer on every
// probe, so this avoids a hardware division: large filters need only a
// multiplication, and the divisors of small ones are constants the compiler
// turns into multiplications. num_lines * 64 cannot overflow 64 bits.
inline size_t LineBytesOf(size_t lines_bytes, uint32_t num_lines) {
  if (num_lines > 8) {
    return uint64_t{num_lines} * kCacheLocalBloomMaxLineBytes == lines_bytes
               ? kCacheLocalBloomMaxLineBytes
               : 0;
  }
  size_t line_bytes = 0;
  switch (num_lines) {
    case 0:
      return 0;
    case 1:
      line_bytes = lines_bytes;
      break;
    case 2:
      line_bytes = lines_bytes / 2;
      break;
    case 3:
      line_bytes = lines_bytes / 3;
      break;
    case 4:
      line_bytes = lines_bytes / 4;
      break;
    case 5:
      line_bytes = lines_bytes / 5;
      break;
    case 6:
      line_bytes = lines_bytes / 6;
      break;
    case 7:
      line_bytes = lines_bytes / 7;
      break;
    case 8:
      line_bytes = lines_bytes / 8;
      break;
  }
  if (line_bytes * num_lines != lines_bytes ||
      line_bytes > kCacheLocalBloomMaxLineBytes) {
    return 0;
  }
  return line_bytes;
}

inline void SetBit(unsigned char* line, uint32_t bit) {
  line[bit >> 3] |= static_cast<unsigned char>(1u << (bit & 7));
}

class CacheLocalBloomPolicy final : public FilterPolicy {
 public:
  explicit CacheLocalBloomPolicy(double bits_per_key)
      : bits_per_key_(ClampCacheLocalBloomBitsPerKey(bits_per_key)) {}

  std::string_view Name() const override {
    return "bloomtable.CacheLocalBloom";
  }

  void CreateFilter(const std::string_view* keys, size_t n,
                    std::string* dst) const override {
    AppendCacheLocalBloomFilter(keys, n, bits_per_key_, dst);
  }

  bool KeyMayMatch(std::string_view key,
                   std::string_view filter) const override {
    return CacheLocalBloomView(filter).KeyMayMatch(key);
  }

  std::unique_ptr<FilterReader> NewReader(
      std::string_view filter) const override;

 private:
  const double bits_per_key_;
};

class CacheLocalBloomReader final : public FilterReader {
 public:
  explicit CacheLocalBloomReader(std::string_view filter) : view_(filter) {}

  bool KeyMayMatch(std::string_view key) const override {
    return view_.KeyMayMatch(key);
  }
  void Prefetch(std::string_view key) const override { view_.Prefetch(key); }

 private:
  const CacheLocalBloomView view_;
};

std::unique_ptr<FilterReader> CacheLocalBloomPolicy::NewReader(
    std::string_view filter) const {
  return std::make_unique<CacheLocalBloomReader>(filter);
}

}  // namespace

double ClampCacheLocalBloomBitsPerKey(double bits_per_key) {
  if (!(bits_per_key >= kCacheLocalBloomMinBitsPerKey)) {
    return kCacheLocalBloomMinBitsPerKey;  // also NaN
  }
  return std::min(bits_per_key, kCacheLocalBloomMaxBitsPerKey);
}

int CacheLocalBloomNumProbes(double bits_per_key) {
  bits_per_key = ClampCacheLocalBloomBitsPerKey(bits_per_key);
  int num_probes = 1;
  for (double threshold : kBitsPerKeyForMoreProbes) {
    if (bits_per_key >= threshold) ++num_probes;
  }
  return num_probes;
}

double CacheLocalBloomExpectedFalsePositiveRate(double bits_per_key) {
  bits_per_key = ClampCacheLocalBloomBitsPerKey(bits_per_key);
  const int num_probes = CacheLocalBloomNumProbes(bits_per_key);
  constexpr double kLineBits = 8 * kCacheLocalBloomMaxLineBytes;
  const double mean_load = kLineBits / bits_per_key;
  // Sum over line loads j of P(load = j) * (fraction of bits set)^k, far
  // enough into the tail that the rest is negligible.
  const int max_load =
      static_cast<int>(mean_load + 12 * std::sqrt(mean_load)) + 20;
  double load_probability = std::exp(-mean_load);
  double rate = 0;
  for (int load = 0; load <= max_load; ++load) {
    if (load > 0) load_probability *= mean_load / load;
    const double bit_clear =
        std::pow(1 - 1 / kLineBits, static_cast<double>(num_probes) * load);
    rate += load_probability * std::pow(1 - bit_clear, num_probes);
  }
  return rate;
}

CacheLocalBloomShape CacheLocalBloomShapeFor(size_t num_keys,
                                             double bits_per_key) {
  bits_per_key = ClampCacheLocalBloomBitsPerKey(bits_per_key);
  const double bits = static_cast<double>(num_keys) * bits_per_key;
  CacheLocalBloomShape shape;
  shape.num_probes = CacheLocalBloomNumProbes(bits_per_key);
  if (num_keys == 0) return shape;
  // Doubles are exact enough here: the results are clamped before any
  // conversion, and IEEE arithmetic gives the same answer everywhere.
  constexpr double kMaxLines = std::numeric_limits<uint32_t>::max();
  const double lines = std::ceil(bits / (8 * kCacheLocalBloomMaxLineBytes));
  shape.num_lines = lines >= kMaxLines ? std::numeric_limits<uint32_t>::max()
                                       : static_cast<uint32_t>(lines);
  // Short lines only in filters of at most 8 lines (4096 bits): larger
  // filters lose less than a line to rounding, and whole lines keep the
  // reader on its fast path.
  shape.line_bytes = kCacheLocalBloomMaxLineBytes;
  if (shape.num_lines <= 8) {
    shape.line_bytes =
        static_cast<uint32_t>(std::ceil(bits / shape.num_lines / 8));
  }
  if (shape.compact()) {
    // The bytes the compact trailer does not take go to the line, and the
    // probes follow the bits the line then holds per key.
    constexpr uint32_t kSaved =
        kCacheLocalBloomTrailerBytes - kCacheLocalBloomCompactTrailerBytes;
    shape.line_bytes = std::min<uint32_t>(shape.line_bytes + kSaved,
                                          kCacheLocalBloomMaxLineBytes);
    shape.num_probes = CacheLocalBloomNumProbes(8.0 * shape.line_bytes /
                                                static_cast<double>(num_keys));
  }
  return shape;
}

void AppendCacheLocalBloomFilter(const std::string_view* keys, size_t n,
                                 double bits_per_key, std::string* dst) {
  const CacheLocalBloomShape shape = CacheLocalBloomShapeFor(n, bits_per_key);
  const int num_probes = shape.num_probes;
  const uint32_t line_bits = 8 * shape.line_bytes;

  const size_t start = dst->size();
  dst->resize(start + size_t{shape.num_lines} * shape.line_bytes, '\0');
  unsigned char* lines = reinterpret_cast<unsigned char*>(&(*dst)[start]);
  // Keys are hashed a batch ahead and their lines prefetched, so that the
  // cache misses of a large filter overlap instead of adding up.
  constexpr size_t kBatch = 8;
  uint64_t hashes[kBatch];
  for (size_t first = 0; first < n; first += kBatch) {
    const size_t count = std::min(kBatch, n - first);
    for (size_t i = 0; i < count; ++i) {
      hashes[i] = KeyHash(keys[first + i]);
      __builtin_prefetch(
          lines + size_t{LineOf(hashes[i], shape.num_lines)} * shape.line_bytes,
          /*rw=*/1);
    }
    for (size_t i = 0; i < count; ++i) {
      unsigned char* line =
          lines + size_t{LineOf(hashes[i], shape.num_lines)} * shape.line_bytes;
      if (line_bits == kFullLineBits) {
        for (int probe = 0; probe < num_probes; ++probe) {
          SetBit(line, BitInFullLine(hashes[i], probe));
        }
      } else {
        for (int probe = 0; probe < num_probes; ++probe) {
          SetBit(line, BitInLine(hashes[i], probe, line_bits));
        }
      }
    }
  }
  if (shape.compact()) {
    dst->push_back(static_cast<char>(kCacheLocalBloomCompactBase + num_probes));
    return;
  }
  PutFixed32(dst, shape.num_lines);
  dst->push_back(static_cast<char>(num_probes));
  dst->push_back(static_cast<char>(kCacheLocalBloomFormatV1));
}

CacheLocalBloomView::CacheLocalBloomView(std::string_view filter) {
  if (filter.empty()) return;
  const uint8_t last = static_cast<uint8_t>(filter.back());
  if (!IsCacheLocalBloomCompactByte(last)) {
    if (last == kCacheLocalBloomFormatV1) ParseVersion1(filter);
    return;
  }
  // The compact form: every byte but the last is the one line, of 1..64
  // bytes. No division, no loop: per-block filters parse this on every probe.
  const size_t line_bytes = filter.size() - kCacheLocalBloomCompactTrailerBytes;
  if (line_bytes == 0 || line_bytes > kCacheLocalBloomMaxLineBytes) return;
  lines_ = reinterpret_cast<const unsigned char*>(filter.data());
  num_lines_ = 1;
  line_bytes_ = static_cast<uint32_t>(line_bytes);
  line_bits_ = static_cast<uint32_t>(8 * line_bytes);
  num_probes_ = last - kCacheLocalBloomCompactBase;
  compact_ = true;
  well_formed_ = true;
}

void CacheLocalBloomView::ParseVersion1(std::string_view filter) {
  if (filter.size() < kCacheLocalBloomTrailerBytes) return;
  const char* trailer =
      filter.data() + filter.size() - kCacheLocalBloomTrailerBytes;
  const uint32_t num_lines = DecodeFixed32(trailer);
  const int num_probes = static_cast<unsigned char>(trailer[4]);
  if (num_probes < 1 || num_probes > kCacheLocalBloomMaxProbes) return;
  // The lines must divide into whole lines of 1..64 bytes, 64 when there are
  // more than 8 lines. The division avoids any overflow in
  // num_lines * line_bytes.
  const size_t lines_bytes = filter.size() - kCacheLocalBloomTrailerBytes;
  const size_t line_bytes = LineBytesOf(lines_bytes, num_lines);
  if (num_lines > 0 ? line_bytes == 0 : lines_bytes != 0) return;
  lines_ = reinterpret_cast<const unsigned char*>(filter.data());
  num_lines_ = num_lines;
  line_bytes_ = static_cast<uint32_t>(line_bytes);
  line_bits_ = static_cast<uint32_t>(8 * line_bytes);
  num_probes_ = num_probes;
  well_formed_ = true;
}

void CacheLocalBloomView::Prefetch(std::string_view key) const {
  if (!well_formed_ || num_lines_ == 0) return;
  const uint64_t hash = KeyHash(key);
  __builtin_prefetch(lines_ + size_t{LineOf(hash, num_lines_)} * line_bytes_);
}

bool CacheLocalBloomView::KeyMayMatch(std::string_view key) const {
  if (!well_formed_) return true;
  if (num_lines_ == 0) return false;  // a filter over no keys
  const uint64_t hash = KeyHash(key);
  const unsigned char* line =
      lines_ + size_t{LineOf(hash, num_lines_)} * line_bytes_;
  if (line_bits_ != kFullLineBits) {
    // Short lines exist only in filters of at most 8 lines: small, cached.
    unsigned all_set = 1;
    for (int probe = 0; probe < num_probes_; ++probe) {
      all_set &= BitOf(line, BitInLine(hash, probe, line_bits_));
    }
    return all_set != 0;
  }
  // An absent key finds a probe's bit clear with probability about 1/2 (at
  // the optimum half the bits are set), so two probes reject about three in
  // four: test those first, with a branch the predictor mostly gets right,
  // and the rest without a branch per probe (a per-probe exit would
  // mispredict often and cost more than the probes it saves).
  unsigned all_set = BitOf(line, BitInFullLine(hash, 0));
  if (num_probes_ > 1) all_set &= BitOf(line, BitInFullLine(hash, 1));
  if (all_set == 0) return false;
  for (int probe = 2; probe < num_probes_; ++probe) {
    all_set &= BitOf(line, BitInFullLine(hash, probe));
  }
  return all_set != 0;
}

std::shared_ptr<const FilterPolicy> NewCacheLocalBloomFilterPolicy(
    double bits_per_key) {
  return std::make_shared<CacheLocalBloomPolicy>(bits_per_key);
}

}  // namespace bloomtable
