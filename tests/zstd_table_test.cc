// Tables written with CompressionType::kZstd: blocks are zstd frames of type
// 2 (upstream LevelDB's kZstdCompression) that libzstd itself decodes, kept
// only when they save an eighth, and read back exactly; the level option
// changes the bytes.

#include <zstd.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "bloomtable/comparator.h"
#include "bloomtable/file.h"
#include "bloomtable/iterator.h"
#include "bloomtable/options.h"
#include "bloomtable/table.h"
#include "bloomtable/table_builder.h"
#include "gtest/gtest.h"
#include "table/block.h"
#include "table/block_compression.h"
#include "tests/table_layout.h"

namespace bloomtable {
namespace {

std::string ValueOf(int i) {
  // Compressible: repeated words with a varying number.
  return "value " + std::to_string(i % 13) + " of a table that repeats itself";
}

std::string KeyOf(int i) {
  char key[16];
  std::snprintf(key, sizeof(key), "key%08d", i);
  return key;
}

std::string Build(const Options& options, int num_keys) {
  StringWritableFile file;
  TableBuilder builder(options, &file);
  for (int i = 0; i < num_keys; ++i) {
    EXPECT_TRUE(builder.Add(KeyOf(i), ValueOf(i)).ok());
  }
  EXPECT_TRUE(builder.Finish().ok());
  return file.contents();
}

// The trailer's type byte of the block at `handle`.
unsigned char BlockType(const std::string& contents,
                        const BlockHandle& handle) {
  return static_cast<unsigned char>(contents[handle.offset() + handle.size()]);
}

Options ZstdOptions(int level) {
  Options options;
  options.compression = CompressionType::kZstd;
  options.zstd_compression_level = level;
  return options;
}

TEST(ZstdTable, ReadsBackEveryEntry) {
  const std::string contents = Build(ZstdOptions(1), 3000);
  auto table = Table::Open(Options(), NewMemoryRandomAccessFile(contents),
                           contents.size());
  ASSERT_TRUE(table.ok()) << table.status();
  for (int i = 0; i < 3000; i += 7) {
    EXPECT_EQ(*(*table)->Get(ReadOptions(), KeyOf(i)), ValueOf(i));
  }
  auto it = (*table)->NewIterator(ReadOptions());
  int i = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next(), ++i) {
    ASSERT_EQ(it->key(), KeyOf(i));
    ASSERT_EQ(it->value(), ValueOf(i));
  }
  EXPECT_TRUE(it->status().ok());
  EXPECT_EQ(i, 3000);
}

// Decodes `stored` with libzstd itself (not bloomtable's reader): it must be
// exactly one frame that states its content size.
std::string DecodeWithLibzstd(std::string_view stored) {
  EXPECT_EQ(ZSTD_findFrameCompressedSize(stored.data(), stored.size()),
            stored.size())
      << "not exactly one zstd frame";
  const unsigned long long size =
      ZSTD_getFrameContentSize(stored.data(), stored.size());
  if (size == ZSTD_CONTENTSIZE_UNKNOWN || size == ZSTD_CONTENTSIZE_ERROR ||
      size > (1u << 20)) {
    ADD_FAILURE() << "the frame states no usable content size: " << size;
    return std::string();
  }
  std::string raw(size, '\0');
  const size_t decoded =
      ZSTD_decompress(raw.data(), raw.size(), stored.data(), stored.size());
  if (ZSTD_isError(decoded)) {
    ADD_FAILURE() << "libzstd: " << ZSTD_getErrorName(decoded);
    return std::string();
  }
  EXPECT_EQ(decoded, size);
  return raw;
}

// Each block's bytes as libzstd decodes them hold the table's entries: the
// decoded data blocks, parsed and walked in order, give every key and value.
TEST(ZstdTable, BlocksAreZstdFramesOfType2) {
  const std::string contents = Build(ZstdOptions(1), 3000);
  const table_test::TableLayout layout = table_test::ReadTableLayout(contents);
  ASSERT_FALSE(layout.data.empty());
  int i = 0;
  for (const BlockHandle& handle : layout.data) {
    ASSERT_EQ(BlockType(contents, handle), kZstdCompressionType);
    const std::string raw = DecodeWithLibzstd(
        std::string_view(contents).substr(handle.offset(), handle.size()));
    BlockContents owned;
    owned.owned.reset(new char[raw.size()]);
    std::memcpy(owned.owned.get(), raw.data(), raw.size());
    owned.data = std::string_view(owned.owned.get(), raw.size());
    auto block = Block::Parse(std::move(owned));
    ASSERT_TRUE(block.ok()) << block.status();
    BlockIter it(BytewiseComparator(), block->get());
    for (it.SeekToFirst(); it.Valid(); it.Next(), ++i) {
      ASSERT_EQ(it.key(), KeyOf(i));
      ASSERT_EQ(it.value(), ValueOf(i));
    }
    ASSERT_TRUE(it.status().ok()) << it.status();
  }
  EXPECT_EQ(i, 3000);
  EXPECT_EQ(BlockType(contents, layout.index), kZstdCompressionType);
  EXPECT_FALSE(
      DecodeWithLibzstd(std::string_view(contents).substr(layout.index.offset(),
                                                          layout.index.size()))
          .empty());
}

TEST(ZstdTable, IsSmallerThanSnappyAndTheLevelMatters) {
  Options snappy;
  const size_t snappy_size = Build(snappy, 3000).size();
  const std::string fast = Build(ZstdOptions(1), 3000);
  const std::string strong = Build(ZstdOptions(19), 3000);
  EXPECT_LT(fast.size(), snappy_size);
  EXPECT_NE(fast, strong);
  EXPECT_LE(strong.size(), fast.size());
}

// More readers than the table keeps decompression contexts for, each
// reading every block: contexts are shared without races (run under TSan in
// CI) and every value reads back.
TEST(ZstdTable, ConcurrentReadersShareDecompressionContexts) {
  const std::string contents = Build(ZstdOptions(1), 3000);
  auto table = Table::Open(Options(), NewMemoryRandomAccessFile(contents),
                           contents.size());
  ASSERT_TRUE(table.ok()) << table.status();
  constexpr int kThreads = 8;
  std::vector<int> mismatches(kThreads, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = t; i < 3000; i += 3) {
        auto value = (*table)->Get(ReadOptions(), KeyOf(i));
        if (!value.ok() || *value != ValueOf(i)) ++mismatches[t];
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(mismatches[t], 0) << t;
}

TEST(ZstdTable, IncompressibleBlocksAreStoredRaw) {
  StringWritableFile file;
  TableBuilder builder(ZstdOptions(1), &file);
  // Values of distinct pseudo-random bytes: zstd cannot save an eighth.
  uint64_t state = 88172645463325252ull;
  for (int i = 0; i < 50; ++i) {
    std::string value(400, '\0');
    for (char& c : value) {
      state ^= state << 13;
      state ^= state >> 7;
      state ^= state << 17;
      c = static_cast<char>(state);
    }
    ASSERT_TRUE(builder.Add(KeyOf(i), value).ok());
  }
  ASSERT_TRUE(builder.Finish().ok());
  const std::string& contents = file.contents();
  const table_test::TableLayout layout = table_test::ReadTableLayout(contents);
  ASSERT_FALSE(layout.data.empty());
  for (const BlockHandle& handle : layout.data) {
    EXPECT_EQ(BlockType(contents, handle), kNoCompressionType);
  }
}

}  // namespace
}  // namespace bloomtable
