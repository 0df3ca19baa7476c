#include "util/hash.h"

#include "gtest/gtest.h"

namespace bloomtable {
namespace {

// Known values of leveldb.BuiltinBloomFilter2's hash (FORMAT.md).
constexpr uint32_t kBloomSeed = 0xbc9f1d34;

TEST(LevelDBHash, MatchesKnownValues) {
  const unsigned char data1[1] = {0x62};
  const unsigned char data2[2] = {0xc3, 0x97};
  const unsigned char data3[3] = {0xe2, 0x99, 0xa5};
  const unsigned char data4[4] = {0xe1, 0x80, 0xb9, 0x32};
  const unsigned char data5[48] = {
      0x01, 0xc0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
      0x00, 0x00, 0x00, 0x00, 0x14, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x00,
      0x00, 0x00, 0x00, 0x14, 0x00, 0x00, 0x00, 0x18, 0x28, 0x00, 0x00, 0x00,
      0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  };
  auto hash = [](const unsigned char* p, size_t n) {
    return LevelDBHash(reinterpret_cast<const char*>(p), n, kBloomSeed);
  };
  EXPECT_EQ(LevelDBHash(nullptr, 0, kBloomSeed), 0xbc9f1d34u);
  EXPECT_EQ(hash(data1, sizeof(data1)), 0xef1345c4u);
  EXPECT_EQ(hash(data2, sizeof(data2)), 0x5b663814u);
  EXPECT_EQ(hash(data3, sizeof(data3)), 0x323c078fu);
  EXPECT_EQ(hash(data4, sizeof(data4)), 0xed21633au);
  EXPECT_EQ(LevelDBHash(reinterpret_cast<const char*>(data5), sizeof(data5),
                        0x12345678),
            0xf333dabbu);
}

TEST(LevelDBHash, TailBytesAreUnsigned) {
  // A signed reading of 0x80 would add 0xffffff80, not 0x80.
  const char high[1] = {'\x80'};
  uint32_t expected = kBloomSeed ^ (1u * 0xc6a4a793u);
  expected += 0x80u;
  expected *= 0xc6a4a793u;
  expected ^= expected >> 24;
  EXPECT_EQ(LevelDBHash(high, 1, kBloomSeed), expected);
}

}  // namespace
}  // namespace bloomtable
