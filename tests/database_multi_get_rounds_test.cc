// Database::MultiGet across tables: a round's keys, each at its own table,
// have their missing data blocks read together (on
// DatabaseOptions::multi_get_read_threads, in flight at once); a damaged
// table fails only its keys; direct I/O (DatabaseOptions::use_direct_io)
// answers as buffered reads; many threads share the readers.

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "bloomtable/database.h"
#include "bloomtable/file.h"
#include "gtest/gtest.h"
#include "tests/random_test_database.h"
#include "tests/temp_dir.h"
#include "tests/test_database_writer.h"

namespace bloomtable {
namespace {

using test_db::Key;
using test_db::TestDatabaseWriter;
using test_db::TestVersion;

constexpr int kTables = 8;
constexpr int kKeysPerTable = 50;

// kTables tables on level 1, table t holding the keys
// [t * kKeysPerTable, (t + 1) * kKeysPerTable) with the values "v<k>".
void WriteLevelOfTables(const std::string& dir) {
  TestDatabaseWriter writer(dir);
  for (int t = 0; t < kTables; ++t) {
    std::vector<TestVersion> versions;
    for (int k = t * kKeysPerTable; k < (t + 1) * kKeysPerTable; ++k) {
      versions.push_back(TestVersion{Key(k), static_cast<uint64_t>(k + 1),
                                     false, absl::StrCat("v", k)});
    }
    writer.AddTable(1, versions);
  }
  writer.Finish();
}

// The reads in flight at once through the files it wraps. Once armed, a
// read waits (up to a second) for a second read to join it, until two have
// been seen together: reads issued together then meet, reads issued one
// after another never do.
struct InFlight {
  std::mutex mutex;
  std::condition_variable changed;
  bool armed = false;
  int now = 0;
  int most = 0;

  void Enter() {
    std::unique_lock<std::mutex> lock(mutex);
    ++now;
    most = std::max(most, now);
    changed.notify_all();
    if (armed) {
      changed.wait_for(lock, std::chrono::seconds(1),
                       [this] { return most >= 2; });
    }
  }
  void Leave() {
    std::lock_guard<std::mutex> lock(mutex);
    --now;
  }
};

class InFlightFile final : public RandomAccessFile {
 public:
  InFlightFile(std::unique_ptr<RandomAccessFile> base,
               std::shared_ptr<InFlight> in_flight)
      : base_(std::move(base)), in_flight_(std::move(in_flight)) {}

  absl::Status Read(uint64_t offset, size_t n, std::string_view* result,
                    char* scratch) const override {
    in_flight_->Enter();
    absl::Status status = base_->Read(offset, n, result, scratch);
    in_flight_->Leave();
    return status;
  }
  MultiReadPath MultiRead(ReadRequest* requests, size_t count) const override {
    in_flight_->Enter();
    const MultiReadPath path = base_->MultiRead(requests, count);
    in_flight_->Leave();
    return path;
  }
  const std::string& name() const override { return base_->name(); }

 private:
  std::unique_ptr<RandomAccessFile> base_;
  std::shared_ptr<InFlight> in_flight_;
};

std::unique_ptr<Database> Open(const std::string& dir,
                               const DatabaseOptions& options) {
  absl::StatusOr<std::unique_ptr<Database>> db =
      Database::OpenReadOnly(dir, options);
  EXPECT_TRUE(db.ok()) << db.status();
  return db.ok() ? *std::move(db) : nullptr;
}

TEST(DatabaseMultiGetRounds, BlocksOfManyTablesAreReadTogether) {
  TempDir dir;
  WriteLevelOfTables(dir.path());
  auto in_flight = std::make_shared<InFlight>();
  DatabaseOptions options;
  options.multi_get_read_threads = 3;
  options.wrap_table_file = [in_flight](std::unique_ptr<RandomAccessFile> f) {
    return std::unique_ptr<RandomAccessFile>(
        std::make_unique<InFlightFile>(std::move(f), in_flight));
  };
  std::unique_ptr<Database> db = Open(dir.path(), options);
  ASSERT_NE(db, nullptr);
  // Every table opened (footer, index, filter) one lookup at a time.
  std::vector<std::string> keys;
  for (int t = 0; t < kTables; ++t) {
    keys.push_back(Key(t * kKeysPerTable + 7));
    ASSERT_TRUE(db->Get(DatabaseReadOptions(), keys.back()).ok());
  }
  ASSERT_EQ(in_flight->most, 1);
  ASSERT_EQ(db->GetStats().open_tables, static_cast<uint64_t>(kTables));

  // One key per table, in one round: the tables' block reads meet.
  in_flight->armed = true;
  const uint64_t blocks_before = db->GetStats().tables.data_block_reads;
  const std::vector<std::string_view> views(keys.begin(), keys.end());
  const std::vector<absl::StatusOr<std::string>> got =
      db->MultiGet(DatabaseReadOptions(), views);
  EXPECT_GE(in_flight->most, 2);
  EXPECT_EQ(db->GetStats().tables.data_block_reads - blocks_before,
            static_cast<uint64_t>(kTables));
  ASSERT_EQ(got.size(), keys.size());
  for (int t = 0; t < kTables; ++t) {
    ASSERT_TRUE(got[t].ok()) << got[t].status();
    EXPECT_EQ(*got[t], absl::StrCat("v", t * kKeysPerTable + 7));
  }
}

// Flips one byte of the first data block of `name` in `dir`.
void DamageFirstBlock(const std::string& dir, const std::string& name) {
  const std::string path = absl::StrCat(dir, "/", name);
  std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
  ASSERT_TRUE(file.is_open()) << path;
  file.seekg(12);
  char byte = 0;
  file.get(byte);
  file.seekp(12);
  file.put(static_cast<char>(byte ^ 0x40));
}

TEST(DatabaseMultiGetRounds, DamagedTableFailsOnlyItsKeysAsGetDoes) {
  for (const int threads : {0, 2}) {
    TempDir dir;
    WriteLevelOfTables(dir.path());
    DatabaseOptions options;
    options.multi_get_read_threads = threads;
    std::unique_ptr<Database> db = Open(dir.path(), options);
    ASSERT_NE(db, nullptr);
    DamageFirstBlock(dir.path(), db->tables()[3].name);
    std::vector<std::string> keys;
    for (int k = 0; k < kTables * kKeysPerTable; k += 5) {
      keys.push_back(Key(k));
    }
    std::shuffle(keys.begin(), keys.end(), std::mt19937(threads));
    const std::vector<std::string_view> views(keys.begin(), keys.end());
    const std::vector<absl::StatusOr<std::string>> got =
        db->MultiGet(DatabaseReadOptions(), views);
    ASSERT_EQ(got.size(), keys.size());
    int failed = 0;
    for (size_t i = 0; i < keys.size(); ++i) {
      const absl::StatusOr<std::string> want =
          db->Get(DatabaseReadOptions(), keys[i]);
      EXPECT_EQ(got[i].status(), want.status()) << keys[i];
      if (want.ok()) {
        ASSERT_TRUE(got[i].ok()) << keys[i] << " " << got[i].status();
        EXPECT_EQ(*got[i], *want);
      } else {
        EXPECT_EQ(want.status().code(), absl::StatusCode::kDataLoss) << keys[i];
        EXPECT_NE(want.status().message().find(db->tables()[3].name),
                  std::string_view::npos)
            << want.status();
        ++failed;
      }
    }
    // The damaged table's keys (its one block holds them all), no others.
    EXPECT_EQ(failed, kKeysPerTable / 5);
  }
}

TEST(DatabaseMultiGetRounds, DirectIoAnswersAsBufferedReads) {
  TempDir dir;
  uint64_t last_sequence = 0;
  const test_db::Model model =
      test_db::WriteRandomDatabase(dir.path(), 31, &last_sequence);
  std::unique_ptr<Database> buffered = Open(dir.path(), DatabaseOptions());
  DatabaseOptions options;
  options.use_direct_io = true;
  options.io_uring_queue_depth = 4;
  options.multi_get_read_threads = 2;
  std::unique_ptr<Database> direct = Open(dir.path(), options);
  ASSERT_NE(buffered, nullptr);
  ASSERT_NE(direct, nullptr);
  std::vector<std::string> keys;
  for (int k = 0; k < test_db::kKeys + 20; ++k) keys.push_back(Key(k));
  std::shuffle(keys.begin(), keys.end(), std::mt19937(31));
  const std::vector<std::string_view> views(keys.begin(), keys.end());
  size_t found = 0;
  for (size_t begin = 0; begin < views.size(); begin += 32) {
    const std::vector<std::string_view> batch(
        views.begin() + begin,
        views.begin() + std::min(begin + 32, views.size()));
    const std::vector<absl::StatusOr<std::string>> got =
        direct->MultiGet(DatabaseReadOptions(), batch);
    for (size_t i = 0; i < batch.size(); ++i) {
      const absl::StatusOr<std::string> want =
          buffered->Get(DatabaseReadOptions(), batch[i]);
      EXPECT_EQ(got[i].status(), want.status()) << batch[i];
      EXPECT_EQ(direct->Get(DatabaseReadOptions(), batch[i]).status(),
                want.status());
      if (want.ok() && got[i].ok()) {
        EXPECT_EQ(*got[i], *want);
        ++found;
      }
    }
  }
  EXPECT_GT(found, 100u);

  options.mmap_reads = true;
  EXPECT_EQ(Database::OpenReadOnly(dir.path(), options).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(DatabaseMultiGetRounds, ManyThreadsShareTheReaders) {
  TempDir dir;
  WriteLevelOfTables(dir.path());
  DatabaseOptions options;
  options.multi_get_read_threads = 2;
  std::unique_ptr<Database> db = Open(dir.path(), options);
  ASSERT_NE(db, nullptr);
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      std::mt19937 rng(t);
      for (int round = 0; round < 40; ++round) {
        std::vector<int> numbers;
        std::vector<std::string> keys;
        for (int i = 0; i < 16; ++i) {
          // Every other number is absent (past the last key).
          numbers.push_back(static_cast<int>(
              rng() % (kTables * kKeysPerTable + kKeysPerTable)));
          keys.push_back(Key(numbers.back()));
        }
        const std::vector<std::string_view> views(keys.begin(), keys.end());
        const std::vector<absl::StatusOr<std::string>> got =
            db->MultiGet(DatabaseReadOptions(), views);
        for (size_t i = 0; i < keys.size(); ++i) {
          const bool present = numbers[i] < kTables * kKeysPerTable;
          if (present ? !got[i].ok() || *got[i] != absl::StrCat("v", numbers[i])
                      : !absl::IsNotFound(got[i].status())) {
            ++wrong;
          }
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(wrong.load(), 0);
}

}  // namespace
}  // namespace bloomtable
