// Prefix filters in tables: the metaindex key and block bytes (golden),
// scans of a missing prefix that read no data block, point lookups with and
// without whole keys, a reader with another extractor, damaged blocks that
// read as "no filter", and bounded scans that stop reading at the bound.

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_format.h"
#include "bloomtable/file.h"
#include "bloomtable/filter_policy.h"
#include "bloomtable/options.h"
#include "bloomtable/prefix_extractor.h"
#include "bloomtable/table.h"
#include "bloomtable/table_builder.h"
#include "fuzz/fix_checksums.h"
#include "gtest/gtest.h"
#include "tests/table_in_memory.h"
#include "tests/table_layout.h"
#include "tests/table_test_policies.h"

namespace bloomtable {
namespace {

using Model = std::map<std::string, std::string>;

using table_test::BuildTableInMemory;
using table_test::OpenTableInMemory;

// "user:<id>:<field>" for the even ids below 2 * users, three fields each.
Model UserModel(int users) {
  Model model;
  for (int id = 0; id < 2 * users; id += 2) {
    for (const char* field : {"email", "name", "zip"}) {
      model[absl::StrFormat("user:%d:%s", id, field)] =
          absl::StrFormat("value of %d %s", id, field);
    }
  }
  return model;
}

Options UserOptions() {
  Options options;
  options.block_size = 256;  // many data blocks
  options.filter_policy = testing_policies::NewHashListPolicy();
  options.prefix_extractor = NewDelimitedPrefixExtractor(':', 2);
  return options;
}

std::vector<std::string> ScanAll(Iterator* it) {
  std::vector<std::string> keys;
  for (; it->Valid(); it->Next()) keys.emplace_back(it->key());
  EXPECT_TRUE(it->status().ok()) << it->status();
  return keys;
}

// The metaindex of a table, key -> encoded handle.
std::map<std::string, std::string> Metaindex(const std::string& contents) {
  const table_test::TableLayout layout = table_test::ReadTableLayout(contents);
  std::map<std::string, std::string> entries;
  for (auto& [key, value] :
       table_test::ReadBlockEntries(contents, layout.metaindex)) {
    entries[key] = value;
  }
  return entries;
}

TEST(PrefixFilter, GoldenMetaindexKeyAndBlock) {
  Options options;
  options.compression = CompressionType::kNone;
  options.filter_policy = NewLevelDBBloomFilterPolicy(10);
  options.prefix_extractor = NewDelimitedPrefixExtractor(':', 2);
  const std::string contents = BuildTableInMemory(
      options, {{"user:1:a", "x"}, {"user:1:b", "y"}, {"user:22:c", "z"}});
  const auto metaindex = Metaindex(contents);
  ASSERT_EQ(metaindex.size(), 1u);
  EXPECT_EQ(metaindex.begin()->first,
            "prefixfilter.leveldb.BuiltinBloomFilter2");
  const BlockHandle handle =
      table_test::DecodeHandle(metaindex.begin()->second);
  const std::string block = contents.substr(handle.offset(), handle.size());

  // The filter over the distinct keys, each followed by its prefix when new
  // (FORMAT.md, "Prefix filter block"), then the extractor name, its fixed32
  // length (31), flags (whole keys) and version 1.
  std::string filter;
  const std::string_view entries[] = {"user:1:a", "user:1:", "user:1:b",
                                      "user:22:c", "user:22:"};
  options.filter_policy->CreateFilter(entries, 5, &filter);
  EXPECT_EQ(absl::BytesToHexString(block),
            absl::BytesToHexString(filter) +
                // "bloomtable.DelimitedPrefix.3a.2"
                "626c6f6f6d7461626c652e44656c696d697465645072656669782e33612e32"
                "1f000000"
                "01"
                "01");
  // LevelDB's Bloom over those 5 entries at 10 bits per key: 64 bits (the
  // minimum) and k = 6.
  EXPECT_EQ(absl::BytesToHexString(filter), "616912801404610906");
}

TEST(PrefixFilter, WithoutWholeKeysTheFlagIsClear) {
  Options options = UserOptions();
  options.whole_key_filtering = false;
  const std::string contents = BuildTableInMemory(options, UserModel(3));
  const auto metaindex = Metaindex(contents);
  ASSERT_EQ(metaindex.size(), 1u);
  EXPECT_EQ(metaindex.begin()->first, "prefixfilter.test.HashList");
  const BlockHandle handle =
      table_test::DecodeHandle(metaindex.begin()->second);
  const std::string block = contents.substr(handle.offset(), handle.size());
  // Three prefixes, no keys: three hashes, then the name and trailer.
  const std::string name = "bloomtable.DelimitedPrefix.3a.2";
  EXPECT_EQ(block.size(), 3 * 4 + name.size() + 6);
  EXPECT_EQ(block.substr(block.size() - 2), std::string("\x00\x01", 2));
}

TEST(PrefixFilter, MissingPrefixReadsNoDataBlock) {
  const Options options = UserOptions();
  const std::string contents = BuildTableInMemory(options, UserModel(100));
  auto table = OpenTableInMemory(options, contents);
  ASSERT_NE(table, nullptr);
  EXPECT_TRUE(table->scan_filter_info().prefix_in_use);

  ReadOptions read_options;
  read_options.prefix_same_as_start = true;
  auto it = table->NewIterator(read_options);
  it->Seek("user:13:");
  EXPECT_FALSE(it->Valid());
  EXPECT_TRUE(it->status().ok());
  it->SeekForPrev("user:13:zzz");
  EXPECT_FALSE(it->Valid());
  TableStats stats = table->GetStats();
  EXPECT_EQ(stats.data_block_reads, 0u);
  EXPECT_EQ(stats.prefix_filter_checks, 2u);
  EXPECT_EQ(stats.prefix_filter_negatives, 2u);

  // A present prefix yields exactly its keys, in both directions.
  it->Seek("user:14:");
  EXPECT_EQ(ScanAll(it.get()),
            (std::vector<std::string>{"user:14:email", "user:14:name",
                                      "user:14:zip"}));
  it->SeekForPrev("user:14:zz");
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(it->key(), "user:14:zip");
  it->Prev();
  it->Prev();
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(it->key(), "user:14:email");
  it->Prev();
  EXPECT_FALSE(it->Valid());
  EXPECT_EQ(table->GetStats().prefix_filter_negatives, 2u);
}

TEST(PrefixFilter, BoundsWithinOnePrefixAskTheFilter) {
  const Options options = UserOptions();
  const std::string contents = BuildTableInMemory(options, UserModel(100));
  auto table = OpenTableInMemory(options, contents);
  ASSERT_NE(table, nullptr);

  ReadOptions read_options;
  read_options.iterate_lower_bound = "user:13:";
  read_options.iterate_upper_bound = "user:13;";  // the prefix's successor
  auto it = table->NewIterator(read_options);
  it->SeekToFirst();
  EXPECT_FALSE(it->Valid());
  it->SeekToLast();
  EXPECT_FALSE(it->Valid());
  it->Seek("user:13:name");
  EXPECT_FALSE(it->Valid());
  EXPECT_EQ(table->GetStats().data_block_reads, 0u);
  EXPECT_EQ(table->GetStats().prefix_filter_negatives, 3u);
  EXPECT_FALSE(table->MayContainRange("user:13:", "user:13:zzz"));
  EXPECT_TRUE(table->MayContainRange("user:12:", "user:12:zzz"));
  // Bounds across two prefixes cannot use it.
  EXPECT_TRUE(table->MayContainRange("user:13:", "user:15:"));
  EXPECT_EQ(table->GetStats().data_block_reads, 0u);
}

TEST(PrefixFilter, EmptyRangeAnswersNoWithoutAnyCheck) {
  const Options options = UserOptions();
  auto table =
      OpenTableInMemory(options, BuildTableInMemory(options, UserModel(10)));
  ASSERT_NE(table, nullptr);
  EXPECT_FALSE(table->MayContainRange("user:2:name", "user:2:name"));
  EXPECT_FALSE(table->MayContainRange("user:4:", "user:2:"));
  EXPECT_EQ(table->GetStats().prefix_filter_checks, 0u);
  EXPECT_EQ(table->GetStats().data_block_reads, 0u);
}

TEST(PrefixFilter, PointLookupsUseWholeKeys) {
  const Options options = UserOptions();
  const Model model = UserModel(50);
  auto table = OpenTableInMemory(options, BuildTableInMemory(options, model));
  ASSERT_NE(table, nullptr);
  for (const auto& [key, value] : model) {
    auto got = table->Get(ReadOptions(), key);
    ASSERT_TRUE(got.ok()) << key << ": " << got.status();
    EXPECT_EQ(*got, value);
  }
  // Absent keys of present prefixes: the whole key answers.
  for (int id = 0; id < 100; id += 2) {
    EXPECT_TRUE(absl::IsNotFound(
        table->Get(ReadOptions(), absl::StrFormat("user:%d:phone", id))
            .status()));
  }
  const TableStats stats = table->GetStats();
  EXPECT_EQ(stats.filter_checks, model.size() + 50);
  EXPECT_EQ(stats.filter_negatives, 50u);
  EXPECT_EQ(stats.data_block_reads, model.size());
}

// With a real Bloom filter the prefixes take their own bits (the filter is
// sized for keys plus prefixes), so absent keys pass it about as often as
// they pass a whole-table filter of the keys alone: within 1.5 times plus
// 0.3 points over 30,000 lookups (each rate is about 1% at 10 bits per key).
TEST(PrefixFilter, PointLookupsPassAsRarelyAsWithAKeyFilter) {
  const Model model = UserModel(10000);
  Options key_filter;
  key_filter.filter_policy = NewCacheLocalBloomFilterPolicy(10);
  key_filter.filter_layout = FilterLayout::kWholeTable;
  Options prefix_filter = key_filter;
  prefix_filter.prefix_extractor = NewDelimitedPrefixExtractor(':', 2);
  auto reference =
      OpenTableInMemory(key_filter, BuildTableInMemory(key_filter, model));
  auto table = OpenTableInMemory(prefix_filter,
                                 BuildTableInMemory(prefix_filter, model));
  ASSERT_NE(reference, nullptr);
  ASSERT_NE(table, nullptr);
  const int kLookups = 30000;
  for (int i = 0; i < kLookups; ++i) {
    const std::string key = absl::StrFormat("user:%d:phone", i);
    ASSERT_TRUE(absl::IsNotFound(reference->Get(ReadOptions(), key).status()));
    ASSERT_TRUE(absl::IsNotFound(table->Get(ReadOptions(), key).status()));
  }
  const double reference_rate =
      static_cast<double>(reference->GetStats().data_block_reads) / kLookups;
  const double rate =
      static_cast<double>(table->GetStats().data_block_reads) / kLookups;
  EXPECT_LT(reference_rate, 0.02);
  EXPECT_LE(rate, 1.5 * reference_rate + 0.003)
      << "key filter " << reference_rate;
}

TEST(PrefixFilter, WithoutWholeKeysPointLookupsAskThePrefix) {
  Options options = UserOptions();
  options.whole_key_filtering = false;
  const Model model = UserModel(50);
  auto table = OpenTableInMemory(options, BuildTableInMemory(options, model));
  ASSERT_NE(table, nullptr);
  for (const auto& [key, value] : model) {
    ASSERT_TRUE(table->Get(ReadOptions(), key).ok()) << key;
  }
  // A missing prefix saves the read; a present one cannot.
  EXPECT_TRUE(
      absl::IsNotFound(table->Get(ReadOptions(), "user:13:name").status()));
  EXPECT_TRUE(
      absl::IsNotFound(table->Get(ReadOptions(), "user:12:phone").status()));
  // Outside the domain: no answer from the filter.
  EXPECT_TRUE(absl::IsNotFound(table->Get(ReadOptions(), "user").status()));
  const TableStats stats = table->GetStats();
  EXPECT_EQ(stats.filter_negatives, 1u);
  EXPECT_EQ(stats.data_block_reads, model.size() + 2);
}

TEST(PrefixFilter, AnotherExtractorUsesOnlyTheWholeKeys) {
  const Options options = UserOptions();
  const Model model = UserModel(50);
  for (bool whole_keys : {true, false}) {
    Options writer = options;
    writer.whole_key_filtering = whole_keys;
    const std::string table_bytes = BuildTableInMemory(writer, model);
    Options reader = options;
    reader.prefix_extractor = NewDelimitedPrefixExtractor(':', 1);
    auto table = OpenTableInMemory(reader, table_bytes);
    ASSERT_NE(table, nullptr);
    const ScanFilterInfo& info = table->scan_filter_info();
    EXPECT_TRUE(info.prefix_loaded);
    EXPECT_FALSE(info.prefix_in_use);
    EXPECT_EQ(info.prefix_extractor, "bloomtable.DelimitedPrefix.3a.2");
    EXPECT_NE(info.prefix_unused_reason.find("DelimitedPrefix.3a.1"),
              std::string::npos)
        << info.prefix_unused_reason;

    // "user:" is the other extractor's prefix: it must not be taken for one
    // stored in the filter.
    ReadOptions read_options;
    read_options.prefix_same_as_start = true;
    auto it = table->NewIterator(read_options);
    it->Seek("user:");
    EXPECT_EQ(ScanAll(it.get()).size(), model.size());
    EXPECT_EQ(table->GetStats().prefix_filter_checks, 0u);
    for (const auto& [key, value] : model) {
      ASSERT_TRUE(table->Get(ReadOptions(), key).ok()) << key;
    }
    EXPECT_TRUE(
        absl::IsNotFound(table->Get(ReadOptions(), "user:13:name").status()));
    EXPECT_EQ(table->GetStats().filter_negatives, whole_keys ? 1u : 0u);
  }
}

TEST(PrefixFilter, UnknownPolicyMeansNoFilter) {
  const Options options = UserOptions();
  const Model model = UserModel(20);
  Options reader = options;
  reader.filter_policy = NewCacheLocalBloomFilterPolicy(10);
  auto table = OpenTableInMemory(reader, BuildTableInMemory(options, model));
  ASSERT_NE(table, nullptr);
  EXPECT_FALSE(table->scan_filter_info().prefix_loaded);
  EXPECT_EQ(table->scan_filter_info().prefix_metaindex_key,
            "prefixfilter.test.HashList");
  ReadOptions read_options;
  read_options.prefix_same_as_start = true;
  auto it = table->NewIterator(read_options);
  it->Seek("user:14:");
  EXPECT_EQ(ScanAll(it.get()).size(), 3u);
  for (const auto& [key, value] : model) {
    ASSERT_TRUE(table->Get(ReadOptions(), key).ok()) << key;
  }
}

// Rewrites the byte at `offset` of the prefix filter block (counted from its
// end if negative), optionally fixing the block's checksum afterwards.
std::string DamagePrefixBlock(const std::string& contents, int64_t offset,
                              char value, bool fix_checksum) {
  const auto metaindex = Metaindex(contents);
  const BlockHandle handle =
      table_test::DecodeHandle(metaindex.begin()->second);
  std::string damaged = contents;
  const int64_t at =
      offset >= 0 ? offset : static_cast<int64_t>(handle.size()) + offset;
  damaged[handle.offset() + at] = value;
  if (fix_checksum) fuzz_internal::FixBlockChecksum(&damaged, handle);
  return damaged;
}

TEST(PrefixFilter, DamagedBlockMeansNoFilterNeverEmpty) {
  const Options options = UserOptions();
  const Model model = UserModel(40);
  const std::string contents = BuildTableInMemory(options, model);
  struct Damage {
    const char* what;
    int64_t offset;
    char value;
    bool fix_checksum;
  };
  const Damage damages[] = {
      {"a flipped filter byte (checksum)", 0, '\x5a', false},
      {"unknown version", -1, '\x02', true},
      {"unknown flag", -2, '\x03', true},
      {"name length past the block", -3, '\x7f', true},
  };
  for (const Damage& damage : damages) {
    SCOPED_TRACE(damage.what);
    auto table = OpenTableInMemory(
        options, DamagePrefixBlock(contents, damage.offset, damage.value,
                                   damage.fix_checksum));
    ASSERT_NE(table, nullptr);
    const ScanFilterInfo& info = table->scan_filter_info();
    EXPECT_FALSE(info.prefix_loaded);
    EXPECT_FALSE(info.prefix_unused_reason.empty());
    for (const auto& [key, value] : model) {
      ASSERT_TRUE(table->Get(ReadOptions(), key).ok()) << key;
    }
    ReadOptions read_options;
    read_options.iterate_lower_bound = "user:14:";
    read_options.iterate_upper_bound = "user:14;";
    auto it = table->NewIterator(read_options);
    it->SeekToFirst();
    EXPECT_EQ(ScanAll(it.get()).size(), 3u);
    EXPECT_TRUE(table->MayContainRange("user:13:", "user:13;"));
    EXPECT_EQ(table->GetStats().prefix_filter_checks, 0u);
  }
}

TEST(BoundedIterator, StopsReadingAtTheUpperBound) {
  Options options;
  options.block_size = 128;
  Model model;
  for (int i = 0; i < 2000; ++i) {
    model[absl::StrFormat("%016d", 2 * i)] = std::string(20, 'v');
  }
  const std::string contents = BuildTableInMemory(options, model);
  auto table = OpenTableInMemory(options, contents);
  ASSERT_NE(table, nullptr);
  const size_t data_blocks = table_test::ReadTableLayout(contents).data.size();
  ASSERT_GT(data_blocks, 100u);

  // The blocks that hold the keys of [lo, hi).
  const std::string lo = absl::StrFormat("%016d", 1000);
  const std::string hi = absl::StrFormat("%016d", 1200);
  std::set<uint64_t> blocks;
  size_t keys = 0;
  for (auto it = model.lower_bound(lo); it != model.lower_bound(hi); ++it) {
    blocks.insert(table->ApproximateOffsetOf(it->first));
    ++keys;
  }
  ReadOptions read_options;
  read_options.iterate_lower_bound = lo;
  read_options.iterate_upper_bound = hi;
  read_options.fill_cache = false;
  for (bool forward : {true, false}) {
    const uint64_t before = table->GetStats().data_block_reads;
    auto it = table->NewIterator(read_options);
    size_t seen = 0;
    if (forward) {
      for (it->SeekToFirst(); it->Valid(); it->Next()) ++seen;
    } else {
      for (it->SeekToLast(); it->Valid(); it->Prev()) ++seen;
    }
    EXPECT_EQ(seen, keys);
    // At most one block beyond those that hold the range: the one where the
    // bound's key would be, since a separator is below the next block's
    // first key.
    const uint64_t reads = table->GetStats().data_block_reads - before;
    EXPECT_GE(reads, blocks.size());
    EXPECT_LE(reads, blocks.size() + 1) << (forward ? "forward" : "backward");
  }
}

}  // namespace
}  // namespace bloomtable
