// LevelDB's per-block filter layout: the builder's exact bytes and the
// reader's answers, including "maybe" on every kind of damage.

#include "filter/filter_block.h"

#include <random>
#include <string>

#include "bloomtable/filter_policy.h"
#include "gtest/gtest.h"
#include "tests/table_test_policies.h"
#include "util/coding.h"

namespace bloomtable {
namespace {

using testing_policies::HashListPolicy;

std::string Hash(std::string_view key) {
  std::string out;
  PutFixed32(&out, HashListPolicy::Hash(key));
  return out;
}

std::string Trailer(const std::vector<uint32_t>& offsets, uint32_t array_offset,
                    char base_lg = 11) {
  std::string out;
  for (uint32_t offset : offsets) PutFixed32(&out, offset);
  PutFixed32(&out, array_offset);
  out.push_back(base_lg);
  return out;
}

TEST(FilterBlock, EmptyBuilderWritesOnlyTheTrailer) {
  HashListPolicy policy;
  FilterBlockBuilder builder(&policy);
  builder.StartBlock(0);
  EXPECT_EQ(std::string(builder.Finish()), std::string("\0\0\0\0\x0b", 5));
  FilterBlockReader reader(&policy, std::string_view("\0\0\0\0\x0b", 5));
  EXPECT_TRUE(reader.usable());
  EXPECT_EQ(reader.num_filters(), 0u);
  // No filter covers any offset: "maybe".
  EXPECT_TRUE(reader.KeyMayMatch(0, "foo"));
  EXPECT_TRUE(reader.KeyMayMatch(100000, "foo"));
}

TEST(FilterBlock, BlocksInOneTwoKiBRangeShareAFilter) {
  HashListPolicy policy;
  FilterBlockBuilder builder(&policy);
  builder.StartBlock(100);
  builder.AddKey("foo");
  builder.AddKey("bar");
  builder.AddKey("box");
  builder.StartBlock(200);
  builder.AddKey("box");
  builder.StartBlock(300);
  builder.AddKey("hello");
  const std::string block(builder.Finish());
  EXPECT_EQ(block, Hash("foo") + Hash("bar") + Hash("box") + Hash("box") +
                       Hash("hello") + Trailer({0}, 20));
  FilterBlockReader reader(&policy, block);
  for (const char* key : {"foo", "bar", "box", "hello"}) {
    EXPECT_TRUE(reader.KeyMayMatch(100, key)) << key;
  }
  EXPECT_FALSE(reader.KeyMayMatch(100, "missing"));
  EXPECT_FALSE(reader.KeyMayMatch(100, "other"));
}

TEST(FilterBlock, EachTwoKiBRangeGetsItsOwnFilterAndGapsAreEmpty) {
  HashListPolicy policy;
  FilterBlockBuilder builder(&policy);
  // Filter 0: blocks at 0 and 2000.
  builder.StartBlock(0);
  builder.AddKey("foo");
  builder.StartBlock(2000);
  builder.AddKey("bar");
  // Filter 1: the block at 3100.
  builder.StartBlock(3100);
  builder.AddKey("box");
  // Filters 2 and 3 are empty; filter 4: the block at 9000.
  builder.StartBlock(9000);
  builder.AddKey("box");
  builder.AddKey("hello");
  const std::string block(builder.Finish());
  EXPECT_EQ(block, Hash("foo") + Hash("bar") + Hash("box") + Hash("box") +
                       Hash("hello") + Trailer({0, 8, 12, 12, 12}, 20));
  FilterBlockReader reader(&policy, block);
  EXPECT_EQ(reader.num_filters(), 5u);

  EXPECT_TRUE(reader.KeyMayMatch(0, "foo"));
  EXPECT_TRUE(reader.KeyMayMatch(2000, "bar"));
  EXPECT_FALSE(reader.KeyMayMatch(0, "box"));
  EXPECT_FALSE(reader.KeyMayMatch(0, "hello"));

  EXPECT_TRUE(reader.KeyMayMatch(3100, "box"));
  EXPECT_FALSE(reader.KeyMayMatch(3100, "foo"));
  EXPECT_FALSE(reader.KeyMayMatch(3100, "bar"));

  // Empty filters: "absent".
  EXPECT_FALSE(reader.KeyMayMatch(4100, "foo"));
  EXPECT_FALSE(reader.KeyMayMatch(6100, "box"));

  EXPECT_TRUE(reader.KeyMayMatch(9000, "box"));
  EXPECT_TRUE(reader.KeyMayMatch(9000, "hello"));
  EXPECT_FALSE(reader.KeyMayMatch(9000, "foo"));
  // Past the last filter: "maybe".
  EXPECT_TRUE(reader.KeyMayMatch(20000, "foo"));
}

TEST(FilterBlock, StartingABlockPastFourKiBLeavesATrailingEmptyFilter) {
  // A single data block ending at 4200 (the table's last, flushed at
  // Finish): its keys go in filter 0, and filter 1 is empty.
  auto bloom = NewLevelDBBloomFilterPolicy(10);
  FilterBlockBuilder builder(bloom.get());
  builder.StartBlock(0);
  builder.AddKey("a");
  builder.StartBlock(4200);
  const std::string block(builder.Finish());
  // One key at 10 bits per key: 64 bits (the minimum) plus the k byte.
  ASSERT_EQ(block.size(), 9u + 13u);
  EXPECT_EQ(block.substr(9), Trailer({0, 9}, 9));
  FilterBlockReader reader(bloom.get(), block);
  EXPECT_TRUE(reader.KeyMayMatch(0, "a"));
  EXPECT_FALSE(reader.KeyMayMatch(2048, "a"));
}

TEST(FilterBlock, KeysLeftAtFinishGetALastFilter) {
  HashListPolicy policy;
  FilterBlockBuilder builder(&policy);
  builder.StartBlock(0);
  builder.AddKey("x");
  const std::string block(builder.Finish());
  EXPECT_EQ(block, Hash("x") + Trailer({0}, 4));
}

TEST(FilterBlockReader, TooShortAnswersMaybe) {
  HashListPolicy policy;
  for (size_t n = 0; n < 5; ++n) {
    FilterBlockReader reader(&policy, std::string(n, '\0'));
    EXPECT_FALSE(reader.usable());
    EXPECT_TRUE(reader.KeyMayMatch(0, "anything"));
  }
}

TEST(FilterBlockReader, ArrayOffsetPastTheTrailerAnswersMaybe) {
  HashListPolicy policy;
  const std::string block = Hash("k") + Trailer({0}, 9);
  FilterBlockReader reader(&policy, block);
  EXPECT_FALSE(reader.usable());
  EXPECT_TRUE(reader.KeyMayMatch(0, "other"));
}

TEST(FilterBlockReader, BaseLgOutsideOneToThirtyAnswersMaybe) {
  HashListPolicy policy;
  for (char base_lg : {char{0}, char{31}, char{'\xff'}}) {
    const std::string block = Hash("k") + Trailer({0}, 4, base_lg);
    FilterBlockReader reader(&policy, block);
    EXPECT_FALSE(reader.usable());
    EXPECT_TRUE(reader.KeyMayMatch(0, "other"));
  }
}

TEST(FilterBlockReader, FilterStartAfterItsLimitAnswersMaybe) {
  HashListPolicy policy;
  const std::string block = Hash("k") + Trailer({4, 0}, 4);
  FilterBlockReader reader(&policy, block);
  ASSERT_TRUE(reader.usable());
  EXPECT_TRUE(reader.KeyMayMatch(0, "other"));
}

TEST(FilterBlockReader, EmptyFilterPastTheArrayAnswersMaybe) {
  // LevelDB would answer "absent" for start == limit even out of range.
  HashListPolicy policy;
  const std::string block = Hash("k") + Trailer({100, 100}, 4);
  FilterBlockReader reader(&policy, block);
  ASSERT_TRUE(reader.usable());
  EXPECT_TRUE(reader.KeyMayMatch(0, "other"));
  EXPECT_TRUE(reader.KeyMayMatch(2048, "other"));
}

TEST(FilterBlockReader, LimitPastTheArrayAnswersMaybe) {
  HashListPolicy policy;
  const std::string block = Hash("k") + Trailer({0, 50}, 4);
  FilterBlockReader reader(&policy, block);
  ASSERT_TRUE(reader.usable());
  EXPECT_TRUE(reader.KeyMayMatch(0, "other"));
}

TEST(FilterBlockReader, HonoursAnotherBaseLg) {
  HashListPolicy policy;
  // base_lg 12: filter i covers [i * 4096, (i + 1) * 4096).
  const std::string block = Hash("a") + Hash("b") + Trailer({0, 4}, 8, 12);
  FilterBlockReader reader(&policy, block);
  EXPECT_TRUE(reader.KeyMayMatch(4000, "a"));
  EXPECT_FALSE(reader.KeyMayMatch(4000, "b"));
  EXPECT_TRUE(reader.KeyMayMatch(4096, "b"));
  EXPECT_FALSE(reader.KeyMayMatch(4096, "a"));
}

TEST(FilterBlockReader, RandomGarbageNeverCrashes) {
  HashListPolicy policy;
  std::mt19937 rng(5);
  std::uniform_int_distribution<int> byte(0, 255);
  for (int trial = 0; trial < 3000; ++trial) {
    std::string block(trial % 40, '\0');
    for (char& c : block) c = static_cast<char>(byte(rng));
    if (block.size() >= 5 && trial % 2 == 0) {
      // A plausible trailer gets past the first checks.
      block.back() = 11;
      EncodeFixed32(&block[block.size() - 5],
                    static_cast<uint32_t>(byte(rng) % (block.size() - 4)));
    }
    FilterBlockReader reader(&policy, block);
    for (uint64_t offset : {0, 2048, 5000, 1 << 20}) {
      reader.KeyMayMatch(offset, "key");
    }
  }
}

}  // namespace
}  // namespace bloomtable
