// RadixKeyMap: integers keep their spacing (big-endian and decimal keys),
// the bounds are sound for any strings with the keys' common prefix, and the
// encoding round-trips and refuses what it cannot hold.

#include "filter/radix_key_map.h"

#include <algorithm>
#include <random>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "gtest/gtest.h"
#include "tests/filter_key_sets.h"
#include "util/coding.h"

namespace bloomtable {
namespace {

using filter_test::BigEndianKey;
using filter_test::DecimalKey;
using filter_test::RandomString;

size_t CommonPrefix(const std::set<std::string>& keys) {
  const std::string& a = *keys.begin();
  const std::string& b = *keys.rbegin();
  size_t i = 0;
  while (i < a.size() && i < b.size() && a[i] == b[i]) ++i;
  return i;
}

RadixKeyMap BuildMap(const std::set<std::string>& keys) {
  RadixKeyMap::Builder builder;
  for (const std::string& key : keys) builder.Add(key);
  return builder.Finish(CommonPrefix(keys));
}

TEST(RadixKeyMap, DecimalKeysMapToTheirValueLessAnOffset) {
  std::set<std::string> keys;
  for (uint64_t i = 0; i < 2000; ++i)
    keys.insert(DecimalKey(5000000 + i * 131));
  const RadixKeyMap map = BuildMap(keys);
  EXPECT_TRUE(map.exhaustive());
  const uint64_t base = map.Map(DecimalKey(5000000));
  for (uint64_t v = 5000000; v < 5000000 + 2000 * 131; v += 17) {
    EXPECT_EQ(map.Map(DecimalKey(v)) - base, v - 5000000) << v;
  }
}

TEST(RadixKeyMap, BigEndianKeysMapToThemselves) {
  std::mt19937_64 rng(3);
  std::set<std::string> keys;
  while (keys.size() < 5000) keys.insert(BigEndianKey(rng()));
  const RadixKeyMap map = BuildMap(keys);
  ASSERT_EQ(map.num_positions(), 8u);
  EXPECT_TRUE(map.exhaustive());
  EXPECT_EQ(map.max_value(), ~uint64_t{0});
  for (int i = 0; i < 1000; ++i) {
    const uint64_t v = rng();
    EXPECT_EQ(map.Map(BigEndianKey(v)), v);
  }
}

TEST(RadixKeyMap, LongKeysAreToldApartByTheirFirstBytes) {
  std::set<std::string> keys;
  std::mt19937_64 rng(5);
  while (keys.size() < 100) {
    keys.insert("prefix/" + BigEndianKey(rng()) + BigEndianKey(rng()));
  }
  const RadixKeyMap map = BuildMap(keys);
  EXPECT_FALSE(map.exhaustive());
  EXPECT_EQ(map.num_positions(), 8u);  // 256^8 = 2^64: no room for a 9th
}

// Random keys over a small alphabet (so that prefixes, zero bytes and equal
// bytes are common) and random bounds: LowerBound and UpperBound never cut
// off a key.
TEST(RadixKeyMap, BoundsNeverExcludeAKey) {
  std::mt19937_64 rng(11);
  const std::string alphabet(
      "\x00\x01"
      "ab\x7f\xfe\xff",
      7);
  for (int round = 0; round < 400; ++round) {
    const std::string prefix = RandomString(&rng, alphabet, 3);
    std::set<std::string> keys;
    const size_t n = 1 + rng() % 30;
    while (keys.size() < n)
      keys.insert(prefix + RandomString(&rng, alphabet, round % 2 ? 4 : 12));
    const RadixKeyMap map = BuildMap(keys);
    const std::string& first = *keys.begin();
    const std::string& last = *keys.rbegin();
    for (int q = 0; q < 200; ++q) {
      // A bound between first and last (so it has the common prefix).
      std::string bound = q % 3 == 0
                              ? *std::next(keys.begin(), rng() % n)
                              : prefix + RandomString(&rng, alphabet, 14);
      if (q % 3 == 0 && rng() % 2) bound.push_back(alphabet[rng() % 7]);
      if (q % 3 == 0 && rng() % 2 && !bound.empty()) bound.pop_back();
      if (bound < first || bound > last) continue;
      uint64_t a;
      const bool has_lower = map.LowerBound(bound, &a);
      uint64_t b;
      const bool has_upper = map.UpperBound(bound, &b);
      for (const std::string& key : keys) {
        ASSERT_TRUE(map.InRange(key));
        const uint64_t g = map.Map(key);
        if (key >= bound) {
          ASSERT_TRUE(has_lower) << round << " " << q;
          ASSERT_GE(g, a) << round << " " << q;
        } else {
          ASSERT_TRUE(has_upper) << round << " " << q;
          ASSERT_LE(g, b) << round << " " << q;
        }
      }
    }
  }
}

TEST(RadixKeyMap, EncodingRoundTripsAndRefusesWhatItCannotHold) {
  std::set<std::string> keys = {"k1", "k22", "k7"};
  const RadixKeyMap map = BuildMap(keys);
  std::string encoded;
  map.EncodeTo(&encoded);
  // min length 2, exhaustive, 2 positions: [0x31, 0x37] and [0x00, 0x32].
  EXPECT_EQ(encoded, std::string("\x02\x01\x02\x31\x37\x00\x32", 7));
  std::string_view input = encoded;
  RadixKeyMap decoded;
  ASSERT_TRUE(decoded.DecodeFrom(&input, 1));
  EXPECT_TRUE(input.empty());
  for (const std::string& key : keys) EXPECT_EQ(decoded.Map(key), map.Map(key));
  EXPECT_EQ(decoded.max_value(), 7u * 51u - 1);

  const auto decodes = [](const std::string& bytes) {
    std::string_view in = bytes;
    RadixKeyMap m;
    return m.DecodeFrom(&in, 0);
  };
  EXPECT_FALSE(
      decodes(std::string("\x02\x01\x02\x37\x31\x00\x32", 7)));  // min > max
  EXPECT_FALSE(decodes(std::string("\x02\x02\x00", 3)));         // unknown flag
  EXPECT_FALSE(decodes(encoded.substr(0, 6)));                   // truncated
  std::string too_many("\x00\x00", 2);
  PutVarint32(&too_many, RadixKeyMap::kMaxPositions + 1);
  too_many.append(2 * (RadixKeyMap::kMaxPositions + 1), '\0');
  EXPECT_FALSE(decodes(too_many));
  // Nine full bytes: 2^72 integers.
  std::string too_wide("\x00\x00\x09", 3);
  for (int i = 0; i < 9; ++i) too_wide.append("\x00\xff", 2);
  EXPECT_FALSE(decodes(too_wide));
  EXPECT_TRUE(decodes(too_wide.substr(0, 2) + "\x08" + too_wide.substr(3, 16)));
}

}  // namespace
}  // namespace bloomtable
