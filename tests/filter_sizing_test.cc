// Bloom sizing arithmetic: p(b, k) = (1 - e^(-k/b))^k and its inverse.

#include "bloomtable/filter_sizing.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "gtest/gtest.h"

namespace bloomtable {
namespace {

TEST(BloomFalsePositiveRate, MatchesTheFormulaAtKnownPoints) {
  // (1 - e^-0.6)^6 and (1 - e^-0.7)^7: LevelDB's k = 6 at 10 bits per key,
  // and the optimum k = 7.
  EXPECT_NEAR(BloomFalsePositiveRate(10, 6), 0.00843621, 1e-8);
  EXPECT_NEAR(BloomFalsePositiveRate(10, 7), 0.00819372, 1e-8);
  EXPECT_NEAR(BloomFalsePositiveRate(1, 1), 1 - std::exp(-1.0), 1e-12);
  EXPECT_NEAR(BloomFalsePositiveRate(20, 13), 6.79238e-5, 1e-10);
}

TEST(BloomFalsePositiveRate, FallsAsBitsPerKeyGrow) {
  double previous = 1.0;
  for (int bits_per_key = 1; bits_per_key <= 40; ++bits_per_key) {
    const int num_probes = std::max(1, static_cast<int>(bits_per_key * 0.69));
    const double rate = BloomFalsePositiveRate(bits_per_key, num_probes);
    EXPECT_LT(rate, previous) << bits_per_key;
    EXPECT_GT(rate, 0.0) << bits_per_key;
    previous = rate;
  }
}

TEST(BloomFalsePositiveRate, NeverBeatsTheInformationTheoreticFloor) {
  // Any filter with b bits per key has a rate of at least 2^-b.
  for (double bits_per_key = 0.5; bits_per_key <= 40; bits_per_key += 0.5) {
    for (int num_probes = 1; num_probes <= 30; ++num_probes) {
      EXPECT_GE(BloomFalsePositiveRate(bits_per_key, num_probes),
                std::exp2(-bits_per_key));
    }
  }
}

TEST(BloomFalsePositiveRate, WithoutBitsOrProbesEverythingMatches) {
  EXPECT_EQ(BloomFalsePositiveRate(0, 6), 1.0);
  EXPECT_EQ(BloomFalsePositiveRate(-1, 6), 1.0);
  EXPECT_EQ(BloomFalsePositiveRate(10, 0), 1.0);
  EXPECT_EQ(BloomFalsePositiveRate(std::nan(""), 3), 1.0);
}

TEST(BloomSizingForRate, OnePercentNeedsSevenProbesAndAbout9Point6Bits) {
  const BloomSizing sizing = BloomSizingForRate(0.01);
  EXPECT_EQ(sizing.num_probes, 7);
  EXPECT_NEAR(sizing.bits_per_key, 9.592955, 1e-6);
}

TEST(BloomSizingForRate, OneHalfNeedsOneProbe) {
  const BloomSizing sizing = BloomSizingForRate(0.5);
  EXPECT_EQ(sizing.num_probes, 1);
  EXPECT_NEAR(sizing.bits_per_key, 1 / std::log(2.0), 1e-12);
}

TEST(BloomSizingForRate, ReachesTheTargetWithTheFewestBits) {
  for (double target = 0.9; target > 1e-12; target /= 1.7) {
    const BloomSizing sizing = BloomSizingForRate(target);
    ASSERT_GE(sizing.num_probes, 1);
    const double reached =
        BloomFalsePositiveRate(sizing.bits_per_key, sizing.num_probes);
    EXPECT_NEAR(reached, target, target * 1e-9) << target;
    // One part in a million fewer bits misses the target.
    EXPECT_GT(BloomFalsePositiveRate(sizing.bits_per_key * (1 - 1e-6),
                                     sizing.num_probes),
              target)
        << target;
    // The probe count is the best one for those bits, or within one of it:
    // it was rounded from the continuous optimum.
    const double optimal_probes = sizing.bits_per_key * std::log(2.0);
    EXPECT_LE(std::abs(sizing.num_probes - optimal_probes), 1.0) << target;
  }
}

TEST(BloomSizingForRate, LowerRatesNeedMoreBitsPerKey) {
  double previous_bits = 0;
  for (double target = 0.5; target > 1e-9; target /= 2) {
    const double bits = BloomSizingForRate(target).bits_per_key;
    EXPECT_GT(bits, previous_bits) << target;
    previous_bits = bits;
  }
}

TEST(BloomSizingForRate, OutOfRangeRatesGiveFiniteAnswers) {
  const BloomSizing certain = BloomSizingForRate(1.0);
  EXPECT_EQ(certain.bits_per_key, 0.0);
  EXPECT_EQ(certain.num_probes, 1);
  EXPECT_EQ(BloomSizingForRate(7.0).bits_per_key, 0.0);
  for (double impossible : {0.0, -1.0, std::nan("")}) {
    const BloomSizing sizing = BloomSizingForRate(impossible);
    EXPECT_TRUE(std::isfinite(sizing.bits_per_key)) << impossible;
    EXPECT_GT(sizing.bits_per_key, 1000) << impossible;
    EXPECT_GE(sizing.num_probes, 1) << impossible;
  }
}

}  // namespace
}  // namespace bloomtable
