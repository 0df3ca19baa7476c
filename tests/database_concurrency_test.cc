// Concurrency of the read-only database view: many threads look keys up and
// scan at once through one Database, whose open-table limit (1) makes them
// close and reopen tables under each other, or (the default limit) lets
// every table stay open, found by lookups without the table set's lock once
// the first lookup to need it has opened it. Every answer must be the one a
// single thread gets. Run under ThreadSanitizer in CI (its name matches the
// concurrency selection).

#include <atomic>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "bloomtable/database.h"
#include "gtest/gtest.h"

namespace bloomtable {
namespace {

void ExpectThreadsAgree(const DatabaseOptions& options) {
  absl::StatusOr<std::unique_ptr<Database>> db = Database::OpenReadOnly(
      absl::StrCat(BLOOMTABLE_TEST_DATA_DIR, "/goleveldb_db"), options);
  ASSERT_TRUE(db.ok()) << db.status();
  // The answers of one thread.
  std::map<std::string, std::string> expected;
  std::unique_ptr<Iterator> it = (*db)->NewIterator(DatabaseReadOptions());
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    expected.emplace(std::string(it->key()), std::string(it->value()));
  }
  ASSERT_TRUE(it->status().ok());
  ASSERT_GT(expected.size(), 10u);

  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int round = 0; round < 30; ++round) {
        if ((round + t) % 3 == 0) {
          std::unique_ptr<Iterator> scan =
              (*db)->NewIterator(DatabaseReadOptions());
          size_t count = 0;
          for (scan->SeekToLast(); scan->Valid(); scan->Prev()) {
            auto found = expected.find(std::string(scan->key()));
            if (found == expected.end() || found->second != scan->value()) {
              ++wrong;
            }
            ++count;
          }
          if (!scan->status().ok() || count != expected.size()) ++wrong;
          continue;
        }
        for (const auto& [key, value] : expected) {
          absl::StatusOr<std::string> got =
              (*db)->Get(DatabaseReadOptions(), key);
          if (!got.ok() || *got != value) ++wrong;
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(wrong.load(), 0);
}

TEST(DatabaseConcurrencyTest, LookupsAndScansShareTheTableSet) {
  DatabaseOptions options;
  options.max_open_files = 1;
  ExpectThreadsAgree(options);
}

TEST(DatabaseConcurrencyTest, LookupsOpenPinnedTablesTogether) {
  ExpectThreadsAgree(DatabaseOptions());
}

// Version listings stream through the table set while other threads look
// keys up: every listing is the one a single thread gets.
TEST(DatabaseConcurrencyTest, ListingsStreamBesideLookups) {
  DatabaseOptions options;
  options.max_open_files = 1;
  absl::StatusOr<std::unique_ptr<Database>> db = Database::OpenReadOnly(
      absl::StrCat(BLOOMTABLE_TEST_DATA_DIR, "/goleveldb_db"), options);
  ASSERT_TRUE(db.ok()) << db.status();
  auto list = [&db] {
    std::vector<std::string> out;
    std::unique_ptr<VersionStream> stream =
        (*db)->NewVersionStream(DatabaseReadOptions());
    VersionRecord r;
    while (stream->Next(&r)) {
      out.push_back(absl::StrCat(r.user_key, "@", r.sequence, " ", r.file, " ",
                                 std::string(RecordStatusName(r.status))));
    }
    if (!stream->status().ok()) out.push_back("error");
    return out;
  };
  const std::vector<std::string> expected = list();
  ASSERT_GT(expected.size(), 10u);
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int round = 0; round < 10; ++round) {
        if ((round + t) % 2 == 0) {
          if (list() != expected) ++wrong;
          continue;
        }
        std::unique_ptr<Iterator> scan =
            (*db)->NewIterator(DatabaseReadOptions());
        for (scan->SeekToFirst(); scan->Valid(); scan->Next()) {
          if (!(*db)->Get(DatabaseReadOptions(), scan->key()).ok()) ++wrong;
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(wrong.load(), 0);
}

}  // namespace
}  // namespace bloomtable
