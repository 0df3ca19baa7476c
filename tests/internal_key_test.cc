// LevelDB internal keys: encoding, parsing and the internal-key order with
// its separator rules.

#include "table/internal_key.h"

#include <string>

#include "bloomtable/comparator.h"
#include "gtest/gtest.h"
#include "util/coding.h"

namespace bloomtable {
namespace {

std::string IKey(std::string_view user_key, uint64_t sequence, ValueType type) {
  std::string key;
  AppendInternalKey(&key, user_key, sequence, type);
  return key;
}

std::string MaxTag() {
  std::string tag;
  PutFixed64(&tag, kMaxValueTag);
  return tag;
}

TEST(InternalKey, MaxValueTagIsLevelDBsSeekTag) {
  EXPECT_EQ(kMaxValueTag, 0xffffffffffffff01ull);
}

TEST(InternalKey, EncodesUserKeyThenLittleEndianTag) {
  EXPECT_EQ(IKey("ab", 0x010203, ValueType::kValue),
            std::string("ab\x01\x03\x02\x01\0\0\0\0", 10));
}

TEST(InternalKey, ParsesWhatWasAppended) {
  const std::string key =
      IKey("user", kMaxSequenceNumber, ValueType::kDeletion);
  ParsedInternalKey parsed;
  ASSERT_TRUE(ParseInternalKey(key, &parsed));
  EXPECT_EQ(parsed.user_key, "user");
  EXPECT_EQ(parsed.sequence, kMaxSequenceNumber);
  EXPECT_EQ(parsed.type, ValueType::kDeletion);
}

TEST(InternalKey, ShortKeyOrUnknownTypeDoesNotParse) {
  ParsedInternalKey parsed;
  EXPECT_FALSE(ParseInternalKey("1234567", &parsed));
  std::string bad_type = "k";
  PutFixed64(&bad_type, (uint64_t{7} << 8) | 2);
  EXPECT_FALSE(ParseInternalKey(bad_type, &parsed));
}

TEST(InternalKeyComparator, OrdersByUserKeyThenNewestFirst) {
  InternalKeyComparator cmp(BytewiseComparator());
  EXPECT_LT(cmp.Compare(IKey("a", 1, ValueType::kValue),
                        IKey("b", 9, ValueType::kValue)),
            0);
  EXPECT_LT(cmp.Compare(IKey("a", 9, ValueType::kValue),
                        IKey("a", 1, ValueType::kValue)),
            0);
  EXPECT_LT(cmp.Compare(IKey("a", 5, ValueType::kValue),
                        IKey("a", 5, ValueType::kDeletion)),
            0);
  EXPECT_EQ(cmp.Compare(IKey("a", 5, ValueType::kValue),
                        IKey("a", 5, ValueType::kValue)),
            0);
  EXPECT_EQ(cmp.Name(), "leveldb.InternalKeyComparator");
}

TEST(InternalKeyComparator, MalformedKeysCompareWithoutReadingOutOfBounds) {
  InternalKeyComparator cmp(BytewiseComparator());
  EXPECT_LT(cmp.Compare("abc", "abd"), 0);
  EXPECT_EQ(cmp.Compare("", ""), 0);
  // A malformed key has tag 0: after every real version of the same bytes.
  EXPECT_LT(cmp.Compare(IKey("abc", 1, ValueType::kDeletion), "abc"), 0);
}

std::string Separator(std::string start, std::string_view limit) {
  InternalKeyComparator(BytewiseComparator())
      .FindShortestSeparator(&start, limit);
  return start;
}

std::string Successor(std::string key) {
  InternalKeyComparator(BytewiseComparator()).FindShortSuccessor(&key);
  return key;
}

TEST(InternalKeyComparator, SeparatorShortensTheUserKeyAndAddsTheLargestTag) {
  EXPECT_EQ(Separator(IKey("foo", 100, ValueType::kValue),
                      IKey("hello", 200, ValueType::kValue)),
            "g" + MaxTag());
}

TEST(InternalKeyComparator, SeparatorKeepsTheKeyWhenUserKeysCannotShorten) {
  // Same user key.
  EXPECT_EQ(Separator(IKey("foo", 100, ValueType::kValue),
                      IKey("foo", 99, ValueType::kValue)),
            IKey("foo", 100, ValueType::kValue));
  // One user key a prefix of the other.
  EXPECT_EQ(Separator(IKey("foo", 100, ValueType::kValue),
                      IKey("foobar", 200, ValueType::kValue)),
            IKey("foo", 100, ValueType::kValue));
  // Adjacent bytes.
  EXPECT_EQ(Separator(IKey("foo", 100, ValueType::kValue),
                      IKey("fop", 200, ValueType::kValue)),
            IKey("foo", 100, ValueType::kValue));
}

TEST(InternalKeyComparator, SuccessorShortensTheUserKey) {
  EXPECT_EQ(Successor(IKey("foo", 100, ValueType::kValue)), "g" + MaxTag());
  EXPECT_EQ(Successor(IKey("\xff\xff", 100, ValueType::kValue)),
            IKey("\xff\xff", 100, ValueType::kValue));
}

}  // namespace
}  // namespace bloomtable
