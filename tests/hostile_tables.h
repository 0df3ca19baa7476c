// Crafted table files that once made the reader allocate or read far more
// than the file holds: for the tests that count what reading them costs
// and for the fuzz targets' seeds (fuzz/make_seed_corpus.cc). Each is a
// well-formed table apart from what it is made to show. Test-only code;
// pure functions of their arguments.

#ifndef BLOOMTABLE_TESTS_HOSTILE_TABLES_H_
#define BLOOMTABLE_TESTS_HOSTILE_TABLES_H_

#include <bzlib.h>

#include <cstddef>
#include <string>
#include <string_view>

#include "filter/range_filter.h"
#include "table/block_builder.h"
#include "table/block_compression.h"
#include "table/format.h"
#include "tests/foreign_table_writer.h"

namespace bloomtable {
namespace hostile_tables {

// The key of the one entry in each table's one data block.
inline constexpr std::string_view kKey = "hostile";

// An uncompressed block of the entry (key, value).
inline std::string OneEntryBlock(std::string_view key, std::string_view value) {
  BlockBuilder block(16);
  block.Add(key, value);
  return std::string(block.Finish());
}

// [data block] [meta block] [metaindex] [index] [footer]: one data block
// stored as `data` with trailer type `data_type`, indexed under kKey; a
// meta block stored as `meta` (its checksum deliberately wrong if
// `bad_meta_checksum`); a metaindex naming it `copies` times under
// `meta_key`, restart points far apart so that each copy costs a few bytes.
inline std::string TableWithMetaBlock(std::string_view data,
                                      unsigned char data_type,
                                      std::string_view meta,
                                      bool bad_meta_checksum,
                                      std::string_view meta_key, int copies) {
  std::string file;
  const BlockHandle data_handle =
      foreign_tables::AppendBlock(&file, data, data_type);
  const BlockHandle meta_handle =
      foreign_tables::AppendBlock(&file, meta, kNoCompressionType);
  if (bad_meta_checksum) file[file.size() - 1] ^= 0x01;
  std::string encoded;
  meta_handle.EncodeTo(&encoded);
  BlockBuilder metaindex(1 << 20);
  for (int i = 0; i < copies; ++i) metaindex.Add(meta_key, encoded);
  const BlockHandle metaindex_handle = foreign_tables::AppendBlock(
      &file, metaindex.Finish(), kNoCompressionType);
  encoded.clear();
  data_handle.EncodeTo(&encoded);
  const BlockHandle index_handle = foreign_tables::AppendBlock(
      &file, OneEntryBlock(kKey, encoded), kNoCompressionType);
  Footer(metaindex_handle, index_handle).EncodeTo(&file);
  return file;
}

// A table whose metaindex names its range filter `copies` times, every
// entry pointing at one range filter block whose checksum does not match.
// A reader that tried each entry would read that block `copies` times.
inline std::string RepeatedRangeFilterTable(int copies) {
  RangeFilterBuilder range_filter{RangeFilterOptions()};
  range_filter.AddKey(kKey);
  return TableWithMetaBlock(
      OneEntryBlock(kKey, "value"), kNoCompressionType, range_filter.Finish(),
      /*bad_meta_checksum=*/true,
      "rangefilter." + std::string(RangeFilterBuilder::kName), copies);
}

// `input` as one bzip2 stream of 100 KiB blocks (the least bzip2 takes:
// each block is decoded whole before it yields a byte, so small ones keep
// a read that stops early cheap), "" on failure.
inline std::string Bzip2Stream(std::string_view input) {
  std::string output(input.size() / 64 + 4096, '\0');
  unsigned int size = static_cast<unsigned int>(output.size());
  if (BZ2_bzBuffToBuffCompress(output.data(), &size,
                               const_cast<char*>(input.data()),
                               static_cast<unsigned int>(input.size()),
                               /*blockSize100k=*/1, 0, 0) != BZ_OK) {
    return "";
  }
  output.resize(size);
  return output;
}

// A table in RocksDB's numbering (its metaindex names
// "rocksdb.properties") whose one data block, bzip2 (type 3), holds kKey
// with a value of `value_size` zero bytes: a few hundred stored bytes that
// decompress to `value_size` and more. A valid table; reading it takes a
// max_uncompressed_block_size above its block's size.
inline std::string Bzip2BombTable(size_t value_size) {
  constexpr unsigned char kRocksDBBzip2 = 3;
  const std::string block = OneEntryBlock(kKey, std::string(value_size, '\0'));
  return TableWithMetaBlock(Bzip2Stream(block), kRocksDBBzip2,
                            OneEntryBlock("rocksdb.data.size", "0"),
                            /*bad_meta_checksum=*/false,
                            kRocksDBPropertiesBlockName, 1);
}

// A zstd frame of 10 bytes: a header declaring a 2^`window_log` window and
// no content size, then one RLE block of 100 copies of 'x'. A streaming
// decoder that sized its buffer from the window would reserve 2^window_log
// bytes for 100.
inline std::string WideWindowZstdFrame(int window_log) {
  std::string frame("\x28\xb5\x2f\xfd", 4);  // magic
  frame.push_back('\0');  // no content size, not single-segment, no checksum
  frame.push_back(static_cast<char>((window_log - 10) << 3));  // exponent
  // Block header (little-endian 24 bits): last block, type RLE (1), 100.
  const unsigned header = 1u | (1u << 1) | (100u << 3);
  frame.push_back(static_cast<char>(header & 0xff));
  frame.push_back(static_cast<char>((header >> 8) & 0xff));
  frame.push_back(static_cast<char>(header >> 16));
  frame.push_back('x');
  return frame;
}

// A table (LevelDB's numbering) whose one data block is WideWindowZstdFrame
// (type 2, a zstd frame).
inline std::string WideWindowZstdTable(int window_log) {
  return TableWithMetaBlock(WideWindowZstdFrame(window_log),
                            kZstdCompressionType, OneEntryBlock("k", "v"),
                            /*bad_meta_checksum=*/false, "unused.meta", 1);
}

}  // namespace hostile_tables
}  // namespace bloomtable

#endif  // BLOOMTABLE_TESTS_HOSTILE_TABLES_H_
