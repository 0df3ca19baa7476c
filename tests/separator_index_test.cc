// SeparatorIndex::Find against a plain binary search with the comparator,
// over separators chosen to catch a wrong answer of the bytewise search:
// shorter than 8 bytes, prefixes of each other, tying in their 8 bytes past
// the common prefix, ending in zero bytes.

#include "table/separator_index.h"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "table/internal_key.h"
#include "tests/reverse_comparator.h"

namespace bloomtable {
namespace {

// The index of the first separator >= key, by the comparator alone.
size_t Expected(const Comparator* comparator,
                const std::vector<std::string>& separators,
                std::string_view key) {
  return static_cast<size_t>(
      std::lower_bound(separators.begin(), separators.end(), key,
                       [comparator](const std::string& a, std::string_view b) {
                         return comparator->Compare(a, b) < 0;
                       }) -
      separators.begin());
}

std::unique_ptr<SeparatorIndex> Build(
    const Comparator* comparator, const std::vector<std::string>& separators) {
  auto index = std::make_unique<SeparatorIndex>(comparator);
  for (const std::string& separator : separators) index->Add(separator);
  index->Finish();
  return index;
}

// Each separator, and keys just around it: with a byte more or less, the
// last byte changed, zero and 0xff bytes appended.
std::vector<std::string> KeysAround(const std::vector<std::string>& keys) {
  std::vector<std::string> probes = {"", std::string(1, '\0'),
                                     std::string(20, '\xff')};
  for (const std::string& key : keys) {
    probes.push_back(key);
    probes.push_back(key + '\0');
    probes.push_back(key + std::string(2, '\0'));
    probes.push_back(key + '\x01');
    probes.push_back(key + '\xff');
    probes.push_back(key + "zzzzzzzzzz");
    if (!key.empty()) {
      const std::string shorter = key.substr(0, key.size() - 1);
      probes.push_back(shorter);
      probes.push_back(shorter + static_cast<char>(key.back() + 1));
      probes.push_back(shorter + static_cast<char>(key.back() - 1));
    }
  }
  return probes;
}

void ExpectFindsLikeTheComparator(const Comparator* comparator,
                                  const std::vector<std::string>& separators,
                                  const std::vector<std::string>& keys) {
  auto index = Build(comparator, separators);
  ASSERT_EQ(index->size(), separators.size());
  for (size_t i = 0; i < separators.size(); ++i) {
    ASSERT_EQ(index->separator(i), separators[i]);
  }
  for (const std::string& key : keys) {
    ASSERT_EQ(index->Find(key), Expected(comparator, separators, key))
        << "key \"" << absl::CHexEscape(key) << "\"";
  }
}

TEST(SeparatorIndex, EmptyFindsNothing) {
  const InternalKeyComparator internal(BytewiseComparator());
  for (const Comparator* comparator :
       {BytewiseComparator(), static_cast<const Comparator*>(&internal)}) {
    auto index = Build(comparator, {});
    EXPECT_EQ(index->size(), 0u);
    EXPECT_EQ(index->Find(""), 0u);
    EXPECT_EQ(index->Find("a"), 0u);
  }
}

TEST(SeparatorIndex, OneSeparator) {
  for (const std::string& separator :
       {std::string(), std::string("b"), std::string("0123456789abcdef")}) {
    ExpectFindsLikeTheComparator(BytewiseComparator(), {separator},
                                 KeysAround({separator}));
  }
}

TEST(SeparatorIndex, ShortSeparatorsAndPrefixesOfEachOther) {
  const std::vector<std::string> separators = {
      std::string("a"),
      std::string("a\0", 2),
      std::string("a\0\0", 3),
      std::string("a\0\x01", 3),
      "ab",
      "abcdefg",
      "abcdefgh",
      std::string("abcdefgh\0", 9),
      "abcdefgh1",
      "abcdefgh12",
      "abcdefgh2",
      "abcdefgi",
      "b",
      "b0000000000000000000",
      "b0000000000000000001",
      "b00000000000000000010",
      "b0000000000000000002",
      "c",
      std::string("\xff\xff\xff\xff\xff\xff\xff\xff", 8),
      std::string("\xff\xff\xff\xff\xff\xff\xff\xff\xff", 9),
  };
  ExpectFindsLikeTheComparator(BytewiseComparator(), separators,
                               KeysAround(separators));
}

// Every separator has the 8-byte prefix "00000000" past the common prefix
// "tenant/": the integers tie, and whole keys decide.
TEST(SeparatorIndex, LongCommonPrefixAndTiedIntegers) {
  std::vector<std::string> separators;
  for (int i = 0; i < 300; i += 3) {
    separators.push_back(absl::StrCat("tenant/00000000", 1000 + i));
  }
  std::vector<std::string> keys = KeysAround(separators);
  for (const char* key :
       {"t", "tenant", "tenant/", "tenant/0", "tenant/00000000", "tenant/1",
        "tenanu", "tenans", "u", "a", "tenant/000000001"}) {
    keys.push_back(key);
  }
  ExpectFindsLikeTheComparator(BytewiseComparator(), separators, keys);
}

// The decimal keys of db_bench, cut into partitions as the writer does:
// separators shortened between partitions, the last one the short successor
// of the last key ("1"). The first 8 bytes of every separator but the last
// are "00000000": the common prefix.
TEST(SeparatorIndex, DecimalKeysCutAsTheWriterCutsThem) {
  auto decimal = [](int i) {
    char key[32];
    std::snprintf(key, sizeof(key), "%016d", i);
    return std::string(key);
  };
  const Comparator* bytewise = BytewiseComparator();
  std::vector<std::string> separators;
  std::vector<std::string> keys;
  for (int i = 0; i < 20000; i += 2) {
    keys.push_back(decimal(i));
    keys.push_back(decimal(i + 1));
    if (i % 74 == 72) {  // a partition ends with key i
      std::string separator = decimal(i);
      bytewise->FindShortestSeparator(&separator, decimal(i + 2));
      separators.push_back(separator);
    }
  }
  std::string successor = decimal(19998);
  bytewise->FindShortSuccessor(&successor);
  ASSERT_EQ(successor, "1");
  separators.push_back(successor);
  for (const std::string& key : KeysAround(separators)) keys.push_back(key);
  ExpectFindsLikeTheComparator(bytewise, separators, keys);
}

// Sizes around powers of two, where a binary search's last step is most
// easily off by one.
TEST(SeparatorIndex, SizesAroundPowersOfTwo) {
  for (size_t count : {2, 3, 16, 17, 18, 256, 257, 258, 4096, 4097, 5000}) {
    SCOPED_TRACE(count);
    std::vector<std::string> separators;
    for (size_t i = 0; i < count; ++i) {
      separators.push_back(absl::StrCat("key", 100000000 + 10 * i));
    }
    ExpectFindsLikeTheComparator(BytewiseComparator(), separators,
                                 KeysAround(separators));
  }
}

// Random sets over a small alphabet (zero bytes, 0xff, a letter) and random
// lengths: many prefixes, ties and short separators.
TEST(SeparatorIndex, RandomSeparatorsAgreeWithTheComparator) {
  std::mt19937_64 random(301);
  const char alphabet[] = {'\0', '\x01', 'a', '\xfe', '\xff'};
  auto random_key = [&](size_t max_length) {
    std::string key(random() % (max_length + 1), '\0');
    for (char& c : key) c = alphabet[random() % sizeof(alphabet)];
    return key;
  };
  for (int round = 0; round < 200; ++round) {
    const std::string common = random_key(round % 4 == 0 ? 10 : 0);
    std::set<std::string> unique;
    const size_t count = 1 + random() % 60;
    while (unique.size() < count) unique.insert(common + random_key(14));
    const std::vector<std::string> separators(unique.begin(), unique.end());
    std::vector<std::string> keys = KeysAround(separators);
    for (int i = 0; i < 200; ++i) keys.push_back(common + random_key(14));
    for (int i = 0; i < 50; ++i) keys.push_back(random_key(14));
    SCOPED_TRACE(round);
    ExpectFindsLikeTheComparator(BytewiseComparator(), separators, keys);
  }
}

TEST(SeparatorIndex, AnotherComparatorIsCalled) {
  const ReverseComparator reverse;
  std::vector<std::string> separators = {"z",        "abcdefgh2", "abcdefgh1",
                                         "abcdefgh", "ab",        "a"};
  ExpectFindsLikeTheComparator(&reverse, separators, KeysAround(separators));
}

// Internal keys order by user key, then by tag descending: the bytes of
// the tag do not sort bytewise, so only the comparator can order them.
TEST(SeparatorIndex, InternalKeys) {
  const InternalKeyComparator comparator(BytewiseComparator());
  std::vector<std::string> separators;
  std::vector<std::string> keys;
  for (const char* user_key :
       {"a", "abcdefgh", "abcdefgh1", "abcdefgh2", "b", "b0"}) {
    for (uint64_t sequence : {900, 500, 5}) {
      std::string key;
      AppendInternalKey(&key, user_key, sequence, ValueType::kValue);
      separators.push_back(key);
      for (uint64_t probe : {sequence + 1, sequence, sequence - 1}) {
        key.clear();
        AppendInternalKey(&key, user_key, probe, ValueType::kValue);
        keys.push_back(key);
        key.clear();
        AppendInternalKey(&key, user_key, probe, ValueType::kDeletion);
        keys.push_back(key);
      }
    }
    std::string key;
    AppendInternalKey(&key, std::string(user_key) + '\0', 7, ValueType::kValue);
    keys.push_back(key);
  }
  std::string key;
  AppendInternalKey(&key, "c", kMaxSequenceNumber, ValueType::kValue);
  keys.push_back(key);
  key.clear();
  AppendInternalKey(&key, "", 0, ValueType::kDeletion);
  keys.push_back(key);
  ExpectFindsLikeTheComparator(&comparator, separators, keys);
}

TEST(SeparatorIndex, MemoryUsageCountsTheSeparators) {
  std::vector<std::string> separators;
  for (int i = 0; i < 1000; ++i) {
    separators.push_back(absl::StrCat("key", 100000 + i));
  }
  auto index = Build(BytewiseComparator(), separators);
  // The bytes and an offset each, an integer for all but the last.
  const size_t expected = 1000 * (9 + 4) + 4 + 999 * 8;
  EXPECT_GE(index->MemoryUsage(), expected);
  EXPECT_LE(index->MemoryUsage(), expected + 64);
}

}  // namespace
}  // namespace bloomtable
