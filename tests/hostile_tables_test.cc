// Crafted tables (tests/hostile_tables.h) that once made the reader read or
// reserve far more than the file holds: a metaindex repeating a failing
// scan filter (Open read the block once per entry), a bzip2 block of a few
// hundred bytes standing for gigabytes (decoded to the 4 GiB cap), a zstd
// frame of 10 bytes declaring a 2^27 window (its context reserved 128 MiB
// and stayed cached). What each costs is counted: the bytes Open reads, the
// size of the decompressed block the reader accepts, the zstd context's
// size (ZSTD_sizeof_DCtx, not the process's memory, which sanitizers
// distort).

#include "tests/hostile_tables.h"

#include <zstd.h>

#include <cstddef>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "bloomtable/file.h"
#include "bloomtable/filter_policy.h"
#include "bloomtable/iterator.h"
#include "bloomtable/options.h"
#include "bloomtable/prefix_extractor.h"
#include "bloomtable/table.h"
#include "gtest/gtest.h"
#include "table/block_compression.h"
#include "util/zstd_codec.h"

namespace bloomtable {
namespace {

using hostile_tables::kKey;

struct Opened {
  std::unique_ptr<Table> table;
  std::shared_ptr<FileReadCounters> counters;
};

Opened OpenCounting(const Options& options, const std::string& contents) {
  Opened opened;
  opened.counters = std::make_shared<FileReadCounters>();
  auto table =
      Table::Open(options,
                  NewCountingRandomAccessFile(
                      NewMemoryRandomAccessFile(contents), opened.counters),
                  contents.size());
  EXPECT_TRUE(table.ok()) << table.status();
  if (table.ok()) opened.table = *std::move(table);
  return opened;
}

// ---------------------------------------------------------------------------
// Repeated scan filter entries: Open reads each block at most once.

TEST(RepeatedScanFilterEntries, OpenReadsTheRangeFilterBlockOnce) {
  const std::string one = hostile_tables::RepeatedRangeFilterTable(1);
  const std::string many = hostile_tables::RepeatedRangeFilterTable(16000);
  ASSERT_GT(many.size(), 60000u);
  const Opened single = OpenCounting(Options(), one);
  const Opened repeated = OpenCounting(Options(), many);
  ASSERT_NE(single.table, nullptr);
  ASSERT_NE(repeated.table, nullptr);
  // Footer, metaindex, range filter, index: no block twice, so never more
  // than the file.
  EXPECT_EQ(repeated.counters->reads.load(), single.counters->reads.load());
  EXPECT_LE(single.counters->reads.load(), 4u);
  EXPECT_LE(repeated.counters->bytes.load(), many.size());
  // The same blocks but the metaindex, which is the file's growth.
  EXPECT_EQ(repeated.counters->bytes.load() - many.size(),
            single.counters->bytes.load() - one.size());
  const ScanFilterInfo& info = repeated.table->scan_filter_info();
  EXPECT_FALSE(info.range_in_use);
  EXPECT_TRUE(absl::StrContains(info.range_unused_reason, "checksum"))
      << info.range_unused_reason;
  // The table reads without its filter.
  EXPECT_EQ(*repeated.table->Get(ReadOptions(), kKey), "value");
}

TEST(RepeatedScanFilterEntries, OpenReadsThePrefixFilterBlockOnce) {
  Options options;
  options.filter_policy = NewLevelDBBloomFilterPolicy(10);
  options.prefix_extractor = NewFixedPrefixExtractor(3);
  const std::string key =
      "prefixfilter." + std::string(options.filter_policy->Name());
  const auto table_with = [&](int copies) {
    return hostile_tables::TableWithMetaBlock(
        hostile_tables::OneEntryBlock(kKey, "value"), kNoCompressionType,
        std::string(64, 'f'), /*bad_meta_checksum=*/true, key, copies);
  };
  const std::string one = table_with(1);
  const std::string many = table_with(16000);
  const Opened single = OpenCounting(options, one);
  const Opened repeated = OpenCounting(options, many);
  ASSERT_NE(single.table, nullptr);
  ASSERT_NE(repeated.table, nullptr);
  EXPECT_EQ(repeated.counters->reads.load(), single.counters->reads.load());
  EXPECT_LE(repeated.counters->bytes.load(), many.size());
  EXPECT_FALSE(repeated.table->scan_filter_info().prefix_loaded);
  EXPECT_EQ(*repeated.table->Get(ReadOptions(), kKey), "value");
}

// ---------------------------------------------------------------------------
// bzip2: Options::max_uncompressed_block_size stops the decoder.

TEST(Bzip2Bomb, AFewHundredBytesPastTheDefaultLimitAreResourceExhausted) {
  const size_t value_size = kDefaultMaxUncompressedBlockSize + (1 << 20);
  const std::string contents = hostile_tables::Bzip2BombTable(value_size);
  ASSERT_LT(contents.size(), 1024u);
  const Opened opened = OpenCounting(Options(), contents);
  ASSERT_NE(opened.table, nullptr);
  absl::StatusOr<std::string> value = opened.table->Get(ReadOptions(), kKey);
  EXPECT_EQ(value.status().code(), absl::StatusCode::kResourceExhausted)
      << value.status();
  EXPECT_TRUE(absl::StrContains(value.status().message(),
                                "max_uncompressed_block_size"))
      << value.status();
}

// The limit holds for Get and iterators; a caller who expects larger bzip2
// blocks raises it, and the table reads.
TEST(Bzip2Bomb, ACallerRaisesTheLimitToReadLargerBlocks) {
  constexpr size_t kValueSize = size_t{4} << 20;
  const std::string contents = hostile_tables::Bzip2BombTable(kValueSize);
  Options options;
  options.max_uncompressed_block_size = 1 << 20;
  const Opened opened = OpenCounting(options, contents);
  ASSERT_NE(opened.table, nullptr);
  EXPECT_EQ(opened.table->Get(ReadOptions(), kKey).status().code(),
            absl::StatusCode::kResourceExhausted);
  auto it = opened.table->NewIterator(ReadOptions());
  it->SeekToFirst();
  EXPECT_FALSE(it->Valid());
  EXPECT_EQ(it->status().code(), absl::StatusCode::kResourceExhausted);

  options.max_uncompressed_block_size = 2 * kValueSize;
  const Opened raised = OpenCounting(options, contents);
  ASSERT_NE(raised.table, nullptr);
  absl::StatusOr<std::string> value = raised.table->Get(ReadOptions(), kKey);
  ASSERT_TRUE(value.ok()) << value.status();
  EXPECT_EQ(value->size(), kValueSize);
  EXPECT_EQ(value->find_first_not_of('\0'), std::string::npos);
  auto raised_it = raised.table->NewIterator(ReadOptions());
  raised_it->SeekToFirst();
  ASSERT_TRUE(raised_it->Valid()) << raised_it->status();
  EXPECT_EQ(raised_it->value().size(), kValueSize);
}

// The limit is exact: a block of exactly that many bytes reads, one more
// byte does not.
TEST(Bzip2Bomb, TheLimitIsTheLargestBlockAccepted) {
  const std::string raw(3 << 20, '\0');
  const std::string stored = hostile_tables::Bzip2Stream(raw);
  ASSERT_FALSE(stored.empty());
  constexpr auto kRocksDB = CompressionNumbering::kRocksDB;
  absl::StatusOr<BlockContents> contents =
      UncompressBlock(kRocksDB, 3, stored, nullptr, raw.size());
  ASSERT_TRUE(contents.ok()) << contents.status();
  EXPECT_EQ(contents->data.size(), raw.size());
  contents = UncompressBlock(kRocksDB, 3, stored, nullptr, raw.size() - 1);
  EXPECT_EQ(contents.status().code(), absl::StatusCode::kResourceExhausted);
}

// ---------------------------------------------------------------------------
// zstd: the window is capped by what the block may decompress to.

TEST(WideWindowZstd, AFrameDeclaringA2To27WindowReservesLittle) {
  const std::string frame = hostile_tables::WideWindowZstdFrame(27);
  ASSERT_EQ(frame.size(), 10u);
  ZstdContextCache contexts;
  absl::StatusOr<BlockContents> contents = UncompressBlock(
      CompressionNumbering::kLevelDB, kZstdCompressionType, frame, &contexts);
  // A valid frame whose window passes what 10 bytes can expand to
  // (327,680 bytes): unsupported, not damaged.
  EXPECT_EQ(contents.status().code(), absl::StatusCode::kUnimplemented)
      << contents.status();
  EXPECT_TRUE(absl::StrContains(contents.status().message(), "window"))
      << contents.status();
  // The context the table keeps for later reads holds no 128 MiB window.
  void* context = contexts.Take();
  ASSERT_NE(context, nullptr);
  EXPECT_LT(ZSTD_sizeof_DCtx(static_cast<ZSTD_DCtx*>(context)),
            size_t{1} << 20);
  contexts.Give(context);

  // Through a table: Get reports it, and a frame with a window its bytes
  // allow still reads with the same contexts.
  const std::string table_bytes = hostile_tables::WideWindowZstdTable(27);
  const Opened opened = OpenCounting(Options(), table_bytes);
  ASSERT_NE(opened.table, nullptr);
  EXPECT_EQ(opened.table->Get(ReadOptions(), kKey).status().code(),
            absl::StatusCode::kUnimplemented);
}

// A frame whose window fits what its bytes may expand to decodes; the
// window cap follows the bound.
TEST(WideWindowZstd, WindowsWithinTheBoundDecode) {
  // 10 bytes may expand to 327,680: a 2^18 window fits, 2^19 holds them.
  for (int window_log : {10, 18, 19}) {
    SCOPED_TRACE(window_log);
    ZstdContextCache contexts;
    absl::StatusOr<BlockContents> contents = UncompressBlock(
        CompressionNumbering::kLevelDB, kZstdCompressionType,
        hostile_tables::WideWindowZstdFrame(window_log), &contexts);
    ASSERT_TRUE(contents.ok()) << contents.status();
    EXPECT_EQ(contents->data, std::string(100, 'x'));
  }
  EXPECT_EQ(
      UncompressBlock(CompressionNumbering::kLevelDB, kZstdCompressionType,
                      hostile_tables::WideWindowZstdFrame(20))
          .status()
          .code(),
      absl::StatusCode::kUnimplemented);
}

// A valid frame as a streaming compressor writes it without knowing the
// size (zstd level 3: a 2^21 window) for a block that shrinks to a few
// bytes: its window passes what those bytes may expand to, and the reader
// says it does not read it (Unimplemented) rather than reserve the window.
TEST(WideWindowZstd, AStreamedFrameWithAWindowPastItsBoundIsUnimplemented) {
  const std::string raw(4096, 'z');
  ZSTD_CCtx* context = ZSTD_createCCtx();
  ASSERT_NE(context, nullptr);
  ZSTD_CCtx_setParameter(context, ZSTD_c_compressionLevel, 3);
  std::string frame(ZSTD_compressBound(raw.size()) + 64, '\0');
  ZSTD_outBuffer out = {frame.data(), frame.size(), 0};
  ZSTD_inBuffer in = {raw.data(), raw.size(), 0};
  ASSERT_FALSE(
      ZSTD_isError(ZSTD_compressStream2(context, &out, &in, ZSTD_e_continue)));
  size_t remaining = 0;
  do {
    remaining = ZSTD_compressStream2(context, &out, &in, ZSTD_e_end);
    ASSERT_FALSE(ZSTD_isError(remaining));
  } while (remaining != 0);
  ZSTD_freeCCtx(context);
  frame.resize(out.pos);
  ASSERT_LT(frame.size(), 32u);
  absl::StatusOr<BlockContents> contents = UncompressBlock(
      CompressionNumbering::kLevelDB, kZstdCompressionType, frame);
  EXPECT_EQ(contents.status().code(), absl::StatusCode::kUnimplemented)
      << contents.status();
}

}  // namespace
}  // namespace bloomtable
