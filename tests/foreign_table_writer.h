// WriteForeignTable: table files laid out as other programs that write
// LevelDB's format lay them out, with block compressions that bloomtable's
// own TableBuilder does not write. For the corpus in tests/data/ (written by
// tests/data/make_foreign_tables.cc), its tests, and the fuzz seeds.
// Test-only code; pure functions of their arguments.
//
// The layout is leveldb::TableBuilder's (docs/FORMAT.md, "The file"), which
// the forks keep and only change the compressor of:
//
//   [data block]... [filter block] [metaindex block] [index block] [footer]
//
// - data blocks cut at `block_size` bytes, restart interval 16;
// - a per-block filter block of LevelDB's Bloom filter at 10 bits per key
//   ("filter.leveldb.BuiltinBloomFilter2"), over user keys, uncompressed;
// - every data, metaindex and index block compressed by the codec and
//   stored with its type byte (the masked CRC32C covers the stored bytes
//   and the type), as the forks' TableBuilder::WriteBlock does;
// - index separators are each block's last key (valid separators; LevelDB
//   shortens them, which a reader does not depend on).
//
// The codecs, as their writers produce them:
// - Mojang's Bedrock fork (leveldb-mcpe): type 2 "ZlibCompressor", a zlib
//   stream (deflateInit2 with window bits 15, level -1), and type 4
//   "ZlibCompressorRaw", the same with window bits -15 (raw deflate); both
//   compressed by zlib itself;
// - upstream LevelDB after 1.23: type 2 kZstdCompression, one zstd frame
//   from ZSTD_compress2 at level 1, content size in the frame header;
// - copies of Mojang's fork that add a "ZstdCompressor": type 3, one frame
//   from ZSTD_compress.

#ifndef BLOOMTABLE_TESTS_FOREIGN_TABLE_WRITER_H_
#define BLOOMTABLE_TESTS_FOREIGN_TABLE_WRITER_H_

#include <zlib.h>
#include <zstd.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "bloomtable/filter_policy.h"
#include "filter/filter_block.h"
#include "table/block_builder.h"
#include "table/format.h"
#include "util/coding.h"
#include "util/crc32c.h"

namespace bloomtable {
namespace foreign_tables {

enum class ForeignCodec {
  kBedrockZlib,        // type 2, zlib stream
  kBedrockRawDeflate,  // type 4, raw deflate
  kUpstreamZstd,       // type 2, zstd frame
  kMojangForkZstd,     // type 3, zstd frame
};

inline unsigned char TypeOf(ForeignCodec codec) {
  switch (codec) {
    case ForeignCodec::kBedrockZlib:
    case ForeignCodec::kUpstreamZstd:
      return 2;
    case ForeignCodec::kMojangForkZstd:
      return 3;
    case ForeignCodec::kBedrockRawDeflate:
      return 4;
  }
  return 0;
}

inline std::string ZstdFrame(std::string_view raw) {
  std::string out(ZSTD_compressBound(raw.size()), '\0');
  const size_t size =
      ZSTD_compress(out.data(), out.size(), raw.data(), raw.size(), 1);
  out.resize(ZSTD_isError(size) ? 0 : size);
  return out;
}

// Mojang's ZlibCompressor: zlib itself (not bloomtable's Deflate), with
// deflateInit2 at level -1, memLevel 8, the default strategy, window bits
// 15 (zlib stream) or -15 (raw), output taken in 128 KiB pieces.
inline std::string MojangDeflate(std::string_view raw, int window_bits) {
  z_stream stream{};
  if (deflateInit2(&stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, window_bits, 8,
                   Z_DEFAULT_STRATEGY) != Z_OK) {
    return std::string();
  }
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(raw.data()));
  stream.avail_in = static_cast<uInt>(raw.size());
  std::string out;
  std::string piece(128 * 1024, '\0');
  int result = Z_OK;
  while (result == Z_OK) {
    stream.next_out = reinterpret_cast<Bytef*>(piece.data());
    stream.avail_out = static_cast<uInt>(piece.size());
    result = deflate(&stream, Z_FINISH);
    out.append(piece.data(), piece.size() - stream.avail_out);
  }
  deflateEnd(&stream);
  return result == Z_STREAM_END ? out : std::string();
}

inline std::string Compress(ForeignCodec codec, std::string_view raw) {
  switch (codec) {
    case ForeignCodec::kBedrockZlib:
      return MojangDeflate(raw, 15);
    case ForeignCodec::kBedrockRawDeflate:
      return MojangDeflate(raw, -15);
    case ForeignCodec::kUpstreamZstd:
    case ForeignCodec::kMojangForkZstd:
      return ZstdFrame(raw);
  }
  return std::string(raw);
}

// Appends `contents` with its trailer; returns its handle.
inline BlockHandle AppendBlock(std::string* file, std::string_view contents,
                               unsigned char type) {
  const BlockHandle handle(file->size(), contents.size());
  file->append(contents.data(), contents.size());
  file->push_back(static_cast<char>(type));
  PutFixed32(file, crc32c::Mask(crc32c::Value(file->data() + handle.offset(),
                                              contents.size() + 1)));
  return handle;
}

inline BlockHandle AppendCompressed(std::string* file, ForeignCodec codec,
                                    std::string_view raw) {
  return AppendBlock(file, Compress(codec, raw), TypeOf(codec));
}

// `entries` in key order; `internal_keys`: keys end in LevelDB's 8-byte tag
// and the filter holds the user keys.
inline std::string WriteForeignTable(
    ForeignCodec codec,
    const std::vector<std::pair<std::string, std::string>>& entries,
    bool internal_keys, size_t block_size) {
  const std::shared_ptr<const FilterPolicy> policy =
      NewLevelDBBloomFilterPolicy(10);
  FilterBlockBuilder filter(policy.get());
  filter.StartBlock(0);
  BlockBuilder data(16);
  BlockBuilder index(1);
  std::string file;
  std::string last_key;
  std::string encoded;
  const auto flush = [&] {
    const BlockHandle handle = AppendCompressed(&file, codec, data.Finish());
    data.Reset();
    encoded.clear();
    handle.EncodeTo(&encoded);
    index.Add(last_key, encoded);
    filter.StartBlock(file.size());
  };
  for (const auto& [key, value] : entries) {
    data.Add(key, value);
    filter.AddKey(internal_keys
                      ? std::string_view(key).substr(0, key.size() - 8)
                      : std::string_view(key));
    last_key = key;
    if (data.CurrentSizeEstimate() >= block_size) flush();
  }
  if (!data.empty()) flush();
  const BlockHandle filter_handle =
      AppendBlock(&file, filter.Finish(), kNoCompressionType);
  BlockBuilder metaindex(16);
  encoded.clear();
  filter_handle.EncodeTo(&encoded);
  metaindex.Add("filter." + std::string(policy->Name()), encoded);
  const BlockHandle metaindex_handle =
      AppendCompressed(&file, codec, metaindex.Finish());
  const BlockHandle index_handle =
      AppendCompressed(&file, codec, index.Finish());
  Footer(metaindex_handle, index_handle).EncodeTo(&file);
  return file;
}

// The entries of the corpus's tables: `count` keys "key00000", ... (with
// LevelDB's tag of sequence i + 1, a value, when `internal_keys`) and
// compressible values that differ per key.
inline std::vector<std::pair<std::string, std::string>> CorpusEntries(
    int count, bool internal_keys) {
  std::vector<std::pair<std::string, std::string>> entries;
  for (int i = 0; i < count; ++i) {
    char key[16];
    std::snprintf(key, sizeof(key), "key%05d", i);
    std::string full_key = key;
    if (internal_keys) {
      PutFixed64(&full_key, (static_cast<uint64_t>(i + 1) << 8) | 1);
    }
    std::string value;
    for (int j = 0; j < 1 + i % 5; ++j) {
      value += "chunk " + std::to_string(i) + " subchunk " + std::to_string(j) +
               "; ";
    }
    entries.emplace_back(std::move(full_key), std::move(value));
  }
  return entries;
}

// The committed corpus: file name, codec, and whether its keys are internal
// keys (as in a database's .ldb files) or plain (leveldb::TableBuilder used
// directly).
struct CorpusFile {
  const char* name;
  ForeignCodec codec;
  bool internal_keys;
};

inline constexpr CorpusFile kCorpus[] = {
    {"bedrock_zlib.ldb", ForeignCodec::kBedrockZlib, true},
    {"bedrock_raw_deflate.ldb", ForeignCodec::kBedrockRawDeflate, true},
    {"upstream_zstd.ldb", ForeignCodec::kUpstreamZstd, false},
    {"mojang_fork_zstd.ldb", ForeignCodec::kMojangForkZstd, true},
};

inline constexpr int kCorpusEntries = 400;
inline constexpr size_t kCorpusBlockSize = 1024;

inline std::string WriteCorpusFile(const CorpusFile& spec) {
  return WriteForeignTable(spec.codec,
                           CorpusEntries(kCorpusEntries, spec.internal_keys),
                           spec.internal_keys, kCorpusBlockSize);
}

}  // namespace foreign_tables
}  // namespace bloomtable

#endif  // BLOOMTABLE_TESTS_FOREIGN_TABLE_WRITER_H_
