// Blocks: the builder's exact bytes, and the reader's iteration, seeking
// and handling of damaged bytes.

#include "table/block.h"

#include <cstring>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "bloomtable/comparator.h"
#include "gtest/gtest.h"
#include "table/block_builder.h"
#include "util/coding.h"

namespace bloomtable {
namespace {

BlockContents Own(std::string_view bytes) {
  BlockContents contents;
  contents.owned.reset(new char[bytes.size()]);
  std::memcpy(contents.owned.get(), bytes.data(), bytes.size());
  contents.data = std::string_view(contents.owned.get(), bytes.size());
  return contents;
}

std::shared_ptr<const Block> ParseOrDie(std::string_view bytes) {
  auto block = Block::Parse(Own(bytes));
  EXPECT_TRUE(block.ok()) << block.status();
  return block.ok() ? *block : nullptr;
}

// `bytes` parse as a block whose first entry is damaged: the iterator is
// not valid and says DataLoss.
void ExpectFirstEntryIsDataLoss(std::string_view bytes) {
  auto block = ParseOrDie(bytes);
  ASSERT_NE(block, nullptr);
  BlockIter it(BytewiseComparator(), block.get());
  it.SeekToFirst();
  EXPECT_FALSE(it.Valid());
  EXPECT_EQ(it.status().code(), absl::StatusCode::kDataLoss);
}

using Model = std::map<std::string, std::string>;

std::string BuildBlock(const Model& model, int restart_interval) {
  BlockBuilder builder(restart_interval);
  for (const auto& [key, value] : model) builder.Add(key, value);
  const size_t estimate = builder.CurrentSizeEstimate();
  std::string block(builder.Finish());
  EXPECT_EQ(block.size(), estimate);
  return block;
}

std::string Entry(uint32_t shared, uint32_t unshared,
                  std::string_view key_delta, std::string_view value) {
  std::string out;
  PutVarint32(&out, shared);
  PutVarint32(&out, unshared);
  PutVarint32(&out, static_cast<uint32_t>(value.size()));
  out.append(key_delta.data(), key_delta.size());
  out.append(value.data(), value.size());
  return out;
}

std::string RestartArray(const std::vector<uint32_t>& restarts) {
  std::string out;
  for (uint32_t r : restarts) PutFixed32(&out, r);
  PutFixed32(&out, static_cast<uint32_t>(restarts.size()));
  return out;
}

TEST(BlockBuilder, EmptyBlockIsOneRestartPointAtZero) {
  BlockBuilder builder(16);
  EXPECT_TRUE(builder.empty());
  EXPECT_EQ(builder.CurrentSizeEstimate(), 8u);
  EXPECT_EQ(builder.Finish(), std::string_view("\0\0\0\0\1\0\0\0", 8));
}

TEST(BlockBuilder, SharesPrefixesAndRestartsEveryInterval) {
  BlockBuilder builder(2);
  builder.Add("apple", "1");
  builder.Add("apricot", "22");
  builder.Add("banana", "");
  const std::string expected =
      Entry(0, 5, "apple", "1") + Entry(2, 5, "ricot", "22") +
      Entry(0, 6, "banana", "") + RestartArray({0, 19});
  EXPECT_EQ(std::string(builder.Finish()), expected);
}

TEST(BlockBuilder, SizeEstimateIsExactBeforeFinish) {
  BlockBuilder builder(3);
  for (int i = 0; i < 10; ++i) {
    builder.Add("key" + std::to_string(100 + i), std::string(i, 'v'));
  }
  const size_t estimate = builder.CurrentSizeEstimate();
  EXPECT_EQ(builder.Finish().size(), estimate);
}

TEST(BlockBuilder, ResetStartsAFreshBlock) {
  BlockBuilder builder(16);
  builder.Add("a", "b");
  builder.Finish();
  builder.Reset();
  EXPECT_TRUE(builder.empty());
  builder.Add("a", "b");
  EXPECT_EQ(std::string(builder.Finish()),
            Entry(0, 1, "a", "b") + RestartArray({0}));
}

TEST(BlockBuilder, RestartIntervalBelowOneActsAsOne) {
  BlockBuilder zero(0);
  BlockBuilder one(1);
  for (const char* key : {"aa", "ab", "ac"}) {
    zero.Add(key, "");
    one.Add(key, "");
  }
  EXPECT_EQ(zero.Finish(), one.Finish());
}

Model RandomModel(std::mt19937* rng, int n, bool shared_prefixes) {
  Model model;
  std::uniform_int_distribution<int> length(0, 24);
  std::uniform_int_distribution<int> byte(0, 255);
  while (static_cast<int>(model.size()) < n) {
    std::string key = shared_prefixes ? "common/prefix/" : "";
    const int key_length = length(*rng);
    for (int i = 0; i < key_length; ++i) key.push_back(char(byte(*rng)));
    std::string value(length(*rng), char('a' + model.size() % 26));
    model[key] = value;
  }
  return model;
}

void CheckBlockAgainstModel(const Block& block, const Model& model,
                            std::mt19937* rng) {
  BlockIter it(BytewiseComparator(), &block);
  // Forward.
  auto m = model.begin();
  for (it.SeekToFirst(); it.Valid(); it.Next(), ++m) {
    ASSERT_NE(m, model.end());
    EXPECT_EQ(it.key(), m->first);
    EXPECT_EQ(it.value(), m->second);
  }
  EXPECT_EQ(m, model.end());
  EXPECT_TRUE(it.status().ok());
  // Backward.
  auto r = model.rbegin();
  for (it.SeekToLast(); it.Valid(); it.Prev(), ++r) {
    ASSERT_NE(r, model.rend());
    EXPECT_EQ(it.key(), r->first);
    EXPECT_EQ(it.value(), r->second);
  }
  EXPECT_EQ(r, model.rend());
  // Seek to every key and to random targets.
  for (const auto& [key, value] : model) {
    it.Seek(key);
    ASSERT_TRUE(it.Valid());
    EXPECT_EQ(it.key(), key);
    EXPECT_EQ(it.value(), value);
  }
  std::uniform_int_distribution<int> byte(0, 255);
  for (int i = 0; i < 50; ++i) {
    std::string target;
    for (int j = byte(*rng) % 6; j > 0; --j) target.push_back(char(byte(*rng)));
    if (!model.empty() && i % 2 == 0) {
      auto pick = model.begin();
      std::advance(pick, byte(*rng) % model.size());
      target = pick->first + target;
    }
    it.Seek(target);
    auto expected = model.lower_bound(target);
    if (expected == model.end()) {
      EXPECT_FALSE(it.Valid());
    } else {
      ASSERT_TRUE(it.Valid());
      EXPECT_EQ(it.key(), expected->first);
      // Step back and forth from the sought position.
      it.Prev();
      if (expected == model.begin()) {
        EXPECT_FALSE(it.Valid());
      } else {
        ASSERT_TRUE(it.Valid());
        EXPECT_EQ(it.key(), std::prev(expected)->first);
        it.Next();
        ASSERT_TRUE(it.Valid());
        EXPECT_EQ(it.key(), expected->first);
      }
    }
    EXPECT_TRUE(it.status().ok());
  }
}

TEST(Block, IteratesAndSeeksLikeASortedMapAtEveryRestartInterval) {
  std::mt19937 rng(301);
  for (int interval : {1, 2, 16, 1024}) {
    for (int n : {0, 1, 2, 17, 300}) {
      for (bool shared_prefixes : {false, true}) {
        SCOPED_TRACE(testing::Message() << "interval " << interval << " n " << n
                                        << " prefixes " << shared_prefixes);
        const Model model = RandomModel(&rng, n, shared_prefixes);
        auto block = ParseOrDie(BuildBlock(model, interval));
        ASSERT_NE(block, nullptr);
        CheckBlockAgainstModel(*block, model, &rng);
      }
    }
  }
}

TEST(Block, KeysLongerThanTheInlineBufferWork) {
  std::mt19937 rng(7);
  Model model;
  for (int i = 0; i < 40; ++i) {
    model[std::string(200, 'k') + std::to_string(1000 + i) +
          std::string(i * 10, 'x')] = std::to_string(i);
  }
  auto block = ParseOrDie(BuildBlock(model, 4));
  ASSERT_NE(block, nullptr);
  CheckBlockAgainstModel(*block, model, &rng);
}

TEST(Block, FourZeroBytesAreAnEmptyBlock) {
  auto block = ParseOrDie(std::string(4, '\0'));
  ASSERT_NE(block, nullptr);
  BlockIter it(BytewiseComparator(), block.get());
  it.SeekToFirst();
  EXPECT_FALSE(it.Valid());
  it.SeekToLast();
  EXPECT_FALSE(it.Valid());
  it.Seek("x");
  EXPECT_FALSE(it.Valid());
  EXPECT_TRUE(it.status().ok());
}

TEST(Block, TooShortForARestartCountIsDataLoss) {
  auto block = Block::Parse(Own("abc"));
  EXPECT_EQ(block.status().code(), absl::StatusCode::kDataLoss);
}

TEST(Block, RestartCountLargerThanTheBlockIsDataLoss) {
  std::string bytes = Entry(0, 1, "a", "b");
  PutFixed32(&bytes, 0);
  PutFixed32(&bytes, 1000);
  EXPECT_EQ(Block::Parse(Own(bytes)).status().code(),
            absl::StatusCode::kDataLoss);
}

TEST(Block, EntriesWithoutRestartPointsAreDataLoss) {
  std::string bytes = Entry(0, 1, "a", "b");
  PutFixed32(&bytes, 0);
  EXPECT_EQ(Block::Parse(Own(bytes)).status().code(),
            absl::StatusCode::kDataLoss);
}

TEST(Block, RestartOffsetPastTheEntriesIsDataLossOnTheIterator) {
  const std::string bytes = Entry(0, 1, "a", "b") + RestartArray({0, 500});
  auto block = ParseOrDie(bytes);
  ASSERT_NE(block, nullptr);
  BlockIter it(BytewiseComparator(), block.get());
  it.SeekToLast();
  EXPECT_FALSE(it.Valid());
  EXPECT_EQ(it.status().code(), absl::StatusCode::kDataLoss);
  it.Seek("a");
  EXPECT_FALSE(it.Valid());
  EXPECT_EQ(it.status().code(), absl::StatusCode::kDataLoss);
  // SeekToFirst does not need the damaged restart point.
  it.SeekToFirst();
  ASSERT_TRUE(it.Valid());
  EXPECT_EQ(it.key(), "a");
}

TEST(Block, SharedPrefixLongerThanThePreviousKeyIsDataLoss) {
  const std::string bytes =
      Entry(0, 2, "ab", "") + Entry(5, 1, "c", "") + RestartArray({0});
  auto block = ParseOrDie(bytes);
  ASSERT_NE(block, nullptr);
  BlockIter it(BytewiseComparator(), block.get());
  it.SeekToFirst();
  ASSERT_TRUE(it.Valid());
  it.Next();
  EXPECT_FALSE(it.Valid());
  EXPECT_EQ(it.status().code(), absl::StatusCode::kDataLoss);
}

TEST(Block, RestartEntryThatSharesBytesIsDataLoss) {
  const std::string first = Entry(0, 2, "ab", "");
  const std::string bytes =
      first + Entry(1, 1, "c", "") +
      RestartArray({0, static_cast<uint32_t>(first.size())});
  auto block = ParseOrDie(bytes);
  ASSERT_NE(block, nullptr);
  BlockIter it(BytewiseComparator(), block.get());
  it.Seek("b");
  EXPECT_FALSE(it.Valid());
  EXPECT_EQ(it.status().code(), absl::StatusCode::kDataLoss);
}

TEST(Block, ValueLengthPastTheEntriesIsDataLoss) {
  std::string bytes;
  PutVarint32(&bytes, 0);
  PutVarint32(&bytes, 1);
  PutVarint32(&bytes, 100);  // value claims 100 bytes
  bytes += "a";
  bytes += RestartArray({0});
  ExpectFirstEntryIsDataLoss(bytes);
}

TEST(Block, HugeLengthsDoNotOverflowTheBoundsCheck) {
  std::string bytes;
  PutVarint32(&bytes, 0);
  PutVarint32(&bytes, 0xffffffffu);
  PutVarint32(&bytes, 0xffffffffu);
  bytes += RestartArray({0});
  ExpectFirstEntryIsDataLoss(bytes);
}

TEST(Block, SeekResetsAnEarlierError) {
  const std::string bytes =
      Entry(0, 2, "ab", "") + Entry(5, 1, "c", "") + RestartArray({0});
  auto block = ParseOrDie(bytes);
  ASSERT_NE(block, nullptr);
  BlockIter it(BytewiseComparator(), block.get());
  it.SeekToLast();
  EXPECT_FALSE(it.status().ok());
  it.Seek("a");
  ASSERT_TRUE(it.Valid());
  EXPECT_EQ(it.key(), "ab");
  EXPECT_TRUE(it.status().ok());
}

// Walks the whole block every way; checks that nothing crashes (the
// sanitizers check the reads) and that each walk ends. Every entry takes at
// least three bytes (its three length varints), so a walk that visits more
// entries than the block has bytes is going round in circles: each walk stops
// one step past that bound, and the assertion is the bound itself.
void ExerciseDamagedBlock(std::string_view bytes) {
  auto parsed = Block::Parse(Own(bytes));
  if (!parsed.ok()) return;
  BlockIter it(BytewiseComparator(), parsed->get());
  const size_t most_entries = bytes.size();
  size_t forward = 0;
  for (it.SeekToFirst(); it.Valid() && forward <= most_entries; it.Next()) {
    ++forward;
  }
  EXPECT_LE(forward, most_entries) << "the forward walk does not end";
  size_t backward = 0;
  for (it.SeekToLast(); it.Valid() && backward <= most_entries; it.Prev()) {
    ++backward;
  }
  EXPECT_LE(backward, most_entries) << "the backward walk does not end";
  for (std::string_view target : {"", "k", "key05", "zzz"}) {
    it.Seek(target);
    if (it.Valid()) it.Prev();
    if (it.Valid()) it.Next();
  }
}

TEST(Block, EverySingleByteCorruptionIsHandled) {
  Model model;
  for (int i = 0; i < 20; ++i) {
    model["key" + std::to_string(10 + i)] = std::string(i % 5, 'v');
  }
  for (int interval : {1, 4}) {
    const std::string good = BuildBlock(model, interval);
    for (size_t pos = 0; pos < good.size(); ++pos) {
      for (int delta : {1, 0x80, 0xff}) {
        std::string bad = good;
        bad[pos] = static_cast<char>(bad[pos] + delta);
        ExerciseDamagedBlock(bad);
      }
    }
    for (size_t length = 0; length < good.size(); ++length) {
      ExerciseDamagedBlock(std::string_view(good).substr(0, length));
    }
  }
}

TEST(Block, RandomGarbageIsHandled) {
  std::mt19937 rng(99);
  std::uniform_int_distribution<int> byte(0, 255);
  for (int trial = 0; trial < 2000; ++trial) {
    std::string bytes(4 + trial % 64, '\0');
    for (char& c : bytes) c = static_cast<char>(byte(rng));
    // A plausible restart count makes Parse succeed more often.
    if (trial % 2 == 0) EncodeFixed32(&bytes[bytes.size() - 4], 1 + trial % 3);
    ExerciseDamagedBlock(bytes);
  }
}

}  // namespace
}  // namespace bloomtable
