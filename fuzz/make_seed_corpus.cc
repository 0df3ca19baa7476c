// Writes seed corpora for the fuzz targets into OUT_DIR/<target>/: small
// valid tables of every option combination (block size, restart interval,
// compression, filter policy and layout, key format), raw blocks, footers,
// filters, filter blocks and range filters in each target's input layout,
// tables with the compressions other writers use (bloomtable's zstd,
// Mojang's zlib and raw deflate, upstream LevelDB's zstd:
// tests/foreign_table_writer.h), and, when built with LevelDB, tables that
// LevelDB itself wrote (a database's compacted .ldb files and
// leveldb::TableBuilder output); logs, MANIFESTs, write batches and
// version edits (WriteLogSeeds); and sidecar filter files (WriteSidecars).
//
//   make_seed_corpus OUT_DIR

#include <sys/stat.h>

#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "bloomtable/file.h"
#include "bloomtable/filter_policy.h"
#include "bloomtable/options.h"
#include "bloomtable/prefix_extractor.h"
#include "bloomtable/sidecar.h"
#include "bloomtable/table.h"
#include "bloomtable/table_builder.h"
#include "bloomtable/version_edit.h"
#include "bloomtable/write_batch.h"
#include "db/log_writer.h"
#include "db/sidecar_binding.h"
#include "db/sidecar_builder.h"
#include "db/sidecar_format.h"
#include "filter/cache_local_bloom.h"
#include "filter/filter_block.h"
#include "filter/range_filter.h"
#include "fuzz/fuzz_options.h"
#include "table/block_builder.h"
#include "table/internal_key.h"
#include "tests/foreign_table_writer.h"
#include "tests/hostile_tables.h"
#include "util/coding.h"

#ifdef BLOOMTABLE_SEEDS_WITH_LEVELDB
#include <dirent.h>

#include <fstream>
#include <iterator>
#include <memory>

#include "leveldb/db.h"
#include "leveldb/env.h"
#include "leveldb/filter_policy.h"
#include "leveldb/options.h"
#include "leveldb/table_builder.h"
#include "leveldb/write_batch.h"
#endif

namespace bloomtable {
namespace {

// The -max_len the fuzzers run with (.ci/run): 16 KiB. No seed is longer
// (SeedWriter::Write fails on one that is).
constexpr size_t kMaxInputLength = 16384;

class SeedWriter {
 public:
  explicit SeedWriter(std::string out) : out_(std::move(out)) {
    ::mkdir(out_.c_str(), 0755);
  }

  // Writes one seed. A seed longer than the fuzzers' -max_len would reach
  // them cut short, as a different input: it is not written, and counts as
  // a failure (Main reports it and fails), so every seed is replayed whole.
  void Write(const std::string& target, const std::string& name,
             const std::string& bytes) {
    if (bytes.size() > kMaxInputLength) {
      std::fprintf(stderr,
                   "make_seed_corpus: %s/%s is %zu bytes, longer than the "
                   "fuzzers' -max_len of %zu: make it smaller\n",
                   target.c_str(), name.c_str(), bytes.size(), kMaxInputLength);
      ++too_long_;
      return;
    }
    const std::string dir = out_ + "/" + target;
    ::mkdir(dir.c_str(), 0755);
    std::FILE* file = std::fopen((dir + "/" + name).c_str(), "wb");
    bool ok = file != nullptr;
    if (ok) {
      ok = std::fwrite(bytes.data(), 1, bytes.size(), file) == bytes.size();
      ok = std::fclose(file) == 0 && ok;
    }
    if (ok) {
      ++written_;
      ++per_target_[target];
    } else {
      ++failed_;
    }
  }

  // A whole table: the table, tool and (its footer) format targets.
  void WriteTable(const std::string& name, const std::string& bytes) {
    Write("table_fuzzer", name, bytes);
    Write("tool_fuzzer", name, bytes);
    if (bytes.size() >= 48) {
      Write("format_fuzzer", name + ".footer", bytes.substr(bytes.size() - 48));
    }
  }

  const std::string& out() const { return out_; }
  int written() const { return written_; }
  int failed() const { return failed_; }
  int too_long() const { return too_long_; }
  const std::map<std::string, int>& per_target() const { return per_target_; }

 private:
  const std::string out_;
  int written_ = 0;
  int failed_ = 0;
  int too_long_ = 0;
  std::map<std::string, int> per_target_;
};

std::string UserKey(int i) {
  char key[32];
  std::snprintf(key, sizeof(key), "key%05d", i);
  return key;
}

// A LevelDB internal key: user key, then fixed64 (sequence << 8) | type.
std::string InternalKey(int i, uint64_t sequence, bool deletion) {
  std::string key = UserKey(i);
  PutFixed64(&key, (sequence << 8) | (deletion ? 0 : 1));
  return key;
}

std::string PolicyTag(
    int filter,
    const std::vector<std::shared_ptr<const FilterPolicy>>& policies) {
  return filter < 0 ? "none" : std::string(policies[filter]->Name());
}

// Tables of every option combination, `num_keys` keys each.
bool WriteTables(SeedWriter* seeds, int num_keys) {
  const std::vector<std::shared_ptr<const FilterPolicy>> policies =
      AllFilterPolicies();
  int count = 0;
  for (size_t block_size : {64u, 512u, 4096u}) {
    for (int restart_interval : {1, 16}) {
      // Blocks of 64 bytes with a full key per entry make the largest
      // tables: with 300 keys they exceed the fuzzers' 16 KiB (Write
      // refuses them), so only the 40-key tables cover that combination.
      if (num_keys > 40 && block_size == 64 && restart_interval == 1) {
        continue;
      }
      for (CompressionType compression :
           {CompressionType::kNone, CompressionType::kSnappy}) {
        for (int filter = -1; filter < static_cast<int>(policies.size());
             ++filter) {
          for (FilterLayout layout :
               {FilterLayout::kPerBlock, FilterLayout::kWholeTable,
                FilterLayout::kPartitioned}) {
            for (KeyFormat key_format :
                 {KeyFormat::kPlain, KeyFormat::kLevelDBInternal}) {
              if (filter < 0 && layout != FilterLayout::kPerBlock) continue;
              // A whole-table-only policy writes the same table either way.
              if (filter >= 0 && !policies[filter]->SupportsPerBlock() &&
                  layout == FilterLayout::kPerBlock) {
                continue;
              }
              Options options;
              options.block_size = block_size;
              options.block_restart_interval = restart_interval;
              options.compression = compression;
              options.filter_layout = layout;
              // Several partitions even in small tables.
              options.filter_partition_keys = 4;
              options.key_format = key_format;
              if (filter >= 0) options.filter_policy = policies[filter];
              StringWritableFile file;
              TableBuilder builder(options, &file);
              for (int i = 0; i < num_keys; ++i) {
                const std::string value(i % 7 * 3,
                                        static_cast<char>('a' + i % 26));
                if (key_format == KeyFormat::kPlain) {
                  (void)builder.Add(UserKey(i), value);
                } else {
                  // Two versions of every third key, newest first; the
                  // newer one alternately a deletion.
                  if (i % 3 == 0) {
                    (void)builder.Add(InternalKey(i, 100000 + i, i % 2 == 0),
                                      "");
                  }
                  (void)builder.Add(InternalKey(i, i, false), value);
                }
              }
              if (!builder.Finish().ok()) return false;
              seeds->WriteTable(
                  "table_" + std::to_string(num_keys) + "keys_" +
                      std::to_string(count++) + "_" +
                      PolicyTag(filter, policies) +
                      (layout == FilterLayout::kWholeTable    ? "_whole"
                       : layout == FilterLayout::kPartitioned ? "_partitioned"
                                                              : ""),
                  file.contents());
            }
          }
        }
      }
    }
  }
  return true;
}

// Tables whose blocks the zlib, raw deflate and zstd decoders read: written
// by bloomtable with kZstd, and in the layouts of other writers.
bool WriteCompressedTables(SeedWriter* seeds) {
  for (KeyFormat key_format :
       {KeyFormat::kPlain, KeyFormat::kLevelDBInternal}) {
    Options options;
    options.block_size = 256;
    options.compression = CompressionType::kZstd;
    options.key_format = key_format;
    options.filter_policy = NewLevelDBBloomFilterPolicy(10);
    StringWritableFile file;
    TableBuilder builder(options, &file);
    for (int i = 0; i < 60; ++i) {
      const std::string value(i % 9 * 4, static_cast<char>('a' + i % 3));
      (void)builder.Add(key_format == KeyFormat::kPlain
                            ? UserKey(i)
                            : InternalKey(i, i + 1, false),
                        value);
    }
    if (!builder.Finish().ok()) return false;
    seeds->WriteTable(
        key_format == KeyFormat::kPlain ? "zstd_plain" : "zstd_internal",
        file.contents());
  }
  for (const foreign_tables::CorpusFile& spec : foreign_tables::kCorpus) {
    seeds->WriteTable(
        std::string("foreign_") + spec.name,
        foreign_tables::WriteForeignTable(
            spec.codec, foreign_tables::CorpusEntries(60, spec.internal_keys),
            spec.internal_keys, 256));
  }
  return true;
}

// Tables with scan filters: a prefix filter of each extractor kind (with and
// without whole keys), a range filter, both; plain and internal keys.
bool WriteScanFilterTables(SeedWriter* seeds) {
  const std::shared_ptr<const PrefixExtractor> extractors[] = {
      nullptr, NewFixedPrefixExtractor(6), NewCappedPrefixExtractor(7),
      NewDelimitedPrefixExtractor(':', 2)};
  int count = 0;
  for (const auto& extractor : extractors) {
    for (bool whole_keys : {true, false}) {
      for (bool range_filter : {false, true}) {
        for (KeyFormat key_format :
             {KeyFormat::kPlain, KeyFormat::kLevelDBInternal}) {
          if (extractor == nullptr && (!whole_keys || !range_filter)) continue;
          Options options;
          options.block_size = 256;
          options.key_format = key_format;
          options.filter_policy = count % 2 == 0
                                      ? NewLevelDBBloomFilterPolicy(10)
                                      : NewCacheLocalBloomFilterPolicy(10);
          options.prefix_extractor = extractor;
          options.whole_key_filtering = whole_keys;
          if (range_filter) options.range_filter_bits_per_key = 12;
          StringWritableFile file;
          TableBuilder builder(options, &file);
          for (int i = 0; i < 60; ++i) {
            // Even ids of three digits (sorted; odd prefixes absent).
            const std::string user_key =
                "user:" + std::to_string(100 + 2 * (i / 3)) + ":" +
                std::to_string(i % 3);
            if (key_format == KeyFormat::kPlain) {
              (void)builder.Add(user_key, std::string(i % 5, 'v'));
            } else {
              std::string key = user_key;
              PutFixed64(&key, (uint64_t{1000} + i) << 8 | 1);
              (void)builder.Add(key, std::string(i % 5, 'v'));
            }
          }
          if (!builder.Finish().ok()) return false;
          seeds->WriteTable("scan_filters_" + std::to_string(count++),
                            file.contents());
        }
      }
    }
  }
  return true;
}

void WriteBlocks(SeedWriter* seeds) {
  for (int restart_interval : {1, 2, 16}) {
    BlockBuilder block(restart_interval);
    for (int i = 0; i < 30; ++i) block.Add(UserKey(i), std::string(i % 5, 'v'));
    seeds->Write("block_fuzzer", "block" + std::to_string(restart_interval),
                 std::string(block.Finish()));
    BlockBuilder internal(restart_interval);
    for (int i = 0; i < 30; ++i) {
      internal.Add(InternalKey(i, 1000 - i, i % 4 == 0),
                   std::string(i % 3, 'w'));
    }
    seeds->Write("block_fuzzer",
                 "internal_block" + std::to_string(restart_interval),
                 std::string(internal.Finish()));
  }
  BlockBuilder empty(16);
  seeds->Write("block_fuzzer", "empty_block", std::string(empty.Finish()));
}

// filter_policy_fuzzer: read mode [policy][key length][key][filter] and
// build mode [0x80 | kind][parameter][copies][length, key]...
void WriteFilters(SeedWriter* seeds) {
  const std::vector<std::shared_ptr<const FilterPolicy>> policies =
      AllFilterPolicies();
  // A read-mode seed: policy p asked about key `probe` against `filter`.
  auto write_read_seed = [&](size_t p, int probe, const std::string& filter,
                             const std::string& what) {
    std::string seed;
    seed.push_back(static_cast<char>(p));
    seed.push_back(8);
    seed += UserKey(probe);
    seed += filter;
    seeds->Write("filter_policy_fuzzer",
                 "read_" + std::string(policies[p]->Name()) + "_" + what +
                     "_probe" + std::to_string(probe),
                 seed);
  };
  for (size_t p = 0; p < policies.size(); ++p) {
    for (int n : {0, 1, 10, 100, 300, 1000}) {
      std::vector<std::string> keys;
      for (int i = 0; i < n; ++i) keys.push_back(UserKey(i));
      std::vector<std::string_view> views(keys.begin(), keys.end());
      std::string filter;
      policies[p]->CreateFilter(views.data(), views.size(), &filter);
      for (int probe : {0, n + 1}) {
        write_read_seed(p, probe, filter, std::to_string(n));
      }
    }
  }
  // The cache-local Bloom's filters of one line, in both forms: the key sets
  // of 1 and 10 keys above are written compact (the line, then 0xC0 + k);
  // these add one of 20 keys, and the same line as version 1 wrote it (the
  // line, fixed32 1, k, 0xB1), which files written before the compact form
  // hold and readers still take.
  for (size_t p = 0; p < policies.size(); ++p) {
    if (policies[p]->Name() != "bloomtable.CacheLocalBloom") continue;
    std::vector<std::string> keys;
    for (int i = 0; i < 20; ++i) keys.push_back(UserKey(i));
    std::vector<std::string_view> views(keys.begin(), keys.end());
    std::string compact;
    policies[p]->CreateFilter(views.data(), views.size(), &compact);
    if (!CacheLocalBloomView(compact).compact()) continue;
    std::string version1 = compact.substr(0, compact.size() - 1);
    PutFixed32(&version1, 1);
    version1.push_back(static_cast<char>(static_cast<uint8_t>(compact.back()) -
                                         kCacheLocalBloomCompactBase));
    version1.push_back(static_cast<char>(kCacheLocalBloomFormatV1));
    for (const auto& [form, filter] :
         {std::pair<std::string, std::string>{"compact", compact},
          std::pair<std::string, std::string>{"version1", version1}}) {
      for (int probe : {0, 21}) {
        write_read_seed(p, probe, filter, "one_line_" + form);
      }
    }
  }
  // Build mode: each of the four policy kinds, with a few keys repeated into
  // enough copies to make a real Ribbon filter.
  for (int kind = 0; kind < 4; ++kind) {
    for (int copies : {1, 40}) {
      std::string seed;
      seed.push_back(static_cast<char>(0x80 | kind));
      seed.push_back(0);  // the first (ordinary) parameter
      seed.push_back(static_cast<char>(copies - 1));
      for (int i = 0; i < 12; ++i) {
        const std::string key = UserKey(i * 7);
        seed.push_back(static_cast<char>(key.size()));
        seed += key;
      }
      seeds->Write("filter_policy_fuzzer",
                   "build_kind" + std::to_string(kind) + "_copies" +
                       std::to_string(copies),
                   seed);
    }
  }
}

// filter_block_fuzzer: read mode [policy][fixed16 n][block][queries] with
// real filter blocks, and build mode [0x80 | policy][records].
void WriteFilterBlocks(SeedWriter* seeds) {
  const std::vector<std::shared_ptr<const FilterPolicy>> policies =
      AllFilterPolicies();
  for (size_t p = 0; p < policies.size(); ++p) {
    // Blocks at 0, 1000, 3000, 9000: filters shared, single and empty.
    const uint64_t offsets[] = {0, 1000, 3000, 9000};
    FilterBlockBuilder builder(policies[p].get());
    builder.StartBlock(0);
    std::string queries;
    int key_index = 0;
    for (size_t b = 0; b < 4; ++b) {
      for (int i = 0; i < 5; ++i) {
        const std::string key = UserKey(key_index++);
        builder.AddKey(key);
        queries.push_back(static_cast<char>(key.size()));
        queries += key;
        PutFixed64(&queries, offsets[b]);
      }
      builder.StartBlock(b + 1 < 4 ? offsets[b + 1] : 9100);
    }
    const std::string block(builder.Finish());
    std::string seed;
    seed.push_back(static_cast<char>(p));
    seed.push_back(static_cast<char>(block.size() & 0xff));
    seed.push_back(static_cast<char>(block.size() >> 8));
    seed += block;
    seed += queries;
    seeds->Write("filter_block_fuzzer",
                 "read_" + std::string(policies[p]->Name()), seed);

    std::string build;
    build.push_back(static_cast<char>(0x80 | p));
    for (int b = 0; b < 6; ++b) {
      for (int i = 0; i < 4; ++i) {
        const std::string key = UserKey(b * 10 + i);
        build.push_back(static_cast<char>(key.size()));
        build += key;
      }
      build.push_back(static_cast<char>(0x80 | (b * 13)));
    }
    seeds->Write("filter_block_fuzzer",
                 "build_" + std::string(policies[p]->Name()), build);
  }
}

// range_filter_fuzzer: read mode [0][fixed16 n][filter][queries] with
// filters of both modes, and build mode [0x80 | options][keys].
void WriteRangeFilters(SeedWriter* seeds) {
  const auto query = [](std::string* seed, const std::string& lo,
                        const std::string& hi) {
    seed->push_back(static_cast<char>(lo.size()));
    *seed += lo;
    seed->push_back(static_cast<char>(hi.size()));
    *seed += hi;
  };
  for (int n : {0, 1, 10, 300}) {
    for (int stride : {1, 1000}) {
      // Stride 1: few integers, the exact mode; 1000: the hashed mode.
      RangeFilterBuilder builder{RangeFilterOptions()};
      for (int i = 0; i < n; ++i) builder.AddKey(UserKey(i * stride % 100000));
      const std::string filter = builder.Finish();
      if (filter.size() > 0xffff) continue;
      std::string seed(1, '\0');
      seed.push_back(static_cast<char>(filter.size() & 0xff));
      seed.push_back(static_cast<char>(filter.size() >> 8));
      seed += filter;
      query(&seed, UserKey(0), UserKey(5));
      query(&seed, UserKey(3) + "x", UserKey(4));
      query(&seed, "key", "kez");
      seeds->Write(
          "range_filter_fuzzer",
          "read_" + std::to_string(n) + "_stride" + std::to_string(stride),
          seed);
    }
  }
  for (int options : {0, 1, 0x08, 0x11}) {
    std::string seed(1, static_cast<char>(0x80 | options));
    for (int i = 0; i < 40; ++i) {
      const std::string key = UserKey(i * i * 7);
      seed.push_back(static_cast<char>(key.size()));
      seed += key;
    }
    seed += std::string("\x00\x01\x00\x02\x61\x00", 6);  // "", "\0", "a\0"
    seeds->Write("range_filter_fuzzer",
                 "build_options" + std::to_string(options), seed);
  }
}

// sidecar_fuzzer ([mode][file], bit 0 of the mode reseals the checksum) and
// tool_fuzzer (the file as given): sidecar files of small tables, plain and
// internal keys, with each policy, with and without scan filters.
bool WriteSidecars(SeedWriter* seeds) {
  const std::vector<std::shared_ptr<const FilterPolicy>> policies = {
      NewRibbonFilterPolicy(10), NewCacheLocalBloomFilterPolicy(10),
      NewLevelDBBloomFilterPolicy(10)};
  int count = 0;
  for (const auto& policy : policies) {
    for (bool scan_filters : {false, true}) {
      for (bool internal_keys : {false, true}) {
        Options options;
        options.block_size = 256;
        options.key_format =
            internal_keys ? KeyFormat::kLevelDBInternal : KeyFormat::kPlain;
        StringWritableFile file;
        TableBuilder builder(options, &file);
        // 300 keys: a Ribbon filter proper.
        for (int i = 0; i < 300; ++i) {
          (void)builder.Add(
              internal_keys ? InternalKey(i, i + 1, i % 9 == 0) : UserKey(i),
              std::string(i % 3, 'v'));
        }
        if (!builder.Finish().ok()) return false;
        const std::string table_bytes = file.contents();
        absl::StatusOr<std::unique_ptr<Table>> table =
            Table::Open(options, NewMemoryRandomAccessFile(table_bytes),
                        table_bytes.size());
        if (!table.ok()) return false;
        SidecarFilterOptions filter_options;
        filter_options.filter_policy = policy;
        if (scan_filters) {
          filter_options.prefix_extractor = NewFixedPrefixExtractor(6);
          filter_options.range_filter_bits_per_key = 10;
        }
        absl::StatusOr<SidecarContents> contents = BuildSidecarContents(
            **table, internal_keys, filter_options, /*bytewise=*/true, nullptr);
        if (!contents.ok()) return false;
        absl::StatusOr<SidecarBinding> binding = ReadTableFileBinding(
            *NewMemoryRandomAccessFile(table_bytes), table_bytes.size());
        if (!binding.ok()) return false;
        contents->binding = *binding;
        if (internal_keys) {
          contents->binding.kind = SidecarTableKind::kDatabaseTable;
          contents->binding.file_number = 7 + count;
          contents->binding.smallest = InternalKey(0, 1, false);
          contents->binding.largest = InternalKey(299, 300, false);
        }
        contents->settings = SidecarSettings(filter_options, true);
        const std::string sidecar = EncodeSidecar(*contents);
        const std::string name = "sidecar_" + std::to_string(count++);
        seeds->Write("sidecar_fuzzer", name, std::string(1, '\0') + sidecar);
        seeds->Write("sidecar_fuzzer", name + "_resealed",
                     std::string(1, '\1') + sidecar);
        seeds->Write("tool_fuzzer", name, sidecar);
      }
    }
  }
  return true;
}

// Crafted tables that once made the reader read or reserve far more than
// the file (tests/hostile_tables.h): a metaindex repeating a failing range
// filter entry, a zstd frame declaring a 2^27 window, and (table target
// only: the tool reads with the default limit, 64 MiB, above the fuzzers'
// -malloc_limit_mb) a bzip2 block of a few hundred bytes that decompresses
// past the default max_uncompressed_block_size.
void WriteHostileTables(SeedWriter* seeds) {
  seeds->WriteTable("hostile_repeated_range_filter",
                    hostile_tables::RepeatedRangeFilterTable(2000));
  seeds->WriteTable("hostile_zstd_wide_window",
                    hostile_tables::WideWindowZstdTable(27));
  const std::string bomb = hostile_tables::Bzip2BombTable(
      kDefaultMaxUncompressedBlockSize + (size_t{1} << 20));
  if (bomb.size() <= kMaxInputLength) {
    seeds->Write("table_fuzzer", "hostile_bzip2_bomb", bomb);
  }
}

#ifdef BLOOMTABLE_SEEDS_WITH_LEVELDB
bool ReadWholeFile(const std::string& path, std::string* contents) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  contents->assign(std::istreambuf_iterator<char>(in),
                   std::istreambuf_iterator<char>());
  return true;
}

class LevelDBStringSink final : public leveldb::WritableFile {
 public:
  leveldb::Status Append(const leveldb::Slice& data) override {
    contents.append(data.data(), data.size());
    return leveldb::Status::OK();
  }
  leveldb::Status Close() override { return leveldb::Status::OK(); }
  leveldb::Status Flush() override { return leveldb::Status::OK(); }
  leveldb::Status Sync() override { return leveldb::Status::OK(); }
  std::string contents;
};

// Tables written by LevelDB itself: a database's compacted .ldb files
// (internal keys, several versions, deletions, a Bloom filter) and
// leveldb::TableBuilder output (plain keys).
bool WriteLevelDBTables(SeedWriter* seeds) {
  std::unique_ptr<const leveldb::FilterPolicy> bloom(
      leveldb::NewBloomFilterPolicy(10));
  for (bool compress : {false, true}) {
    const std::string db_path =
        seeds->out() + "/leveldb_db_" + (compress ? "snappy" : "none");
    leveldb::Options options;
    options.create_if_missing = true;
    options.filter_policy = bloom.get();
    options.block_size = 1024;
    options.compression =
        compress ? leveldb::kSnappyCompression : leveldb::kNoCompression;
    leveldb::DB* raw_db = nullptr;
    if (!leveldb::DB::Open(options, db_path, &raw_db).ok()) return false;
    std::unique_ptr<leveldb::DB> db(raw_db);
    for (int round = 0; round < 3; ++round) {
      leveldb::WriteBatch batch;
      for (int i = 0; i < 200; ++i) {
        if ((i + round) % 5 == 0) {
          batch.Delete(UserKey(i));
        } else {
          batch.Put(UserKey(i),
                    std::string(i % 11, static_cast<char>('A' + round)));
        }
      }
      if (!db->Write(leveldb::WriteOptions(), &batch).ok()) return false;
      // Flush so that the versions land in separate tables, then compact
      // all but the last round into one.
      if (round < 2) db->CompactRange(nullptr, nullptr);
    }
    db.reset();
    DIR* dir = ::opendir(db_path.c_str());
    if (dir == nullptr) return false;
    while (const dirent* entry = ::readdir(dir)) {
      const std::string name = entry->d_name;
      if (name.size() < 4 || name.substr(name.size() - 4) != ".ldb") continue;
      std::string contents;
      if (ReadWholeFile(db_path + "/" + name, &contents)) {
        seeds->WriteTable(std::string("leveldb_db_") +
                              (compress ? "snappy_" : "none_") + name,
                          contents);
      }
    }
    ::closedir(dir);
    (void)leveldb::DestroyDB(db_path, options);

    LevelDBStringSink sink;
    leveldb::Options table_options;
    table_options.filter_policy = bloom.get();
    table_options.block_size = 256;
    table_options.compression = options.compression;
    leveldb::TableBuilder builder(table_options, &sink);
    for (int i = 0; i < 100; ++i)
      builder.Add(UserKey(i), std::string(i % 9, 'x'));
    if (!builder.Finish().ok()) return false;
    seeds->WriteTable(
        std::string("leveldb_tablebuilder_") + (compress ? "snappy" : "none"),
        sink.contents);
  }
  return true;
}
#endif  // BLOOMTABLE_SEEDS_WITH_LEVELDB

// Logs, MANIFESTs, write batches and version edits for the log reader,
// write-batch and version-edit targets (and the tool's, whose `dump` reads
// logs): written with the library's own LogWriter, and, with LevelDB, a
// database's real log and MANIFEST.
void WriteLogSeeds(SeedWriter* seeds) {
  std::vector<std::string> batches;
  uint64_t sequence = 1;
  for (int i = 0; i < 6; ++i) {
    std::vector<WriteOp> ops;
    for (int j = 0; j <= i; ++j) {
      WriteOp op;
      op.type = (i + j) % 3 == 0 ? WriteOpType::kDelete : WriteOpType::kPut;
      op.key = UserKey(i * 10 + j);
      if (op.type == WriteOpType::kPut) op.value.assign(i * 37 + j, 'v');
      ops.push_back(op);
    }
    batches.push_back(EncodeWriteBatch(sequence, ops));
    sequence += ops.size();
  }
  std::vector<std::string> edits;
  for (uint64_t i = 0; i < 4; ++i) {
    VersionEdit edit;
    if (i == 0) edit.comparator = "leveldb.BytewiseComparator";
    edit.log_number = 3 + i;
    if (i == 1) edit.prev_log_number = 2;
    edit.next_file_number = 10 + i;
    edit.last_sequence = 100 * i;
    VersionEdit::NewFile added;
    added.level = static_cast<int>(i);
    added.file.number = 5 + i;
    added.file.size = 4096 + i;
    AppendInternalKey(&added.file.smallest, UserKey(i), i, ValueType::kValue);
    AppendInternalKey(&added.file.largest, UserKey(i + 50), i + 1,
                      ValueType::kDeletion);
    edit.new_files.push_back(added);
    if (i == 3) {
      edit.deleted_files.push_back({0, 5});
      edit.compaction_pointers.push_back({1, added.file.largest});
    }
    std::string record;
    edit.EncodeTo(&record);
    edits.push_back(record);
  }
  auto log_of = [](const std::vector<std::string>& records) {
    StringWritableFile file;
    LogWriter writer(&file);
    for (const std::string& record : records) (void)writer.AddRecord(record);
    return file.contents();
  };
  for (size_t i = 0; i < batches.size(); ++i) {
    seeds->Write("write_batch_fuzzer", "batch_" + std::to_string(i),
                 batches[i]);
  }
  for (size_t i = 0; i < edits.size(); ++i) {
    seeds->Write("version_edit_fuzzer", "edit_" + std::to_string(i), edits[i]);
  }
  const std::string log = log_of(batches);
  const std::string manifest = log_of(edits);
  for (const std::string& target : {"log_reader_fuzzer", "tool_fuzzer"}) {
    seeds->Write(target, "log", log);
    seeds->Write(target, "manifest", manifest);
  }
  // Behind a first byte with the high bit set, the log reader target puts
  // the input 64 bytes before a block boundary: its records are split.
  seeds->Write("log_reader_fuzzer", "log_at_block_end",
               std::string(1, static_cast<char>(0x80 | 16)) + log);
  seeds->Write("log_reader_fuzzer", "zero_padded_log",
               log + std::string(512, '\0'));
#ifdef BLOOMTABLE_SEEDS_WITH_LEVELDB
  const std::string db_path = seeds->out() + "/leveldb_log_db";
  leveldb::Options options;
  options.create_if_missing = true;
  leveldb::DB* raw_db = nullptr;
  if (!leveldb::DB::Open(options, db_path, &raw_db).ok()) return;
  std::unique_ptr<leveldb::DB> db(raw_db);
  for (int i = 0; i < 20; ++i) {
    leveldb::WriteBatch batch;
    batch.Put(UserKey(i), std::string(i * 13, 'L'));
    if (i % 4 == 0) batch.Delete(UserKey(i / 2));
    (void)db->Write(leveldb::WriteOptions(), &batch);
  }
  db.reset();
  DIR* dir = ::opendir(db_path.c_str());
  if (dir == nullptr) return;
  while (const dirent* entry = ::readdir(dir)) {
    const std::string name = entry->d_name;
    const bool is_log =
        name.size() > 4 && name.substr(name.size() - 4) == ".log";
    if (!is_log && name.rfind("MANIFEST-", 0) != 0) continue;
    std::string contents;
    if (!ReadWholeFile(db_path + "/" + name, &contents)) continue;
    for (const std::string& target : {"log_reader_fuzzer", "tool_fuzzer"}) {
      seeds->Write(target, "leveldb_" + name, contents);
    }
  }
  ::closedir(dir);
  (void)leveldb::DestroyDB(db_path, options);
#endif
}

int Main(const std::string& out) {
  SeedWriter seeds(out);
  // 40 keys: a few blocks of each size. 300 keys: enough for a real Ribbon
  // filter (below 256 keys it stores a cache-local Bloom one).
  if (!WriteTables(&seeds, 40) || !WriteTables(&seeds, 300) ||
      !WriteCompressedTables(&seeds) || !WriteScanFilterTables(&seeds) ||
      !WriteSidecars(&seeds)) {
    std::fprintf(stderr, "make_seed_corpus: building a table failed\n");
    return 1;
  }
  WriteBlocks(&seeds);
  WriteFilters(&seeds);
  WriteFilterBlocks(&seeds);
  WriteRangeFilters(&seeds);
  WriteLogSeeds(&seeds);
  WriteHostileTables(&seeds);
#ifdef BLOOMTABLE_SEEDS_WITH_LEVELDB
  if (!WriteLevelDBTables(&seeds)) {
    std::fprintf(stderr, "make_seed_corpus: writing LevelDB tables failed\n");
    return 1;
  }
#endif
  std::printf("wrote %d seeds into %s:", seeds.written(), out.c_str());
  for (const auto& [target, count] : seeds.per_target()) {
    std::printf(" %s %d", target.c_str(), count);
  }
  std::printf("\n");
  if (seeds.failed() > 0) {
    std::fprintf(stderr, "make_seed_corpus: %d seeds could not be written\n",
                 seeds.failed());
    return 1;
  }
  if (seeds.too_long() > 0) {
    std::fprintf(stderr,
                 "make_seed_corpus: %d seeds are longer than %zu bytes\n",
                 seeds.too_long(), kMaxInputLength);
    return 1;
  }
  return 0;
}

}  // namespace
}  // namespace bloomtable

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_seed_corpus OUT_DIR\n");
    return 2;
  }
  return bloomtable::Main(argv[1]);
}
