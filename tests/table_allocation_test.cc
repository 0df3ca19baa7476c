// What reading a hostile table may allocate (docs/DESIGN.md, "Hostile input"):
// Table::Open, Get, MultiGet and iteration over intact and damaged tables
// never hold more heap than a small multiple of the file's size.
//
// The bound: the reader holds the index, metaindex and filter blocks and the
// data blocks it is reading, each at most its stored size, or 64/3 times
// that after Snappy (the most Snappy can expand; block_compression.h bounds
// the claimed length by it), plus the stored bytes while they are
// decompressed. That is at most 64/3 + 1 < 24 times the file's size, plus a
// constant for the objects themselves. zstd blocks of these tables expand
// less (their real output bounds them: a claimed size beyond 16 times the
// stored bytes is not allocated before the output arrives). A reader that
// allocated what a damaged length or count claims would exceed it.
//
// This binary replaces the global operator new and delete to count the live
// bytes and their peak (tests/counting_operator_new.h).

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/str_cat.h"
#include "bloomtable/file.h"
#include "bloomtable/filter_policy.h"
#include "bloomtable/iterator.h"
#include "bloomtable/options.h"
#include "bloomtable/table.h"
#include "bloomtable/table_builder.h"
#include "fuzz/fix_checksums.h"
#include "gtest/gtest.h"
#include "table/block_compression.h"
#include "tests/codec_blocks.h"
#include "tests/counting_operator_new.h"
#include "tests/hostile_tables.h"
#include "zstd.h"

namespace bloomtable {
namespace {

// The reader's objects themselves: Table and its parts, iterators, statuses
// with their messages, the counters.
constexpr int64_t kConstantAllowance = 64 << 10;
constexpr int64_t kFileSizeMultiple = 24;

// The peak of live heap bytes above the level at the call, while `read`
// runs. Whatever `read` keeps is freed before it returns.
template <typename Read>
int64_t PeakHeapOf(const Read& read) {
  const int64_t before = counting_new::live_bytes.load();
  counting_new::peak_bytes.store(before);
  read();
  return counting_new::peak_bytes.load() - before;
}

// Opens `contents` and reads all it can: Gets and a MultiGet of `probes`,
// a full scan both ways, and seeks to the probes.
void ReadEverything(const Options& options, const std::string& contents,
                    const std::vector<std::string>& probes) {
  auto table = Table::Open(options, NewMemoryRandomAccessFile(contents),
                           contents.size());
  if (!table.ok()) return;
  std::string value;
  for (const std::string& key : probes) {
    (void)(*table)->Get(ReadOptions(), key, &value);
  }
  const std::vector<std::string_view> views(probes.begin(), probes.end());
  (void)(*table)->MultiGet(ReadOptions(), views);
  std::unique_ptr<Iterator> it = (*table)->NewIterator(ReadOptions());
  size_t steps = 0;
  for (it->SeekToFirst(); it->Valid() && steps < 100000; it->Next()) ++steps;
  for (it->SeekToLast(); it->Valid() && steps < 200000; it->Prev()) ++steps;
  for (const std::string& key : probes) it->Seek(key);
}

struct TableKind {
  const char* name;
  CompressionType compression;
  std::shared_ptr<const FilterPolicy> policy;
  FilterLayout layout;
};

std::vector<TableKind> Kinds() {
  return {
      {"snappy, LevelDB Bloom", CompressionType::kSnappy,
       NewLevelDBBloomFilterPolicy(10), FilterLayout::kPerBlock},
      {"none, cache-local Bloom", CompressionType::kNone,
       NewCacheLocalBloomFilterPolicy(10), FilterLayout::kPerBlock},
      {"snappy, Ribbon whole table", CompressionType::kSnappy,
       NewRibbonFilterPolicy(10), FilterLayout::kWholeTable},
      {"zstd, LevelDB Bloom", CompressionType::kZstd,
       NewLevelDBBloomFilterPolicy(10), FilterLayout::kPerBlock},
  };
}

Options OptionsFor(const TableKind& kind) {
  Options options;
  options.block_size = 512;
  options.block_restart_interval = 8;
  options.compression = kind.compression;
  options.filter_policy = kind.policy;
  options.filter_layout = kind.layout;
  return options;
}

// 400 keys; values of 0 to 300 bytes, half of them compressible.
std::string BuildTable(const Options& options, std::vector<std::string>* keys) {
  std::mt19937 rng(301);
  StringWritableFile file;
  TableBuilder builder(options, &file);
  for (int i = 0; i < 400; ++i) {
    const std::string key = absl::StrCat("key", 100000 + i * 7);
    std::string value(rng() % 301, 'v');
    if (i % 2 == 1) {
      for (char& c : value) c = static_cast<char>(rng());
    }
    EXPECT_TRUE(builder.Add(key, value).ok());
    keys->push_back(key);
  }
  EXPECT_TRUE(builder.Finish().ok());
  return file.contents();
}

void ExpectWithinBound(const Options& options, const std::string& contents,
                       const std::vector<std::string>& probes,
                       const std::string& what) {
  const int64_t peak =
      PeakHeapOf([&] { ReadEverything(options, contents, probes); });
  const int64_t bound =
      kFileSizeMultiple * static_cast<int64_t>(contents.size()) +
      kConstantAllowance;
  EXPECT_LE(peak, bound) << what << ": file of " << contents.size() << " bytes";
}

TEST(TableAllocation, IntactTablesStayWithinTheBound) {
  for (const TableKind& kind : Kinds()) {
    const Options options = OptionsFor(kind);
    std::vector<std::string> keys;
    const std::string contents = BuildTable(options, &keys);
    // The counter sees the reader's allocations at all.
    const int64_t peak =
        PeakHeapOf([&] { ReadEverything(options, contents, keys); });
    EXPECT_GT(peak, 0) << kind.name;
    ExpectWithinBound(options, contents, keys, kind.name);
  }
}

// Random damage: byte changes, runs of 0xff (huge varints and lengths),
// truncations; half of the copies with every checksum repaired so that the
// damage reaches the parsers and the decompressor.
TEST(TableAllocation, DamagedTablesStayWithinTheBound) {
  std::mt19937 rng(7);
  for (const TableKind& kind : Kinds()) {
    const Options options = OptionsFor(kind);
    std::vector<std::string> keys;
    const std::string contents = BuildTable(options, &keys);
    const std::vector<std::string> probes(keys.begin(), keys.begin() + 40);
    for (int round = 0; round < 400; ++round) {
      std::string damaged = contents;
      const int changes = 1 + static_cast<int>(rng() % 4);
      for (int c = 0; c < changes; ++c) {
        const size_t at = rng() % damaged.size();
        if (rng() % 3 == 0) {
          const size_t run = std::min<size_t>(5, damaged.size() - at);
          damaged.replace(at, run, run, '\xff');
        } else {
          damaged[at] = static_cast<char>(rng());
        }
      }
      if (rng() % 8 == 0) damaged.resize(rng() % damaged.size());
      if (round % 2 == 1) {
        damaged = fuzz_internal::WithChecksumsFixed(std::move(damaged));
      }
      ExpectWithinBound(options, damaged, probes,
                        absl::StrCat(kind.name, ", round ", round));
    }
  }
}

// A zstd frame whose header claims 65791 bytes and holds 300: the claim is
// within what its bytes could expand to, so only the real output may size
// the buffer, which grows as it arrives and never reaches the claim.
TEST(TableAllocation, ZstdClaimIsNotAllocatedBeforeItsOutputArrives) {
  const std::string raw(300, 'x');
  std::string frame(ZSTD_compressBound(raw.size()), '\0');
  frame.resize(
      ZSTD_compress(frame.data(), frame.size(), raw.data(), raw.size(), 1));
  // Frame header: magic, then a descriptor 0x60 (single segment, a 2-byte
  // content size holding size - 256), then that size.
  ASSERT_EQ(static_cast<unsigned char>(frame[4]), 0x60);
  frame[5] = '\xff';
  frame[6] = '\xff';
  absl::StatusCode code = absl::StatusCode::kOk;
  const int64_t peak = PeakHeapOf([&] {
    code = UncompressBlock(CompressionNumbering::kLevelDB, kZstdCompressionType,
                           frame)
               .status()
               .code();
  });
  EXPECT_EQ(code, absl::StatusCode::kDataLoss);
  EXPECT_LT(peak, 65791 / 2);
}

// The most a streaming decoder's first pass holds while it only counts
// (util/decompression_buffer.h).
constexpr int64_t kMaxScratch = 64 << 10;

// A bzip2 block of a few hundred bytes standing for 16 MiB (a table in
// RocksDB's numbering): the reader stops the decoder at
// Options::max_uncompressed_block_size, having held no more than a scratch
// of output while counting (bzip2's own state is malloc'd, not counted
// here), never what the block would expand to.
TEST(TableAllocation, Bzip2BlockStopsAtTheLimit) {
  constexpr size_t kLimit = size_t{1} << 20;
  const std::string contents = hostile_tables::Bzip2BombTable(size_t{16} << 20);
  ASSERT_LT(contents.size(), 1024u);
  Options options;
  options.max_uncompressed_block_size = kLimit;
  auto table = Table::Open(options, NewMemoryRandomAccessFile(contents),
                           contents.size());
  ASSERT_TRUE(table.ok()) << table.status();
  absl::StatusCode code = absl::StatusCode::kOk;
  const int64_t peak = PeakHeapOf([&] {
    code = (*table)->Get(ReadOptions(), hostile_tables::kKey).status().code();
  });
  EXPECT_EQ(code, absl::StatusCode::kResourceExhausted);
  EXPECT_LE(peak, kMaxScratch + kConstantAllowance);
}

// Every codec the limit bounds: a block of exactly the limit is held in one
// allocation of its size, never in a buffer that grew to it by copies (a
// doubling buffer holds up to 1.5 times its output while it grows, and
// twice it when it is trimmed); a block past the limit costs no more than
// the first pass's scratch. The stored bytes are the caller's (allocated
// before the count starts).
TEST(TableAllocation, NoCodecHoldsMoreThanTheLimit) {
  constexpr size_t kLimit = size_t{1} << 20;
  const std::string at_limit = CompressibleContents(kLimit);
  const std::string past_limit = CompressibleContents(4 * kLimit);
  for (const LimitedCodec& codec : LimitedCodecs()) {
    SCOPED_TRACE(codec.name);
    const std::string whole = codec.compress(at_limit);
    absl::StatusOr<BlockContents> contents;
    int64_t peak = PeakHeapOf([&] {
      contents =
          UncompressBlock(codec.numbering, codec.type, whole, nullptr, kLimit);
    });
    ASSERT_TRUE(contents.ok()) << contents.status();
    EXPECT_EQ(contents->data.size(), kLimit);
    contents = absl::StatusOr<BlockContents>();
    EXPECT_LE(peak, static_cast<int64_t>(kLimit) + kConstantAllowance);

    const std::string large = codec.compress(past_limit);
    peak = PeakHeapOf([&] {
      contents =
          UncompressBlock(codec.numbering, codec.type, large, nullptr, kLimit);
    });
    EXPECT_EQ(contents.status().code(), absl::StatusCode::kResourceExhausted)
        << contents.status();
    contents = absl::StatusOr<BlockContents>();
    EXPECT_LE(peak, kMaxScratch + kConstantAllowance);
  }
}

}  // namespace
}  // namespace bloomtable
