// Block handles, the footer and ReadBlock's trailer checks.

#include "table/format.h"

#include <cstdint>
#include <limits>
#include <memory>
#include <string>

#include "absl/strings/match.h"
#include "bloomtable/file.h"
#include "gtest/gtest.h"
#include "snappy.h"
#include "util/coding.h"
#include "util/crc32c.h"

namespace bloomtable {
namespace {

TEST(BlockHandle, RoundTripsThroughItsEncoding) {
  for (uint64_t offset : {uint64_t{0}, uint64_t{1}, uint64_t{300},
                          std::numeric_limits<uint64_t>::max()}) {
    for (uint64_t size : {uint64_t{0}, uint64_t{127}, uint64_t{1} << 40}) {
      std::string encoded;
      BlockHandle(offset, size).EncodeTo(&encoded);
      EXPECT_LE(encoded.size(), BlockHandle::kMaxEncodedLength);
      std::string_view input = encoded;
      BlockHandle decoded;
      ASSERT_TRUE(decoded.DecodeFrom(&input).ok());
      EXPECT_TRUE(input.empty());
      EXPECT_EQ(decoded.offset(), offset);
      EXPECT_EQ(decoded.size(), size);
    }
  }
}

TEST(BlockHandle, TruncatedEncodingIsDataLoss) {
  std::string encoded;
  BlockHandle(1000, 2000).EncodeTo(&encoded);
  for (size_t length = 0; length < encoded.size(); ++length) {
    std::string_view input(encoded.data(), length);
    BlockHandle decoded;
    EXPECT_EQ(decoded.DecodeFrom(&input).code(), absl::StatusCode::kDataLoss);
  }
}

TEST(BlockHandle, FitsWithinCountsTheTrailerAndNeverOverflows) {
  EXPECT_TRUE(BlockHandle(0, 10).FitsWithin(15));
  EXPECT_FALSE(BlockHandle(0, 10).FitsWithin(14));
  EXPECT_TRUE(BlockHandle(5, 0).FitsWithin(10));
  EXPECT_FALSE(BlockHandle(0, 0).FitsWithin(4));
  const uint64_t max = std::numeric_limits<uint64_t>::max();
  EXPECT_FALSE(BlockHandle(max, 10).FitsWithin(100));
  EXPECT_FALSE(BlockHandle(10, max).FitsWithin(100));
  EXPECT_FALSE(BlockHandle(max - 2, 1).FitsWithin(max));
}

TEST(Footer, EncodesToFortyEightBytesEndingInTheMagic) {
  std::string encoded;
  Footer(BlockHandle(1, 2), BlockHandle(3, 4)).EncodeTo(&encoded);
  std::string expected = "\x01\x02\x03\x04";
  expected.resize(40, '\0');
  expected += "\x57\xfb\x80\x8b\x24\x75\x47\xdb";
  EXPECT_EQ(encoded, expected);
}

TEST(Footer, RoundTripsLargeHandles) {
  const uint64_t max = std::numeric_limits<uint64_t>::max();
  std::string encoded;
  Footer(BlockHandle(max, max), BlockHandle(max - 1, max - 2))
      .EncodeTo(&encoded);
  ASSERT_EQ(encoded.size(), Footer::kEncodedLength);
  Footer footer;
  ASSERT_TRUE(footer.DecodeFrom(encoded).ok());
  EXPECT_EQ(footer.metaindex_handle().offset(), max);
  EXPECT_EQ(footer.index_handle().size(), max - 2);
}

TEST(Footer, BadMagicIsDataLoss) {
  std::string encoded;
  Footer(BlockHandle(1, 2), BlockHandle(3, 4)).EncodeTo(&encoded);
  encoded[47] ^= 1;
  EXPECT_EQ(Footer().DecodeFrom(encoded).code(), absl::StatusCode::kDataLoss);
}

TEST(Footer, RocksDBMagicIsUnimplementedNamingRocksDB) {
  std::string encoded;
  Footer(BlockHandle(1, 2), BlockHandle(3, 4)).EncodeTo(&encoded);
  encoded.resize(40);
  PutFixed64(&encoded, kRocksDBBlockBasedTableMagicNumber);
  const absl::Status status = Footer().DecodeFrom(encoded);
  EXPECT_EQ(status.code(), absl::StatusCode::kUnimplemented);
  EXPECT_TRUE(absl::StrContains(status.message(), "RocksDB")) << status;
}

TEST(Footer, WrongLengthIsDataLoss) {
  EXPECT_EQ(Footer().DecodeFrom(std::string(47, '\0')).code(),
            absl::StatusCode::kDataLoss);
}

TEST(Footer, MalformedHandlesAreDataLoss) {
  std::string encoded(40, '\xff');  // varints that never end
  PutFixed64(&encoded, kTableMagicNumber);
  EXPECT_EQ(Footer().DecodeFrom(encoded).code(), absl::StatusCode::kDataLoss);
}

// A footer for a file of `file_size` bytes whose index is (index_offset,
// index_size) and metaindex (metaindex_offset, metaindex_size).
absl::Status CheckLayout(uint64_t metaindex_offset, uint64_t metaindex_size,
                         uint64_t index_offset, uint64_t index_size,
                         uint64_t footer_offset) {
  return CheckFooterLayout(Footer(BlockHandle(metaindex_offset, metaindex_size),
                                  BlockHandle(index_offset, index_size)),
                           footer_offset);
}

TEST(CheckFooterLayout, AcceptsLevelDBOrderIndexLast) {
  // [data 0..100) [metaindex 100..113) [index 113..150) [footer 150..]
  EXPECT_TRUE(CheckLayout(100, 8, 113, 32, 150).ok());
}

TEST(CheckFooterLayout, AcceptsRocksDBLegacyOrderMetaindexLast) {
  // [data] [index 50..80) [properties 80..120) [metaindex 120..150) [footer]
  EXPECT_TRUE(CheckLayout(120, 25, 50, 25, 150).ok());
}

TEST(CheckFooterLayout, IndexPointingAtTheMetaindexIsDataLoss) {
  // A damaged index handle copied from the metaindex one: a valid block,
  // which would read as an empty index.
  const absl::Status status = CheckLayout(100, 8, 100, 8, 150);
  EXPECT_EQ(status.code(), absl::StatusCode::kDataLoss);
  EXPECT_TRUE(absl::StrContains(status.message(), "overlap")) << status;
}

TEST(CheckFooterLayout, IndexPointingAtADataBlockIsDataLoss) {
  const absl::Status status = CheckLayout(100, 8, 20, 30, 150);
  EXPECT_EQ(status.code(), absl::StatusCode::kDataLoss);
  EXPECT_TRUE(absl::StrContains(status.message(), "ends where the footer"))
      << status;
}

TEST(CheckFooterLayout, OverlappingBlocksAreDataLossEvenIfOneEndsAtTheFooter) {
  EXPECT_EQ(CheckLayout(110, 8, 113, 32, 150).code(),
            absl::StatusCode::kDataLoss);
  EXPECT_EQ(CheckLayout(0, 145, 113, 32, 150).code(),
            absl::StatusCode::kDataLoss);
}

TEST(CheckFooterLayout, HandlesPastTheFooterAreDataLossWithoutOverflow) {
  const uint64_t max = std::numeric_limits<uint64_t>::max();
  EXPECT_EQ(CheckLayout(100, 8, 113, 33, 150).code(),
            absl::StatusCode::kDataLoss);
  EXPECT_EQ(CheckLayout(max, 8, 113, 32, 150).code(),
            absl::StatusCode::kDataLoss);
  EXPECT_EQ(CheckLayout(100, 8, 113, max, 150).code(),
            absl::StatusCode::kDataLoss);
  EXPECT_EQ(CheckLayout(0, 0, 0, 0, 3).code(), absl::StatusCode::kDataLoss);
}

// A file holding `prefix`, then `contents` with a trailer of `type` and a
// correct CRC. Returns the handle of the block.
BlockHandle AppendBlock(std::string* file, std::string_view contents,
                        unsigned char type) {
  BlockHandle handle(file->size(), contents.size());
  file->append(contents.data(), contents.size());
  char trailer[kBlockTrailerSize];
  trailer[0] = static_cast<char>(type);
  uint32_t crc = crc32c::Value(contents.data(), contents.size());
  crc = crc32c::Extend(crc, trailer, 1);
  EncodeFixed32(trailer + 1, crc32c::Mask(crc));
  file->append(trailer, kBlockTrailerSize);
  return handle;
}

ReadBlockOptions OptionsFor(const std::string& file) {
  ReadBlockOptions options;
  options.readable_limit = file.size();
  return options;
}

TEST(ReadBlock, ReadsARawBlockIntoItsOwnBuffer) {
  std::string bytes = "xx";
  const BlockHandle handle = AppendBlock(&bytes, "hello", kNoCompressionType);
  auto file = NewMemoryRandomAccessFile(bytes);
  BlockReadReport report;
  auto contents = ReadBlock(*file, handle, OptionsFor(bytes), &report);
  ASSERT_TRUE(contents.ok()) << contents.status();
  EXPECT_EQ(contents->data, "hello");
  EXPECT_EQ(contents->data.data(), contents->owned.get());
  EXPECT_EQ(report.bytes_read, 5 + kBlockTrailerSize);
  EXPECT_FALSE(report.checksum_mismatch);
}

// Stores `raw` Snappy-compressed as a block and expects ReadBlock to give
// `raw` back. Returns the compressed size.
size_t ExpectSnappyBlockReadsBack(const std::string& raw) {
  std::string compressed;
  snappy::Compress(raw.data(), raw.size(), &compressed);
  std::string bytes;
  const BlockHandle handle =
      AppendBlock(&bytes, compressed, kSnappyCompressionType);
  auto file = NewMemoryRandomAccessFile(bytes);
  auto contents = ReadBlock(*file, handle, OptionsFor(bytes), nullptr);
  EXPECT_TRUE(contents.ok()) << contents.status();
  if (contents.ok()) {
    EXPECT_EQ(contents->data, raw);
  }
  return compressed.size();
}

TEST(ReadBlock, DecompressesSnappy) {
  ExpectSnappyBlockReadsBack(std::string(1000, 'z'));
}

TEST(ReadBlock, ChecksumMismatchIsDataLossAndReported) {
  std::string bytes;
  const BlockHandle handle = AppendBlock(&bytes, "hello", kNoCompressionType);
  bytes[1] ^= 0x10;
  auto file = NewMemoryRandomAccessFile(bytes);
  BlockReadReport report;
  auto contents = ReadBlock(*file, handle, OptionsFor(bytes), &report);
  EXPECT_EQ(contents.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_TRUE(absl::StrContains(contents.status().message(), "checksum"));
  EXPECT_TRUE(report.checksum_mismatch);
}

TEST(ReadBlock, WithoutVerificationDamagedContentsAreReturned) {
  std::string bytes;
  const BlockHandle handle = AppendBlock(&bytes, "hello", kNoCompressionType);
  bytes[1] = 'a';
  auto file = NewMemoryRandomAccessFile(bytes);
  ReadBlockOptions options = OptionsFor(bytes);
  options.verify_checksum = false;
  auto contents = ReadBlock(*file, handle, options, nullptr);
  ASSERT_TRUE(contents.ok());
  EXPECT_EQ(contents->data, "hallo");
}

TEST(ReadBlock, UnknownCompressionTypeIsDataLossNamingTheType) {
  std::string bytes;
  const BlockHandle handle = AppendBlock(&bytes, "hello", 9);
  auto file = NewMemoryRandomAccessFile(bytes);
  for (CompressionNumbering numbering :
       {CompressionNumbering::kLevelDB, CompressionNumbering::kRocksDB}) {
    for (bool verify : {true, false}) {
      ReadBlockOptions options = OptionsFor(bytes);
      options.verify_checksum = verify;
      options.numbering = numbering;
      auto contents = ReadBlock(*file, handle, options, nullptr);
      EXPECT_EQ(contents.status().code(), absl::StatusCode::kDataLoss);
      EXPECT_TRUE(absl::StrContains(contents.status().message(),
                                    "unknown compression type 9"))
          << contents.status();
    }
  }
}

TEST(ReadBlock, UnsupportedCompressionTypeIsUnimplementedNamingTheWriter) {
  std::string bytes;
  const BlockHandle handle = AppendBlock(&bytes, "hello", 6);
  auto file = NewMemoryRandomAccessFile(bytes);
  ReadBlockOptions options = OptionsFor(bytes);
  options.numbering = CompressionNumbering::kRocksDB;
  BlockReadReport report;
  auto contents = ReadBlock(*file, handle, options, &report);
  EXPECT_EQ(contents.status().code(), absl::StatusCode::kUnimplemented);
  EXPECT_TRUE(absl::StrContains(contents.status().message(),
                                "compression type 6 (Xpress, written by "
                                "RocksDB on Windows) is not supported"))
      << contents.status();
  EXPECT_TRUE(absl::StrContains(contents.status().message(), "offset 0"));
  EXPECT_EQ(report.codec, BlockCodec::kXpress);
}

TEST(ReadBlock, HandlePastTheLimitIsRejectedBeforeAnyRead) {
  std::string bytes;
  AppendBlock(&bytes, "hello", kNoCompressionType);
  auto counters = std::make_shared<FileReadCounters>();
  auto file =
      NewCountingRandomAccessFile(NewMemoryRandomAccessFile(bytes), counters);
  const uint64_t max = std::numeric_limits<uint64_t>::max();
  for (BlockHandle handle :
       {BlockHandle(0, 6), BlockHandle(1, 5), BlockHandle(0, max),
        BlockHandle(max, 1), BlockHandle(0, uint64_t{1} << 62)}) {
    auto contents = ReadBlock(*file, handle, OptionsFor(bytes), nullptr);
    EXPECT_EQ(contents.status().code(), absl::StatusCode::kDataLoss);
  }
  EXPECT_EQ(counters->reads.load(), 0u);
}

TEST(ReadBlock, ShortReadIsDataLossTruncated) {
  std::string bytes;
  const BlockHandle handle = AppendBlock(&bytes, "hello", kNoCompressionType);
  auto file = NewMemoryRandomAccessFile(bytes.substr(0, bytes.size() - 1));
  auto contents = ReadBlock(*file, handle, OptionsFor(bytes), nullptr);
  EXPECT_EQ(contents.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_TRUE(absl::StrContains(contents.status().message(), "truncated"));
}

TEST(ReadBlock, SnappyWithABadLengthHeaderIsDataLoss) {
  std::string bytes;
  const BlockHandle handle =
      AppendBlock(&bytes, "\xff\xff\xff\xff\xff\xff", kSnappyCompressionType);
  auto file = NewMemoryRandomAccessFile(bytes);
  EXPECT_EQ(
      ReadBlock(*file, handle, OptionsFor(bytes), nullptr).status().code(),
      absl::StatusCode::kDataLoss);
}

TEST(ReadBlock, SnappyClaimingMoreThanItsBytesCanHoldIsDataLoss) {
  // A varint length of 2^32 - 1 followed by nothing: the claim alone must
  // be refused, without allocating it.
  std::string claim;
  PutVarint32(&claim, 0xffffffffu);
  std::string bytes;
  const BlockHandle handle = AppendBlock(&bytes, claim, kSnappyCompressionType);
  auto file = NewMemoryRandomAccessFile(bytes);
  auto contents = ReadBlock(*file, handle, OptionsFor(bytes), nullptr);
  EXPECT_EQ(contents.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_TRUE(absl::StrContains(contents.status().message(), "can expand to"))
      << contents.status();
}

// The densest inputs Snappy knows: long runs (copies of 64 bytes at 3 bytes
// each) must stay within the bound and read back, so the bound never
// rejects a valid block.
TEST(ReadBlock, DensestSnappyBlocksAreWithinTheExpansionBound) {
  for (const std::string& raw :
       {std::string(1 << 20, '\0'), std::string(100000, 'a'),
        std::string(65, 'b'), std::string(4, 'c')}) {
    const size_t compressed_size = ExpectSnappyBlockReadsBack(raw);
    EXPECT_LE(raw.size(), MaxSnappyUncompressedLength(compressed_size));
  }
}

TEST(MaxSnappyUncompressedLength, Is64BytesPer3AndNeverOverflows) {
  EXPECT_EQ(MaxSnappyUncompressedLength(0), 0u);
  EXPECT_EQ(MaxSnappyUncompressedLength(3), 64u);
  EXPECT_EQ(MaxSnappyUncompressedLength(300), 6400u);
  EXPECT_EQ(MaxSnappyUncompressedLength(std::numeric_limits<size_t>::max()),
            std::numeric_limits<size_t>::max());
}

TEST(ReadBlock, SnappyWithDamagedBodyIsDataLoss) {
  const std::string raw(1000, 'z');
  std::string compressed;
  snappy::Compress(raw.data(), raw.size(), &compressed);
  compressed.resize(compressed.size() - 2);
  std::string bytes;
  const BlockHandle handle =
      AppendBlock(&bytes, compressed, kSnappyCompressionType);
  auto file = NewMemoryRandomAccessFile(bytes);
  EXPECT_EQ(
      ReadBlock(*file, handle, OptionsFor(bytes), nullptr).status().code(),
      absl::StatusCode::kDataLoss);
}

}  // namespace
}  // namespace bloomtable
