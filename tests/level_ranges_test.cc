// LevelRanges (db/level_ranges.h): the tables a lookup asks, found through
// integers, must be exactly those that whole-key comparisons find, for keys
// that tie with a boundary in the digested bytes, keys outside the level's
// shared prefix, boundaries shorter than 8 bytes past it, and every tag.

#include "db/level_ranges.h"

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "table/internal_key.h"
#include "util/coding.h"

namespace bloomtable {
namespace {

std::string Internal(const std::string& user_key, uint64_t sequence) {
  std::string key;
  AppendInternalKey(&key, user_key, sequence, ValueType::kValue);
  return key;
}

// Whole-key answers, as the view computed them before LevelRanges.
bool ReferenceMayHold(const DatabaseTableFile& file, const std::string& key) {
  return key >= ExtractUserKey(file.smallest) &&
         key <= ExtractUserKey(file.largest);
}

size_t ReferenceFirst(const std::vector<DatabaseTableFile>& files,
                      const std::string& key, uint64_t tag) {
  const InternalKeyComparator icmp(BytewiseComparator());
  std::string target = key;
  PutFixed64(&target, tag);
  size_t i = 0;
  while (i < files.size() && icmp.Compare(files[i].largest, target) < 0) ++i;
  return i;
}

// Random keys from a small alphabet, sharing a long prefix, so that many
// differ only past the 8 digested bytes, or end within them.
std::string RandomKey(std::mt19937* rng) {
  static const char kAlphabet[] = "ab";
  std::string key = (*rng)() % 8 == 0 ? "pre" : "prefix/";
  const size_t length = (*rng)() % 14;
  for (size_t i = 0; i < length; ++i) key += kAlphabet[(*rng)() % 2];
  return key;
}

TEST(LevelRanges, AgreesWithWholeKeysOnSortedLevels) {
  std::mt19937 rng(7);
  for (int round = 0; round < 200; ++round) {
    std::vector<std::string> bounds;
    const size_t files = 1 + rng() % 8;
    for (size_t i = 0; i < 2 * files; ++i) bounds.push_back(RandomKey(&rng));
    std::sort(bounds.begin(), bounds.end());
    std::vector<DatabaseTableFile> level;
    for (size_t i = 0; i < files; ++i) {
      DatabaseTableFile file;
      // Adjacent files may share a boundary user key (its versions split),
      // the later file holding the older versions.
      file.smallest = Internal(bounds[2 * i], 50 + rng() % 20);
      file.largest = Internal(bounds[2 * i + 1], 10 + rng() % 20);
      level.push_back(file);
    }
    const LevelRanges ranges(&level);
    ASSERT_TRUE(ranges.sorted());
    for (int probe = 0; probe < 200; ++probe) {
      const std::string key =
          probe % 3 == 0 ? bounds[rng() % bounds.size()] : RandomKey(&rng);
      const LevelRanges::Target target = ranges.Digest(key);
      for (size_t i = 0; i < files; ++i) {
        ASSERT_EQ(ranges.MayHold(i, target), ReferenceMayHold(level[i], key))
            << key << " in file " << i;
      }
      for (uint64_t sequence :
           {uint64_t{5}, uint64_t{20}, kMaxSequenceNumber}) {
        const uint64_t tag = PackSequenceAndType(sequence, ValueType::kValue);
        ASSERT_EQ(ranges.FirstEndingAtOrAfter(target, tag),
                  ReferenceFirst(level, key, tag))
            << key << " @ " << sequence;
      }
    }
  }
}

TEST(LevelRanges, OverlappingLevelZeroAnswersPerFile) {
  std::mt19937 rng(11);
  for (int round = 0; round < 100; ++round) {
    std::vector<DatabaseTableFile> level;
    for (int i = 0; i < 5; ++i) {
      std::string a = RandomKey(&rng), b = RandomKey(&rng);
      if (b < a) std::swap(a, b);
      DatabaseTableFile file;
      file.smallest = Internal(a, 9);
      file.largest = Internal(b, 3);
      level.push_back(file);
    }
    const LevelRanges ranges(&level);
    for (int probe = 0; probe < 300; ++probe) {
      const std::string key = RandomKey(&rng);
      const LevelRanges::Target target = ranges.Digest(key);
      for (size_t i = 0; i < level.size(); ++i) {
        ASSERT_EQ(ranges.MayHold(i, target), ReferenceMayHold(level[i], key))
            << key << " in file " << i;
      }
    }
  }
}

TEST(LevelRanges, KeysOutsideTheSharedPrefixHoldNothing) {
  std::vector<DatabaseTableFile> level(1);
  level[0].smallest = Internal("user:100", 1);
  level[0].largest = Internal("user:199", 1);
  const LevelRanges ranges(&level);
  for (const char* key : {"", "a", "user", "user:", "user:0", "user;", "z"}) {
    EXPECT_FALSE(ranges.MayHold(0, ranges.Digest(key))) << key;
  }
  EXPECT_TRUE(ranges.MayHold(0, ranges.Digest("user:150")));
  EXPECT_EQ(ranges.FirstEndingAtOrAfter(ranges.Digest("a"), kMaxValueTag), 0u);
  EXPECT_EQ(ranges.FirstEndingAtOrAfter(ranges.Digest("z"), kMaxValueTag), 1u);
}

TEST(LevelRanges, UnsortedLevelSaysSo) {
  std::vector<DatabaseTableFile> level(2);
  level[0].smallest = Internal("b", 1);
  level[0].largest = Internal("c", 1);
  level[1].smallest = Internal("a", 1);
  level[1].largest = Internal("a", 1);
  EXPECT_FALSE(LevelRanges(&level).sorted());
}

}  // namespace
}  // namespace bloomtable
