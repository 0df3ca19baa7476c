// bloomtable.Grafite, the range filter: no false negative against a
// std::set over every kind of bound, the documented false-positive bound on
// big-endian and strided decimal keys (random and correlated ranges), the
// exact mode, golden bytes, and malformed filters.

#include "filter/range_filter.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "gtest/gtest.h"
#include "tests/filter_key_sets.h"

namespace bloomtable {
namespace {

using filter_test::BigEndianKey;
using filter_test::DecimalKey;
using filter_test::ExactBuffer;
using filter_test::Fingerprint;
using filter_test::Hex;
using filter_test::RandomString;

RangeFilterOptions Options(double bits_per_key, uint64_t max_range_length) {
  RangeFilterOptions options;
  options.bits_per_key = bits_per_key;
  options.max_range_length = max_range_length;
  return options;
}

std::string Build(const std::set<std::string>& keys,
                  const RangeFilterOptions& options = RangeFilterOptions()) {
  RangeFilterBuilder builder(options);
  for (const std::string& key : keys) builder.AddKey(key);
  EXPECT_EQ(builder.num_keys(), keys.size());
  return builder.Finish();
}

std::unique_ptr<RangeFilterReader> Open(std::string_view contents) {
  auto reader = RangeFilterReader::Parse(contents);
  EXPECT_TRUE(reader.ok()) << reader.status();
  return reader.ok() ? *std::move(reader) : nullptr;
}

bool ModelHasKeyIn(const std::set<std::string>& keys, const std::string& lo,
                   const std::string& hi) {
  if (lo >= hi) return false;
  const auto it = keys.lower_bound(lo);
  return it != keys.end() && *it < hi;
}

TEST(RangeFilter, EmptyFilterSaysNoToEverything) {
  const std::string filter = Build({});
  EXPECT_EQ(Hex(filter), "00c1");
  const auto reader = Open(filter);
  ASSERT_NE(reader, nullptr);
  EXPECT_EQ(reader->num_keys(), 0u);
  EXPECT_FALSE(reader->MayContainRange("", "\xff\xff"));
  EXPECT_FALSE(reader->MayContainKey(""));
}

// Keys over a small alphabet (zero bytes, prefixes of each other, the empty
// key), big-endian integers and decimal strings, under several sizes and
// range lengths; bounds at, between, before and after keys, prefixes and
// extensions of keys, equal and reversed. Whenever the set holds a key in
// [lo, hi), the filter must say so; it must say no for lo >= hi and for
// ranges that miss [first, last].
TEST(RangeFilter, NeverAFalseNegativeAgainstAStdSet) {
  std::mt19937_64 rng(17);
  const std::string alphabet(
      "\x00\x01"
      "ab\x7f\xff",
      6);
  size_t hashed_filters = 0;
  for (int round = 0; round < 240; ++round) {
    std::set<std::string> keys;
    const size_t n = 1 + rng() % (round % 4 == 0 ? 2000 : 60);
    const int kind = round % 3;
    const std::string prefix =
        round % 5 == 0 ? "" : RandomString(&rng, alphabet, 4);
    while (keys.size() < n) {
      if (kind == 0) {
        keys.insert(prefix + RandomString(&rng, alphabet, round % 2 ? 3 : 10));
      } else if (kind == 1) {
        keys.insert(BigEndianKey(rng() >> (rng() % 64)));
      } else {
        keys.insert(DecimalKey(rng() % 100000 * (1 + round % 7)));
      }
    }
    const std::vector<std::string> sorted(keys.begin(), keys.end());
    const double bits = round % 2 ? 16 : 5;
    const uint64_t range_length = std::vector<uint64_t>{1, 4, 64}[round % 3];
    const std::string filter = Build(keys, Options(bits, range_length));
    const ExactBuffer buffer(filter);
    const auto reader = Open(buffer.view());
    ASSERT_NE(reader, nullptr);
    hashed_filters += reader->hashed();
    for (const std::string& key : keys) ASSERT_TRUE(reader->MayContainKey(key));
    const auto bound = [&]() -> std::string {
      std::string s = sorted[rng() % n];
      switch (rng() % 8) {
        case 0:
          return s;
        case 1:
          return s + std::string(1, alphabet[rng() % alphabet.size()]);
        case 2:
          return s.substr(0, rng() % (s.size() + 1));  // a prefix
        case 3:
          if (!s.empty()) s.back() = static_cast<char>(s.back() + 1);
          return s;
        case 4:
          if (!s.empty()) s.back() = static_cast<char>(s.back() - 1);
          return s;
        case 5:
          return rng() % 2 ? sorted.front() : sorted.back();
        case 6:
          return rng() % 2 ? std::string() : std::string(9, '\xff');
        default:
          return kind == 0   ? prefix + RandomString(&rng, alphabet, 10)
                 : kind == 1 ? BigEndianKey(rng())
                             : DecimalKey(rng() % 700000);
      }
    };
    for (int q = 0; q < 400; ++q) {
      const std::string lo = bound();
      const std::string hi = q % 10 == 0 ? lo : bound();
      const bool answer = reader->MayContainRange(lo, hi);
      if (ModelHasKeyIn(keys, lo, hi)) {
        ASSERT_TRUE(answer) << round << " " << Hex(lo) << " " << Hex(hi);
      }
      if (lo >= hi || hi <= sorted.front() || lo > sorted.back()) {
        ASSERT_FALSE(answer) << round << " " << Hex(lo) << " " << Hex(hi);
      }
    }
  }
  // Both modes were exercised.
  EXPECT_GT(hashed_filters, 40u);
  EXPECT_LT(hashed_filters, 240u);
}

// The false-positive bound. A key outside a range of l integers (after the
// key map) that lies in another block of L integers than the range's part
// it could meet has a uniformly random code, so it collides with probability
// l / r; the n' distinct codes give an expected false-positive rate of at
// most n' l / r per empty range, and r >= n' 2^(B-2) at B bits per key
// whatever the table's size: at most 64 / 2^14 = 0.4% for ranges of 64
// integers. The test sums n' l / r over all the empty ranges asked and
// checks the false positives against that sum plus four standard deviations
// of a Poisson count (the collisions are nearly independent across ranges);
// it also checks the goal: at most 1% at 16 bits per key for the codes,
// plus a header (the first and last key, the key map) that costs 10,000
// keys less than 0.1 bit each.
struct FalsePositives {
  uint64_t queries = 0;
  uint64_t positives = 0;
  double expected_bound = 0;  // sum of n' l / r
  double bits_per_key = 0;    // the largest of the filters
};

enum class Ranges { kRandom, kRightAfterAKey, kRightBeforeAKey };

// `make_key` turns an integer into a key; `keys` holds the integers.
template <typename MakeKey>
void CountFalsePositives(const std::vector<uint64_t>& keys, MakeKey make_key,
                         Ranges ranges, uint64_t max_length, uint64_t seed,
                         FalsePositives* result) {
  std::set<std::string> key_set;
  for (const uint64_t key : keys) key_set.insert(make_key(key));
  const std::string filter = Build(key_set);
  const auto reader = Open(filter);
  ASSERT_NE(reader, nullptr);
  result->bits_per_key =
      std::max(result->bits_per_key, reader->stored_bits_per_key());
  std::mt19937_64 rng(seed);
  const double codes = static_cast<double>(key_set.size());
  for (int q = 0; q < 20000; ++q) {
    const uint64_t length = 1 + rng() % max_length;
    uint64_t start;
    switch (ranges) {
      case Ranges::kRandom:
        start = keys.front() + rng() % (keys.back() - keys.front());
        break;
      case Ranges::kRightAfterAKey:
        start = keys[rng() % keys.size()] + 1;
        break;
      default:
        start = keys[rng() % keys.size()] - length;
    }
    const std::string lo = make_key(start);
    const std::string hi = make_key(start + length);
    if (ModelHasKeyIn(key_set, lo, hi)) continue;  // not empty
    ++result->queries;
    const bool positive = reader->MayContainRange(lo, hi);
    result->positives += positive;
    if (reader->hashed()) {
      result->expected_bound += codes * static_cast<double>(length) /
                                static_cast<double>(reader->reduced_universe());
    } else {
      ASSERT_FALSE(positive) << "the exact mode has no false positive";
    }
  }
}

void ExpectWithinTheBound(const FalsePositives& fp, const char* what) {
  const double rate =
      static_cast<double>(fp.positives) / static_cast<double>(fp.queries);
  std::printf(
      "%s: %llu of %llu empty ranges (%.3f%%), bound %.3f%%, %.2f "
      "stored bits/key\n",
      what, static_cast<unsigned long long>(fp.positives),
      static_cast<unsigned long long>(fp.queries), 100 * rate,
      100 * fp.expected_bound / static_cast<double>(fp.queries),
      fp.bits_per_key);
  EXPECT_GT(fp.queries, 100000u) << what;
  EXPECT_LE(static_cast<double>(fp.positives),
            fp.expected_bound + 4 * std::sqrt(fp.expected_bound) + 4)
      << what;
  EXPECT_LE(rate, 0.01) << what;
  EXPECT_LE(fp.bits_per_key, 16.1) << what;
}

TEST(RangeFilter, FalsePositiveBoundOnBigEndianKeys) {
  for (const Ranges ranges :
       {Ranges::kRandom, Ranges::kRightAfterAKey, Ranges::kRightBeforeAKey}) {
    FalsePositives fp;
    for (uint64_t seed = 1; seed <= 8; ++seed) {
      std::mt19937_64 rng(seed);
      std::vector<uint64_t> keys(10000);
      // Below 2^63, so that start + length stays in range.
      for (uint64_t& key : keys) key = 65 + (rng() >> 2);
      std::sort(keys.begin(), keys.end());
      keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
      CountFalsePositives(keys, BigEndianKey, ranges, 64, seed * 31, &fp);
    }
    ExpectWithinTheBound(fp, ranges == Ranges::kRandom ? "big-endian, random"
                             : ranges == Ranges::kRightAfterAKey
                                 ? "big-endian, right after a key"
                                 : "big-endian, right before a key");
  }
}

// Gaps of 128 to 255 between 10,000 keys span about 2 million integers,
// fewer than the budget's r: the exact mode. Gaps of 128 to 2^20 span
// billions: the hashed mode. Ranges of up to 64 beside a key are empty.
TEST(RangeFilter, FalsePositiveBoundOnStridedDecimalKeys) {
  for (const uint64_t max_gap : {uint64_t{256}, uint64_t{1} << 20}) {
    for (const Ranges ranges :
         {Ranges::kRandom, Ranges::kRightAfterAKey, Ranges::kRightBeforeAKey}) {
      FalsePositives fp;
      for (uint64_t seed = 1; seed <= 8; ++seed) {
        std::mt19937_64 rng(seed);
        std::vector<uint64_t> keys;
        uint64_t value = 1000000000 + rng() % 1000000;
        for (int i = 0; i < 10000; ++i) {
          keys.push_back(value);
          value += 128 + rng() % (max_gap - 128);
        }
        CountFalsePositives(keys, DecimalKey, ranges, 64, seed * 37, &fp);
      }
      const std::string what =
          std::string(max_gap == 256 ? "decimal, gaps < 256, "
                                     : "decimal, gaps < 2^20, ") +
          (ranges == Ranges::kRandom           ? "random"
           : ranges == Ranges::kRightAfterAKey ? "right after a key"
                                               : "right before a key");
      ExpectWithinTheBound(fp, what.c_str());
      if (max_gap > 256) {
        EXPECT_GT(fp.expected_bound, 100) << what;  // the hashed mode
      }
    }
  }
}

// Ranges longer than L are still checked up to 4 L integers, with the bound
// growing with their length; longer ones answer "maybe".
TEST(RangeFilter, LongerRangesUpToFourTimesLAreChecked) {
  std::mt19937_64 rng(23);
  std::vector<uint64_t> keys(10000);
  for (uint64_t& key : keys) key = rng() >> 1;
  std::sort(keys.begin(), keys.end());
  std::set<std::string> key_set;
  for (const uint64_t key : keys) key_set.insert(BigEndianKey(key));
  const std::string filter = Build(key_set);  // the reader borrows it
  const auto reader = Open(filter);
  ASSERT_NE(reader, nullptr);
  int positives = 0;
  for (int q = 0; q < 10000; ++q) {
    const uint64_t start = keys[rng() % keys.size()] + 1;
    // 256 integers: at most 5 blocks of 64.
    positives +=
        reader->MayContainRange(BigEndianKey(start), BigEndianKey(start + 256));
    // 400 integers: 7 blocks or more, "maybe" (unless past the last key).
    if (start + 400 <= keys.back()) {
      EXPECT_TRUE(reader->MayContainRange(BigEndianKey(start),
                                          BigEndianKey(start + 400)));
    }
  }
  // Bound: 256 / 2^14 = 1.6% (160 of 10,000), plus 4 standard deviations.
  EXPECT_LE(positives, 160 + 4 * 13);
}

// Keys dense enough that the integers they span fit in the budget: the codes
// are the integers themselves and the filter is exact for any range length.
TEST(RangeFilter, DenseKeysGiveAnExactFilter) {
  std::set<std::string> keys;
  for (uint64_t i = 0; i < 3000; ++i)
    keys.insert(BigEndianKey((1 << 20) + 3 * i));
  const std::string filter = Build(keys);  // the reader borrows it
  const auto reader = Open(filter);
  ASSERT_NE(reader, nullptr);
  EXPECT_FALSE(reader->hashed());
  for (uint64_t v = (1 << 20) - 5; v < (1 << 20) + 9005; ++v) {
    const bool has_key = v >= (1 << 20) && v < (1 << 20) + 9000 && v % 3 == 1;
    // [v, v + 2) holds a key exactly when v or v + 1 is one.
    const bool expected =
        has_key ||
        (v + 1 >= (1 << 20) && v + 1 < (1 << 20) + 9000 && (v + 1) % 3 == 1);
    EXPECT_EQ(reader->MayContainRange(BigEndianKey(v), BigEndianKey(v + 2)),
              expected)
        << v;
    EXPECT_EQ(reader->MayContainKey(BigEndianKey(v)), has_key) << v;
  }
}

TEST(RangeFilter, PointQueriesOnlyMatchKeysAndRarelyOthers) {
  std::set<std::string> keys;
  for (int i = 0; i < 5000; ++i) keys.insert("user:" + std::to_string(i * 7));
  const std::string filter = Build(keys);  // the reader borrows it
  const auto reader = Open(filter);
  ASSERT_NE(reader, nullptr);
  int positives = 0;
  for (int i = 0; i < 5000; ++i) {
    EXPECT_TRUE(reader->MayContainKey("user:" + std::to_string(i * 7)));
    positives += reader->MayContainKey("user:" + std::to_string(i * 7 + 3));
  }
  EXPECT_FALSE(reader->MayContainKey("user"));
  EXPECT_FALSE(reader->MayContainKey("zzz"));
  EXPECT_LE(positives, 50);  // 1%: point ranges are far below the bound
}

// Golden bytes: a change here changes the format (new name or version).
TEST(RangeFilter, GoldenBytesOfSmallFilters) {
  // Three decimal keys 3 apart: the common prefix of 15 digits leaves one
  // position, digits '0' to '6': 7 integers, few enough for the exact mode
  // (codes 0, 3 and 6 below 7: 1 low bit, 4 buckets).
  EXPECT_EQ(Hex(Build({DecimalKey(100), DecimalKey(103), DecimalKey(106)})),
            "03"  // n
            "10"
            "30303030303030303030303030"
            "313030"  // first key
            "10"
            "30303030303030303030303030"
            "313036"  // last key
            "10"
            "01"
            "01"
            "3036"  // min length 16, exhaustive, [0x30, 0x36]
            "00"
            "40"                // exact mode, L = 64
            "3165746966617247"  // seed "Grafite1"
            "07"                // r = 7
            "03"
            "01"                // 3 codes, 1 low bit
            "0200000000000000"  // low bits 0, 1, 0
            "2500000000000000"  // high parts 0, 1, 3: bits 0, 2, 5
            "c1");
  // Three words span 3 * 16 * 12 * 18 * 14 * 122 integers: hashed. The
  // universe is n' 2^(B-2) = 3 * 2^14 = 49152 however much the header
  // costs: l = 14, 3 buckets.
  const std::string hashed = Build({"apple", "banana", "cherry"});
  EXPECT_EQ(Hex(hashed),
            "03"  // n
            "05"
            "6170706c65"  // "apple"
            "06"
            "636865727279"  // "cherry"
            "05"
            "01"
            "06"  // min length 5, exhaustive, D
            "6163"
            "6170"
            "6570"
            "6172"
            "6572"  // [min, max] per position
            "0079"  // "apple" has none: 0
            "01"
            "40"
            "3165746966617247"  // hashed, L = 64, seed
            "808003"            // r = 49152
            "03"
            "0e"                // 3 codes, 14 low bits
            "413bad25dd030000"  // low bits
            "1900000000000000"  // high parts 0, 2, 2: bits 0, 3, 4
            "c1");
  const auto reader = Open(hashed);
  ASSERT_NE(reader, nullptr);
  EXPECT_TRUE(reader->hashed());
  EXPECT_EQ(reader->reduced_universe(), 49152u);
  std::set<std::string> many;
  for (int i = 0; i < 1000; ++i)
    many.insert(DecimalKey(static_cast<uint64_t>(i) * 1000));
  EXPECT_EQ(Fingerprint(Build(many)), "8beaa0b3f84d93b6");
}

TEST(RangeFilter, ParseRefusesMalformedFilters) {
  std::set<std::string> keys;
  for (int i = 0; i < 300; ++i)
    keys.insert(DecimalKey(static_cast<uint64_t>(i) * 1000));
  const std::string good = Build(keys);
  ASSERT_NE(Open(good), nullptr);
  const auto refused = [](const std::string& bytes) {
    const ExactBuffer buffer(bytes);
    const auto reader = RangeFilterReader::Parse(buffer.view());
    return !reader.ok() && absl::IsDataLoss(reader.status());
  };
  for (size_t size = 0; size < good.size(); ++size) {
    EXPECT_TRUE(refused(good.substr(0, size))) << size;
  }
  EXPECT_TRUE(refused(good + "\xc1"));  // trailing byte
  EXPECT_TRUE(refused(good.substr(0, good.size() - 1) + "\xc2"));  // version
  EXPECT_TRUE(refused(std::string("\x00\x00\xc1", 3)));  // empty, then junk
  // The first and last key swapped.
  std::string swapped = good;
  std::swap_ranges(swapped.begin() + 2, swapped.begin() + 18,
                   swapped.begin() + 19);
  EXPECT_TRUE(refused(swapped));
  // One key claimed but two different keys stored.
  std::string count = good;
  count[0] = 1;
  EXPECT_TRUE(refused(count));

  // Any single damaged byte: refused or, if the structure survives, a reader
  // that answers without reading outside the bytes (the sanitizers check).
  size_t refusals = 0;
  for (size_t i = 0; i < good.size(); ++i) {
    for (const int mask : {0x01, 0x80, 0xff}) {
      std::string bad = good;
      bad[i] = static_cast<char>(bad[i] ^ mask);
      const ExactBuffer buffer(bad);
      const auto reader = RangeFilterReader::Parse(buffer.view());
      if (!reader.ok()) {
        ASSERT_TRUE(absl::IsDataLoss(reader.status())) << reader.status();
        ++refusals;
        continue;
      }
      for (const std::string& key : keys) {
        (*reader)->MayContainRange(key, key + "\x01");
      }
    }
  }
  // The header, the key map and the high bits are all checked.
  EXPECT_GT(refusals, good.size() / 2);
}

// Not a timing test: prints the size and build cost on this machine.
TEST(RangeFilter, ReportsStoredBitsPerKeyAndBuildCost) {
  std::mt19937_64 rng(29);
  std::set<std::string> keys;
  while (keys.size() < 200000) keys.insert(BigEndianKey(rng()));
  const std::vector<std::string> sorted(keys.begin(), keys.end());
  const auto start = std::chrono::steady_clock::now();
  RangeFilterBuilder builder{RangeFilterOptions()};
  for (const std::string& key : sorted) builder.AddKey(key);
  const std::string filter = builder.Finish();
  const double ns = std::chrono::duration<double, std::nano>(
                        std::chrono::steady_clock::now() - start)
                        .count();
  const auto reader = Open(filter);
  ASSERT_NE(reader, nullptr);
  std::printf(
      "200000 8-byte keys: %.3f stored bits/key, %.0f build ns/key, "
      "%zu bytes in memory beside the block\n",
      reader->stored_bits_per_key(), ns / 200000,
      reader->ApproximateMemoryUsage());
  // 16 bits per code, and a header of a few hundred bits.
  EXPECT_LE(reader->stored_bits_per_key(), 16.01);
  EXPECT_GE(reader->stored_bits_per_key(), 15.9);
}

}  // namespace
}  // namespace bloomtable
