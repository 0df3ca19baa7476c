// LevelDB still opens and iterates our tables that carry bloomtable's own
// filters (it ignores filters it does not know), with or without its own
// Bloom policy configured; and we read them back with the filter in use.

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "bloomtable/filter_policy.h"
#include "bloomtable/table.h"
#include "gtest/gtest.h"
#include "leveldb/filter_policy.h"
#include "leveldb/options.h"
#include "tests/compat/leveldb_files.h"

namespace bloomtable {
namespace compat_test {
namespace {

struct NewFilterCase {
  const char* name;
  std::shared_ptr<const FilterPolicy> policy;
  FilterLayout layout;
};

std::vector<KeyValue> Entries() {
  std::vector<KeyValue> entries;
  for (int i = 0; i < 3000; ++i) {
    char key[32];
    std::snprintf(key, sizeof(key), "%016d", 2 * i);
    entries.emplace_back(key, "value" + std::to_string(i));
  }
  return entries;
}

TEST(NewFiltersCompat, LevelDBIteratesTablesWithOurFilters) {
  const std::vector<NewFilterCase> cases = {
      {"cache-local per-block", NewCacheLocalBloomFilterPolicy(10),
       FilterLayout::kPerBlock},
      {"cache-local whole-table", NewCacheLocalBloomFilterPolicy(10),
       FilterLayout::kWholeTable},
      {"ribbon whole-table", NewRibbonFilterPolicy(7),
       FilterLayout::kWholeTable},
      {"ribbon partitioned", NewRibbonFilterPolicy(7),
       FilterLayout::kPartitioned},
      {"leveldb bloom partitioned", NewLevelDBBloomFilterPolicy(10),
       FilterLayout::kPartitioned},
  };
  const std::vector<KeyValue> entries = Entries();
  std::unique_ptr<const leveldb::FilterPolicy> leveldb_bloom(
      leveldb::NewBloomFilterPolicy(10));
  for (const NewFilterCase& c : cases) {
    SCOPED_TRACE(c.name);
    Options options;
    options.filter_policy = c.policy;
    options.filter_layout = c.layout;
    options.filter_partition_keys = 500;
    const std::string contents = BuildWithBloomtable(options, entries);

    leveldb::Options plain;
    EXPECT_EQ(ReadAllWithLevelDB(plain, contents), entries);
    leveldb::Options with_bloom;
    with_bloom.filter_policy = leveldb_bloom.get();
    EXPECT_EQ(ReadAllWithLevelDB(with_bloom, contents), entries);

    auto table = Table::Open(options, NewMemoryRandomAccessFile(contents),
                             contents.size());
    ASSERT_TRUE(table.ok()) << table.status();
    EXPECT_TRUE((*table)->filter_info().in_use);
    for (const KeyValue& entry : entries) {
      auto value = (*table)->Get(ReadOptions(), entry.first);
      ASSERT_TRUE(value.ok()) << entry.first;
      EXPECT_EQ(*value, entry.second);
    }
  }
}

}  // namespace
}  // namespace compat_test
}  // namespace bloomtable
