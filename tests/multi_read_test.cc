// RandomAccessFile::MultiRead and the O_DIRECT file: every request of a
// batch returns what Read returns for it, through io_uring and through the
// pread fallback, buffered and direct, at any offset and length, past the
// end of the file, and in batches larger than the queue depth; one bad
// request fails alone.

#include <cstdint>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "bloomtable/file.h"
#include "gtest/gtest.h"
#include "tests/io_uring_probe.h"
#include "tests/temp_dir.h"

namespace bloomtable {
namespace {

// Bytes that differ at every offset, so a read from the wrong place shows.
std::string PatternBytes(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::string bytes(n, '\0');
  for (char& c : bytes) c = static_cast<char>(rng());
  return bytes;
}

std::string WriteFile(const TempDir& dir, const std::string& contents) {
  const std::string path = dir.File("data");
  auto file = NewWritableFile(path);
  EXPECT_TRUE(file.ok()) << file.status();
  EXPECT_TRUE((*file)->Append(contents).ok());
  EXPECT_TRUE((*file)->Close().ok());
  return path;
}

// What a read of n bytes at offset must return.
std::string_view Expected(const std::string& contents, uint64_t offset,
                          size_t n) {
  if (offset >= contents.size()) return std::string_view();
  return std::string_view(contents).substr(offset, n);
}

struct Mode {
  bool direct;
  bool io_uring;
};

const Mode kModes[] = {
    {false, true}, {false, false}, {true, true}, {true, false}};

std::string ModeName(const Mode& mode) {
  return std::string(mode.direct ? "direct" : "buffered") + "/" +
         (mode.io_uring ? "io_uring" : "pread");
}

std::unique_ptr<RandomAccessFile> Open(const std::string& path,
                                       const Mode& mode, uint32_t depth) {
  RandomAccessFileOptions options;
  options.use_direct_io = mode.direct;
  options.use_io_uring = mode.io_uring;
  options.io_uring_queue_depth = depth;
  auto file = OpenRandomAccessFileWithOptions(path, options);
  EXPECT_TRUE(file.ok()) << file.status();
  return file.ok() ? *std::move(file) : nullptr;
}

// A batch of `count` random requests over a file of `size` bytes: inside,
// across the end, past the end, empty, unaligned.
std::vector<ReadRequest> RandomRequests(std::mt19937* rng, size_t count,
                                        size_t size,
                                        std::vector<std::string>* scratch) {
  std::vector<ReadRequest> requests(count);
  scratch->assign(count, std::string());
  for (size_t i = 0; i < count; ++i) {
    ReadRequest& request = requests[i];
    request.offset = (*rng)() % (size + 10000);
    switch ((*rng)() % 4) {
      case 0:
        request.n = 0;
        break;
      case 1:
        request.n = 1 + (*rng)() % 64;
        break;
      default:
        request.n = 1 + (*rng)() % 20000;
        break;
    }
    (*scratch)[i].assign(request.n, '\0');
    request.scratch = (*scratch)[i].data();
  }
  return requests;
}

TEST(MultiRead, EveryRequestReturnsWhatReadReturns) {
  TempDir dir;
  const std::string contents = PatternBytes(300 * 1024 + 123, 1);
  const std::string path = WriteFile(dir, contents);
  const MultiReadPath batched_path =
      IoUringWorksHere() ? MultiReadPath::kIoUring : MultiReadPath::kPread;
  std::mt19937 rng(7);
  for (const Mode& mode : kModes) {
    SCOPED_TRACE(ModeName(mode));
    auto file = Open(path, mode, /*depth=*/8);
    ASSERT_NE(file, nullptr);
    for (int round = 0; round < 20; ++round) {
      std::vector<std::string> scratch;
      std::vector<ReadRequest> requests =
          RandomRequests(&rng, 2 + rng() % 60, contents.size(), &scratch);
      const MultiReadPath path_ran =
          file->MultiRead(requests.data(), requests.size());
      EXPECT_EQ(path_ran, mode.io_uring ? batched_path : MultiReadPath::kPread);
      for (const ReadRequest& request : requests) {
        ASSERT_TRUE(request.status.ok()) << request.status;
        EXPECT_EQ(request.result, Expected(contents, request.offset, request.n))
            << "offset " << request.offset << " n " << request.n;
        // And Read agrees.
        std::string read_scratch(request.n, '\0');
        std::string_view read_result;
        ASSERT_TRUE(file->Read(request.offset, request.n, &read_result,
                               read_scratch.data())
                        .ok());
        EXPECT_EQ(read_result, request.result);
      }
    }
  }
}

TEST(MultiRead, BatchLargerThanTheQueueDepthIsReadInWaves) {
  TempDir dir;
  const std::string contents = PatternBytes(1 << 20, 2);
  const std::string path = WriteFile(dir, contents);
  std::mt19937 rng(11);
  for (const Mode& mode : kModes) {
    SCOPED_TRACE(ModeName(mode));
    auto file = Open(path, mode, /*depth=*/3);
    ASSERT_NE(file, nullptr);
    std::vector<std::string> scratch;
    std::vector<ReadRequest> requests =
        RandomRequests(&rng, 500, contents.size(), &scratch);
    file->MultiRead(requests.data(), requests.size());
    for (const ReadRequest& request : requests) {
      ASSERT_TRUE(request.status.ok()) << request.status;
      EXPECT_EQ(request.result, Expected(contents, request.offset, request.n));
    }
  }
}

TEST(MultiRead, OneBadRequestFailsAlone) {
  TempDir dir;
  const std::string contents = PatternBytes(64 * 1024, 3);
  const std::string path = WriteFile(dir, contents);
  for (const Mode& mode : kModes) {
    SCOPED_TRACE(ModeName(mode));
    auto file = Open(path, mode, /*depth=*/4);
    ASSERT_NE(file, nullptr);
    std::vector<std::string> scratch(3, std::string(4096, '\0'));
    std::vector<ReadRequest> requests(3);
    for (size_t i = 0; i < requests.size(); ++i) {
      requests[i].offset = 1000 * i + 7;
      requests[i].n = 4000;
      requests[i].scratch = scratch[i].data();
    }
    // An offset no file can have: pread says EINVAL, the direct file that
    // the aligned range overflows.
    requests[1].offset = std::numeric_limits<uint64_t>::max() - 100;
    file->MultiRead(requests.data(), requests.size());
    EXPECT_FALSE(requests[1].status.ok());
    for (size_t i : {0, 2}) {
      ASSERT_TRUE(requests[i].status.ok()) << requests[i].status;
      EXPECT_EQ(requests[i].result,
                Expected(contents, requests[i].offset, requests[i].n));
    }
  }
}

TEST(MultiRead, DefaultReadsOneRequestAfterAnother) {
  const std::string contents = PatternBytes(10000, 4);
  auto file = NewMemoryRandomAccessFile(contents);
  std::vector<std::string> scratch(2, std::string(100, '\0'));
  std::vector<ReadRequest> requests(2);
  requests[0] = {9950, 100, scratch[0].data(), {}, {}};
  requests[1] = {20, 100, scratch[1].data(), {}, {}};
  EXPECT_EQ(file->MultiRead(requests.data(), requests.size()),
            MultiReadPath::kPread);
  EXPECT_EQ(requests[0].result, Expected(contents, 9950, 100));
  EXPECT_EQ(requests[1].result, Expected(contents, 20, 100));
}

TEST(DirectFile, UnalignedReadsAndTheEndOfTheFile) {
  TempDir dir;
  // Not a multiple of the alignment: the last page is short.
  const std::string contents = PatternBytes(3 * kDirectIOAlignment + 77, 5);
  const std::string path = WriteFile(dir, contents);
  auto file = Open(path, Mode{true, false}, 1);
  ASSERT_NE(file, nullptr);
  const std::pair<uint64_t, size_t> ranges[] = {
      {0, 1},
      {1, kDirectIOAlignment},
      {kDirectIOAlignment - 1, 2},
      {kDirectIOAlignment, kDirectIOAlignment},
      {contents.size() - 10, 100},
      {contents.size(), 10},
      {contents.size() + kDirectIOAlignment, 10},
      {5, contents.size() + 5000}};
  for (const auto& [offset, n] : ranges) {
    std::string scratch(n, '\0');
    std::string_view result;
    ASSERT_TRUE(file->Read(offset, n, &result, scratch.data()).ok());
    EXPECT_EQ(result, Expected(contents, offset, n))
        << "offset " << offset << " n " << n;
  }
}

TEST(DirectFile, MissingFileIsNotFound) {
  TempDir dir;
  RandomAccessFileOptions options;
  options.use_direct_io = true;
  auto file = OpenRandomAccessFileWithOptions(dir.File("missing"), options);
  EXPECT_TRUE(absl::IsNotFound(file.status())) << file.status();
}

}  // namespace
}  // namespace bloomtable
