// compression_bench: how fast each block compression that bloomtable reads
// decompresses, through the reader's own path (UncompressBlock), on data
// blocks of db_bench's keys and values (README's Benchmarks section),
// compressed as each writer does it. Timing is wall-clock on one thread.
//
//   build/release/db_bench/compression_bench --blocks=4096 --block_size=4096

#include <lz4.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "db_bench/key_generator.h"
#include "db_bench/machine.h"
#include "db_bench/value_generator.h"
#include "nlohmann/json.hpp"
#include "snappy.h"
#include "table/block_builder.h"
#include "table/block_compression.h"
#include "util/coding.h"
#include "util/deflate.h"
#include "util/zstd_codec.h"

ABSL_FLAG(int64_t, blocks, 4096, "data blocks to make (and decompress)");
ABSL_FLAG(int64_t, block_size, 4096, "uncompressed bytes per data block");
ABSL_FLAG(int64_t, key_size, 16, "key size (db_bench's zero-padded numbers)");
ABSL_FLAG(int64_t, value_size, 100, "value size");
ABSL_FLAG(double, compression_ratio, 0.5,
          "how far values compress (db_bench's --compression_ratio)");
ABSL_FLAG(int32_t, zstd_level, 1, "zstd's level (1: upstream LevelDB's)");
ABSL_FLAG(int32_t, runs, 5, "timed runs per codec; the median is reported");
ABSL_FLAG(std::string, json, "",
          "write the JSON document to this file instead of standard output");
ABSL_FLAG(double, min_run_seconds, 0.2,
          "each run decompresses every block as many times as it takes to "
          "last at least this long");

namespace bloomtable {
namespace {

using Clock = std::chrono::steady_clock;

struct Codec {
  std::string name;
  CompressionNumbering numbering;
  unsigned char type;
  std::function<std::string(std::string_view)> compress;
};

std::vector<Codec> Codecs(ZstdCompressor* zstd) {
  return {
      {"snappy", CompressionNumbering::kLevelDB, 1,
       [](std::string_view raw) {
         std::string out;
         snappy::Compress(raw.data(), raw.size(), &out);
         return out;
       }},
      {"zlib", CompressionNumbering::kLevelDB, 2,
       [](std::string_view raw) {
         return Deflate(raw, DeflateWrapper::kZlib);
       }},
      {"raw_deflate", CompressionNumbering::kLevelDB, 4,
       [](std::string_view raw) { return Deflate(raw, DeflateWrapper::kRaw); }},
      {"zstd", CompressionNumbering::kLevelDB, 2,
       [zstd](std::string_view raw) {
         std::string out;
         (void)zstd->Compress(raw, &out);
         return out;
       }},
      {"lz4", CompressionNumbering::kRocksDB, 4,
       [](std::string_view raw) {
         std::string out;
         PutFixed64(&out, raw.size());
         const size_t prefix = out.size();
         out.resize(prefix + LZ4_compressBound(static_cast<int>(raw.size())));
         const int size = LZ4_compress_default(
             raw.data(), out.data() + prefix, static_cast<int>(raw.size()),
             static_cast<int>(out.size() - prefix));
         out.resize(prefix + static_cast<size_t>(std::max(size, 0)));
         return out;
       }},
  };
}

// Data blocks of about block_size bytes, as TableBuilder cuts them.
std::vector<std::string> MakeBlocks(int64_t count, size_t block_size) {
  const size_t key_size = static_cast<size_t>(absl::GetFlag(FLAGS_key_size));
  const size_t value_size =
      static_cast<size_t>(absl::GetFlag(FLAGS_value_size));
  const uint64_t entries_needed =
      static_cast<uint64_t>(count) * (block_size / (key_size + value_size) + 1);
  const db_bench::KeyGenerator keys(key_size, entries_needed);
  const db_bench::ValueGenerator values(
      value_size, absl::GetFlag(FLAGS_compression_ratio), /*seed=*/301);
  std::vector<std::string> blocks;
  BlockBuilder builder(16);
  uint64_t j = 0;
  while (static_cast<int64_t>(blocks.size()) < count) {
    builder.Add(keys.PresentKey(j), values.Value(j));
    ++j;
    if (builder.CurrentSizeEstimate() >= block_size) {
      blocks.emplace_back(builder.Finish());
      builder.Reset();
    }
  }
  return blocks;
}

nlohmann::json Measure(const Codec& codec,
                       const std::vector<std::string>& blocks) {
  std::vector<std::string> stored;
  uint64_t raw_bytes = 0;
  uint64_t stored_bytes = 0;
  for (const std::string& block : blocks) {
    stored.push_back(codec.compress(block));
    raw_bytes += block.size();
    stored_bytes += stored.back().size();
    // Check once, untimed, that the reader gives the block back.
    auto contents = UncompressBlock(codec.numbering, codec.type, stored.back());
    if (!contents.ok() || contents->data != block) {
      std::fprintf(stderr, "compression_bench: %s does not read back\n",
                   codec.name.c_str());
      std::exit(1);
    }
  }
  // As a table reads: one context cache for all its blocks.
  ZstdContextCache zstd_contexts;
  const double min_seconds = absl::GetFlag(FLAGS_min_run_seconds);
  std::vector<double> mb_per_s;
  uint64_t checksum = 0;
  for (int run = 0; run < absl::GetFlag(FLAGS_runs); ++run) {
    uint64_t bytes = 0;
    const Clock::time_point start = Clock::now();
    double seconds = 0;
    do {
      for (const std::string& block : stored) {
        auto contents =
            UncompressBlock(codec.numbering, codec.type, block, &zstd_contexts);
        bytes += contents->data.size();
        checksum += static_cast<unsigned char>(
            contents->data[contents->data.size() / 2]);
      }
      seconds = std::chrono::duration<double>(Clock::now() - start).count();
    } while (seconds < min_seconds);
    mb_per_s.push_back(static_cast<double>(bytes) / 1e6 / seconds);
  }
  std::sort(mb_per_s.begin(), mb_per_s.end());
  return nlohmann::json{
      {"codec", codec.name},
      {"numbering", codec.numbering == CompressionNumbering::kLevelDB
                        ? "leveldb"
                        : "rocksdb"},
      {"type", codec.type},
      {"raw_bytes", raw_bytes},
      {"stored_bytes", stored_bytes},
      {"ratio", static_cast<double>(raw_bytes) /
                    static_cast<double>(std::max<uint64_t>(stored_bytes, 1))},
      {"decompress_mb_per_s",
       {{"median", mb_per_s[mb_per_s.size() / 2]},
        {"min", mb_per_s.front()},
        {"max", mb_per_s.back()}}},
      {"checksum", checksum},
  };
}

int Run() {
  const int64_t count = absl::GetFlag(FLAGS_blocks);
  const int64_t block_size = absl::GetFlag(FLAGS_block_size);
  if (count < 1 || block_size < 64 || absl::GetFlag(FLAGS_runs) < 1 ||
      absl::GetFlag(FLAGS_key_size) < 16 ||
      absl::GetFlag(FLAGS_value_size) < 1 ||
      !db_bench::ValueGenerator::Validate(
           static_cast<size_t>(absl::GetFlag(FLAGS_value_size)),
           absl::GetFlag(FLAGS_compression_ratio))
           .ok()) {
    std::fprintf(stderr,
                 "compression_bench: --blocks >= 1, --block_size >= 64, "
                 "--runs >= 1, --key_size >= 16, --value_size >= 1 and a "
                 "--compression_ratio in (0, 1] are required\n");
    return 2;
  }
  const std::vector<std::string> blocks =
      MakeBlocks(count, static_cast<size_t>(block_size));
  ZstdCompressor zstd(absl::GetFlag(FLAGS_zstd_level));
  nlohmann::json results = nlohmann::json::array();
  for (const Codec& codec : Codecs(&zstd)) {
    results.push_back(Measure(codec, blocks));
  }
  const nlohmann::json report = {
      {"benchmark", "compression_bench"},
      {"blocks", count},
      {"block_size", block_size},
      {"key_size", absl::GetFlag(FLAGS_key_size)},
      {"value_size", absl::GetFlag(FLAGS_value_size)},
      {"compression_ratio", absl::GetFlag(FLAGS_compression_ratio)},
      {"zstd_level", absl::GetFlag(FLAGS_zstd_level)},
      {"runs", absl::GetFlag(FLAGS_runs)},
      {"results", results},
  };
  const absl::Status status =
      db_bench::WriteJson(report, absl::GetFlag(FLAGS_json));
  if (!status.ok()) {
    std::fprintf(stderr, "compression_bench: %s\n", status.ToString().c_str());
    return 1;
  }
  return 0;
}

}  // namespace
}  // namespace bloomtable

int main(int argc, char** argv) {
  absl::SetProgramUsageMessage(
      "Decompression speed of every block compression bloomtable reads. "
      "Example: compression_bench --blocks=4096 --block_size=4096");
  absl::ParseCommandLine(argc, argv);
  return bloomtable::Run();
}
