// FindSingleByteRepair: one damaged byte is found from the CRC32C, exactly;
// undamaged bytes and (from a fixed seed) damage of two bytes give none.

#include "util/crc32c_repair.h"

#include <random>
#include <string>

#include "gtest/gtest.h"
#include "util/crc32c.h"

namespace bloomtable {
namespace crc32c {
namespace {

std::string RandomBytes(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::string bytes(n, '\0');
  for (char& c : bytes) c = static_cast<char>(rng());
  return bytes;
}

TEST(Crc32cRepair, FindsEveryDamagedByteOfABlock) {
  const std::string original = RandomBytes(1029, 1);
  const uint32_t expected = Value(original);
  std::mt19937 rng(2);
  for (size_t position = 0; position < original.size(); ++position) {
    const uint8_t mask = static_cast<uint8_t>(1 + rng() % 255);
    std::string damaged = original;
    damaged[position] ^= static_cast<char>(mask);
    std::optional<ByteRepair> fix = FindSingleByteRepair(damaged, expected);
    ASSERT_TRUE(fix.has_value()) << position;
    EXPECT_EQ(fix->position, position);
    EXPECT_EQ(fix->xor_mask, mask);
  }
}

TEST(Crc32cRepair, NothingToRepairInWholeBytes) {
  const std::string bytes = RandomBytes(300, 3);
  EXPECT_FALSE(FindSingleByteRepair(bytes, Value(bytes)).has_value());
  EXPECT_FALSE(FindSingleByteRepair("", Value("")).has_value());
}

TEST(Crc32cRepair, TwoDamagedBytesAreNotPassedOffAsOne) {
  // A false repair has probability about 255 * n / 2^32 per case (6e-5
  // here); the seed is fixed, so this is deterministic.
  const std::string original = RandomBytes(1024, 4);
  const uint32_t expected = Value(original);
  std::mt19937 rng(5);
  for (int trial = 0; trial < 500; ++trial) {
    std::string damaged = original;
    const size_t a = rng() % damaged.size();
    size_t b = rng() % damaged.size();
    if (b == a) b = (a + 1) % damaged.size();
    damaged[a] ^= static_cast<char>(1 + rng() % 255);
    damaged[b] ^= static_cast<char>(1 + rng() % 255);
    EXPECT_FALSE(FindSingleByteRepair(damaged, expected).has_value()) << trial;
  }
}

TEST(Crc32cRepair, DifferInOneByte) {
  EXPECT_TRUE(DifferInOneByte(0x11223344u, 0x11ff3344u));
  EXPECT_FALSE(DifferInOneByte(0x11223344u, 0x11223344u));
  EXPECT_FALSE(DifferInOneByte(0x11223344u, 0x12ff3344u));
}

}  // namespace
}  // namespace crc32c
}  // namespace bloomtable
