// The bloomtable tool on a file whose reads fail: an I/O error (exit status
// 4) naming the file, never "damaged". The tool runs in process
// (tools/cli.h's RunTool) and opens its files through a wrapper that makes
// reads fail with EIO, so the test holds for every user, root included
// (file permissions cannot stop root).

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "bloomtable/file.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/tool_test_util.h"
#include "util/file_errors.h"

#ifdef BLOOMTABLE_TOOL_LINKED
#include "tools/cli.h"
#endif

namespace bloomtable {
namespace tool_test {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

// Passes reads at offsets below `first_failing_offset` to the file; fails
// the others with EIO, as a bad sector would.
class FailingReadFile final : public RandomAccessFile {
 public:
  FailingReadFile(std::unique_ptr<RandomAccessFile> base,
                  uint64_t first_failing_offset)
      : base_(std::move(base)), first_failing_offset_(first_failing_offset) {}

  absl::Status Read(uint64_t offset, size_t n, std::string_view* result,
                    char* scratch) const override {
    if (offset + n > first_failing_offset_) {
      *result = std::string_view();
      return FileError(name(), "read", EIO);
    }
    return base_->Read(offset, n, result, scratch);
  }

  const std::string& name() const override { return base_->name(); }

 private:
  const std::unique_ptr<RandomAccessFile> base_;
  const uint64_t first_failing_offset_;
};

// Captures what is written to a standard stream's file descriptor.
class CapturedStream {
 public:
  CapturedStream(int fd, const std::string& path) : fd_(fd), path_(path) {
    std::fflush(nullptr);
    saved_ = ::dup(fd_);
    const int file = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    ::dup2(file, fd_);
    ::close(file);
  }
  // Restores the stream and returns what was written.
  std::string Release() {
    std::fflush(nullptr);
    ::dup2(saved_, fd_);
    ::close(saved_);
    return ReadFile(path_);
  }

 private:
  const int fd_;
  const std::string path_;
  int saved_ = -1;
};

struct InProcessResult {
  int exit_status = -1;
  std::string out;
  std::string err;
};

class ToolIoErrorTest : public ToolTest {
 protected:
  void SetUp() override {
    ToolTest::SetUp();
#ifndef BLOOMTABLE_TOOL_LINKED
    GTEST_FAIL() << "the bloomtable tool library is not built";
#endif
  }

  // Runs the tool in process; table files read fail from
  // `first_failing_offset` on.
  InProcessResult Run(std::vector<std::string> args,
                      uint64_t first_failing_offset) {
    InProcessResult result;
#ifdef BLOOMTABLE_TOOL_LINKED
    args.insert(args.begin(), "bloomtable");
    std::vector<char*> argv;
    for (std::string& arg : args) argv.push_back(arg.data());
    argv.push_back(nullptr);
    const tool::FileOpener open_failing =
        [first_failing_offset](const std::string& path)
        -> absl::StatusOr<std::unique_ptr<RandomAccessFile>> {
      absl::StatusOr<std::unique_ptr<RandomAccessFile>> file =
          OpenRandomAccessFile(path);
      if (!file.ok()) return file.status();
      return std::unique_ptr<RandomAccessFile>(
          std::make_unique<FailingReadFile>(*std::move(file),
                                            first_failing_offset));
    };
    CapturedStream out(STDOUT_FILENO, dir_.File("stdout"));
    CapturedStream err(STDERR_FILENO, dir_.File("stderr"));
    result.exit_status =
        tool::RunTool(static_cast<int>(args.size()), argv.data(), open_failing);
    result.err = err.Release();
    result.out = out.Release();
#else
    (void)args;  // without the tool, every test here skips
    (void)first_failing_offset;
#endif
    return result;
  }
};

TEST_F(ToolIoErrorTest, UnreadableFileIsAnIOErrorForEverySubcommand) {
  const std::string table = Build("t", NumberedInput(50));
  for (const std::vector<std::string>& command :
       std::vector<std::vector<std::string>>{{"dump", table},
                                             {"dump", table, "--json"},
                                             {"stats", table},
                                             {"scan", table},
                                             {"get", table, "key001"}}) {
    const InProcessResult result = Run(command, /*first_failing_offset=*/0);
    EXPECT_EQ(result.exit_status, kIoError) << command[0] << "\n" << result.err;
    EXPECT_THAT(result.err, StartsWith("bloomtable: " + table + ": "));
    EXPECT_THAT(result.err, HasSubstr("Input/output error"));
  }
  const InProcessResult verify = Run({"verify", table}, 0);
  EXPECT_EQ(verify.exit_status, kIoError);
  EXPECT_THAT(verify.out, StartsWith(table + ": ERROR: "));
  EXPECT_THAT(verify.out, HasSubstr("Input/output error"));
}

TEST_F(ToolIoErrorTest, AReadFailingMidwayIsAnIOErrorNotDamage) {
  // Every read of the data blocks fails; the footer, metaindex, filter and
  // index (at the end of the file) read.
  const std::string table =
      Build("t", NumberedInput(200), {"--block_size", "256"});
  const nlohmann::json json =
      nlohmann::json::parse(RunTool({"dump", table, "--json"}).out);
  const uint64_t filter_offset = json["filters"][0]["handle"]["offset"];
  for (const std::vector<std::string>& command :
       std::vector<std::vector<std::string>>{{"dump", table},
                                             {"stats", table},
                                             {"verify", table},
                                             {"scan", table},
                                             {"get", table, "key100"}}) {
    const InProcessResult result = Run(command, filter_offset / 2);
    EXPECT_EQ(result.exit_status, kIoError) << command[0] << "\n" << result.err;
  }
}

TEST_F(ToolIoErrorTest, RunsInProcessStartFromDefaultFlags) {
  // A flag set by one run must not leak into the next.
  const std::string table = Build("t", NumberedInput(5));
  const InProcessResult hex = Run({"get", table, "--hex", "6b6579303031"},
                                  /*first_failing_offset=*/~uint64_t{0});
  EXPECT_EQ(hex.exit_status, kSuccess) << hex.err;
  EXPECT_EQ(hex.out, "76616c7565303031\n");
  const InProcessResult plain =
      Run({"get", table, "key001"}, /*first_failing_offset=*/~uint64_t{0});
  EXPECT_EQ(plain.exit_status, kSuccess) << plain.err;
  EXPECT_EQ(plain.out, "value001\n");
}

}  // namespace
}  // namespace tool_test
}  // namespace bloomtable
