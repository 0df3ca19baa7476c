#include "bloomtable/durable_file.h"

#include <dirent.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "bloomtable/file.h"
#include "bloomtable/options.h"
#include "bloomtable/table.h"
#include "bloomtable/table_builder.h"
#include "gtest/gtest.h"
#include "tests/temp_dir.h"

namespace bloomtable {
namespace {

class DurableFileTest : public testing::Test {
 protected:
  std::vector<std::string> DirectoryEntries() const {
    std::vector<std::string> names;
    DIR* dir = opendir(dir_.c_str());
    if (dir == nullptr) return names;
    while (dirent* entry = readdir(dir)) {
      const std::string name = entry->d_name;
      if (name != "." && name != "..") names.push_back(name);
    }
    closedir(dir);
    return names;
  }

  const TempDir temp_dir_;
  const std::string dir_ = temp_dir_.path();
};

TEST_F(DurableFileTest, WritesTheFileAndLeavesNoTemporary) {
  const std::string path = dir_ + "/out";
  ASSERT_TRUE(WriteFileDurably(path, [](WritableFile* file) {
                return file->Append("contents");
              }).ok());
  auto contents = ReadFileToString(path);
  ASSERT_TRUE(contents.ok());
  EXPECT_EQ(*contents, "contents");
  EXPECT_EQ(DirectoryEntries(), std::vector<std::string>{"out"});
}

TEST_F(DurableFileTest, FailedWriteLeavesNothingAtThePath) {
  const std::string path = dir_ + "/out";
  absl::Status status = WriteFileDurably(path, [](WritableFile* file) {
    (void)file->Append("partial");
    return absl::DataLossError("input went bad");
  });
  EXPECT_TRUE(absl::IsDataLoss(status));
  EXPECT_TRUE(DirectoryEntries().empty());
}

TEST_F(DurableFileTest, FailedWriteKeepsTheOldFile) {
  const std::string path = dir_ + "/out";
  ASSERT_TRUE(WriteFileDurably(path, [](WritableFile* file) {
                return file->Append("old");
              }).ok());
  EXPECT_FALSE(WriteFileDurably(path, [](WritableFile*) {
                 return absl::InternalError("no");
               }).ok());
  auto contents = ReadFileToString(path);
  ASSERT_TRUE(contents.ok());
  EXPECT_EQ(*contents, "old");
}

TEST_F(DurableFileTest, TwoThreadsWritingOnePathDoNotShareATemporaryFile) {
  const std::string path = dir_ + "/out";
  // Both writers hold their temporary file open at the same time: each
  // waits inside `write` until the other has started.
  std::atomic<int> started{0};
  const auto writer = [&](char fill, absl::Status* status) {
    *status = WriteFileDurably(path, [&](WritableFile* file) {
      started.fetch_add(1);
      while (started.load() < 2) std::this_thread::yield();
      // Several appends, so that a shared file would interleave them.
      for (int i = 0; i < 100; ++i) {
        absl::Status appended = file->Append(std::string(1000, fill));
        if (!appended.ok()) return appended;
        std::this_thread::yield();
      }
      return absl::OkStatus();
    });
  };
  absl::Status status_a;
  absl::Status status_b;
  std::thread a(writer, 'a', &status_a);
  std::thread b(writer, 'b', &status_b);
  a.join();
  b.join();
  EXPECT_TRUE(status_a.ok()) << status_a;
  EXPECT_TRUE(status_b.ok()) << status_b;
  absl::StatusOr<std::string> contents = ReadFileToString(path);
  ASSERT_TRUE(contents.ok()) << contents.status();
  EXPECT_TRUE(*contents == std::string(100000, 'a') ||
              *contents == std::string(100000, 'b'))
      << "size " << contents->size();
  EXPECT_EQ(DirectoryEntries(), std::vector<std::string>{"out"});
}

TEST_F(DurableFileTest, InStepsCommitReplacesAndAbandonKeepsTheOldFile) {
  const std::string path = dir_ + "/out";
  {
    auto durable = DurableFile::Create(path);
    ASSERT_TRUE(durable.ok()) << durable.status();
    ASSERT_TRUE((*durable)->file()->Append("first").ok());
    ASSERT_TRUE((*durable)->Commit().ok());
    EXPECT_FALSE((*durable)->Commit().ok());  // only once
  }
  EXPECT_EQ(DirectoryEntries(), std::vector<std::string>{"out"});
  {
    auto durable = DurableFile::Create(path);
    ASSERT_TRUE(durable.ok()) << durable.status();
    ASSERT_TRUE((*durable)->file()->Append("second, abandoned").ok());
    EXPECT_EQ(DirectoryEntries().size(), 2u);  // the temporary file
    (*durable)->Abandon();
  }
  {
    auto durable = DurableFile::Create(path);
    ASSERT_TRUE(durable.ok()) << durable.status();
    ASSERT_TRUE((*durable)->file()->Append("third, dropped").ok());
  }  // destroyed without Commit
  auto contents = ReadFileToString(path);
  ASSERT_TRUE(contents.ok());
  EXPECT_EQ(*contents, "first");
  EXPECT_EQ(DirectoryEntries(), std::vector<std::string>{"out"});
}

TEST_F(DurableFileTest, MissingDirectoryIsAnError) {
  absl::Status status = WriteFileDurably(
      dir_ + "/missing/out", [](WritableFile*) { return absl::OkStatus(); });
  EXPECT_TRUE(absl::IsNotFound(status)) << status;
}

constexpr int kEntries = 200000;

std::string KeyOf(int i) {
  char key[32];
  std::snprintf(key, sizeof(key), "key%012d", i);
  return key;
}

// Opens the table at `path` and checks that it holds every entry.
void ExpectCompleteTable(const std::string& path) {
  auto size = GetFileSize(path);
  ASSERT_TRUE(size.ok());
  auto file = OpenRandomAccessFile(path);
  ASSERT_TRUE(file.ok());
  auto table = Table::Open(Options(), std::move(*file), *size);
  ASSERT_TRUE(table.ok()) << table.status();
  auto it = (*table)->NewIterator(ReadOptions());
  int count = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    ASSERT_EQ(it->key(), KeyOf(count));
    ++count;
  }
  ASSERT_TRUE(it->status().ok()) << it->status();
  EXPECT_EQ(count, kEntries);
}

// Where a trial kills the writing process.
enum class KillPoint {
  kMidWrite,         // halfway through the table: nothing may be at the path
  kAfterCompletion,  // once WriteFileDurably returned: the whole table is
  kRandomTime,       // up to 0.4 s after the start: either of the two
};

// The child tells the parent over a pipe that it reached its kill point,
// then waits to be killed.
[[noreturn]] void SignalAndWait(int fd) {
  const char byte = 'k';
  if (::write(fd, &byte, 1) != 1) _exit(2);
  for (;;) ::pause();
}

TEST_F(DurableFileTest, KilledWriterLeavesNothingOrACompleteTable) {
  const std::string path = dir_ + "/table";
  std::mt19937 rng(42);
  int complete = 0, absent = 0;
  for (int trial = 0; trial < 14; ++trial) {
    const KillPoint point = trial == 0   ? KillPoint::kMidWrite
                            : trial == 1 ? KillPoint::kAfterCompletion
                                         : KillPoint::kRandomTime;
    SCOPED_TRACE(absl::StrCat("trial ", trial));
    ::unlink(path.c_str());
    int ready[2];
    ASSERT_EQ(::pipe(ready), 0);
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      ::close(ready[0]);
      absl::Status status = WriteFileDurably(path, [&](WritableFile* file) {
        TableBuilder builder(Options(), file);
        for (int i = 0; i < kEntries; ++i) {
          absl::Status s = builder.Add(KeyOf(i), "value-" + KeyOf(i));
          if (!s.ok()) {
            builder.Abandon();
            return s;
          }
          if (point == KillPoint::kMidWrite && i == kEntries / 2) {
            SignalAndWait(ready[1]);
          }
        }
        return builder.Finish();
      });
      if (status.ok() && point == KillPoint::kAfterCompletion) {
        SignalAndWait(ready[1]);
      }
      _exit(status.ok() ? 0 : 1);
    }
    ::close(ready[1]);
    if (point == KillPoint::kRandomTime) {
      // Early, midway, or after it has finished.
      std::this_thread::sleep_for(std::chrono::microseconds(rng() % 400000));
    } else {
      char byte = 0;
      EXPECT_EQ(::read(ready[0], &byte, 1), 1)
          << "the writer ended before its kill point";
    }
    ::close(ready[0]);
    kill(child, SIGKILL);
    int wait_status = 0;
    ASSERT_EQ(waitpid(child, &wait_status, 0), child);
    const bool present = access(path.c_str(), F_OK) == 0;
    if (present) {
      ExpectCompleteTable(path);
      ++complete;
    } else {
      ++absent;
    }
    if (point == KillPoint::kMidWrite) {
      EXPECT_FALSE(present) << "killed mid-write, yet a file is at the path";
    }
    if (point == KillPoint::kAfterCompletion) {
      EXPECT_TRUE(present) << "the write completed, yet the path is empty";
    }
    // Whatever else is there is the temporary file.
    for (const std::string& name : DirectoryEntries()) {
      if (name == "table") continue;
      EXPECT_EQ(name.rfind(".tmp"), name.size() - 4) << name;
      ::unlink((dir_ + "/" + name).c_str());
    }
  }
  // Both outcomes occurred (the first two trials make sure of it).
  EXPECT_GE(complete, 1);
  EXPECT_GE(absent, 1);
  std::printf("killed writers: %d complete tables, %d absent\n", complete,
              absent);
}

}  // namespace
}  // namespace bloomtable
