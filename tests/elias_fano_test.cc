// Elias-Fano: the range query against a sorted vector, sizes, and
// structurally malformed encodings.

#include "filter/elias_fano.h"

#include <algorithm>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "gtest/gtest.h"
#include "tests/filter_key_sets.h"
#include "util/coding.h"

namespace bloomtable {
namespace {

using filter_test::ExactBuffer;
using filter_test::Hex;

bool ModelAnyInRange(const std::vector<uint64_t>& sorted, uint64_t lo,
                     uint64_t hi) {
  const auto it = std::lower_bound(sorted.begin(), sorted.end(), lo);
  return it != sorted.end() && *it <= hi;
}

// Random sets (duplicates included) in universes from tiny to 2^62, queried
// with random, point and boundary ranges.
TEST(EliasFano, AnyInRangeMatchesASortedVector) {
  std::mt19937_64 rng(7);
  for (int round = 0; round < 300; ++round) {
    const uint64_t universe =
        round % 5 == 0 ? 1 + rng() % 8 : 1 + (rng() >> (2 + rng() % 62));
    const size_t n = 1 + rng() % (round % 3 == 0 ? 3000 : 40);
    std::vector<uint64_t> values(n);
    for (uint64_t& v : values) v = rng() % universe;
    std::sort(values.begin(), values.end());
    std::string encoded = "x";  // the encoding appends
    EncodeEliasFano(values, universe, &encoded);
    ASSERT_EQ(encoded[0], 'x');
    const ExactBuffer buffer(std::string_view(encoded).substr(1));
    std::string_view input = buffer.view();
    EliasFanoReader reader;
    ASSERT_TRUE(reader.Parse(&input, universe)) << round;
    EXPECT_TRUE(input.empty());
    EXPECT_EQ(reader.size(), n);
    for (int q = 0; q < 300; ++q) {
      uint64_t lo;
      uint64_t hi;
      switch (q % 4) {
        case 0:  // random
          lo = rng() % universe;
          hi = lo + rng() % (universe - lo);
          break;
        case 1:  // around a stored value
          lo = values[rng() % n] - std::min<uint64_t>(values[0], rng() % 3);
          lo = std::min(lo, universe - 1);
          hi = std::min(universe - 1, lo + rng() % 4);
          break;
        case 2:  // a point
          lo = hi = rng() % universe;
          break;
        default:  // a short range
          lo = rng() % universe;
          hi = std::min(universe - 1, lo + rng() % 64);
      }
      ASSERT_EQ(reader.AnyInRange(lo, hi), ModelAnyInRange(values, lo, hi))
          << round << " [" << lo << ", " << hi << "]";
    }
    EXPECT_TRUE(reader.AnyInRange(0, universe - 1));
  }
}

TEST(EliasFano, SizeIsNTimesLowBitsPlusOneAndTheBuckets) {
  EXPECT_EQ(EliasFanoLowBits(1000, 1000), 0);
  EXPECT_EQ(EliasFanoLowBits(1000, 1999), 0);
  EXPECT_EQ(EliasFanoLowBits(1000, 2000), 1);
  EXPECT_EQ(EliasFanoLowBits(1000, 1000 << 14), 14);
  // 1000 * (14 + 1) + 1000 buckets: 16 bits per value.
  EXPECT_EQ(EliasFanoBits(1000, 1000 << 14), 16000u);
  EXPECT_EQ(EliasFanoBits(1, 1), 2u);
  // Non-decreasing in the universe, also where l steps up.
  uint64_t previous = 0;
  for (uint64_t u = 1; u < 70000; u += 7) {
    EXPECT_GE(EliasFanoBits(100, u), previous) << u;
    previous = EliasFanoBits(100, u);
  }
}

TEST(EliasFano, GoldenBytes) {
  // 3 values below 32: l = floor(log2(32 / 3)) = 3; low bits 5, 2, 1 (9
  // bits); high parts 0, 1, 3 set bits 0, 2, 5 of 4 + 3 = 7 high bits.
  std::string encoded;
  EncodeEliasFano({5, 10, 25}, 32, &encoded);
  EXPECT_EQ(Hex(encoded),
            "03"                  // n
            "03"                  // l
            "5500000000000000"    // 101 010 001 -> 0b001010101
            "2500000000000000");  // 0b0100101
}

// Structural checks: each damaged encoding is refused.
TEST(EliasFano, ParseRefusesMalformedEncodings) {
  std::string good;
  EncodeEliasFano({5, 10, 25}, 32, &good);
  const auto parses = [](std::string bytes, uint64_t universe) {
    const ExactBuffer buffer(bytes);
    std::string_view input = buffer.view();
    EliasFanoReader reader;
    return reader.Parse(&input, universe);
  };
  ASSERT_TRUE(parses(good, 32));
  for (size_t size = 0; size < good.size(); ++size) {
    EXPECT_FALSE(parses(good.substr(0, size), 32)) << size;
  }
  std::string bad = good;
  bad[0] = 0;  // n = 0
  EXPECT_FALSE(parses(bad, 32));
  bad = good;
  bad[1] = 2;  // not the l of 3 values below 32
  EXPECT_FALSE(parses(bad, 32));
  bad = good;
  bad[2 + 8] |= 0x02;  // a fourth one in the high bits
  EXPECT_FALSE(parses(bad, 32));
  bad = good;
  bad[2 + 8] = 0x45;  // bits 0, 2, 6: the last high bit set
  EXPECT_FALSE(parses(bad, 32));
  bad = good;
  bad[2 + 8] |= 0x80;  // padding past the high bits
  EXPECT_FALSE(parses(bad, 32));
  bad = good;
  bad[2 + 1] = 0x10;  // padding past the low bits
  EXPECT_FALSE(parses(bad, 32));
  // Another universe needs another number of zeros.
  EXPECT_FALSE(parses(good, 64));
  EXPECT_FALSE(parses(good, 1u << 20));
}

}  // namespace
}  // namespace bloomtable
