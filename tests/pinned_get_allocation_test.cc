// What Table::Get into a PinnedValue allocates: nothing, when the data block
// is in the block cache and the PinnedValue is reused. That holds for a key
// found (the value is pinned to the cached block: a reference count, no
// copy), for a key the filter rules out, and for an absent key whose block is
// searched (NotFound carries no message, so its status allocates nothing).
// A block read from the file allocates its buffer; that is not claimed.
//
// This binary replaces the global operator new and delete to count the
// allocations and their bytes (tests/counting_operator_new.h).

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "bloomtable/cache.h"
#include "bloomtable/filter_policy.h"
#include "bloomtable/options.h"
#include "bloomtable/pinned_value.h"
#include "bloomtable/table.h"
#include "gtest/gtest.h"
#include "tests/counting_operator_new.h"
#include "tests/table_in_memory.h"

namespace bloomtable {
namespace {

struct Counts {
  int64_t allocations;
  int64_t bytes;
};

Counts Now() {
  return {counting_new::allocations.load(),
          counting_new::allocated_bytes.load()};
}

class PinnedGetAllocation : public ::testing::Test {
 protected:
  void SetUp() override {
    for (int i = 0; i < 2000; i += 2) {  // odd numbers are absent
      entries_[absl::StrFormat("key%05d", i)] =
          std::string(static_cast<size_t>(100 + i % 500), 'v');
    }
    Options options;
    options.filter_policy = NewLevelDBBloomFilterPolicy(10);
    options.block_cache = NewLRUCache(8 << 20);
    contents_ = table_test::BuildTableInMemory(options, entries_);
    table_ = table_test::OpenTableInMemory(options, contents_);
    ASSERT_NE(table_, nullptr);
    // Every data block into the cache.
    for (const auto& [key, value] : entries_) {
      ASSERT_TRUE(table_->Get(ReadOptions(), key).ok());
    }
  }

  std::map<std::string, std::string> entries_;
  std::string contents_;
  std::unique_ptr<Table> table_;
};

TEST_F(PinnedGetAllocation, CachedHitIntoReusedValueAllocatesNothing) {
  std::vector<std::string> keys;
  for (const auto& [key, value] : entries_) keys.push_back(key);
  PinnedValue pinned;
  const ReadOptions read_options;
  const TableStats before_stats = table_->GetStats();
  const Counts before = Now();
  size_t found_bytes = 0;
  for (const std::string& key : keys) {
    const absl::Status status = table_->Get(read_options, key, &pinned);
    if (status.ok()) found_bytes += pinned.size();
  }
  const Counts after = Now();
  EXPECT_EQ(after.allocations - before.allocations, 0);
  EXPECT_EQ(after.bytes - before.bytes, 0);
  // Every key was found, each from the cache.
  size_t expected_bytes = 0;
  for (const auto& [key, value] : entries_) expected_bytes += value.size();
  EXPECT_EQ(found_bytes, expected_bytes);
  const TableStats after_stats = table_->GetStats();
  EXPECT_EQ(after_stats.block_cache_hits - before_stats.block_cache_hits,
            keys.size());
  EXPECT_EQ(after_stats.data_block_reads, before_stats.data_block_reads);
}

TEST_F(PinnedGetAllocation, AbsentKeysAllocateNothing) {
  std::vector<std::string> keys;
  for (int i = 1; i < 2000; i += 2)
    keys.push_back(absl::StrFormat("key%05d", i));
  PinnedValue pinned;
  const ReadOptions read_options;
  const TableStats before_stats = table_->GetStats();
  const Counts before = Now();
  int not_found = 0;
  for (const std::string& key : keys) {
    if (absl::IsNotFound(table_->Get(read_options, key, &pinned))) ++not_found;
  }
  const Counts after = Now();
  EXPECT_EQ(after.allocations - before.allocations, 0);
  EXPECT_EQ(after.bytes - before.bytes, 0);
  EXPECT_EQ(not_found, static_cast<int>(keys.size()));
  // Some passed the filter (a false positive) and searched a cached block.
  EXPECT_GT(table_->GetStats().block_cache_hits, before_stats.block_cache_hits);
}

// The copying Get, for contrast: each found value is a new string.
TEST_F(PinnedGetAllocation, CopyingGetAllocatesPerValue) {
  const Counts before = Now();
  for (const auto& [key, value] : entries_) {
    ASSERT_TRUE(table_->Get(ReadOptions(), key).ok());
  }
  const Counts after = Now();
  EXPECT_GE(after.allocations - before.allocations,
            static_cast<int64_t>(entries_.size()));
}

}  // namespace
}  // namespace bloomtable
