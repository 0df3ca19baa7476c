// Test helpers: blocks compressed by each codec's own library, the way the
// writers of LevelDB's format call it (zlib and raw deflate, zstd with or
// without its content size, bzip2, LZ4 and zstd after RocksDB's size
// prefixes), and streams left unfinished, whose output is whole but whose
// end never comes. Test-only code; pure functions.

#ifndef BLOOMTABLE_TESTS_CODEC_BLOCKS_H_
#define BLOOMTABLE_TESTS_CODEC_BLOCKS_H_

#include <bzlib.h>
#include <lz4.h>
#include <zlib.h>
#include <zstd.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "gtest/gtest.h"
#include "table/block_compression.h"
#include "util/coding.h"

namespace bloomtable {

// Compressed by zlib itself (not bloomtable's Deflate, so that the reader is
// checked against an independent writer), the way the writers call it:
// deflateInit2 with memLevel 8, output taken in 128 KiB pieces and the input
// given whole, then Z_FINISH. window_bits 15 gives a zlib stream (Mojang's
// type 2), -15 raw deflate (Mojang's type 4), -14 raw deflate with a smaller
// window (RocksDB's default). Mojang's fork takes any level from -1 to 9
// (its default -1) with the default strategy.
inline std::string ZlibDeflate(std::string_view input, int window_bits,
                               int level = Z_BEST_COMPRESSION,
                               int strategy = Z_DEFAULT_STRATEGY,
                               int flush = Z_FINISH) {
  z_stream stream{};
  EXPECT_EQ(deflateInit2(&stream, level, Z_DEFLATED, window_bits, 8, strategy),
            Z_OK);
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(input.data()));
  stream.avail_in = static_cast<uInt>(input.size());
  std::string output;
  std::string piece(128 * 1024, '\0');
  int result = Z_OK;
  while (result == Z_OK) {
    stream.next_out = reinterpret_cast<Bytef*>(piece.data());
    stream.avail_out = static_cast<uInt>(piece.size());
    result = deflate(&stream, flush);
    output.append(piece.data(), piece.size() - stream.avail_out);
    // Without Z_FINISH, the stream is flushed but left open.
    if (flush != Z_FINISH && stream.avail_out != 0) break;
  }
  EXPECT_EQ(result, flush == Z_FINISH ? Z_STREAM_END : Z_OK);
  deflateEnd(&stream);
  return output;
}

inline std::string Deflate(std::string_view input, int window_bits) {
  return ZlibDeflate(input, window_bits);
}

// One zstd frame; `with_size` writes the content size in its header.
inline std::string ZstdFrame(std::string_view input, bool with_size) {
  ZSTD_CCtx* context = ZSTD_createCCtx();
  ZSTD_CCtx_setParameter(context, ZSTD_c_contentSizeFlag, with_size ? 1 : 0);
  std::string output(ZSTD_compressBound(input.size()), '\0');
  const size_t size = ZSTD_compress2(context, output.data(), output.size(),
                                     input.data(), input.size());
  EXPECT_FALSE(ZSTD_isError(size));
  output.resize(size);
  ZSTD_freeCCtx(context);
  return output;
}

inline std::string Bzip2(std::string_view input) {
  std::string output(input.size() + input.size() / 100 + 600, '\0');
  unsigned int size = static_cast<unsigned int>(output.size());
  EXPECT_EQ(BZ2_bzBuffToBuffCompress(output.data(), &size,
                                     const_cast<char*>(input.data()),
                                     static_cast<unsigned int>(input.size()),
                                     /*blockSize100k=*/1, 0, 0),
            BZ_OK);
  output.resize(size);
  return output;
}

inline std::string Lz4Block(std::string_view input) {
  std::string output(LZ4_compressBound(static_cast<int>(input.size())), '\0');
  const int size = LZ4_compress_default(input.data(), output.data(),
                                        static_cast<int>(input.size()),
                                        static_cast<int>(output.size()));
  EXPECT_GT(size, 0);
  output.resize(size);
  return output;
}

// RocksDB's layouts in format_version 0 tables: LZ4 after a fixed64 size,
// zstd after a varint32 size.
inline std::string RocksDBLz4(std::string_view input) {
  std::string block;
  PutFixed64(&block, input.size());
  return block + Lz4Block(input);
}

inline std::string RocksDBZstd(std::string_view input) {
  std::string block;
  PutVarint32(&block, static_cast<uint32_t>(input.size()));
  return block + ZstdFrame(input, true);
}

// One zstd frame of `input` without its end: the blocks flushed, the last
// one not marked last, a 2^17 window; `with_size` declares the content
// size in the header.
inline std::string UnfinishedZstdFrame(std::string_view input,
                                       bool with_size = false) {
  ZSTD_CCtx* context = ZSTD_createCCtx();
  ZSTD_CCtx_setParameter(context, ZSTD_c_contentSizeFlag, with_size ? 1 : 0);
  ZSTD_CCtx_setParameter(context, ZSTD_c_windowLog, 17);
  if (with_size) ZSTD_CCtx_setPledgedSrcSize(context, input.size());
  std::string output(ZSTD_compressBound(input.size()) + 64, '\0');
  ZSTD_outBuffer out = {output.data(), output.size(), 0};
  ZSTD_inBuffer in = {input.data(), input.size(), 0};
  size_t remaining = 0;
  do {
    remaining = ZSTD_compressStream2(context, &out, &in, ZSTD_e_flush);
    EXPECT_FALSE(ZSTD_isError(remaining));
  } while (remaining != 0 && !ZSTD_isError(remaining));
  ZSTD_freeCCtx(context);
  output.resize(out.pos);
  return output;
}

// A bzip2 stream of `input` without the last 4 bytes: its combined CRC at
// the end cut, its blocks whole.
inline std::string UnfinishedBzip2(std::string_view input) {
  std::string output = Bzip2(input);
  output.resize(output.size() - 4);
  return output;
}

// Contents of `size` bytes that compress well but not to nothing.
inline std::string CompressibleContents(size_t size) {
  std::string contents;
  for (int i = 0; contents.size() < size; ++i) {
    contents += "key" + std::to_string(i % 977) + "=value;";
  }
  contents.resize(size);
  return contents;
}

// A codec the caller's limit (Options::max_uncompressed_block_size) bounds,
// with a writer of its blocks.
struct LimitedCodec {
  const char* name;
  CompressionNumbering numbering;
  unsigned char type;
  std::string (*compress)(std::string_view);
  // The stream of `raw` without its end: all of `raw` comes out, and then
  // the decoder waits for bytes that are not there.
  std::string (*unfinished)(std::string_view);
};

inline std::string ZlibStream(std::string_view raw) { return Deflate(raw, 15); }
inline std::string RawDeflate(std::string_view raw) {
  return Deflate(raw, -15);
}
inline std::string ZstdWithSize(std::string_view raw) {
  return ZstdFrame(raw, true);
}
inline std::string ZstdWithoutSize(std::string_view raw) {
  return ZstdFrame(raw, false);
}
inline std::string ZlibWithoutTrailer(std::string_view raw) {
  std::string stream = Deflate(raw, 15);
  stream.resize(stream.size() - 4);  // the Adler-32 of the output
  return stream;
}
inline std::string RawDeflateNotFinished(std::string_view raw) {
  return ZlibDeflate(raw, -15, Z_BEST_COMPRESSION, Z_DEFAULT_STRATEGY,
                     Z_SYNC_FLUSH);
}
inline std::string ZstdNotFinished(std::string_view raw) {
  return UnfinishedZstdFrame(raw);
}
inline std::string ZstdWithSizeNotFinished(std::string_view raw) {
  return UnfinishedZstdFrame(raw, /*with_size=*/true);
}
inline std::string RocksDBZstdNotFinished(std::string_view raw) {
  std::string block;
  PutVarint32(&block, static_cast<uint32_t>(raw.size()));
  return block + UnfinishedZstdFrame(raw, /*with_size=*/true);
}
inline std::string RocksDBLz4Cut(std::string_view raw) {
  std::string block = RocksDBLz4(raw);
  block.resize(block.size() - 1);
  return block;
}

inline const std::vector<LimitedCodec>& LimitedCodecs() {
  static const auto* const kCodecs = new std::vector<LimitedCodec>{
      {"zlib", CompressionNumbering::kLevelDB, 2, ZlibStream,
       ZlibWithoutTrailer},
      {"raw deflate", CompressionNumbering::kLevelDB, 4, RawDeflate,
       RawDeflateNotFinished},
      {"zstd, size declared", CompressionNumbering::kLevelDB, 2, ZstdWithSize,
       ZstdWithSizeNotFinished},
      {"zstd, no size", CompressionNumbering::kLevelDB, 2, ZstdWithoutSize,
       ZstdNotFinished},
      {"zstd after RocksDB's prefix", CompressionNumbering::kRocksDB, 7,
       RocksDBZstd, RocksDBZstdNotFinished},
      {"bzip2", CompressionNumbering::kRocksDB, 3, Bzip2, UnfinishedBzip2},
      {"LZ4", CompressionNumbering::kRocksDB, 4, RocksDBLz4, RocksDBLz4Cut},
  };
  return *kCodecs;
}

}  // namespace bloomtable

#endif  // BLOOMTABLE_TESTS_CODEC_BLOCKS_H_
