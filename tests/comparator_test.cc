#include "bloomtable/comparator.h"

#include <string>

#include "gtest/gtest.h"

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
