// Tables with scan filters (a prefix filter, a range filter) stay LevelDB
// tables: leveldb::Table opens and iterates them with its filter policy set,
// and a real leveldb::DB serving them (through LevelDB's Bloom, or through
// the LevelDB adapter) finds every key. Their filter blocks sit under
// metaindex keys that LevelDB never looks up ("prefixfilter.<name>",
// "rangefilter.<name>"), never under "filter.<name>", where LevelDB would
// take the block for a per-block filter block, which it is not.

#include <cstdio>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_format.h"
#include "bloomtable/filter_policy.h"
#include "bloomtable/leveldb_filter_adapter.h"
#include "bloomtable/options.h"
#include "bloomtable/prefix_extractor.h"
#include "bloomtable/table.h"
#include "gtest/gtest.h"
#include "leveldb/db.h"
#include "leveldb/filter_policy.h"
#include "leveldb/options.h"
#include "table/internal_key.h"
#include "tests/compat/leveldb_files.h"
#include "tests/temp_dir.h"

namespace bloomtable {
namespace {

using compat_test::BuildWithBloomtable;
using compat_test::KeyValue;
using compat_test::ReadAllWithLevelDB;

// "user:<id>:<field>" for even ids: plain entries.
std::vector<KeyValue> UserEntries(int users) {
  std::vector<KeyValue> entries;
  for (int id = 0; id < users; ++id) {
    for (const char* field : {"a", "b", "c"}) {
      entries.emplace_back(absl::StrFormat("user:%06d:%s", 2 * id, field),
                           absl::StrFormat("value %d %s", 2 * id, field));
    }
  }
  return entries;
}

// The same as internal keys of a LevelDB database, sequence i + 1.
std::vector<KeyValue> AsInternalKeys(const std::vector<KeyValue>& entries) {
  std::vector<KeyValue> internal;
  uint64_t sequence = 1;
  for (const KeyValue& entry : entries) {
    std::string key;
    AppendInternalKey(&key, entry.first, sequence++, ValueType::kValue);
    internal.emplace_back(key, entry.second);
  }
  return internal;
}

// Our scan filters: a prefix filter of `policy`, and a range filter.
Options ScanFilterOptions(std::shared_ptr<const FilterPolicy> policy) {
  Options options;
  options.block_size = 512;
  options.filter_policy = std::move(policy);
  options.prefix_extractor = NewDelimitedPrefixExtractor(':', 2);
  options.range_filter_bits_per_key = 16;
  return options;
}

TEST(ScanFiltersCompat, GoldenPrefixFilterBytesAreLevelDBsOwnBloom) {
  // The entries of the golden prefix filter block (prefix_filter_test):
  // LevelDB's own Bloom over them gives the bytes the test expects.
  std::unique_ptr<const leveldb::FilterPolicy> bloom(
      leveldb::NewBloomFilterPolicy(10));
  const std::vector<leveldb::Slice> entries = {
      "user:1:a", "user:1:", "user:1:b", "user:22:c", "user:22:"};
  std::string filter;
  bloom->CreateFilter(entries.data(), static_cast<int>(entries.size()),
                      &filter);
  EXPECT_EQ(absl::BytesToHexString(filter), "616912801404610906");
}

TEST(ScanFiltersCompat, LevelDBTableReadsATableWithScanFilters) {
  const std::vector<KeyValue> entries = UserEntries(300);
  for (bool whole_keys : {true, false}) {
    Options options = ScanFilterOptions(NewLevelDBBloomFilterPolicy(10));
    options.whole_key_filtering = whole_keys;
    const std::string ours = BuildWithBloomtable(options, entries);
    std::unique_ptr<const leveldb::FilterPolicy> bloom(
        leveldb::NewBloomFilterPolicy(10));
    leveldb::Options leveldb_options;
    leveldb_options.filter_policy = bloom.get();
    EXPECT_EQ(ReadAllWithLevelDB(leveldb_options, ours), entries);
  }
}

class LevelDBDatabaseTest : public testing::Test {
 protected:
  // Puts `table` into an empty database directory as its only table file,
  // lets leveldb::RepairDB describe it in a new MANIFEST, opens the database
  // with `policy` and checks that every key is found with its value, and
  // that absent keys are not.
  void ExpectDatabaseServes(const std::string& table,
                            const std::vector<KeyValue>& entries,
                            const leveldb::FilterPolicy* policy) {
    const TempDir dir;
    std::FILE* file = std::fopen(dir.File("000005.ldb").c_str(), "wb");
    ASSERT_NE(file, nullptr);
    ASSERT_EQ(std::fwrite(table.data(), 1, table.size(), file), table.size());
    ASSERT_EQ(std::fclose(file), 0);

    leveldb::Options options;
    options.filter_policy = policy;
    leveldb::Status status = leveldb::RepairDB(dir.path(), options);
    ASSERT_TRUE(status.ok()) << status.ToString();
    leveldb::DB* raw_db = nullptr;
    status = leveldb::DB::Open(options, dir.path(), &raw_db);
    ASSERT_TRUE(status.ok()) << status.ToString();
    std::unique_ptr<leveldb::DB> db(raw_db);

    std::string value;
    for (const KeyValue& entry : entries) {
      status = db->Get(leveldb::ReadOptions(), entry.first, &value);
      ASSERT_TRUE(status.ok()) << entry.first << ": " << status.ToString();
      EXPECT_EQ(value, entry.second);
    }
    for (const char* absent : {"user:000001:a", "user:000002:d", "zzz"}) {
      EXPECT_TRUE(db->Get(leveldb::ReadOptions(), absent, &value).IsNotFound())
          << absent;
    }
  }
};

TEST_F(LevelDBDatabaseTest, LevelDBsBloomNeverMissesAKeyOfAPrefixFilterTable) {
  const std::vector<KeyValue> entries = UserEntries(400);
  Options options = ScanFilterOptions(NewLevelDBBloomFilterPolicy(10));
  options.key_format = KeyFormat::kLevelDBInternal;
  const std::string ours =
      BuildWithBloomtable(options, AsInternalKeys(entries));
  std::unique_ptr<const leveldb::FilterPolicy> bloom(
      leveldb::NewBloomFilterPolicy(10));
  ExpectDatabaseServes(ours, entries, bloom.get());
}

TEST_F(LevelDBDatabaseTest, TheAdapterNeverMissesAKeyOfAPrefixFilterTable) {
  const std::vector<KeyValue> entries = UserEntries(400);
  const auto policy = NewCacheLocalBloomFilterPolicy(10);
  Options options = ScanFilterOptions(policy);
  options.key_format = KeyFormat::kLevelDBInternal;
  options.whole_key_filtering = false;
  const std::string ours =
      BuildWithBloomtable(options, AsInternalKeys(entries));
  auto adapter = NewLevelDBFilterPolicyAdapter(policy);
  ASSERT_TRUE(adapter.ok()) << adapter.status();
  ExpectDatabaseServes(ours, entries, adapter->get());
}

}  // namespace
}  // namespace bloomtable
