// The reader of filters named "leveldb.BuiltinBloomFilter" (goleveldb, geth,
// LevelDB before 2014): LevelDB's Bloom bytes, built with the hash's tail
// bytes read either as unsigned chars (goleveldb; LevelDB where char is
// unsigned) or as signed chars (LevelDB where char is signed). The filters
// here are built both ways by this test's own generator, written from the
// format (docs/FORMAT.md), and the reader never says absent for a key that
// was added to either.

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "bloomtable/file.h"
#include "bloomtable/filter_policy.h"
#include "bloomtable/options.h"
#include "bloomtable/table.h"
#include "bloomtable/table_builder.h"
#include "gtest/gtest.h"
#include "util/hash.h"

namespace bloomtable {
namespace {

constexpr uint32_t kSeed = 0xbc9f1d34;

// Values of the signed-tail hash, computed independently of util/hash.cc
// (a few lines of Python written from the format): where a tail byte is
// >= 0x80 they differ from LevelDBHash's.
TEST(LevelDBHashSignedTail, KnownValues) {
  EXPECT_EQ(LevelDBHashSignedTail("", 0, kSeed), 0xbc9f1d34u);
  EXPECT_EQ(LevelDBHashSignedTail("\x62", 1, kSeed), 0xef1345c4u);
  EXPECT_EQ(LevelDBHashSignedTail("\xc3\x97", 2, kSeed), 0x0f2ba540u);
  EXPECT_EQ(LevelDBHash("\xc3\x97", 2, kSeed), 0x5b663814u);
  EXPECT_EQ(LevelDBHashSignedTail("\xe2\x99\xa5", 3, kSeed), 0x530174eeu);
  EXPECT_EQ(LevelDBHashSignedTail("\xe1\x80\xb9\x32", 4, kSeed), 0xed21633au);
  EXPECT_EQ(LevelDBHashSignedTail("abcd\x80", 5, kSeed), 0x9088db3du);
  EXPECT_EQ(LevelDBHash("abcd\x80", 5, kSeed), 0x35306e98u);
}

using HashFunction = uint32_t (*)(const char*, size_t, uint32_t);

// LevelDB's Bloom filter over `keys` with `hash`, from the format: at least
// 64 bits, k = floor(bits_per_key * 0.69), double hashing with the hash
// rotated right by 17.
std::string BuildFilter(const std::vector<std::string>& keys, int bits_per_key,
                        HashFunction hash) {
  size_t bits = std::max<size_t>(keys.size() * bits_per_key, 64);
  const size_t bytes = (bits + 7) / 8;
  bits = bytes * 8;
  const int k = std::clamp(static_cast<int>(bits_per_key * 0.69), 1, 30);
  std::string filter(bytes, '\0');
  for (const std::string& key : keys) {
    uint32_t h = hash(key.data(), key.size(), kSeed);
    const uint32_t delta = (h >> 17) | (h << 15);
    for (int j = 0; j < k; ++j) {
      const uint32_t position = h % bits;
      filter[position / 8] |= static_cast<char>(1 << (position % 8));
      h += delta;
    }
  }
  filter.push_back(static_cast<char>(k));
  return filter;
}

// Keys of 5 to 7 bytes (a 1-3 byte tail) whose tail bytes are often
// >= 0x80, where the two hashes differ.
std::vector<std::string> HighTailKeys(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<std::string> keys;
  for (size_t i = 0; i < n; ++i) {
    std::string key(5 + rng() % 3, '\0');
    for (char& c : key) c = static_cast<char>(rng());
    keys.push_back(key);
  }
  return keys;
}

TEST(LegacyLevelDBBloom, NeverAbsentForAKeyAddedWithEitherHash) {
  const auto legacy = NewLegacyLevelDBBloomFilterPolicy(10);
  for (uint32_t seed = 1; seed <= 20; ++seed) {
    const std::vector<std::string> keys = HighTailKeys(500, seed);
    for (HashFunction hash : {&LevelDBHash, &LevelDBHashSignedTail}) {
      const std::string filter = BuildFilter(keys, 10, hash);
      const auto reader = legacy->NewReader(filter);
      for (const std::string& key : keys) {
        ASSERT_TRUE(legacy->KeyMayMatch(key, filter)) << seed;
        ASSERT_TRUE(reader->KeyMayMatch(key)) << seed;
      }
    }
  }
}

// Why the legacy name needs its own reader: read with
// leveldb.BuiltinBloomFilter2's hash alone, a filter that old LevelDB built
// on x86 says absent for keys it holds.
TEST(LegacyLevelDBBloom, TheUnsignedHashAloneMissesSignedTailFilters) {
  const auto current = NewLevelDBBloomFilterPolicy(10);
  const std::vector<std::string> keys = HighTailKeys(500, 7);
  const std::string filter = BuildFilter(keys, 10, &LevelDBHashSignedTail);
  int missed = 0;
  for (const std::string& key : keys)
    missed += !current->KeyMayMatch(key, filter);
  EXPECT_GT(missed, 100);
}

// Trying two hashes costs false positives only for keys where they differ:
// over many filters the rate stays within twice the single-hash rate (the
// union of two independent probe sets), plus slack for sampling.
TEST(LegacyLevelDBBloom, FalsePositivesAtMostAboutDouble) {
  const auto current = NewLevelDBBloomFilterPolicy(10);
  const auto legacy = NewLegacyLevelDBBloomFilterPolicy(10);
  int current_positives = 0;
  int legacy_positives = 0;
  int probes = 0;
  for (uint32_t seed = 100; seed < 200; ++seed) {
    const std::vector<std::string> keys = HighTailKeys(1000, seed);
    const std::string filter = BuildFilter(keys, 10, &LevelDBHash);
    for (const std::string& absent : HighTailKeys(1000, seed + 100000)) {
      current_positives += current->KeyMayMatch(absent, filter);
      legacy_positives += legacy->KeyMayMatch(absent, filter);
      ++probes;
    }
  }
  EXPECT_GE(legacy_positives, current_positives);
  EXPECT_LE(legacy_positives, 2 * current_positives + probes / 1000);
}

TEST(LegacyLevelDBBloom, WritesWhatGoleveldbWrites) {
  const auto current = NewLevelDBBloomFilterPolicy(10);
  const auto legacy = NewLegacyLevelDBBloomFilterPolicy(10);
  EXPECT_EQ(legacy->Name(), "leveldb.BuiltinBloomFilter");
  const std::vector<std::string> keys = HighTailKeys(300, 3);
  std::vector<std::string_view> views(keys.begin(), keys.end());
  std::string ours;
  legacy->CreateFilter(views.data(), views.size(), &ours);
  std::string current_bytes;
  current->CreateFilter(views.data(), views.size(), &current_bytes);
  EXPECT_EQ(ours, current_bytes);
  EXPECT_EQ(ours, BuildFilter(keys, 10, &LevelDBHash));
}

// A table whose metaindex names filter.leveldb.BuiltinBloomFilter, as
// goleveldb writes them, is read with its filter in use.
TEST(LegacyLevelDBBloom, TablesNamingTheOldFilterUseIt) {
  Options write_options;
  write_options.filter_policy = NewLegacyLevelDBBloomFilterPolicy(10);
  StringWritableFile file;
  TableBuilder builder(write_options, &file);
  for (int i = 0; i < 1000; ++i) {
    ASSERT_TRUE(builder.Add("key" + std::to_string(10000 + i), "v").ok());
  }
  ASSERT_TRUE(builder.Finish().ok());
  Options read_options;
  read_options.filter_policy = NewLevelDBBloomFilterPolicy(10);
  read_options.extra_filter_policies = {NewLegacyLevelDBBloomFilterPolicy(10)};
  auto table =
      Table::Open(read_options, NewMemoryRandomAccessFile(file.contents()),
                  file.contents().size());
  ASSERT_TRUE(table.ok()) << table.status();
  EXPECT_TRUE((*table)->filter_info().in_use);
  for (int i = 0; i < 1000; ++i) {
    EXPECT_EQ(*(*table)->Get(ReadOptions(), "key" + std::to_string(10000 + i)),
              "v");
    (void)(*table)->Get(ReadOptions(), "key" + std::to_string(10000 + i) + "x");
  }
  EXPECT_GT((*table)->GetStats().filter_negatives, 900u);
}

}  // namespace
}  // namespace bloomtable
