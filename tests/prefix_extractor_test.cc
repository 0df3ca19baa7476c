// The three built-in prefix extractors: domain, prefix, the property that
// lets bounded scans use the filter, and their stored names.

#include "bloomtable/prefix_extractor.h"

#include <memory>
#include <string>

#include "gtest/gtest.h"

namespace bloomtable {
namespace {

TEST(PrefixExtractor, FixedTakesTheFirstBytesOfLongEnoughKeys) {
  auto extractor = NewFixedPrefixExtractor(3);
  EXPECT_EQ(extractor->Name(), "bloomtable.FixedPrefix.3");
  EXPECT_FALSE(extractor->InDomain("ab"));
  EXPECT_TRUE(extractor->InDomain("abc"));
  EXPECT_EQ(extractor->Transform("abcdef"), "abc");
  EXPECT_TRUE(extractor->SameResultWhenAppended("abc"));
}

TEST(PrefixExtractor, CappedTakesAtMostTheFirstBytes) {
  auto extractor = NewCappedPrefixExtractor(3);
  EXPECT_EQ(extractor->Name(), "bloomtable.CappedPrefix.3");
  EXPECT_TRUE(extractor->InDomain(""));
  EXPECT_EQ(extractor->Transform("ab"), "ab");
  EXPECT_EQ(extractor->Transform("abcdef"), "abc");
  // "ab" + "c" has prefix "abc": appending changes a short prefix.
  EXPECT_FALSE(extractor->SameResultWhenAppended("ab"));
  EXPECT_TRUE(extractor->SameResultWhenAppended("abc"));
}

TEST(PrefixExtractor, DelimitedEndsAtTheNthDelimiter) {
  auto extractor = NewDelimitedPrefixExtractor(':', 2);
  EXPECT_EQ(extractor->Name(), "bloomtable.DelimitedPrefix.3a.2");
  EXPECT_FALSE(extractor->InDomain("user:17"));
  EXPECT_TRUE(extractor->InDomain("user:17:"));
  EXPECT_EQ(extractor->Transform("user:17:name"), "user:17:");
  EXPECT_EQ(extractor->Transform("user:123456:a:b"), "user:123456:");
  EXPECT_TRUE(extractor->SameResultWhenAppended("user:17:"));
  EXPECT_FALSE(extractor->SameResultWhenAppended("user:17"));
}

TEST(PrefixExtractor, DelimitedCountZeroIsOne) {
  auto extractor = NewDelimitedPrefixExtractor('/', 0);
  EXPECT_EQ(extractor->Name(), "bloomtable.DelimitedPrefix.2f.1");
  EXPECT_EQ(extractor->Transform("a/b/c"), "a/");
}

TEST(PrefixExtractor, DelimitedNameSpellsTheByteInHex) {
  EXPECT_EQ(NewDelimitedPrefixExtractor('\xff', 3)->Name(),
            "bloomtable.DelimitedPrefix.ff.3");
  EXPECT_EQ(NewDelimitedPrefixExtractor('\0', 1)->Name(),
            "bloomtable.DelimitedPrefix.00.1");
}

TEST(PrefixExtractor, FromNameRecreatesEveryBuiltIn) {
  for (const auto& extractor :
       {NewFixedPrefixExtractor(8), NewCappedPrefixExtractor(0),
        NewDelimitedPrefixExtractor(':', 2),
        NewDelimitedPrefixExtractor('\xfe', 17)}) {
    auto again = NewPrefixExtractorFromName(extractor->Name());
    ASSERT_NE(again, nullptr) << extractor->Name();
    EXPECT_EQ(again->Name(), extractor->Name());
  }
}

TEST(PrefixExtractor, FromNameRefusesOtherSpellings) {
  for (const char* name :
       {"", "bloomtable", "bloomtable.FixedPrefix", "bloomtable.FixedPrefix.",
        "bloomtable.FixedPrefix.08", "bloomtable.FixedPrefix.+8",
        "bloomtable.FixedPrefix.-1", "bloomtable.FixedPrefix.8.1",
        "rocksdb.FixedPrefix.8", "bloomtable.DelimitedPrefix.3A.2",
        "bloomtable.DelimitedPrefix.3a", "bloomtable.DelimitedPrefix.3a.0",
        "bloomtable.DelimitedPrefix.3.2", "bloomtable.OtherPrefix.3"}) {
    EXPECT_EQ(NewPrefixExtractorFromName(name), nullptr) << name;
  }
}

}  // namespace
}  // namespace bloomtable
