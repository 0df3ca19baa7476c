// Table::MultiGet against a loop of Get: over random batches (present,
// absent, repeated, unsorted keys) of tables with every filter layout, with
// and without a block cache, read through io_uring and through the pread
// fallback, buffered and direct; with damaged blocks (per-key DataLoss) and
// unreadable ones (per-key I/O errors). The table's stats say which path
// the batched reads took.

#include <cstdint>
#include <cstdio>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "bloomtable/cache.h"
#include "bloomtable/file.h"
#include "bloomtable/filter_policy.h"
#include "bloomtable/options.h"
#include "bloomtable/pinned_value.h"
#include "bloomtable/table.h"
#include "bloomtable/table_builder.h"
#include "gtest/gtest.h"
#include "tests/io_uring_probe.h"
#include "tests/temp_dir.h"

namespace bloomtable {
namespace {

// Even i are stored, odd i are absent.
constexpr int kNumKeys = 3000;

std::string KeyOf(int i) {
  char key[32];
  std::snprintf(key, sizeof(key), "key%012d", i);
  return key;
}

std::string ValueOf(int i) {
  return std::string(static_cast<size_t>(20 + i % 50),
                     static_cast<char>('a' + i % 26));
}

struct TableSpec {
  const char* name;
  FilterLayout layout;
  bool cache;
};

const TableSpec kSpecs[] = {
    {"per-block", FilterLayout::kPerBlock, false},
    {"whole-table", FilterLayout::kWholeTable, false},
    {"whole-table+cache", FilterLayout::kWholeTable, true},
    {"partitioned", FilterLayout::kPartitioned, false},
};

Options TableOptions(const TableSpec& spec) {
  Options options;
  options.block_size = 1024;
  options.filter_layout = spec.layout;
  options.filter_partition_keys = 500;
  options.filter_policy = spec.layout == FilterLayout::kPerBlock
                              ? NewLevelDBBloomFilterPolicy(10)
                              : NewCacheLocalBloomFilterPolicy(10);
  if (spec.cache) options.block_cache = NewLRUCache(64 * 1024);
  return options;
}

std::string BuildTable(const Options& options) {
  StringWritableFile file;
  TableBuilder builder(options, &file);
  for (int i = 0; i < kNumKeys; i += 2) {
    EXPECT_TRUE(builder.Add(KeyOf(i), ValueOf(i)).ok());
  }
  EXPECT_TRUE(builder.Finish().ok());
  return file.contents();
}

std::string WriteFile(const TempDir& dir, const std::string& name,
                      const std::string& contents) {
  const std::string path = dir.File(name);
  auto file = NewWritableFile(path);
  EXPECT_TRUE(file.ok()) << file.status();
  EXPECT_TRUE((*file)->Append(contents).ok());
  EXPECT_TRUE((*file)->Close().ok());
  return path;
}

struct FileMode {
  bool direct;
  bool io_uring;
};

const FileMode kFileModes[] = {
    {false, true}, {false, false}, {true, true}, {true, false}};

std::string ModeName(const FileMode& mode) {
  return std::string(mode.direct ? "direct" : "buffered") + "/" +
         (mode.io_uring ? "io_uring" : "pread");
}

std::unique_ptr<Table> OpenTable(const Options& options,
                                 const std::string& path, uint64_t size,
                                 const FileMode& mode) {
  RandomAccessFileOptions file_options;
  file_options.use_direct_io = mode.direct;
  file_options.use_io_uring = mode.io_uring;
  file_options.io_uring_queue_depth = 4;
  auto file = OpenRandomAccessFileWithOptions(path, file_options);
  EXPECT_TRUE(file.ok()) << file.status();
  if (!file.ok()) return nullptr;
  auto table = Table::Open(options, *std::move(file), size);
  EXPECT_TRUE(table.ok()) << table.status();
  return table.ok() ? *std::move(table) : nullptr;
}

// A random batch: stored and absent keys (some past either end), repeats,
// in no order.
std::vector<std::string> RandomBatch(std::mt19937* rng, size_t size) {
  std::vector<std::string> keys;
  for (size_t i = 0; i < size; ++i) {
    const uint32_t kind = (*rng)() % 8;
    if (kind == 0 && !keys.empty()) {
      keys.push_back(keys[(*rng)() % keys.size()]);  // a repeat
    } else if (kind == 1) {
      keys.push_back((*rng)() % 2 ? "a-before-every-key" : "z-after-every-key");
    } else {
      keys.push_back(KeyOf(static_cast<int>((*rng)() % kNumKeys)));
    }
  }
  return keys;
}

// MultiGet's result for each key equals Get's: the same value, or the same
// status code. Returns how many keys failed with something else than
// NotFound.
size_t ExpectMultiGetEqualsGets(const Table& table,
                                const std::vector<std::string>& keys) {
  const std::vector<std::string_view> views(keys.begin(), keys.end());
  const auto results = table.MultiGet(ReadOptions(), views);
  EXPECT_EQ(results.size(), keys.size());
  // The pinning MultiGet answers the same, each value pinned to its block.
  std::vector<PinnedValue> pinned;
  const std::vector<absl::Status> pinned_statuses =
      table.MultiGet(ReadOptions(), views, &pinned);
  EXPECT_EQ(pinned_statuses.size(), keys.size());
  EXPECT_EQ(pinned.size(), keys.size());
  size_t errors = 0;
  for (size_t i = 0; i < keys.size() && i < results.size(); ++i) {
    EXPECT_EQ(pinned_statuses[i].code(), results[i].status().code()) << keys[i];
    EXPECT_EQ(pinned[i].view(), results[i].ok() ? *results[i] : "") << keys[i];
    EXPECT_EQ(pinned[i].pinned(), results[i].ok()) << keys[i];
    const absl::StatusOr<std::string> expected =
        table.Get(ReadOptions(), keys[i]);
    if (expected.ok()) {
      EXPECT_TRUE(results[i].ok()) << keys[i] << ": " << results[i].status();
      if (results[i].ok()) {
        EXPECT_EQ(*results[i], *expected) << keys[i];
      }
    } else {
      EXPECT_EQ(results[i].status().code(), expected.status().code())
          << keys[i] << ": " << results[i].status() << " vs "
          << expected.status();
      if (!absl::IsNotFound(expected.status())) ++errors;
    }
  }
  return errors;
}

TEST(MultiGet, EqualsAGetLoopThroughEveryPath) {
  TempDir dir;
  const bool io_uring_here = IoUringWorksHere();
  std::mt19937 rng(2024);
  for (const TableSpec& spec : kSpecs) {
    const Options options = TableOptions(spec);
    const std::string contents = BuildTable(options);
    const std::string path = WriteFile(dir, spec.name, contents);
    for (const FileMode& mode : kFileModes) {
      SCOPED_TRACE(std::string(spec.name) + " " + ModeName(mode));
      auto table = OpenTable(options, path, contents.size(), mode);
      ASSERT_NE(table, nullptr);
      for (int round = 0; round < 20; ++round) {
        const std::vector<std::string> keys =
            RandomBatch(&rng, 1 + rng() % 130);
        EXPECT_EQ(ExpectMultiGetEqualsGets(*table, keys), 0u);
      }
      // Every key of the table, stored or not, in one batch.
      std::vector<std::string> all;
      for (int i = kNumKeys - 1; i >= 0; --i) all.push_back(KeyOf(i));
      EXPECT_EQ(ExpectMultiGetEqualsGets(*table, all), 0u);

      const TableStats stats = table->GetStats();
      const bool batched_by_ring = mode.io_uring && io_uring_here;
      EXPECT_GT(batched_by_ring ? stats.multiget_io_uring_batches
                                : stats.multiget_pread_batches,
                0u);
      EXPECT_EQ(batched_by_ring ? stats.multiget_pread_batches
                                : stats.multiget_io_uring_batches,
                0u);
      // Coalescing: the batch of every key reads about 40 KiB of adjacent
      // blocks, fewer reads than blocks.
      EXPECT_LT(stats.multiget_coalesced_reads, stats.data_block_reads);
    }
  }
}

TEST(MultiGet, AbsentKeysTheFilterRejectsReadNoBlock) {
  TempDir dir;
  const TableSpec spec = kSpecs[1];  // whole-table
  const Options options = TableOptions(spec);
  const std::string contents = BuildTable(options);
  const std::string path = WriteFile(dir, "t", contents);
  auto table = OpenTable(options, path, contents.size(), FileMode{false, true});
  ASSERT_NE(table, nullptr);
  std::vector<std::string> keys;
  for (int i = 1; i < kNumKeys; i += 2) keys.push_back(KeyOf(i));
  const std::vector<std::string_view> views(keys.begin(), keys.end());
  const auto results = table->MultiGet(ReadOptions(), views);
  for (const auto& result : results) {
    EXPECT_TRUE(absl::IsNotFound(result.status())) << result.status();
  }
  const TableStats stats = table->GetStats();
  EXPECT_EQ(stats.filter_checks, keys.size());
  // Only the filter's false positives read a block: at 10 bits per key
  // about 1%, so far fewer than a tenth of the keys.
  EXPECT_LT(stats.data_block_reads, keys.size() / 10);
  // And only they: one read at most per key that passed the filter.
  EXPECT_LE(stats.data_block_reads,
            stats.filter_checks - stats.filter_negatives);
}

TEST(MultiGet, DamagedBlocksFailOnlyTheirKeys) {
  TempDir dir;
  std::mt19937 rng(99);
  for (const TableSpec& spec : kSpecs) {
    const Options options = TableOptions(spec);
    std::string contents = BuildTable(options);
    // Find some data blocks through a sound table, then flip a byte inside
    // each.
    std::set<uint64_t> damaged;
    {
      auto sound = OpenTable(options, WriteFile(dir, "sound", contents),
                             contents.size(), FileMode{false, false});
      ASSERT_NE(sound, nullptr);
      for (int i = 0; i < 6; ++i) {
        damaged.insert(sound->ApproximateOffsetOf(
            KeyOf(2 * static_cast<int>(rng() % (kNumKeys / 2)))));
      }
    }
    for (uint64_t offset : damaged) contents[offset + 10] ^= 0x40;
    const std::string path = WriteFile(dir, spec.name, contents);
    for (const FileMode& mode : kFileModes) {
      SCOPED_TRACE(std::string(spec.name) + " " + ModeName(mode));
      auto table = OpenTable(options, path, contents.size(), mode);
      ASSERT_NE(table, nullptr);
      std::vector<std::string> all;
      for (int i = 0; i < kNumKeys; ++i) all.push_back(KeyOf(i));
      const size_t errors = ExpectMultiGetEqualsGets(*table, all);
      // Keys of the damaged blocks fail (DataLoss, checked against Get);
      // the other stored keys are found.
      EXPECT_GT(errors, 0u);
      EXPECT_LT(errors, all.size() / 4);
      const std::vector<std::string_view> views(all.begin(), all.end());
      const auto results = table->MultiGet(ReadOptions(), views);
      for (size_t i = 0; i < all.size(); ++i) {
        if (!results[i].ok() && !absl::IsNotFound(results[i].status())) {
          EXPECT_TRUE(absl::IsDataLoss(results[i].status()))
              << results[i].status();
          EXPECT_TRUE(damaged.count(table->ApproximateOffsetOf(all[i])))
              << all[i] << " failed outside a damaged block";
        }
      }
      for (int round = 0; round < 10; ++round) {
        ExpectMultiGetEqualsGets(*table, RandomBatch(&rng, 1 + rng() % 130));
      }
    }
  }
}

// A file whose reads fail when they cover `bad_offset`, like a device with
// one unreadable sector.
class UnreadableSpotFile final : public RandomAccessFile {
 public:
  UnreadableSpotFile(std::string contents, uint64_t bad_offset)
      : base_(NewMemoryRandomAccessFile(std::move(contents), "spotted")),
        bad_offset_(bad_offset) {}

  absl::Status Read(uint64_t offset, size_t n, std::string_view* result,
                    char* scratch) const override {
    if (offset <= bad_offset_ && bad_offset_ < offset + n) {
      *result = std::string_view();
      return absl::UnavailableError("spotted: input/output error");
    }
    return base_->Read(offset, n, result, scratch);
  }
  const std::string& name() const override { return base_->name(); }

 private:
  const std::unique_ptr<RandomAccessFile> base_;
  const uint64_t bad_offset_;
};

TEST(MultiGet, AnUnreadableBlockFailsOnlyItsKeysEvenWhenCoalesced) {
  const Options options = TableOptions(kSpecs[1]);
  const std::string contents = BuildTable(options);
  auto sound = Table::Open(options, NewMemoryRandomAccessFile(contents),
                           contents.size());
  ASSERT_TRUE(sound.ok());
  const uint64_t bad_block = (*sound)->ApproximateOffsetOf(KeyOf(1500));
  auto table = Table::Open(
      options, std::make_unique<UnreadableSpotFile>(contents, bad_block + 1),
      contents.size());
  ASSERT_TRUE(table.ok()) << table.status();

  std::vector<std::string> keys;
  for (int i = 1300; i < 1700; i += 2) keys.push_back(KeyOf(i));
  const std::vector<std::string_view> views(keys.begin(), keys.end());
  const auto results = (*table)->MultiGet(ReadOptions(), views);
  size_t failed = 0;
  for (size_t i = 0; i < keys.size(); ++i) {
    const bool in_bad_block =
        (*table)->ApproximateOffsetOf(keys[i]) == bad_block;
    if (in_bad_block) {
      ++failed;
      EXPECT_TRUE(absl::IsUnavailable(results[i].status()))
          << keys[i] << ": " << results[i].status();
    } else {
      EXPECT_TRUE(results[i].ok()) << keys[i] << ": " << results[i].status();
    }
  }
  EXPECT_GT(failed, 0u);
  EXPECT_LT(failed, keys.size());
  // The blocks were first asked for together, in one coalesced read.
  EXPECT_EQ((*table)->GetStats().multiget_pread_batches, 1u);
}

TEST(MultiGet, EmptyBatchAndBatchOfOne) {
  const Options options = TableOptions(kSpecs[0]);
  const std::string contents = BuildTable(options);
  auto table = Table::Open(options, NewMemoryRandomAccessFile(contents),
                           contents.size());
  ASSERT_TRUE(table.ok());
  EXPECT_TRUE((*table)->MultiGet(ReadOptions(), {}).empty());
  const std::string key = KeyOf(42);
  const auto one = (*table)->MultiGet(ReadOptions(), {key});
  ASSERT_EQ(one.size(), 1u);
  ASSERT_TRUE(one[0].ok());
  EXPECT_EQ(*one[0], ValueOf(42));
  // One block needs no batch.
  EXPECT_EQ((*table)->GetStats().multiget_pread_batches, 0u);
}

}  // namespace
}  // namespace bloomtable
