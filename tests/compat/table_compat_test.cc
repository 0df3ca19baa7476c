// Compatibility of bloomtable's table files with LevelDB 1.23's, checked
// against the real library:
//   - our TableBuilder writes exactly the bytes leveldb::TableBuilder writes,
//     across an option matrix and input shapes chosen for the format's edge
//     cases (separator shortening, restarts, compression, filters);
//   - leveldb::Table reads our files;
//   - our Table reads LevelDB's files, and its filter saves the reads.

#include <leveldb/comparator.h>
#include <leveldb/filter_policy.h>
#include <leveldb/iterator.h>
#include <leveldb/options.h>
#include <leveldb/table.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "bloomtable/file.h"
#include "bloomtable/filter_policy.h"
#include "bloomtable/options.h"
#include "bloomtable/table.h"
#include "gtest/gtest.h"
#include "tests/compat/leveldb_files.h"
#include "util/coding.h"

namespace bloomtable {
namespace compat_test {
namespace {

// One combination of the writer options both libraries share.
struct Variant {
  size_t block_size;
  int restart_interval;
  bool snappy;
  int bloom_bits;  // 0: no filter.

  std::string ToString() const {
    return absl::StrCat("block_size=", block_size,
                        " restart_interval=", restart_interval,
                        " snappy=", snappy, " bloom_bits=", bloom_bits);
  }
};

// Tiny blocks put every key on a block boundary (so every separator is
// shortened); 65536 puts everything in one block. Restart interval 1 makes
// every entry a restart point; 1024 makes the first the only one.
std::vector<Variant> FullMatrix() {
  std::vector<Variant> variants;
  for (size_t block_size : {1, 64, 256, 4096, 65536}) {
    for (int restart_interval : {1, 2, 16, 1024}) {
      for (bool snappy : {false, true}) {
        for (int bloom_bits : {0, 1, 10, 20}) {
          variants.push_back(
              {block_size, restart_interval, snappy, bloom_bits});
        }
      }
    }
  }
  return variants;
}

// A smaller matrix for the expensive inputs.
std::vector<Variant> SmallMatrix() {
  std::vector<Variant> variants;
  for (size_t block_size : {1, 4096}) {
    for (int restart_interval : {1, 16}) {
      for (bool snappy : {false, true}) {
        for (int bloom_bits : {0, 10}) {
          variants.push_back(
              {block_size, restart_interval, snappy, bloom_bits});
        }
      }
    }
  }
  return variants;
}

// LevelDB's ordering of internal keys (user key ascending, then the 8-byte
// tag descending), with the separator rules FORMAT.md describes for a
// database's tables. With it and UserKeyLevelDBBloom, leveldb::TableBuilder
// writes what a LevelDB database writes.
class LevelDBInternalKeyOrder final : public leveldb::Comparator {
 public:
  // The tag LevelDB appends to a shortened separator: the largest sequence
  // number, type 1 (a value), so that it sorts before every real entry of
  // that user key.
  static constexpr uint64_t kSeparatorTag = 0xffffffffffffff01ull;

  int Compare(const leveldb::Slice& a, const leveldb::Slice& b) const override {
    const int by_user_key = user_order_->Compare(UserKey(a), UserKey(b));
    if (by_user_key != 0) return by_user_key;
    const uint64_t tag_a = Tag(a);
    const uint64_t tag_b = Tag(b);
    if (tag_a == tag_b) return 0;
    return tag_a > tag_b ? -1 : 1;
  }
  const char* Name() const override { return "test.LevelDBInternalKeyOrder"; }

  void FindShortestSeparator(std::string* start,
                             const leveldb::Slice& limit) const override {
    const leveldb::Slice user_start = UserKey(*start);
    std::string shortened = user_start.ToString();
    user_order_->FindShortestSeparator(&shortened, UserKey(limit));
    if (shortened.size() < user_start.size() &&
        user_order_->Compare(user_start, shortened) < 0) {
      PutFixed64(&shortened, kSeparatorTag);
      *start = shortened;
    }
  }

  void FindShortSuccessor(std::string* key) const override {
    const leveldb::Slice user_key = UserKey(*key);
    std::string shortened = user_key.ToString();
    user_order_->FindShortSuccessor(&shortened);
    if (shortened.size() < user_key.size() &&
        user_order_->Compare(user_key, shortened) < 0) {
      PutFixed64(&shortened, kSeparatorTag);
      *key = shortened;
    }
  }

 private:
  static leveldb::Slice UserKey(const leveldb::Slice& key) {
    return leveldb::Slice(key.data(), key.size() - 8);
  }
  static uint64_t Tag(const leveldb::Slice& key) {
    return DecodeFixed64(key.data() + key.size() - 8);
  }

  const leveldb::Comparator* user_order_ = leveldb::BytewiseComparator();
};

// LevelDB's Bloom policy applied to the user-key part of internal keys, as a
// LevelDB database does. Same name as the plain policy, as in LevelDB.
class UserKeyLevelDBBloom final : public leveldb::FilterPolicy {
 public:
  explicit UserKeyLevelDBBloom(int bits_per_key)
      : bloom_(leveldb::NewBloomFilterPolicy(bits_per_key)) {}

  const char* Name() const override { return bloom_->Name(); }
  void CreateFilter(const leveldb::Slice* keys, int n,
                    std::string* dst) const override {
    std::vector<leveldb::Slice> user_keys;
    for (int i = 0; i < n; ++i) {
      user_keys.emplace_back(keys[i].data(), keys[i].size() - 8);
    }
    bloom_->CreateFilter(user_keys.data(), n, dst);
  }
  bool KeyMayMatch(const leveldb::Slice& key,
                   const leveldb::Slice& filter) const override {
    return bloom_->KeyMayMatch(leveldb::Slice(key.data(), key.size() - 8),
                               filter);
  }

 private:
  std::unique_ptr<const leveldb::FilterPolicy> bloom_;
};

class TableCompatTest : public testing::Test {
 protected:
  leveldb::Options LevelDBOptions(const Variant& variant) {
    leveldb::Options options;
    options.block_size = variant.block_size;
    options.block_restart_interval = variant.restart_interval;
    options.compression =
        variant.snappy ? leveldb::kSnappyCompression : leveldb::kNoCompression;
    options.filter_policy = LevelDBBloom(variant.bloom_bits);
    return options;
  }

  Options BloomtableOptions(const Variant& variant) {
    Options options;
    options.block_size = variant.block_size;
    options.block_restart_interval = variant.restart_interval;
    options.compression =
        variant.snappy ? CompressionType::kSnappy : CompressionType::kNone;
    if (variant.bloom_bits > 0) {
      options.filter_policy = NewLevelDBBloomFilterPolicy(variant.bloom_bits);
    }
    return options;
  }

  // LevelDB's policy for `bits_per_key`, owned by the fixture; null for 0.
  const leveldb::FilterPolicy* LevelDBBloom(int bits_per_key) {
    if (bits_per_key == 0) return nullptr;
    auto& policy = leveldb_blooms_[bits_per_key];
    if (!policy) policy.reset(leveldb::NewBloomFilterPolicy(bits_per_key));
    return policy.get();
  }

  // Builds `entries` with both libraries under every variant and expects
  // the same bytes. Stops after a few mismatches to keep the report short.
  void ExpectByteIdentical(const std::vector<KeyValue>& entries,
                           const std::vector<Variant>& variants) {
    int mismatches = 0;
    for (const Variant& variant : variants) {
      SCOPED_TRACE(variant.ToString());
      const std::string ours =
          BuildWithBloomtable(BloomtableOptions(variant), entries);
      const std::string theirs =
          BuildWithLevelDB(LevelDBOptions(variant), entries);
      testing::AssertionResult same = SameBytes(ours, theirs);
      EXPECT_TRUE(same);
      if (!same && ++mismatches == 3) {
        ADD_FAILURE() << "stopping after 3 mismatching variants";
        return;
      }
    }
  }

  std::map<int, std::unique_ptr<const leveldb::FilterPolicy>> leveldb_blooms_;
};

// ---------------------------------------------------------------------------
// Inputs.

std::string RandomBytes(std::mt19937_64& rng, size_t length) {
  std::string bytes(length, '\0');
  for (char& c : bytes) c = static_cast<char>(rng() & 0xff);
  return bytes;
}

// Text-like bytes that Snappy shrinks well: a short random pattern repeated.
std::string CompressibleBytes(std::mt19937_64& rng, size_t length) {
  const std::string pattern = RandomBytes(rng, 1 + rng() % 8);
  std::string bytes;
  bytes.reserve(length);
  while (bytes.size() < length) bytes += pattern;
  bytes.resize(length);
  return bytes;
}

std::string SomeValue(std::mt19937_64& rng, size_t max_length) {
  const size_t length = max_length == 0 ? 0 : rng() % (max_length + 1);
  return rng() % 2 == 0 ? CompressibleBytes(rng, length)
                        : RandomBytes(rng, length);
}

// Pairs each sorted key with a value.
std::vector<KeyValue> WithValues(const std::set<std::string>& keys,
                                 std::mt19937_64& rng,
                                 size_t max_value_length) {
  std::vector<KeyValue> entries;
  for (const std::string& key : keys) {
    entries.emplace_back(key, SomeValue(rng, max_value_length));
  }
  return entries;
}

// `count` distinct random keys of 0..max_key_length bytes drawn from
// `alphabet` (or from all bytes when it is empty), with values.
std::vector<KeyValue> RandomEntries(uint64_t seed, size_t count,
                                    size_t max_key_length,
                                    size_t max_value_length,
                                    const std::string& alphabet = "") {
  std::mt19937_64 rng(seed);
  std::set<std::string> keys;
  for (size_t attempt = 0; keys.size() < count && attempt < count * 20;
       ++attempt) {
    std::string key(rng() % (max_key_length + 1), '\0');
    for (char& c : key) {
      c = alphabet.empty() ? static_cast<char>(rng() & 0xff)
                           : alphabet[rng() % alphabet.size()];
    }
    keys.insert(key);
  }
  return WithValues(keys, rng, max_value_length);
}

// Keys that share a long prefix, and keys that are prefixes of each other.
std::vector<KeyValue> LongSharedPrefixEntries(uint64_t seed) {
  std::mt19937_64 rng(seed);
  const std::string shared = RandomBytes(rng, 300);
  std::set<std::string> keys;
  for (int i = 0; i < 150; ++i) {
    keys.insert(shared + RandomBytes(rng, rng() % 4));
  }
  for (int length = 1; length <= 100; ++length) {
    keys.insert(shared.substr(0, length));
    keys.insert(std::string(length, 'k'));
  }
  return WithValues(keys, rng, 40);
}

// Keys built from bytes at the edges of the byte range, where separator and
// successor shortening have their special cases (0xff cannot be
// incremented), plus runs of 0xff that are prefixes of each other. The last
// key is all 0xff, which has no shorter successor.
std::vector<KeyValue> FfByteEntries(uint64_t seed) {
  std::mt19937_64 rng(seed);
  const std::string alphabet = {'\x00', '\x01', '\x7f', '\x80', '\xfe', '\xff'};
  std::set<std::string> keys;
  for (int i = 0; i < 400; ++i) {
    std::string key(rng() % 7, '\0');
    for (char& c : key) c = alphabet[rng() % alphabet.size()];
    keys.insert(key);
  }
  for (int length = 1; length <= 40; ++length) {
    keys.insert(std::string(length, '\xff'));
    keys.insert(std::string(length, '\xff') + '\xfe');
    keys.insert("a" + std::string(length, '\xff'));
  }
  keys.insert(std::string(200, '\xff'));
  return WithValues(keys, rng, 20);
}

std::vector<KeyValue> EmptyKeyAndEmptyValueEntries() {
  std::vector<KeyValue> entries = {{"", ""}, {std::string(1, '\0'), ""}};
  for (int i = 0; i < 200; ++i) {
    entries.emplace_back(absl::StrCat("key", 1000 + i), "");
  }
  return entries;
}

// Three 1 MB values (compressible, incompressible, half and half) among
// small ones.
std::vector<KeyValue> MegabyteValueEntries(uint64_t seed) {
  std::mt19937_64 rng(seed);
  const size_t kMegabyte = 1 << 20;
  std::vector<KeyValue> entries;
  entries.emplace_back("a", "small");
  entries.emplace_back("b", CompressibleBytes(rng, kMegabyte));
  entries.emplace_back("c", "small");
  entries.emplace_back("d", RandomBytes(rng, kMegabyte));
  entries.emplace_back("e", CompressibleBytes(rng, kMegabyte / 2) +
                                RandomBytes(rng, kMegabyte / 2));
  entries.emplace_back("f", "");
  return entries;
}

// Keys that are absent from `entries` but fall among them (each key with a
// 0x00 byte appended, and random ones), plus one before the first and one
// after the last.
std::vector<std::string> AbsentKeys(const std::vector<KeyValue>& entries,
                                    uint64_t seed) {
  std::set<std::string> present;
  for (const KeyValue& entry : entries) present.insert(entry.first);
  std::mt19937_64 rng(seed);
  std::set<std::string> absent;
  for (const KeyValue& entry : entries) {
    absent.insert(entry.first + std::string(1, '\0'));
    absent.insert(entry.first + "~absent");
  }
  for (int i = 0; i < 100; ++i) absent.insert(RandomBytes(rng, 1 + rng() % 12));
  absent.insert("");
  absent.insert(std::string(300, '\xff'));
  std::vector<std::string> result;
  for (const std::string& key : absent) {
    if (present.count(key) == 0) result.push_back(key);
  }
  return result;
}

// ---------------------------------------------------------------------------
// Byte-identical output.

TEST_F(TableCompatTest, RandomKeysAreByteIdenticalAcrossTheOptionMatrix) {
  for (uint64_t seed : {1, 2}) {
    SCOPED_TRACE(absl::StrCat("seed=", seed));
    ExpectByteIdentical(RandomEntries(seed, 300, 24, 120), FullMatrix());
  }
}

TEST_F(TableCompatTest, ShortKeysFromFewLettersAreByteIdentical) {
  // Short keys from a small alphabet share prefixes and sit next to each
  // other in every way the separator rules distinguish.
  ExpectByteIdentical(RandomEntries(3, 500, 5, 10, "abc"), FullMatrix());
}

TEST_F(TableCompatTest, LongSharedPrefixesAreByteIdentical) {
  ExpectByteIdentical(LongSharedPrefixEntries(4), FullMatrix());
}

TEST_F(TableCompatTest, KeysOfFfBytesAreByteIdentical) {
  ExpectByteIdentical(FfByteEntries(5), FullMatrix());
}

TEST_F(TableCompatTest, EmptyKeyAndEmptyValuesAreByteIdentical) {
  ExpectByteIdentical(EmptyKeyAndEmptyValueEntries(), FullMatrix());
}

TEST_F(TableCompatTest, IncompressibleValuesAreByteIdentical) {
  std::mt19937_64 rng(6);
  std::vector<KeyValue> entries;
  for (int i = 0; i < 200; ++i) {
    entries.emplace_back(absl::StrCat("key", 100000 + i * 7),
                         RandomBytes(rng, 50 + rng() % 400));
  }
  ExpectByteIdentical(entries, FullMatrix());
}

TEST_F(TableCompatTest, CompressibleValuesAreByteIdentical) {
  std::mt19937_64 rng(7);
  std::vector<KeyValue> entries;
  for (int i = 0; i < 200; ++i) {
    entries.emplace_back(absl::StrCat("key", 100000 + i * 7),
                         CompressibleBytes(rng, 50 + rng() % 400));
  }
  ExpectByteIdentical(entries, FullMatrix());
}

TEST_F(TableCompatTest, MegabyteValuesAreByteIdentical) {
  ExpectByteIdentical(MegabyteValueEntries(8), SmallMatrix());
}

TEST_F(TableCompatTest, OneKeyIsByteIdentical) {
  ExpectByteIdentical({{"the only key", "its value"}}, FullMatrix());
  ExpectByteIdentical({{std::string(5, '\xff'), "v"}}, FullMatrix());
  ExpectByteIdentical({{"", ""}}, FullMatrix());
}

TEST_F(TableCompatTest, NoKeyIsByteIdentical) {
  ExpectByteIdentical({}, FullMatrix());
}

// A LevelDB database's tables: internal keys, several versions per user
// key, deletions, filters over user keys, separators shortened on user keys.
std::vector<KeyValue> InternalKeyEntries(uint64_t seed, size_t user_keys,
                                         const std::string& alphabet) {
  std::mt19937_64 rng(seed);
  std::set<std::string> users;
  while (users.size() < user_keys) {
    std::string key(1 + rng() % 6, '\0');
    for (char& c : key) c = alphabet[rng() % alphabet.size()];
    users.insert(key);
  }
  std::vector<KeyValue> entries;
  for (const std::string& user : users) {
    const int versions = 1 + static_cast<int>(rng() % 4);
    uint64_t sequence = 1000000 + rng() % 1000000;
    for (int v = 0; v < versions; ++v) {
      const bool deletion = rng() % 4 == 0;
      std::string key = user;
      PutFixed64(&key, (sequence << 8) | (deletion ? 0 : 1));
      entries.emplace_back(key, deletion ? "" : SomeValue(rng, 60));
      sequence -= 1 + rng() % 1000;
    }
  }
  return entries;
}

TEST_F(TableCompatTest, InternalKeyTablesAreByteIdenticalToADatabasesTables) {
  LevelDBInternalKeyOrder internal_order;
  for (const std::string& alphabet :
       {std::string("abcdefgh"), std::string("a\xfe\xff")}) {
    const std::vector<KeyValue> entries = InternalKeyEntries(9, 300, alphabet);
    for (const Variant& variant : FullMatrix()) {
      SCOPED_TRACE(variant.ToString());
      leveldb::Options leveldb_options = LevelDBOptions(variant);
      leveldb_options.comparator = &internal_order;
      std::unique_ptr<UserKeyLevelDBBloom> user_key_bloom;
      if (variant.bloom_bits > 0) {
        user_key_bloom =
            std::make_unique<UserKeyLevelDBBloom>(variant.bloom_bits);
      }
      leveldb_options.filter_policy = user_key_bloom.get();
      Options options = BloomtableOptions(variant);
      options.key_format = KeyFormat::kLevelDBInternal;
      const std::string ours = BuildWithBloomtable(options, entries);
      const std::string theirs = BuildWithLevelDB(leveldb_options, entries);
      ASSERT_TRUE(SameBytes(ours, theirs));
    }
  }
}

// ---------------------------------------------------------------------------
// LevelDB reads our files.

// Opens `contents` with leveldb::Table and checks that forward and backward
// iteration and Seek see exactly `entries`.
void ExpectLevelDBReads(const std::string& contents,
                        const std::vector<KeyValue>& entries,
                        const leveldb::FilterPolicy* filter_policy) {
  leveldb::Options options;
  options.filter_policy = filter_policy;
  EXPECT_EQ(ReadAllWithLevelDB(options, contents), entries);

  LevelDBStringSource source(contents);
  leveldb::Table* raw_table = nullptr;
  leveldb::Status status =
      leveldb::Table::Open(options, &source, contents.size(), &raw_table);
  ASSERT_TRUE(status.ok()) << status.ToString();
  std::unique_ptr<leveldb::Table> table(raw_table);
  std::unique_ptr<leveldb::Iterator> it(
      table->NewIterator(leveldb::ReadOptions()));
  std::vector<KeyValue> backward;
  for (it->SeekToLast(); it->Valid(); it->Prev()) {
    backward.emplace_back(it->key().ToString(), it->value().ToString());
  }
  EXPECT_TRUE(it->status().ok()) << it->status().ToString();
  std::reverse(backward.begin(), backward.end());
  EXPECT_EQ(backward, entries);

  std::vector<std::string> targets = AbsentKeys(entries, 11);
  for (const KeyValue& entry : entries) targets.push_back(entry.first);
  for (const std::string& target : targets) {
    auto expected =
        std::lower_bound(entries.begin(), entries.end(), target,
                         [](const KeyValue& entry, const std::string& key) {
                           return entry.first < key;
                         });
    it->Seek(target);
    if (expected == entries.end()) {
      EXPECT_FALSE(it->Valid()) << absl::CHexEscape(target);
    } else {
      ASSERT_TRUE(it->Valid()) << absl::CHexEscape(target);
      EXPECT_EQ(it->key().ToString(), expected->first);
      EXPECT_EQ(it->value().ToString(), expected->second);
    }
  }
}

TEST_F(TableCompatTest, LevelDBReadsOurTables) {
  const std::vector<std::vector<KeyValue>> inputs = {
      RandomEntries(21, 300, 24, 120),
      LongSharedPrefixEntries(22),
      FfByteEntries(23),
      EmptyKeyAndEmptyValueEntries(),
      MegabyteValueEntries(24),
      {{"one", "key"}},
      {}};
  for (size_t i = 0; i < inputs.size(); ++i) {
    SCOPED_TRACE(absl::StrCat("input #", i));
    for (const Variant& variant : SmallMatrix()) {
      SCOPED_TRACE(variant.ToString());
      const std::string ours =
          BuildWithBloomtable(BloomtableOptions(variant), inputs[i]);
      ExpectLevelDBReads(ours, inputs[i], nullptr);
      if (variant.bloom_bits > 0) {
        ExpectLevelDBReads(ours, inputs[i], LevelDBBloom(variant.bloom_bits));
      }
    }
  }
}

TEST_F(TableCompatTest, LevelDBReadsOurTablesWithASharedPrefixIndex) {
  const std::vector<KeyValue> entries = RandomEntries(25, 2000, 24, 60);
  for (int interval : {2, 16}) {
    SCOPED_TRACE(interval);
    Options options;
    options.block_size = 256;
    options.index_block_restart_interval = interval;
    options.filter_policy = NewLevelDBBloomFilterPolicy(10);
    const std::string ours = BuildWithBloomtable(options, entries);
    ExpectLevelDBReads(ours, entries, nullptr);
    ExpectLevelDBReads(ours, entries, LevelDBBloom(10));
  }
}

// ---------------------------------------------------------------------------
// We read LevelDB's files.

struct OurTable {
  std::unique_ptr<Table> table;
  std::shared_ptr<FileReadCounters> file_reads;
};

OurTable OpenOurs(const Options& options, const std::string& contents) {
  OurTable result;
  result.file_reads = std::make_shared<FileReadCounters>();
  auto table =
      Table::Open(options,
                  NewCountingRandomAccessFile(
                      NewMemoryRandomAccessFile(contents), result.file_reads),
                  contents.size());
  EXPECT_TRUE(table.ok()) << table.status();
  if (table.ok()) result.table = std::move(*table);
  return result;
}

// Checks Get, iteration both ways and Seek of `table` against `entries`,
// and that the filter (when `expect_filter`) answers "absent" for some
// absent keys without any byte being read.
void ExpectWeRead(const OurTable& ours, const std::vector<KeyValue>& entries,
                  bool expect_filter) {
  ASSERT_NE(ours.table, nullptr);
  const Table& table = *ours.table;
  const ReadOptions read_options;
  if (expect_filter) {
    EXPECT_EQ(table.filter_info().metaindex_key,
              "filter.leveldb.BuiltinBloomFilter2");
    EXPECT_TRUE(table.filter_info().in_use)
        << table.filter_info().unused_reason;
  }

  for (const KeyValue& entry : entries) {
    const uint64_t block_reads_before = table.GetStats().data_block_reads;
    absl::StatusOr<std::string> value = table.Get(read_options, entry.first);
    ASSERT_TRUE(value.ok())
        << absl::CHexEscape(entry.first) << ": " << value.status();
    EXPECT_EQ(*value, entry.second) << absl::CHexEscape(entry.first);
    // At most one data block per lookup.
    EXPECT_LE(table.GetStats().data_block_reads, block_reads_before + 1);
  }

  uint64_t rejected_by_filter = 0;
  for (const std::string& key : AbsentKeys(entries, 12)) {
    const TableStats before = table.GetStats();
    const uint64_t file_reads_before = ours.file_reads->reads.load();
    absl::StatusOr<std::string> value = table.Get(read_options, key);
    EXPECT_TRUE(absl::IsNotFound(value.status()))
        << absl::CHexEscape(key) << ": " << value.status();
    const TableStats after = table.GetStats();
    EXPECT_LE(after.data_block_reads, before.data_block_reads + 1);
    if (after.filter_negatives > before.filter_negatives) {
      ++rejected_by_filter;
      EXPECT_EQ(after.filter_negatives, before.filter_negatives + 1);
      EXPECT_EQ(after.data_block_reads, before.data_block_reads);
      EXPECT_EQ(ours.file_reads->reads.load(), file_reads_before)
          << "a key the filter rejected still read the file";
    }
  }
  if (expect_filter && !entries.empty()) {
    EXPECT_GT(rejected_by_filter, 0u);
    EXPECT_GT(table.GetStats().filter_checks, 0u);
  }
  if (!expect_filter) {
    EXPECT_EQ(rejected_by_filter, 0u);
  }

  std::unique_ptr<Iterator> it = table.NewIterator(read_options);
  std::vector<KeyValue> forward;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    forward.emplace_back(std::string(it->key()), std::string(it->value()));
  }
  EXPECT_TRUE(it->status().ok()) << it->status();
  EXPECT_EQ(forward, entries);

  std::vector<KeyValue> backward;
  for (it->SeekToLast(); it->Valid(); it->Prev()) {
    backward.emplace_back(std::string(it->key()), std::string(it->value()));
  }
  EXPECT_TRUE(it->status().ok()) << it->status();
  std::reverse(backward.begin(), backward.end());
  EXPECT_EQ(backward, entries);

  std::vector<std::string> targets = AbsentKeys(entries, 13);
  for (const KeyValue& entry : entries) targets.push_back(entry.first);
  for (const std::string& target : targets) {
    auto expected =
        std::lower_bound(entries.begin(), entries.end(), target,
                         [](const KeyValue& entry, const std::string& key) {
                           return entry.first < key;
                         });
    it->Seek(target);
    if (expected == entries.end()) {
      EXPECT_FALSE(it->Valid()) << absl::CHexEscape(target);
      continue;
    }
    ASSERT_TRUE(it->Valid()) << absl::CHexEscape(target) << " " << it->status();
    EXPECT_EQ(it->key(), expected->first);
    EXPECT_EQ(it->value(), expected->second);
    // One step back from the sought position lands on the entry before it.
    it->Prev();
    if (expected == entries.begin()) {
      EXPECT_FALSE(it->Valid());
    } else {
      ASSERT_TRUE(it->Valid());
      EXPECT_EQ(it->key(), (expected - 1)->first);
    }
  }
  EXPECT_TRUE(it->status().ok()) << it->status();
}

TEST_F(TableCompatTest, WeReadLevelDBTablesAcrossTheOptionMatrix) {
  const std::vector<KeyValue> entries = RandomEntries(31, 200, 16, 100);
  for (const Variant& variant : FullMatrix()) {
    SCOPED_TRACE(variant.ToString());
    const std::string theirs =
        BuildWithLevelDB(LevelDBOptions(variant), entries);
    ExpectWeRead(OpenOurs(BloomtableOptions(variant), theirs), entries,
                 variant.bloom_bits > 0);
  }
}

TEST_F(TableCompatTest, WeReadLevelDBTablesOfEdgeCaseInputs) {
  const std::vector<std::vector<KeyValue>> inputs = {
      LongSharedPrefixEntries(32),
      FfByteEntries(33),
      EmptyKeyAndEmptyValueEntries(),
      MegabyteValueEntries(34),
      RandomEntries(35, 300, 5, 10, "abc"),
      {{"one", "key"}},
      {}};
  for (size_t i = 0; i < inputs.size(); ++i) {
    SCOPED_TRACE(absl::StrCat("input #", i));
    for (const Variant& variant : SmallMatrix()) {
      SCOPED_TRACE(variant.ToString());
      const std::string theirs =
          BuildWithLevelDB(LevelDBOptions(variant), inputs[i]);
      ExpectWeRead(OpenOurs(BloomtableOptions(variant), theirs), inputs[i],
                   variant.bloom_bits > 0);
    }
  }
}

TEST_F(TableCompatTest, LevelDBFilterOfAPolicyWeWereNotGivenIsIgnored) {
  const Variant variant{256, 16, true, 10};
  const std::vector<KeyValue> entries = RandomEntries(36, 200, 16, 100);
  const std::string theirs = BuildWithLevelDB(LevelDBOptions(variant), entries);
  Options options = BloomtableOptions(variant);
  options.filter_policy = nullptr;
  OurTable ours = OpenOurs(options, theirs);
  ASSERT_NE(ours.table, nullptr);
  EXPECT_EQ(ours.table->filter_info().metaindex_key,
            "filter.leveldb.BuiltinBloomFilter2");
  EXPECT_FALSE(ours.table->filter_info().in_use);
  ExpectWeRead(ours, entries, /*expect_filter=*/false);
  EXPECT_EQ(ours.table->GetStats().filter_negatives, 0u);
}

}  // namespace
}  // namespace compat_test
}  // namespace bloomtable
