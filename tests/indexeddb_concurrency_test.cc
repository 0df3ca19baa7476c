// The IndexedDB comparator's reports from several threads at once: each
// read's ComparisonErrorScope is its own thread's, so that a thread reading
// good keys never sees another thread's report, and every thread reading
// past an undecodable key gets its own DataLoss.

#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "bloomtable/database.h"
#include "gtest/gtest.h"
#include "tests/log_only_database.h"
#include "tests/temp_dir.h"

namespace bloomtable {
namespace {

const std::string kIndexedDB =
    absl::StrCat(BLOOMTABLE_TEST_DATA_DIR, "/indexeddb/chromium_idb");

TEST(IndexedDBConcurrency, ScansFromSeveralThreadsAgree) {
  absl::StatusOr<std::unique_ptr<Database>> db =
      Database::OpenReadOnly(kIndexedDB);
  ASSERT_TRUE(db.ok()) << db.status();
  std::vector<std::string> expected;
  std::unique_ptr<Iterator> it = (*db)->NewIterator({});
  for (it->SeekToFirst(); it->Valid(); it->Next())
    expected.emplace_back(it->key());
  ASSERT_TRUE(it->status().ok());
  std::atomic<int> agreeing{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      std::vector<std::string> keys;
      std::unique_ptr<Iterator> mine = (*db)->NewIterator({});
      for (mine->SeekToFirst(); mine->Valid(); mine->Next()) {
        keys.emplace_back(mine->key());
      }
      bool gets = true;
      for (size_t i = 0; i < expected.size(); i += 17) {
        gets = gets && (*db)->Get({}, expected[i]).ok();
      }
      if (mine->status().ok() && keys == expected && gets) ++agreeing;
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(agreeing.load(), 4);
}

TEST(IndexedDBConcurrency, EachThreadGetsItsOwnReport) {
  TempDir dir;
  // One record key of object store 1 (prefix 0x00 01 01 01, a number), and
  // one in store 2 with an unknown key type byte.
  const std::string good("\x00\x01\x01\x01\x03\x00\x00\x00\x00\x00\x00\xf0\x3f",
                         13);
  const std::string bad("\x00\x01\x02\x01\x07zz", 7);
  test::WriteLogOnlyDatabase(dir.path(), "idb_cmp1", {{good, "g"}, {bad, "b"}});
  absl::StatusOr<std::unique_ptr<Database>> db =
      Database::OpenReadOnly(dir.path());
  ASSERT_TRUE(db.ok()) << db.status();
  std::atomic<int> good_reads{0};
  std::atomic<int> reported{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 50; ++i) {
        if (t % 2 == 0) {
          // Store 1 alone: its keys decode.
          DatabaseReadOptions bounded;
          bounded.upper_bound = std::string("\x00\x01\x02\x01", 4);
          std::unique_ptr<Iterator> it = (*db)->NewIterator(bounded);
          int n = 0;
          for (it->SeekToFirst(); it->Valid(); it->Next()) ++n;
          if (it->status().ok() && n == 1) ++good_reads;
        } else {
          std::unique_ptr<Iterator> it = (*db)->NewIterator({});
          for (it->SeekToFirst(); it->Valid(); it->Next()) {
          }
          if (absl::IsDataLoss(it->status())) ++reported;
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(good_reads.load(), 100);
  EXPECT_EQ(reported.load(), 100);
}

}  // namespace
}  // namespace bloomtable
