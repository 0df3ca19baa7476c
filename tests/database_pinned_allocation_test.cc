// What Database::Get into a PinnedValue allocates: nothing, when the value
// lies in a table whose data block is in the block cache and the
// PinnedValue is reused (the value is pinned to the cached block: a
// reference count, no copy), and nothing for an absent key whose blocks are
// cached (NotFound carries no message). The copying Get allocates a string
// per value, for contrast. A value from the log is a copy, and a block read
// from the file allocates its buffer: neither is claimed.
//
// This binary replaces the global operator new and delete to count the
// allocations (tests/counting_operator_new.h).

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "bloomtable/cache.h"
#include "bloomtable/database.h"
#include "bloomtable/pinned_value.h"
#include "gtest/gtest.h"
#include "tests/counting_operator_new.h"
#include "tests/random_test_database.h"
#include "tests/temp_dir.h"

namespace bloomtable {
namespace {

using test_db::Key;
using test_db::kKeys;
using test_db::Model;
using test_db::Newest;
using test_db::TestVersion;
using test_db::WriteRandomDatabase;

class DatabasePinnedAllocation : public testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    uint64_t first_log_sequence = 0;
    const Model model = WriteRandomDatabase(dir_.path(), 11, &last_sequence_,
                                            &first_log_sequence);
    DatabaseOptions options;
    options.block_cache = NewLRUCache(8 << 20);
    options.mmap_reads = GetParam();
    absl::StatusOr<std::unique_ptr<Database>> db =
        Database::OpenReadOnly(dir_.path(), options);
    ASSERT_TRUE(db.ok()) << db.status();
    db_ = *std::move(db);
    for (int k = 0; k < kKeys + 50; ++k) {  // the last 50 are absent
      const TestVersion* newest = Newest(model, Key(k), last_sequence_);
      if (newest == nullptr) {
        absent_.push_back(Key(k));
      } else if (!newest->deletion && newest->sequence < first_log_sequence) {
        in_tables_.push_back(Key(k));
        table_bytes_ += newest->value.size();
      }
      // Every table, index, filter and data block on each key's path
      // opened and cached, once and for all.
      (void)db_->Get(DatabaseReadOptions(), Key(k));
    }
  }

  TempDir dir_;
  uint64_t last_sequence_ = 0;
  std::unique_ptr<Database> db_;
  std::vector<std::string> in_tables_;  // newest version a table's value
  std::vector<std::string> absent_;     // no version at all
  size_t table_bytes_ = 0;
};

TEST_P(DatabasePinnedAllocation, CachedTableValuesAllocateNothing) {
  ASSERT_GT(in_tables_.size(), 100u);
  PinnedValue pinned;
  const DatabaseReadOptions read_options;
  const uint64_t hits_before = db_->GetStats().tables.block_cache_hits;
  const uint64_t reads_before = db_->GetStats().tables.data_block_reads;
  const int64_t before = counting_new::allocations.load();
  size_t found_bytes = 0;
  int pinned_values = 0;
  for (const std::string& key : in_tables_) {
    if (db_->Get(read_options, key, &pinned).ok()) {
      found_bytes += pinned.size();
      pinned_values += pinned.pinned() ? 1 : 0;
    }
  }
  const int64_t after = counting_new::allocations.load();
  EXPECT_EQ(after - before, 0);
  EXPECT_EQ(found_bytes, table_bytes_);
  EXPECT_EQ(pinned_values, static_cast<int>(in_tables_.size()));
  EXPECT_GE(db_->GetStats().tables.block_cache_hits - hits_before,
            in_tables_.size());
  EXPECT_EQ(db_->GetStats().tables.data_block_reads, reads_before);
}

TEST_P(DatabasePinnedAllocation, AbsentKeysAllocateNothing) {
  ASSERT_GE(absent_.size(), 50u);
  PinnedValue pinned;
  const DatabaseReadOptions read_options;
  const int64_t before = counting_new::allocations.load();
  int not_found = 0;
  for (const std::string& key : absent_) {
    if (absl::IsNotFound(db_->Get(read_options, key, &pinned))) ++not_found;
  }
  EXPECT_EQ(counting_new::allocations.load() - before, 0);
  EXPECT_EQ(not_found, static_cast<int>(absent_.size()));
}

// The copying Get, for contrast: each value found is a new string (values
// of the random database are longer than a string holds inline).
TEST_P(DatabasePinnedAllocation, CopyingGetAllocatesPerValue) {
  int64_t long_values = 0;
  const int64_t before = counting_new::allocations.load();
  for (const std::string& key : in_tables_) {
    absl::StatusOr<std::string> value = db_->Get(DatabaseReadOptions(), key);
    ASSERT_TRUE(value.ok()) << key;
    if (value->size() > 15) ++long_values;
  }
  ASSERT_GT(long_values, 50);
  EXPECT_GE(counting_new::allocations.load() - before, long_values);
}

INSTANTIATE_TEST_SUITE_P(MmapAndPread, DatabasePinnedAllocation,
                         testing::Bool(),
                         [](const testing::TestParamInfo<bool>& info) {
                           return info.param ? "Mmap" : "Pread";
                         });

}  // namespace
}  // namespace bloomtable
