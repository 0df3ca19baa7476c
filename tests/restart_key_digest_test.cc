// RestartKeyDigest: a seek narrowed by the digest lands on the entry a plain
// Seek finds, for bytewise keys and internal keys, over key sets whose
// integers tie, whose keys are shorter than 8 bytes or share long prefixes;
// and no digest is built where it could not be trusted.

#include "table/restart_key_digest.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "bloomtable/comparator.h"
#include "gtest/gtest.h"
#include "table/block.h"
#include "table/block_builder.h"
#include "table/format.h"
#include "table/internal_key.h"

namespace bloomtable {
namespace {

using KeyOrder = RestartKeyDigest::KeyOrder;

// Values are "v:" + key, or with `handles`, the i-th key's value is a block
// handle at offset 1000 * i, as in an index block.
std::shared_ptr<const Block> BuildBlock(const std::vector<std::string>& keys,
                                        int restart_interval,
                                        bool handles = false) {
  BlockBuilder builder(restart_interval);
  for (size_t i = 0; i < keys.size(); ++i) {
    std::string value = "v:" + keys[i];
    if (handles) {
      value.clear();
      BlockHandle(1000 * i, 900).EncodeTo(&value);
    }
    builder.Add(keys[i], value);
  }
  const std::string_view bytes = builder.Finish();
  BlockContents contents;
  contents.owned.reset(new char[bytes.size()]);
  std::memcpy(contents.owned.get(), bytes.data(), bytes.size());
  contents.data = std::string_view(contents.owned.get(), bytes.size());
  auto block = Block::Parse(std::move(contents));
  EXPECT_TRUE(block.ok()) << block.status();
  return block.ok() ? *block : nullptr;
}

// Seeks every target with and without the digest and expects the same
// entry (or both past the end); returns how many targets were checked.
int ExpectSameSeeks(const Comparator* comparator, const Block& block,
                    const RestartKeyDigest& digest,
                    const std::vector<std::string>& targets) {
  int checked = 0;
  for (const std::string& target : targets) {
    BlockIter plain(comparator, &block);
    plain.Seek(target);
    uint32_t left = 0;
    uint32_t right = 0;
    digest.Narrow(target, &left, &right);
    EXPECT_LE(left, right);
    EXPECT_LT(right, block.num_restarts());
    BlockIter narrowed(comparator, &block);
    narrowed.SeekWithin(target, left, right);
    EXPECT_TRUE(narrowed.status().ok()) << narrowed.status();
    EXPECT_EQ(plain.Valid(), narrowed.Valid()) << "target " << target;
    if (plain.Valid() && narrowed.Valid()) {
      EXPECT_EQ(plain.key(), narrowed.key()) << "target " << target;
      EXPECT_EQ(plain.value(), narrowed.value());
    }
    ++checked;
  }
  return checked;
}

// Keys that stress the integers: a long shared prefix, ties in the 8 bytes
// after it, keys shorter than 8 bytes, zero bytes (the padding's value).
std::vector<std::string> AwkwardUserKeys(std::mt19937_64* rng, int count) {
  const std::string prefixes[] = {"", "a", "user:0000000000", "z\xff\xff"};
  std::vector<std::string> keys;
  for (int i = 0; i < count; ++i) {
    std::string key = prefixes[(*rng)() % 4];
    const int tail = static_cast<int>((*rng)() % 12);
    for (int j = 0; j < tail; ++j) {
      // Few byte values, so that many keys tie in their first 8 bytes.
      const char choices[] = {'\0', '0', '1', '\xff'};
      key.push_back(choices[(*rng)() % 4]);
    }
    keys.push_back(key);
  }
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  return keys;
}

// Targets: every key, every key with a byte added or removed, and strings
// before, between and after them.
std::vector<std::string> TargetsAround(const std::vector<std::string>& keys) {
  std::vector<std::string> targets = {"", std::string(1, '\0'),
                                      std::string(20, '\xff')};
  for (const std::string& key : keys) {
    targets.push_back(key);
    targets.push_back(key + '\0');
    targets.push_back(key + '5');
    if (!key.empty()) targets.push_back(key.substr(0, key.size() - 1));
  }
  return targets;
}

TEST(RestartKeyDigestTest, BytewiseSeeksLandWherePlainSeeksDo) {
  std::mt19937_64 rng(7);
  for (int restart_interval : {1, 2, 16}) {
    for (int round = 0; round < 20; ++round) {
      const std::vector<std::string> keys = AwkwardUserKeys(&rng, 200);
      auto block = BuildBlock(keys, restart_interval);
      ASSERT_NE(block, nullptr);
      auto digest = RestartKeyDigest::Build(*block, KeyOrder::kBytewise);
      if (block->num_restarts() < 2) {
        EXPECT_EQ(digest, nullptr);
        continue;
      }
      ASSERT_NE(digest, nullptr);
      EXPECT_GT(ExpectSameSeeks(BytewiseComparator(), *block, *digest,
                                TargetsAround(keys)),
                0);
    }
  }
}

TEST(RestartKeyDigestTest, InternalKeySeeksLandWherePlainSeeksDo) {
  std::mt19937_64 rng(11);
  const InternalKeyComparator comparator(BytewiseComparator());
  for (int restart_interval : {1, 16}) {
    for (int round = 0; round < 20; ++round) {
      // Several versions of each user key, newest first, as tables hold.
      std::vector<std::string> keys;
      std::vector<std::string> targets;
      for (const std::string& user_key : AwkwardUserKeys(&rng, 120)) {
        const int versions = 1 + static_cast<int>(rng() % 3);
        for (int v = versions; v >= 1; --v) {
          std::string key;
          AppendInternalKey(&key, user_key, 100 * v, ValueType::kValue);
          keys.push_back(key);
        }
        for (uint64_t sequence :
             {uint64_t{0}, uint64_t{150}, uint64_t{999}, kMaxSequenceNumber}) {
          for (const std::string& target_user : TargetsAround({user_key})) {
            std::string target;
            AppendInternalKey(&target, target_user, sequence,
                              ValueType::kValue);
            targets.push_back(target);
          }
        }
      }
      auto block = BuildBlock(keys, restart_interval);
      ASSERT_NE(block, nullptr);
      auto digest =
          RestartKeyDigest::Build(*block, KeyOrder::kInternalBytewise);
      ASSERT_NE(digest, nullptr);
      // A target shorter than a tag is no internal key: nothing narrowed.
      uint32_t left = 7;
      uint32_t right = 7;
      digest->Narrow("abc", &left, &right);
      EXPECT_EQ(left, 0u);
      EXPECT_EQ(right, block->num_restarts() - 1);
      EXPECT_GT(ExpectSameSeeks(&comparator, *block, *digest, targets), 0);
    }
  }
}

// CertainEntry, where it answers, names the entry a plain Seek lands on and
// that entry's block offset.
void ExpectCertainEntriesMatchSeeks(const Comparator* comparator,
                                    const std::vector<std::string>& keys,
                                    const std::vector<std::string>& targets,
                                    KeyOrder order, int* certain) {
  auto block = BuildBlock(keys, 1, /*handles=*/true);
  ASSERT_NE(block, nullptr);
  auto digest = RestartKeyDigest::Build(*block, order, true);
  ASSERT_NE(digest, nullptr);
  for (const std::string& target : targets) {
    uint32_t entry = 0;
    if (!digest->CertainEntry(target, &entry)) continue;
    ++*certain;
    BlockIter plain(comparator, block.get());
    plain.Seek(target);
    ASSERT_TRUE(plain.Valid()) << "target " << target;
    ASSERT_LT(entry, keys.size());
    EXPECT_EQ(plain.key(), keys[entry]) << "target " << target;
    std::string_view value = plain.value();
    BlockHandle handle;
    ASSERT_TRUE(handle.DecodeFrom(&value).ok());
    EXPECT_EQ(digest->block_offset(entry), handle.offset());
    EXPECT_EQ(handle.offset(), 1000 * entry);
  }
}

TEST(RestartKeyDigestTest, CertainEntriesAreWherePlainSeeksLand) {
  std::mt19937_64 rng(13);
  int certain = 0;
  for (int round = 0; round < 20; ++round) {
    const std::vector<std::string> keys = AwkwardUserKeys(&rng, 200);
    if (keys.size() < 2) continue;
    ExpectCertainEntriesMatchSeeks(BytewiseComparator(), keys,
                                   TargetsAround(keys), KeyOrder::kBytewise,
                                   &certain);
  }
  // Internal keys, several versions of a user key.
  const InternalKeyComparator comparator(BytewiseComparator());
  for (int round = 0; round < 20; ++round) {
    std::vector<std::string> keys;
    std::vector<std::string> targets;
    for (const std::string& user_key : AwkwardUserKeys(&rng, 100)) {
      for (uint64_t sequence : {uint64_t{300}, uint64_t{200}}) {
        std::string key;
        AppendInternalKey(&key, user_key, sequence, ValueType::kValue);
        keys.push_back(key);
      }
      for (const std::string& target_user : TargetsAround({user_key})) {
        for (uint64_t sequence : {uint64_t{250}, kMaxSequenceNumber}) {
          std::string target;
          AppendInternalKey(&target, target_user, sequence, ValueType::kValue);
          targets.push_back(target);
        }
      }
    }
    ExpectCertainEntriesMatchSeeks(&comparator, keys, targets,
                                   KeyOrder::kInternalBytewise, &certain);
  }
  // Decimal keys: nearly every target between keys is certain.
  std::vector<std::string> decimal;
  std::vector<std::string> between;
  for (int i = 0; i < 300; ++i) {
    char key[17];
    std::snprintf(key, sizeof(key), "%016d", i * 10);
    decimal.push_back(key);
    std::snprintf(key, sizeof(key), "%016d", i * 10 + 5);
    between.push_back(key);
  }
  int decimal_certain = 0;
  ExpectCertainEntriesMatchSeeks(BytewiseComparator(), decimal, between,
                                 KeyOrder::kBytewise, &decimal_certain);
  EXPECT_GE(decimal_certain, 290);
  EXPECT_GT(certain, 0);
}

TEST(RestartKeyDigestTest, NoBlockOffsetsWithoutOneEntryPerRestartPoint) {
  std::vector<std::string> keys;
  for (int i = 0; i < 100; ++i) {
    char key[17];
    std::snprintf(key, sizeof(key), "%016d", i * 10);
    keys.push_back(key);
  }
  uint32_t entry = 0;
  // Restart points every 16 entries: a digest, but no certain entry.
  auto sparse = BuildBlock(keys, 16, /*handles=*/true);
  auto digest = RestartKeyDigest::Build(*sparse, KeyOrder::kBytewise, true);
  ASSERT_NE(digest, nullptr);
  EXPECT_FALSE(digest->CertainEntry("0000000000000505", &entry));
  // Not asked for.
  auto index = BuildBlock(keys, 1, /*handles=*/true);
  digest = RestartKeyDigest::Build(*index, KeyOrder::kBytewise);
  ASSERT_NE(digest, nullptr);
  EXPECT_FALSE(digest->CertainEntry("0000000000000505", &entry));
  digest = RestartKeyDigest::Build(*index, KeyOrder::kBytewise, true);
  ASSERT_TRUE(digest->CertainEntry("0000000000000505", &entry));
  EXPECT_EQ(entry, 51u);
  EXPECT_EQ(digest->block_offset(entry), 51000u);
}

TEST(RestartKeyDigestTest, DistinctIntegersNarrowToOneRestartPoint) {
  // 16-digit decimal keys: after their shared zeros, every key's next bytes
  // differ, so the bounds leave a single candidate, or two where the
  // target's integer ties with a key's (the whole keys decide).
  std::vector<std::string> keys;
  for (int i = 0; i < 500; ++i) {
    char key[17];
    std::snprintf(key, sizeof(key), "%016d", i * 7);
    keys.push_back(key);
  }
  auto block = BuildBlock(keys, 1);
  ASSERT_NE(block, nullptr);
  auto digest = RestartKeyDigest::Build(*block, KeyOrder::kBytewise);
  ASSERT_NE(digest, nullptr);
  uint32_t left = 0;
  uint32_t right = 0;
  digest->Narrow("0000000000000700", &left, &right);  // key 100 itself
  EXPECT_EQ(left, 99u);    // the last key certainly < target
  EXPECT_EQ(right, 100u);  // the tie
  digest->Narrow("0000000000000701", &left, &right);
  EXPECT_EQ(left, 100u);
  EXPECT_EQ(right, 100u);
  EXPECT_GT(digest->MemoryUsage(), 499 * sizeof(uint64_t));
}

TEST(RestartKeyDigestTest, NoDigestWhereItCannotBeTrusted) {
  // One restart point: nothing to narrow.
  auto single = BuildBlock({"a", "b", "c"}, 16);
  ASSERT_NE(single, nullptr);
  EXPECT_EQ(RestartKeyDigest::Build(*single, KeyOrder::kBytewise), nullptr);

  // Keys out of bytewise order (a block of another comparator, or damage).
  auto unsorted = BuildBlock({"b", "a", "c"}, 1);
  ASSERT_NE(unsorted, nullptr);
  EXPECT_EQ(RestartKeyDigest::Build(*unsorted, KeyOrder::kBytewise), nullptr);

  // Internal keys shorter than their tag.
  auto short_keys = BuildBlock({"abc", "abd", "abe"}, 1);
  ASSERT_NE(short_keys, nullptr);
  EXPECT_EQ(RestartKeyDigest::Build(*short_keys, KeyOrder::kInternalBytewise),
            nullptr);

  // A restart offset past the entries.
  std::string bytes(BuildBlock({"a", "b", "c"}, 1)->contents());
  const size_t restart_array = bytes.size() - 4 * sizeof(uint32_t);
  bytes[restart_array + sizeof(uint32_t)] = '\x7f';  // restart 1
  BlockContents contents;
  contents.owned.reset(new char[bytes.size()]);
  std::memcpy(contents.owned.get(), bytes.data(), bytes.size());
  contents.data = std::string_view(contents.owned.get(), bytes.size());
  auto damaged = Block::Parse(std::move(contents));
  ASSERT_TRUE(damaged.ok());
  EXPECT_EQ(RestartKeyDigest::Build(**damaged, KeyOrder::kBytewise), nullptr);
}

}  // namespace
}  // namespace bloomtable
