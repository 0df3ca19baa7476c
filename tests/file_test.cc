#include "bloomtable/file.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <memory>
#include <string>
#include <utility>

#include "absl/strings/str_format.h"
#include "bloomtable/filter_policy.h"
#include "bloomtable/table.h"
#include "bloomtable/table_builder.h"
#include "gtest/gtest.h"
#include "tests/temp_dir.h"
#include "util/file_errors.h"

namespace bloomtable {
namespace {

class PosixFileTest : public testing::Test {
 protected:
  const TempDir temp_dir_;
  const std::string dir_ = temp_dir_.path();
};

TEST_F(PosixFileTest, WrittenBytesReadBackAtAnyOffset) {
  const std::string path = dir_ + "/data";
  auto writable = NewWritableFile(path);
  ASSERT_TRUE(writable.ok()) << writable.status();
  std::string expected;
  for (int i = 0; i < 1000; ++i) {
    std::string piece(i % 97, static_cast<char>('a' + i % 26));
    expected += piece;
    ASSERT_TRUE((*writable)->Append(piece).ok());
  }
  // A large append bypasses the buffer and must stay in order.
  std::string big(200000, 'Z');
  expected += big;
  ASSERT_TRUE((*writable)->Append(big).ok());
  ASSERT_TRUE((*writable)->Sync().ok());
  ASSERT_TRUE((*writable)->Close().ok());

  auto size = GetFileSize(path);
  ASSERT_TRUE(size.ok());
  EXPECT_EQ(*size, expected.size());

  auto file = OpenRandomAccessFile(path);
  ASSERT_TRUE(file.ok()) << file.status();
  std::string scratch(100, '\0');
  std::string_view got;
  ASSERT_TRUE((*file)->Read(1234, 100, &got, scratch.data()).ok());
  EXPECT_EQ(got, std::string_view(expected).substr(1234, 100));
  // A read past the end returns what is there.
  ASSERT_TRUE(
      (*file)->Read(expected.size() - 10, 100, &got, scratch.data()).ok());
  EXPECT_EQ(got, std::string_view(expected).substr(expected.size() - 10));

  auto whole = ReadFileToString(path);
  ASSERT_TRUE(whole.ok());
  EXPECT_EQ(*whole, expected);
}

TEST_F(PosixFileTest, AFileDestroyedWithoutCloseKeepsWhatWasAppended) {
  const std::string path = dir_ + "/unclosed";
  {
    absl::StatusOr<std::unique_ptr<WritableFile>> file = NewWritableFile(path);
    ASSERT_TRUE(file.ok()) << file.status();
    // Small appends stay in the file's buffer until it is written out.
    ASSERT_TRUE((*file)->Append("first ").ok());
    ASSERT_TRUE((*file)->Append("second").ok());
  }
  absl::StatusOr<std::string> contents = ReadFileToString(path);
  ASSERT_TRUE(contents.ok()) << contents.status();
  EXPECT_EQ(*contents, "first second");
}

TEST_F(PosixFileTest, MissingFileIsNotFoundNamingThePath) {
  const std::string path = dir_ + "/missing";
  auto file = OpenRandomAccessFile(path);
  ASSERT_FALSE(file.ok());
  EXPECT_TRUE(absl::IsNotFound(file.status()));
  EXPECT_NE(file.status().message().find(path), std::string::npos);
  EXPECT_TRUE(absl::IsNotFound(GetFileSize(path).status()));
}

TEST_F(PosixFileTest, DirectoryIsAnErrorNamingThePath) {
  auto file = OpenRandomAccessFile(dir_);
  ASSERT_FALSE(file.ok());
  EXPECT_NE(file.status().message().find(dir_), std::string::npos);
  EXPECT_FALSE(GetFileSize(dir_).ok());
}

TEST_F(PosixFileTest, WritingIntoMissingDirectoryFails) {
  auto file = NewWritableFile(dir_ + "/no/such/dir/file");
  ASSERT_FALSE(file.ok());
  EXPECT_TRUE(absl::IsNotFound(file.status()));
}

// Writes `contents` to `path`.
void WriteFile(const std::string& path, const std::string& contents) {
  auto file = NewWritableFile(path);
  ASSERT_TRUE(file.ok()) << file.status();
  ASSERT_TRUE((*file)->Append(contents).ok());
  ASSERT_TRUE((*file)->Close().ok());
}

TEST_F(PosixFileTest, MappedFileReadsWhatPreadReads) {
  const std::string path = dir_ + "/data";
  std::string contents;
  for (int i = 0; i < 70000; ++i) contents.push_back(static_cast<char>(i * 7));
  WriteFile(path, contents);
  auto mapped = OpenMmapRandomAccessFile(path);
  ASSERT_TRUE(mapped.ok()) << mapped.status();
  auto pread = OpenRandomAccessFile(path);
  ASSERT_TRUE(pread.ok()) << pread.status();
  EXPECT_EQ((*mapped)->name(), path);
  std::string scratch(5000, '\0');
  std::string pread_scratch(5000, '\0');
  // Offsets across page boundaries, at the end and past it.
  for (uint64_t offset : {0, 1, 4095, 4096, 65530, 69999, 70000, 80000}) {
    std::string_view got;
    std::string_view expected;
    ASSERT_TRUE((*mapped)->Read(offset, 5000, &got, scratch.data()).ok());
    ASSERT_TRUE(
        (*pread)->Read(offset, 5000, &expected, pread_scratch.data()).ok());
    EXPECT_EQ(got, expected) << "offset " << offset;
  }
}

TEST_F(PosixFileTest, MappedFileReturnsViewsIntoTheMappingNotTheScratch) {
  const std::string path = dir_ + "/data";
  WriteFile(path, "hello mapped world");
  auto file = OpenMmapRandomAccessFile(path);
  ASSERT_TRUE(file.ok()) << file.status();
  std::string scratch(6, '\0');
  std::string_view first;
  std::string_view second;
  ASSERT_TRUE((*file)->Read(6, 6, &first, scratch.data()).ok());
  ASSERT_TRUE((*file)->Read(6, 6, &second, scratch.data()).ok());
  EXPECT_EQ(first, "mapped");
  EXPECT_NE(first.data(), scratch.data());
  EXPECT_EQ(first.data(), second.data());  // the same mapped bytes
}

TEST_F(PosixFileTest, MappedEmptyFileReadsAsEmpty) {
  const std::string path = dir_ + "/empty";
  WriteFile(path, "");
  auto file = OpenMmapRandomAccessFile(path);
  ASSERT_TRUE(file.ok()) << file.status();
  std::string_view got = "x";
  ASSERT_TRUE((*file)->Read(0, 10, &got, nullptr).ok());
  EXPECT_TRUE(got.empty());
}

TEST_F(PosixFileTest, MappingAMissingFileOrADirectoryFailsNamingThePath) {
  const std::string missing = dir_ + "/missing";
  auto file = OpenMmapRandomAccessFile(missing);
  ASSERT_FALSE(file.ok());
  EXPECT_TRUE(absl::IsNotFound(file.status()));
  EXPECT_NE(file.status().message().find(missing), std::string::npos);
  auto directory = OpenMmapRandomAccessFile(dir_);
  ASSERT_FALSE(directory.ok());
  EXPECT_NE(directory.status().message().find(dir_), std::string::npos);
}

TEST_F(PosixFileTest, TableOverAMappedFileAnswersAsOverPread) {
  const std::string path = dir_ + "/table.ldb";
  Options options;
  options.filter_policy = NewLevelDBBloomFilterPolicy(10);
  options.block_size = 1024;
  {
    auto file = NewWritableFile(path);
    ASSERT_TRUE(file.ok()) << file.status();
    TableBuilder builder(options, file->get());
    for (int i = 0; i < 2000; i += 2) {
      ASSERT_TRUE(builder
                      .Add(absl::StrFormat("key%06d", i),
                           std::string(i % 50, static_cast<char>('a' + i % 26)))
                      .ok());
    }
    ASSERT_TRUE(builder.Finish().ok());
    ASSERT_TRUE((*file)->Close().ok());
  }
  auto size = GetFileSize(path);
  ASSERT_TRUE(size.ok());
  auto mapped_file = OpenMmapRandomAccessFile(path);
  auto pread_file = OpenRandomAccessFile(path);
  ASSERT_TRUE(mapped_file.ok() && pread_file.ok());
  auto mapped = Table::Open(options, *std::move(mapped_file), *size);
  auto pread = Table::Open(options, *std::move(pread_file), *size);
  ASSERT_TRUE(mapped.ok()) << mapped.status();
  ASSERT_TRUE(pread.ok()) << pread.status();
  for (int i = 0; i < 2000; ++i) {
    const std::string key = absl::StrFormat("key%06d", i);
    absl::StatusOr<std::string> from_map = (*mapped)->Get(ReadOptions(), key);
    absl::StatusOr<std::string> from_pread = (*pread)->Get(ReadOptions(), key);
    ASSERT_EQ(from_map.status().code(), from_pread.status().code()) << key;
    if (from_map.ok()) {
      EXPECT_EQ(*from_map, *from_pread) << key;
    }
    EXPECT_EQ(from_map.ok(), i % 2 == 0) << key;
  }
}

TEST_F(PosixFileTest, FileErrorsKeepTheirErrno) {
  const std::string missing = dir_ + "/missing";
  EXPECT_EQ(FileErrorNumber(OpenRandomAccessFile(missing).status()), ENOENT);
  EXPECT_EQ(FileErrorNumber(OpenMmapRandomAccessFile(missing).status()),
            ENOENT);
  EXPECT_EQ(FileErrorNumber(GetFileSize(missing).status()), ENOENT);
  EXPECT_EQ(FileErrorNumber(ReadFileToString(missing).status()), ENOENT);
  EXPECT_EQ(FileErrorNumber(OpenRandomAccessFile(dir_).status()), EISDIR);
  EXPECT_EQ(FileErrorNumber(NewWritableFile(dir_ + "/no/dir/f").status()),
            ENOENT);
  // Statuses that are no file error carry none.
  EXPECT_EQ(FileErrorNumber(absl::OkStatus()), 0);
  EXPECT_EQ(FileErrorNumber(absl::NotFoundError("key")), 0);
  EXPECT_EQ(FileErrorNumber(absl::DataLossError("bad block")), 0);
}

// A file whose reads starting below `fail_below` fail with EIO, as a bad
// sector would.
class FailingReadFile final : public RandomAccessFile {
 public:
  FailingReadFile(std::unique_ptr<RandomAccessFile> base, uint64_t fail_below)
      : base_(std::move(base)), fail_below_(fail_below) {}
  absl::Status Read(uint64_t offset, size_t n, std::string_view* result,
                    char* scratch) const override {
    if (offset < fail_below_) return FileError(name(), "read", EIO);
    return base_->Read(offset, n, result, scratch);
  }
  const std::string& name() const override { return base_->name(); }

 private:
  std::unique_ptr<RandomAccessFile> base_;
  uint64_t fail_below_;
};

TEST(FileErrorNumber, SurvivesTheTableReader) {
  Options options;
  options.block_size = 256;
  StringWritableFile out;
  TableBuilder builder(options, &out);
  for (int i = 0; i < 500; ++i) {
    ASSERT_TRUE(builder.Add(absl::StrFormat("key%06d", i), "value").ok());
  }
  ASSERT_TRUE(builder.Finish().ok());
  const std::string contents = out.contents();
  // Reads of the first data block fail: Open (footer, index) succeeds.
  auto table =
      Table::Open(options,
                  std::make_unique<FailingReadFile>(
                      NewMemoryRandomAccessFile(contents, "failing"), 100),
                  contents.size());
  ASSERT_TRUE(table.ok()) << table.status();
  absl::StatusOr<std::string> value = (*table)->Get(ReadOptions(), "key000000");
  ASSERT_FALSE(value.ok());
  EXPECT_EQ(FileErrorNumber(value.status()), EIO) << value.status();
  auto it = (*table)->NewIterator(ReadOptions());
  it->SeekToFirst();
  EXPECT_FALSE(it->Valid());
  EXPECT_EQ(FileErrorNumber(it->status()), EIO) << it->status();
  // Open itself: the footer read fails.
  auto unreadable = Table::Open(
      options,
      std::make_unique<FailingReadFile>(
          NewMemoryRandomAccessFile(contents, "failing"), contents.size()),
      contents.size());
  ASSERT_FALSE(unreadable.ok());
  EXPECT_EQ(FileErrorNumber(unreadable.status()), EIO);
}

TEST(MemoryFile, ReadsReturnTheContents) {
  auto file = NewMemoryRandomAccessFile("hello world", "mem");
  std::string_view got;
  ASSERT_TRUE(file->Read(6, 5, &got, nullptr).ok());
  EXPECT_EQ(got, "world");
  ASSERT_TRUE(file->Read(9, 50, &got, nullptr).ok());
  EXPECT_EQ(got, "ld");
  ASSERT_TRUE(file->Read(50, 5, &got, nullptr).ok());
  EXPECT_TRUE(got.empty());
  EXPECT_EQ(file->name(), "mem");
}

TEST(StringWritableFile, KeepsAppendsAndRefusesAfterClose) {
  StringWritableFile file;
  ASSERT_TRUE(file.Append("ab").ok());
  ASSERT_TRUE(file.Append("cd").ok());
  EXPECT_EQ(file.contents(), "abcd");
  ASSERT_TRUE(file.Close().ok());
  EXPECT_FALSE(file.Append("e").ok());
  EXPECT_EQ(file.contents(), "abcd");
}

TEST(CountingFile, CountsReadsAndBytes) {
  auto counters = std::make_shared<FileReadCounters>();
  auto file = NewCountingRandomAccessFile(
      NewMemoryRandomAccessFile(std::string(100, 'x')), counters);
  std::string_view got;
  ASSERT_TRUE(file->Read(0, 10, &got, nullptr).ok());
  ASSERT_TRUE(file->Read(95, 10, &got, nullptr).ok());
  EXPECT_EQ(counters->reads.load(), 2u);
  EXPECT_EQ(counters->bytes.load(), 15u);
}

TEST(DelayedFile, ReturnsTheSameBytes) {
  auto file = NewDelayedRandomAccessFile(NewMemoryRandomAccessFile("abcdef"),
                                         std::chrono::microseconds(1));
  std::string_view got;
  ASSERT_TRUE(file->Read(2, 3, &got, nullptr).ok());
  EXPECT_EQ(got, "cde");
}

}  // namespace
}  // namespace bloomtable
