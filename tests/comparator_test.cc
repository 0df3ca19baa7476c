#include "bloomtable/comparator.h"

#include <random>
#include <string>

#include "gtest/gtest.h"
#include "util/string_util.h"

namespace bloomtable {
namespace {

std::string Separator(std::string start, std::string_view limit) {
  BytewiseComparator()->FindShortestSeparator(&start, limit);
  return start;
}

std::string Successor(std::string key) {
  BytewiseComparator()->FindShortSuccessor(&key);
  return key;
}

TEST(BytewiseComparator, OrdersUnsignedBytes) {
  const Comparator* cmp = BytewiseComparator();
  EXPECT_LT(cmp->Compare("a", "b"), 0);
  EXPECT_LT(cmp->Compare("a", "ab"), 0);
  EXPECT_EQ(cmp->Compare("ab", "ab"), 0);
  EXPECT_LT(cmp->Compare(std::string("\x7f"), std::string("\x80")), 0);
  EXPECT_LT(cmp->Compare(std::string("\x01"), std::string("\xff")), 0);
  EXPECT_EQ(cmp->Name(), "leveldb.BytewiseComparator");
}

int Sign(int x) { return (x > 0) - (x < 0); }

// The inline 8-bytes-at-a-time comparison agrees with memcmp order on keys
// that differ at every position of a word (including bytes >= 0x80, which
// a signed comparison would misorder), on prefixes and on equal keys.
TEST(BytewiseComparator, InlineCompareAgreesWithMemcmpOrder) {
  std::mt19937_64 random(7);
  const char kBytes[] = {'\x00', '\x01', '0', '9', '\x7f', '\x80', '\xff'};
  for (int i = 0; i < 200000; ++i) {
    std::string a(random() % 21, '\0');
    for (char& c : a) c = kBytes[random() % sizeof(kBytes)];
    std::string b = a;
    switch (random() % 4) {
      case 0:  // change one byte
        if (!b.empty()) b[random() % b.size()] = kBytes[random() % 7];
        break;
      case 1:  // cut
        b.resize(random() % (b.size() + 1));
        break;
      case 2:  // extend
        b.push_back(kBytes[random() % 7]);
        break;
      default:  // unrelated
        b.assign(random() % 21, kBytes[random() % 7]);
    }
    const int expected = Sign(std::string_view(a).compare(b));
    ASSERT_EQ(Sign(BytewiseCompare(a, b)), expected) << i;
    ASSERT_EQ(Sign(BytewiseCompare(b, a)), -expected) << i;
    ASSERT_EQ(Sign(BytewiseComparator()->Compare(a, b)), expected) << i;
  }
}

TEST(BytewiseComparator, SeparatorIncrementsFirstDifferingByte) {
  EXPECT_EQ(Separator("abcd", "abzz"), "abd");
  EXPECT_EQ(Separator("helloworld", "hellozoomer"), "hellox");
}

TEST(BytewiseComparator, SeparatorKeepsStartWhenNoRoom) {
  // One more than 'c' is 'd', not below the limit's 'd'.
  EXPECT_EQ(Separator("abc1", "abd"), "abc1");
  // A prefix of the limit stays as it is.
  EXPECT_EQ(Separator("abc", "abcdef"), "abc");
  // 0xff cannot be incremented.
  EXPECT_EQ(Separator(std::string("a\xff", 2), "b"), std::string("a\xff", 2));
}

TEST(BytewiseComparator, SuccessorIncrementsFirstNon0xffByte) {
  EXPECT_EQ(Successor("abc"), "b");
  EXPECT_EQ(Successor(std::string("\xff\xff"
                                  "a",
                                  3)),
            std::string("\xff\xff"
                        "b",
                        3));
  EXPECT_EQ(Successor(std::string("\xff\xff", 2)), std::string("\xff\xff", 2));
  EXPECT_EQ(Successor(""), "");
}

}  // namespace
}  // namespace bloomtable
