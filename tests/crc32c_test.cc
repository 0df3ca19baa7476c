#include "util/crc32c.h"

#include <random>
#include <string>

#include "gtest/gtest.h"

namespace bloomtable {
namespace crc32c {
namespace {

// The test vectors of RFC 3720, section B.4.
TEST(Crc32c, MatchesRfc3720Vectors) {
  char buf[32];
  std::fill(buf, buf + 32, 0);
  EXPECT_EQ(Value(buf, sizeof(buf)), 0x8a9136aau);
  std::fill(buf, buf + 32, '\xff');
  EXPECT_EQ(Value(buf, sizeof(buf)), 0x62a8ab43u);
  for (int i = 0; i < 32; ++i) buf[i] = static_cast<char>(i);
  EXPECT_EQ(Value(buf, sizeof(buf)), 0x46dd794eu);
  for (int i = 0; i < 32; ++i) buf[i] = static_cast<char>(31 - i);
  EXPECT_EQ(Value(buf, sizeof(buf)), 0x113fdb5cu);
}

TEST(Crc32c, EmptyInputIsZero) { EXPECT_EQ(Value("", 0), 0u); }

TEST(Crc32c, ValuesDifferForDifferentData) {
  EXPECT_NE(Value("a", 1), Value("foo", 3));
}

TEST(Crc32c, ExtendAtEverySplitEqualsOneShot) {
  std::mt19937 rng(301);
  for (int trial = 0; trial < 20; ++trial) {
    std::string data(1 + rng() % 600, '\0');
    for (char& c : data) c = static_cast<char>(rng());
    const uint32_t whole = Value(data);
    for (size_t split = 0; split <= data.size(); ++split) {
      const uint32_t first = Value(data.data(), split);
      ASSERT_EQ(Extend(first, data.data() + split, data.size() - split), whole)
          << "split " << split;
    }
  }
}

TEST(Crc32c, MaskChangesTheValueAndUnmaskRestoresIt) {
  std::mt19937 rng(7);
  for (int i = 0; i < 10000; ++i) {
    const uint32_t crc = rng();
    EXPECT_NE(Mask(crc), crc);
    EXPECT_NE(Mask(Mask(crc)), crc);
    EXPECT_EQ(Unmask(Mask(crc)), crc);
    EXPECT_EQ(Unmask(Unmask(Mask(Mask(crc)))), crc);
  }
  const uint32_t foo = Value("foo", 3);
  EXPECT_EQ(Mask(foo), ((foo >> 15) | (foo << 17)) + 0xa282ead8u);
}

}  // namespace
}  // namespace crc32c
}  // namespace bloomtable
