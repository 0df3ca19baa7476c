// Block decompression in both numberings (table/block_compression.h): every
// codec reads back what its library wrote, in the layout each writer uses;
// damaged, truncated or over-long blocks are DataLoss; types some writer
// uses that are not implemented are Unimplemented; nothing a block claims is
// allocated beyond what its own bytes can expand to.

#include "table/block_compression.h"

#include <bzlib.h>
#include <lz4.h>
#include <zlib.h>
#include <zstd.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "snappy.h"
#include "tests/codec_blocks.h"
#include "util/coding.h"
#include "util/deflate.h"
#include "util/lz4_codec.h"
#include "util/zstd_codec.h"

namespace bloomtable {
namespace {

constexpr CompressionNumbering kLevelDB = CompressionNumbering::kLevelDB;
constexpr CompressionNumbering kRocksDB = CompressionNumbering::kRocksDB;

// Contents that compress some but not entirely.
std::string SampleContents() {
  std::string contents;
  for (int i = 0; i < 500; ++i) {
    contents += "key" + std::to_string(i * 7919 % 1000) + "=value;";
  }
  return contents;
}

void ExpectReadsBack(CompressionNumbering numbering, unsigned char type,
                     const std::string& stored, const std::string& expected,
                     BlockCodec codec) {
  EXPECT_EQ(CodecOf(numbering, type, stored), codec);
  absl::StatusOr<BlockContents> contents =
      UncompressBlock(numbering, type, stored);
  ASSERT_TRUE(contents.ok()) << contents.status();
  EXPECT_EQ(contents->data, expected);
  EXPECT_EQ(contents->data.data(), contents->owned.get());
}

void ExpectStatus(CompressionNumbering numbering, unsigned char type,
                  const std::string& stored, absl::StatusCode code,
                  std::string_view message) {
  absl::StatusOr<BlockContents> contents =
      UncompressBlock(numbering, type, stored);
  EXPECT_EQ(contents.status().code(), code) << contents.status();
  EXPECT_TRUE(
      absl::StrContains(contents.status().message(),
                        absl::string_view(message.data(), message.size())))
      << contents.status();
}

TEST(LevelDBNumbering, Type2IsAZlibStreamAsMojangWritesIt) {
  const std::string raw = SampleContents();
  ExpectReadsBack(kLevelDB, 2, Deflate(raw, 15), raw, BlockCodec::kZlib);
}

// Every level Mojang's fork accepts, and zlib's other strategies (which a
// writer may pick; the stream format is the same), in both of its types.
TEST(LevelDBNumbering, MojangTypesReadEveryZlibLevelAndStrategy) {
  const std::string raw = SampleContents();
  for (int level = -1; level <= 9; ++level) {
    for (int strategy :
         {Z_DEFAULT_STRATEGY, Z_FILTERED, Z_HUFFMAN_ONLY, Z_RLE, Z_FIXED}) {
      SCOPED_TRACE(absl::StrCat("level ", level, ", strategy ", strategy));
      ExpectReadsBack(kLevelDB, 2, ZlibDeflate(raw, 15, level, strategy), raw,
                      BlockCodec::kZlib);
      ExpectReadsBack(kLevelDB, 4, ZlibDeflate(raw, -15, level, strategy), raw,
                      BlockCodec::kRawDeflate);
    }
  }
}

TEST(LevelDBNumbering, Type2IsAZstdFrameAsUpstreamLevelDBWritesIt) {
  const std::string raw = SampleContents();
  ExpectReadsBack(kLevelDB, 2, ZstdFrame(raw, true), raw, BlockCodec::kZstd);
}

TEST(LevelDBNumbering, Type3IsAZstdFrameAsMojangDerivedForksWriteIt) {
  const std::string raw = SampleContents();
  ExpectReadsBack(kLevelDB, 3, ZstdFrame(raw, true), raw, BlockCodec::kZstd);
}

TEST(LevelDBNumbering, Type3ThatIsNoZstdFrameIsUnsupported) {
  ExpectStatus(kLevelDB, 3, Deflate(SampleContents(), 15),
               absl::StatusCode::kUnimplemented,
               "compression type 3 (zstd in forks of Mojang's LevelDB");
}

TEST(LevelDBNumbering, Type4IsRawDeflateAsMojangWritesIt) {
  const std::string raw = SampleContents();
  ExpectReadsBack(kLevelDB, 4, Deflate(raw, -15), raw, BlockCodec::kRawDeflate);
}

TEST(LevelDBNumbering, OtherTypesAreUnknownAndDataLoss) {
  for (int type = 5; type < 256; ++type) {
    SCOPED_TRACE(type);
    ExpectStatus(kLevelDB, static_cast<unsigned char>(type), "hello",
                 absl::StatusCode::kDataLoss,
                 "unknown compression type " + std::to_string(type));
  }
}

TEST(RocksDBNumbering, Type2IsRawDeflateWithRocksDBsWindow) {
  const std::string raw = SampleContents();
  ExpectReadsBack(kRocksDB, 2, Deflate(raw, -14), raw, BlockCodec::kRawDeflate);
}

TEST(RocksDBNumbering, Type3IsBzip2) {
  const std::string raw = SampleContents();
  ExpectReadsBack(kRocksDB, 3, Bzip2(raw), raw, BlockCodec::kBzip2);
}

TEST(RocksDBNumbering, Types4And5AreLz4AfterAFixed64Size) {
  const std::string raw = SampleContents();
  ExpectReadsBack(kRocksDB, 4, RocksDBLz4(raw), raw, BlockCodec::kLz4);
  ExpectReadsBack(kRocksDB, 5, RocksDBLz4(raw), raw, BlockCodec::kLz4);
}

TEST(RocksDBNumbering, Types7And0x40AreZstdAfterAVarint32Size) {
  const std::string raw = SampleContents();
  ExpectReadsBack(kRocksDB, 7, RocksDBZstd(raw), raw, BlockCodec::kZstd);
  ExpectReadsBack(kRocksDB, 0x40, RocksDBZstd(raw), raw, BlockCodec::kZstd);
}

TEST(RocksDBNumbering, XpressIsUnsupportedNamingRocksDB) {
  ExpectStatus(kRocksDB, 6, "hello", absl::StatusCode::kUnimplemented,
               "compression type 6 (Xpress, written by RocksDB on Windows)");
}

TEST(RocksDBNumbering, OtherTypesAreUnknownAndDataLoss) {
  for (int type = 8; type < 256; ++type) {
    if (type == 0x40) continue;
    SCOPED_TRACE(type);
    ExpectStatus(kRocksDB, static_cast<unsigned char>(type), "hello",
                 absl::StatusCode::kDataLoss,
                 "unknown compression type " + std::to_string(type));
  }
}

TEST(BothNumberings, SnappyIsType1) {
  EXPECT_EQ(CodecOf(kLevelDB, 1, ""), BlockCodec::kSnappy);
  EXPECT_EQ(CodecOf(kRocksDB, 1, ""), BlockCodec::kSnappy);
}

TEST(ZstdMagic, NoZlibHeaderStartsWithIt) {
  // A zlib header is two bytes CMF, FLG with (CMF * 256 + FLG) % 31 == 0.
  EXPECT_NE((0x28 * 256 + 0xB5) % 31, 0);
  EXPECT_TRUE(IsZstdFrame(ZstdFrame("x", true)));
  EXPECT_FALSE(IsZstdFrame(Deflate("x", 15)));
  EXPECT_FALSE(IsZstdFrame(std::string("\x28\xb5\x2f", 3)));
}

TEST(DamagedBlocks, TruncatedStreamsAreDataLoss) {
  const std::string raw = SampleContents();
  const std::string zlib = Deflate(raw, 15);
  const std::string zstd = ZstdFrame(raw, true);
  const std::string bzip2 = Bzip2(raw);
  const std::string lz4 = RocksDBLz4(raw);
  for (size_t cut : {size_t{1}, size_t{7}}) {
    ExpectStatus(kLevelDB, 2, zlib.substr(0, zlib.size() - cut),
                 absl::StatusCode::kDataLoss, "zlib");
    ExpectStatus(kLevelDB, 4, Deflate(raw, -15).substr(0, 30),
                 absl::StatusCode::kDataLoss, "raw deflate");
    ExpectStatus(kLevelDB, 2, zstd.substr(0, zstd.size() - cut),
                 absl::StatusCode::kDataLoss, "zstd");
    ExpectStatus(kRocksDB, 3, bzip2.substr(0, bzip2.size() - cut),
                 absl::StatusCode::kDataLoss, "bzip2");
    ExpectStatus(kRocksDB, 4, lz4.substr(0, lz4.size() - cut),
                 absl::StatusCode::kDataLoss, "LZ4");
  }
  ExpectStatus(kLevelDB, 2, "", absl::StatusCode::kDataLoss, "zlib");
  ExpectStatus(kRocksDB, 4, "1234567", absl::StatusCode::kDataLoss,
               "no size prefix");
}

TEST(DamagedBlocks, BytesAfterTheStreamAreDataLoss) {
  const std::string raw = SampleContents();
  ExpectStatus(kLevelDB, 2, Deflate(raw, 15) + "x", absl::StatusCode::kDataLoss,
               "after the end");
  ExpectStatus(kLevelDB, 4, Deflate(raw, -15) + "x",
               absl::StatusCode::kDataLoss, "after the end");
  ExpectStatus(kLevelDB, 2, ZstdFrame(raw, true) + "x",
               absl::StatusCode::kDataLoss, "after the end");
  ExpectStatus(kLevelDB, 2, ZstdFrame(raw, false) + "x",
               absl::StatusCode::kDataLoss, "after the end");
  ExpectStatus(kRocksDB, 3, Bzip2(raw) + "x", absl::StatusCode::kDataLoss,
               "after the end");
}

TEST(DamagedBlocks, SizePrefixesMustMatchTheContents) {
  const std::string raw = SampleContents();
  std::string lz4 = RocksDBLz4(raw);
  EncodeFixed64(lz4.data(), raw.size() + 1);
  ExpectStatus(kRocksDB, 4, lz4, absl::StatusCode::kDataLoss, "LZ4");
  std::string zstd;
  PutVarint32(&zstd, static_cast<uint32_t>(raw.size() - 1));
  zstd += ZstdFrame(raw, true);
  ExpectStatus(kRocksDB, 7, zstd, absl::StatusCode::kDataLoss, "size prefix");
  zstd.clear();
  PutVarint32(&zstd, static_cast<uint32_t>(raw.size() - 1));
  zstd += ZstdFrame(raw, false);
  ExpectStatus(kRocksDB, 7, zstd, absl::StatusCode::kDataLoss, "zstd");
}

// A size claim beyond what the stored bytes can expand to is refused before
// anything is allocated for it.
TEST(ExpansionBounds, ClaimsBeyondTheCodecsDensestCodingAreDataLoss) {
  std::string lz4;
  PutFixed64(&lz4, uint64_t{1} << 40);
  lz4 += Lz4Block("abc");
  ExpectStatus(kRocksDB, 4, lz4, absl::StatusCode::kDataLoss, "can expand to");
  std::string zstd;
  PutVarint32(&zstd, 0xffffffffu);
  zstd += ZstdFrame("abc", false);
  ExpectStatus(kRocksDB, 7, zstd, absl::StatusCode::kDataLoss, "can expand to");
}

// The densest real blocks: a megabytes-long run of one byte, which every
// codec shrinks far more than a typical block; all read back within the
// bounds, through both the one-call and the streaming zstd paths.
TEST(ExpansionBounds, HighlyCompressibleBlocksReadBack) {
  const std::string raw(8 << 20, '\0');
  const std::string zlib = Deflate(raw, 15);
  EXPECT_LE(raw.size(), MaxInflatedSize(zlib.size()));
  ExpectReadsBack(kLevelDB, 2, zlib, raw, BlockCodec::kZlib);
  ExpectReadsBack(kLevelDB, 4, Deflate(raw, -15), raw, BlockCodec::kRawDeflate);
  for (bool with_size : {true, false}) {
    const std::string zstd = ZstdFrame(raw, with_size);
    EXPECT_LE(raw.size(), MaxZstdDecompressedSize(zstd.size()));
    ExpectReadsBack(kLevelDB, 2, zstd, raw, BlockCodec::kZstd);
  }
  const std::string lz4 = Lz4Block(raw);
  EXPECT_LE(raw.size(), MaxLz4DecompressedSize(lz4.size()));
  ExpectReadsBack(kRocksDB, 4, RocksDBLz4(raw), raw, BlockCodec::kLz4);
  ExpectReadsBack(kRocksDB, 3, Bzip2(raw), raw, BlockCodec::kBzip2);
}

TEST(ExpansionBounds, AreTheCodecsDensestRatiosAndNeverOverflow) {
  EXPECT_EQ(MaxInflatedSize(1), 1032u);
  EXPECT_EQ(MaxZstdDecompressedSize(1), 32768u);
  EXPECT_EQ(MaxLz4DecompressedSize(1), 255u);
  EXPECT_EQ(MaxSnappyUncompressedLength(3), 64u);
  EXPECT_EQ(MaxInflatedSize(SIZE_MAX), SIZE_MAX);
  EXPECT_EQ(MaxZstdDecompressedSize(SIZE_MAX), SIZE_MAX);
  EXPECT_EQ(MaxLz4DecompressedSize(SIZE_MAX), SIZE_MAX);
}

TEST(CompressionNumberingNames, NameEveryCodec) {
  EXPECT_EQ(BlockCodecName(BlockCodec::kNone), "none");
  EXPECT_EQ(BlockCodecName(BlockCodec::kSnappy), "snappy");
  EXPECT_EQ(BlockCodecName(BlockCodec::kZlib), "zlib");
  EXPECT_EQ(BlockCodecName(BlockCodec::kRawDeflate), "raw deflate");
  EXPECT_EQ(BlockCodecName(BlockCodec::kZstd), "zstd");
  EXPECT_EQ(BlockCodecName(BlockCodec::kBzip2), "bzip2");
  EXPECT_EQ(BlockCodecName(BlockCodec::kLz4), "lz4");
  EXPECT_EQ(BlockCodecName(BlockCodec::kXpress), "xpress");
}

// ---------------------------------------------------------------------------
// The caller's limit (Options::max_uncompressed_block_size), one for every
// codec whose output its stored size does not bound tightly.

// A limit past the first pass's 64 KiB scratch, so that the output is
// counted before its exact allocation, and not a round number.
constexpr size_t kLimit = 200003;

absl::StatusOr<BlockContents> Uncompress(const LimitedCodec& codec,
                                         const std::string& stored,
                                         size_t limit) {
  return UncompressBlock(codec.numbering, codec.type, stored, nullptr, limit);
}

TEST(UncompressedLimit, EveryCodecReadsABlockOfExactlyTheLimit) {
  const std::string raw = CompressibleContents(kLimit);
  for (const LimitedCodec& codec : LimitedCodecs()) {
    SCOPED_TRACE(codec.name);
    absl::StatusOr<BlockContents> contents =
        Uncompress(codec, codec.compress(raw), kLimit);
    ASSERT_TRUE(contents.ok()) << contents.status();
    EXPECT_EQ(contents->data, raw);
  }
}

// One error for every codec: ResourceExhausted, naming the option.
TEST(UncompressedLimit, EveryCodecRefusesABlockOneBytePastIt) {
  const std::string raw = CompressibleContents(kLimit + 1);
  for (const LimitedCodec& codec : LimitedCodecs()) {
    SCOPED_TRACE(codec.name);
    absl::StatusOr<BlockContents> contents =
        Uncompress(codec, codec.compress(raw), kLimit);
    EXPECT_EQ(contents.status().code(), absl::StatusCode::kResourceExhausted)
        << contents.status();
    EXPECT_TRUE(absl::StrContains(contents.status().message(),
                                  "Options::max_uncompressed_block_size"))
        << contents.status();
    EXPECT_TRUE(
        absl::StrContains(contents.status().message(), absl::StrCat(kLimit)))
        << contents.status();
  }
}

// A stream whose output reaches exactly the limit and then ends before its
// end: damaged, not too large (the output passes limit - 1, so the whole
// of it came out).
TEST(UncompressedLimit, AStreamCutExactlyAtTheLimitIsDamage) {
  const std::string raw = CompressibleContents(kLimit);
  for (const LimitedCodec& codec : LimitedCodecs()) {
    SCOPED_TRACE(codec.name);
    const std::string stored = codec.unfinished(raw);
    absl::StatusOr<BlockContents> contents = Uncompress(codec, stored, kLimit);
    EXPECT_EQ(contents.status().code(), absl::StatusCode::kDataLoss)
        << contents.status();
    contents = Uncompress(codec, stored, kLimit - 1);
    EXPECT_EQ(contents.status().code(), absl::StatusCode::kResourceExhausted)
        << contents.status();
  }
}

// Snappy stays bounded by its own densest expansion only: the caller's
// limit does not apply (LevelDB tables hold large Snappy blocks).
TEST(UncompressedLimit, SnappyIsNotLimited) {
  const std::string raw = CompressibleContents(kLimit + 1000);
  std::string stored;
  snappy::Compress(raw.data(), raw.size(), &stored);
  absl::StatusOr<BlockContents> contents =
      UncompressBlock(kLevelDB, 1, stored, nullptr, kLimit);
  ASSERT_TRUE(contents.ok()) << contents.status();
  EXPECT_EQ(contents->data, raw);
}

}  // namespace
}  // namespace bloomtable
