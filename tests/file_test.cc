#include "bloomtable/file.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "gtest/gtest.h"
#include "tests/temp_dir.h"

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
