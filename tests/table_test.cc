// Tables end to end: a randomized harness with std::map as the truth, run
// across the writer option matrix; the builder's contract; the filter's
// effect on reads (counters and a counting file); choosing the filter by
// name; LevelDB-internal keys.

#include "bloomtable/table.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "bloomtable/file.h"
#include "bloomtable/filter_policy.h"
#include "bloomtable/options.h"
#include "bloomtable/table_builder.h"
#include "gtest/gtest.h"
#include "table/block.h"
#include "table/format.h"
#include "table/internal_key.h"
#include "tests/table_layout.h"
#include "tests/table_test_policies.h"
#include "util/coding.h"
#include "util/crc32c.h"

namespace bloomtable {
namespace {

using Model = std::map<std::string, std::string>;
using testing_policies::NewHashListPolicy;
using testing_policies::NewWholeTableOnlyPolicy;

std::string BuildTable(const Options& options, const Model& model) {
  StringWritableFile file;
  TableBuilder builder(options, &file);
  for (const auto& [key, value] : model) {
    absl::Status status = builder.Add(key, value);
    EXPECT_TRUE(status.ok()) << status;
  }
  EXPECT_TRUE(builder.Finish().ok());
  EXPECT_EQ(builder.NumEntries(), model.size());
  EXPECT_EQ(builder.FileSize(), file.contents().size());
  return file.contents();
}

std::unique_ptr<Table> OpenTable(
    const Options& options, const std::string& contents,
    std::shared_ptr<FileReadCounters> counters = nullptr) {
  std::unique_ptr<RandomAccessFile> file = NewMemoryRandomAccessFile(contents);
  if (counters != nullptr) {
    file = NewCountingRandomAccessFile(std::move(file), counters);
  }
  auto table = Table::Open(options, std::move(file), contents.size());
  EXPECT_TRUE(table.ok()) << table.status();
  return table.ok() ? *std::move(table) : nullptr;
}

enum class FilterMode { kNone, kPerBlock, kWholeTable };

struct Config {
  int restart_interval;
  size_t block_size;
  bool snappy;
  FilterMode filter;

  Options ToOptions() const {
    Options options;
    options.block_restart_interval = restart_interval;
    options.block_size = block_size;
    options.compression =
        snappy ? CompressionType::kSnappy : CompressionType::kNone;
    if (filter != FilterMode::kNone) {
      options.filter_policy = NewHashListPolicy();
      options.filter_layout = filter == FilterMode::kPerBlock
                                  ? FilterLayout::kPerBlock
                                  : FilterLayout::kWholeTable;
    }
    return options;
  }
};

std::string Describe(const Config& c) {
  return absl::StrCat("restart_interval=", c.restart_interval,
                      " block_size=", c.block_size, " snappy=", c.snappy,
                      " filter=", static_cast<int>(c.filter));
}

std::string RandomBytes(std::mt19937* rng, int length) {
  std::uniform_int_distribution<int> byte(0, 255);
  std::string out;
  for (int i = 0; i < length; ++i) out.push_back(static_cast<char>(byte(*rng)));
  return out;
}

// Random keys, some sharing long prefixes, values of mixed compressibility.
Model RandomModel(std::mt19937* rng, int n) {
  Model model;
  std::uniform_int_distribution<int> length(0, 20);
  while (static_cast<int>(model.size()) < n) {
    std::string key = (model.size() % 3 == 0) ? "user/0000" : "";
    key += RandomBytes(rng, length(*rng));
    std::string value = (model.size() % 2 == 0)
                            ? std::string(length(*rng) * 5, 'v')
                            : RandomBytes(rng, length(*rng) * 3);
    model[key] = value;
  }
  return model;
}

// Checks a Next/Prev walk of `steps` moves from the iterator's position
// (which must equal `expected`) against the model.
void RandomWalk(Iterator* it, const Model& model,
                Model::const_iterator expected, std::mt19937* rng, int steps) {
  for (int i = 0; i < steps; ++i) {
    if (expected == model.end()) {
      ASSERT_FALSE(it->Valid());
      return;
    }
    ASSERT_TRUE(it->Valid());
    ASSERT_EQ(it->key(), expected->first);
    ASSERT_EQ(it->value(), expected->second);
    if ((*rng)() % 2 == 0) {
      it->Next();
      ++expected;
    } else {
      it->Prev();
      if (expected == model.begin()) {
        ASSERT_FALSE(it->Valid());
        return;
      }
      --expected;
    }
  }
}

void CheckTableAgainstModel(const Table& table, const Model& model,
                            uint64_t file_size, std::mt19937* rng) {
  ReadOptions verify;
  ReadOptions no_verify;
  no_verify.verify_checksums = false;

  // Get: every present key, with and without checksum verification.
  std::string value;
  for (const auto& [key, expected] : model) {
    ASSERT_TRUE(table.Get(verify, key, &value).ok()) << key;
    ASSERT_EQ(value, expected);
    auto got = table.Get(no_verify, key);
    ASSERT_TRUE(got.ok());
    ASSERT_EQ(*got, expected);
  }
  // Get: absent keys, random and right beside present ones.
  std::vector<std::string> absent;
  for (int i = 0; i < 50; ++i) absent.push_back(RandomBytes(rng, i % 12));
  for (const auto& [key, unused] : model) {
    absent.push_back(key + '\0');
    if (!key.empty()) absent.push_back(key.substr(0, key.size() - 1));
  }
  absent.push_back(std::string(30, '\xff'));
  for (const std::string& key : absent) {
    if (model.count(key) != 0) continue;
    EXPECT_EQ(table.Get(verify, key).status().code(),
              absl::StatusCode::kNotFound);
  }

  std::unique_ptr<Iterator> it = table.NewIterator(verify);
  // Forward and backward walks.
  auto m = model.begin();
  for (it->SeekToFirst(); it->Valid(); it->Next(), ++m) {
    ASSERT_NE(m, model.end());
    ASSERT_EQ(it->key(), m->first);
    ASSERT_EQ(it->value(), m->second);
  }
  ASSERT_EQ(m, model.end());
  ASSERT_TRUE(it->status().ok()) << it->status();
  auto r = model.rbegin();
  for (it->SeekToLast(); it->Valid(); it->Prev(), ++r) {
    ASSERT_NE(r, model.rend());
    ASSERT_EQ(it->key(), r->first);
    ASSERT_EQ(it->value(), r->second);
  }
  ASSERT_EQ(r, model.rend());
  ASSERT_TRUE(it->status().ok()) << it->status();

  // SeekToLast, then a walk.
  it->SeekToLast();
  RandomWalk(it.get(), model,
             model.empty() ? model.end() : std::prev(model.end()), rng, 20);

  // Seek to present keys and random targets, then walk.
  for (int i = 0; i < 40; ++i) {
    std::string target = RandomBytes(rng, i % 8);
    if (!model.empty() && i % 2 == 0) {
      auto pick = model.begin();
      std::advance(pick, (*rng)() % model.size());
      target = pick->first + (i % 4 == 0 ? "" : target);
    }
    it->Seek(target);
    RandomWalk(it.get(), model, model.lower_bound(target), rng, 20);
    ASSERT_TRUE(it->status().ok()) << it->status();
  }

  // ApproximateOffsetOf: starts at 0, never decreases, stays in the file.
  uint64_t previous = 0;
  if (!model.empty()) {
    EXPECT_EQ(table.ApproximateOffsetOf(""), 0u);
  }
  for (const auto& [key, unused] : model) {
    const uint64_t offset = table.ApproximateOffsetOf(key);
    EXPECT_GE(offset, previous) << key;
    EXPECT_LE(offset, file_size);
    previous = offset;
  }
  const uint64_t end = table.ApproximateOffsetOf(std::string(40, '\xff'));
  EXPECT_GE(end, previous);
  EXPECT_LE(end, file_size);
}

TEST(TableHarness, MatchesTheModelAcrossTheOptionMatrix) {
  std::mt19937 rng(20240601);
  std::vector<Model> data_sets;
  for (int n : {0, 1, 2, 150}) data_sets.push_back(RandomModel(&rng, n));
  for (int restart_interval : {1, 16, 1024}) {
    for (size_t block_size :
         {size_t{1}, size_t{128}, size_t{4096}, size_t{1} << 20}) {
      for (bool snappy : {false, true}) {
        for (FilterMode filter : {FilterMode::kNone, FilterMode::kPerBlock,
                                  FilterMode::kWholeTable}) {
          const Config config{restart_interval, block_size, snappy, filter};
          const Options options = config.ToOptions();
          for (const Model& model : data_sets) {
            SCOPED_TRACE(Describe(config) +
                         " n=" + std::to_string(model.size()));
            const std::string contents = BuildTable(options, model);
            auto table = OpenTable(options, contents);
            ASSERT_NE(table, nullptr);
            EXPECT_EQ(table->filter_info().in_use, filter != FilterMode::kNone);
            CheckTableAgainstModel(*table, model, contents.size(), &rng);
            EXPECT_EQ(table->GetStats().checksum_failures, 0u);
          }
        }
      }
    }
  }
}

TEST(TableHarness, LargeValuesAndLongKeys) {
  std::mt19937 rng(11);
  Model model;
  for (int i = 0; i < 30; ++i) {
    model[std::string(300 + i, 'k') + std::to_string(i)] =
        RandomBytes(&rng, (i % 5) * 20000);
  }
  for (bool snappy : {false, true}) {
    Config config{16, 4096, snappy, FilterMode::kPerBlock};
    const std::string contents = BuildTable(config.ToOptions(), model);
    auto table = OpenTable(config.ToOptions(), contents);
    ASSERT_NE(table, nullptr);
    CheckTableAgainstModel(*table, model, contents.size(), &rng);
  }
}

// ---------------------------------------------------------------------------
// The builder's contract.

// An index block with restart points every N entries shares separator
// prefixes: the table reads the same and holds a smaller index.
TEST(TableHarness, IndexRestartIntervalAboveOneReadsTheSameWithASmallerIndex) {
  std::mt19937 rng(20261124);
  Model model;
  for (int i = 0; i < 3000; ++i) {
    model[absl::StrFormat("%016d", 2 * i)] = RandomBytes(&rng, 40);
  }
  Options options;
  options.block_size = 256;
  options.filter_policy = NewHashListPolicy();
  const std::string leveldb_layout = BuildTable(options, model);
  auto baseline = OpenTable(options, leveldb_layout);
  ASSERT_NE(baseline, nullptr);
  for (int interval : {2, 16, 1024}) {
    SCOPED_TRACE(interval);
    options.index_block_restart_interval = interval;
    const std::string contents = BuildTable(options, model);
    auto table = OpenTable(options, contents);
    ASSERT_NE(table, nullptr);
    CheckTableAgainstModel(*table, model, contents.size(), &rng);
    EXPECT_LT(table->ApproximateMemoryUsage(),
              baseline->ApproximateMemoryUsage());
  }
}

TEST(TableBuilder, OutOfOrderKeyIsInvalidArgumentAndTheBuilderStaysFailed) {
  StringWritableFile file;
  TableBuilder builder(Options(), &file);
  ASSERT_TRUE(builder.Add("b", "1").ok());
  EXPECT_EQ(builder.Add("a", "2").code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(builder.status().code(), absl::StatusCode::kInvalidArgument);
  // Even a key in order is refused now, and Finish fails.
  EXPECT_EQ(builder.Add("c", "3").code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(builder.Finish().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(builder.NumEntries(), 1u);
  builder.Abandon();
}

TEST(TableBuilder, DuplicateKeyIsInvalidArgument) {
  StringWritableFile file;
  TableBuilder builder(Options(), &file);
  ASSERT_TRUE(builder.Add("a", "1").ok());
  const absl::Status status = builder.Add("a", "2");
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(absl::StrContains(status.message(), "duplicate")) << status;
  builder.Abandon();
}

TEST(TableBuilder, EmptyKeyIsAValidFirstKey) {
  StringWritableFile file;
  TableBuilder builder(Options(), &file);
  EXPECT_TRUE(builder.Add("", "empty").ok());
  EXPECT_EQ(builder.Add("", "again").code(),
            absl::StatusCode::kInvalidArgument);
  builder.Abandon();
}

TEST(TableBuilder, AddOrFinishAfterFinishIsInvalidArgument) {
  StringWritableFile file;
  TableBuilder builder(Options(), &file);
  ASSERT_TRUE(builder.Add("a", "1").ok());
  ASSERT_TRUE(builder.Finish().ok());
  EXPECT_EQ(builder.Add("b", "2").code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(builder.Finish().code(), absl::StatusCode::kInvalidArgument);
  // The finished file is intact.
  EXPECT_EQ(builder.FileSize(), file.contents().size());
}

TEST(TableBuilder, EmptyTableOpensAndHasNoEntries) {
  Options options;
  options.filter_policy = NewHashListPolicy();
  const std::string contents = BuildTable(options, Model());
  auto table = OpenTable(options, contents);
  ASSERT_NE(table, nullptr);
  EXPECT_EQ(table->Get(ReadOptions(), "a").status().code(),
            absl::StatusCode::kNotFound);
  auto it = table->NewIterator(ReadOptions());
  it->SeekToFirst();
  EXPECT_FALSE(it->Valid());
  it->SeekToLast();
  EXPECT_FALSE(it->Valid());
  EXPECT_TRUE(it->status().ok());
}

// Fails every Append after the first `good_appends`.
class FailingWritableFile final : public WritableFile {
 public:
  explicit FailingWritableFile(int good_appends) : remaining_(good_appends) {}
  absl::Status Append(std::string_view) override {
    if (remaining_-- > 0) return absl::OkStatus();
    return absl::ResourceExhaustedError("disk full");
  }
  absl::Status Flush() override { return absl::OkStatus(); }
  absl::Status Sync() override { return absl::OkStatus(); }
  absl::Status Close() override { return absl::OkStatus(); }
  const std::string& name() const override { return name_; }

 private:
  int remaining_;
  std::string name_ = "failing";
};

TEST(TableBuilder, FileErrorIsReturnedAndSticky) {
  FailingWritableFile file(1);
  Options options;
  options.block_size = 1;  // every Add writes a block
  TableBuilder builder(options, &file);
  EXPECT_EQ(builder.Add("a", "1").code(), absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(builder.Add("b", "2").code(), absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(builder.Finish().code(), absl::StatusCode::kResourceExhausted);
  builder.Abandon();
}

// ---------------------------------------------------------------------------
// Filters and the read counters.

TEST(TableFilter, AbsentKeyRejectedByTheFilterReadsNoDataBlock) {
  Model model;
  for (int i = 0; i < 500; ++i) {
    model[absl::StrCat("key", 100000 + 2 * i)] = std::string(20, 'v');
  }
  for (FilterLayout layout :
       {FilterLayout::kPerBlock, FilterLayout::kWholeTable,
        FilterLayout::kPartitioned}) {
    Options options;
    options.block_size = 256;
    options.filter_policy = NewHashListPolicy();
    options.filter_layout = layout;
    options.filter_partition_keys = 64;  // 8 partitions
    const std::string contents = BuildTable(options, model);
    auto file_counters = std::make_shared<FileReadCounters>();
    auto table = OpenTable(options, contents, file_counters);
    ASSERT_NE(table, nullptr);
    // Every byte the table read, Open included, is counted.
    EXPECT_EQ(table->GetStats().bytes_read, file_counters->bytes.load());

    uint64_t negatives = 0;
    for (int i = 0; i < 500; ++i) {
      const TableStats before = table->GetStats();
      const uint64_t reads_before = file_counters->reads.load();
      const std::string absent = absl::StrCat("key", 100000 + 2 * i + 1);
      ASSERT_EQ(table->Get(ReadOptions(), absent).status().code(),
                absl::StatusCode::kNotFound);
      const TableStats after = table->GetStats();
      EXPECT_EQ(after.filter_checks, before.filter_checks + 1);
      if (after.filter_negatives == before.filter_negatives + 1) {
        ++negatives;
        EXPECT_EQ(after.data_block_reads, before.data_block_reads);
        EXPECT_EQ(after.bytes_read, before.bytes_read);
        EXPECT_EQ(file_counters->reads.load(), reads_before);
      } else {
        EXPECT_EQ(after.data_block_reads, before.data_block_reads + 1);
        EXPECT_EQ(file_counters->reads.load(), reads_before + 1);
      }
    }
    // The test policy errs only on 32-bit hash collisions.
    EXPECT_GE(negatives, 495u);

    // A present key: one data block read, and the file saw exactly it.
    const TableStats before = table->GetStats();
    const uint64_t reads_before = file_counters->reads.load();
    ASSERT_TRUE(table->Get(ReadOptions(), "key100000").ok());
    EXPECT_EQ(table->GetStats().data_block_reads, before.data_block_reads + 1);
    EXPECT_EQ(file_counters->reads.load(), reads_before + 1);
    EXPECT_EQ(table->GetStats().bytes_read, file_counters->bytes.load());
  }
}

TEST(TableFilter, WholeTableFilterIsAskedEvenForKeysPastTheIndex) {
  // A key after the last entry needs no index entry to be refused: only the
  // whole-table filter, consulted first, sees it.
  Model model{{"a", "1"}, {"b", "2"}};
  for (FilterLayout layout :
       {FilterLayout::kPerBlock, FilterLayout::kWholeTable,
        FilterLayout::kPartitioned}) {
    Options options;
    options.filter_policy = NewHashListPolicy();
    options.filter_layout = layout;
    auto table = OpenTable(options, BuildTable(options, model));
    ASSERT_NE(table, nullptr);
    EXPECT_EQ(table->Get(ReadOptions(), "zzz").status().code(),
              absl::StatusCode::kNotFound);
    EXPECT_EQ(table->GetStats().filter_checks,
              layout != FilterLayout::kPerBlock ? 1u : 0u);
  }
}

TEST(TableFilter, LevelDBBloomPolicyRejectsMostAbsentKeys) {
  Model model;
  for (int i = 0; i < 1000; ++i) model[absl::StrCat("k", i * 7919)] = "v";
  Options options;
  options.filter_policy = NewLevelDBBloomFilterPolicy(10);
  const std::string contents = BuildTable(options, model);
  auto table = OpenTable(options, contents);
  ASSERT_NE(table, nullptr);
  EXPECT_EQ(table->filter_info().metaindex_key,
            "filter.leveldb.BuiltinBloomFilter2");
  for (int i = 0; i < 1000; ++i) {
    EXPECT_FALSE(table->Get(ReadOptions(), absl::StrCat("absent", i)).ok());
  }
  // About 1% false positives at 10 bits per key; 5% leaves a wide margin.
  EXPECT_GE(table->GetStats().filter_negatives, 950u);
}

TEST(TableFilter, UnknownPolicyIsReadWithoutAFilter) {
  Model model{{"a", "1"}, {"b", "2"}};
  Options writer;
  writer.filter_policy = NewHashListPolicy("test.A");
  const std::string contents = BuildTable(writer, model);
  Options reader;
  reader.filter_policy = NewHashListPolicy("test.B");
  auto table = OpenTable(reader, contents);
  ASSERT_NE(table, nullptr);
  EXPECT_EQ(table->filter_info().metaindex_key, "filter.test.A");
  EXPECT_FALSE(table->filter_info().in_use);
  EXPECT_TRUE(absl::StrContains(table->filter_info().unused_reason, "test.A"))
      << table->filter_info().unused_reason;
  EXPECT_EQ(*table->Get(ReadOptions(), "b"), "2");
  EXPECT_EQ(table->Get(ReadOptions(), "c").status().code(),
            absl::StatusCode::kNotFound);
  EXPECT_EQ(table->GetStats().filter_checks, 0u);
}

TEST(TableFilter, ReaderPicksThePolicyTheTableNamesAmongSeveral) {
  Model model{{"a", "1"}, {"b", "2"}};
  for (FilterLayout layout :
       {FilterLayout::kPerBlock, FilterLayout::kWholeTable}) {
    Options writer;
    writer.filter_policy = NewHashListPolicy("test.A");
    writer.filter_layout = layout;
    const std::string contents = BuildTable(writer, model);
    Options reader;
    reader.filter_policy = NewHashListPolicy("test.B");
    reader.extra_filter_policies = {NewHashListPolicy("test.C"),
                                    NewHashListPolicy("test.A")};
    auto table = OpenTable(reader, contents);
    ASSERT_NE(table, nullptr);
    EXPECT_TRUE(table->filter_info().in_use);
    EXPECT_EQ(table->filter_info().metaindex_key,
              layout == FilterLayout::kPerBlock ? "filter.test.A"
                                                : "fullfilter.test.A");
    EXPECT_EQ(table->Get(ReadOptions(), "zz").status().code(),
              absl::StatusCode::kNotFound);
    EXPECT_EQ(table->GetStats().filter_negatives,
              layout == FilterLayout::kWholeTable ? 1u : 0u);
    EXPECT_EQ(*table->Get(ReadOptions(), "a"), "1");
  }
}

TEST(TableFilter, WholeTableOnlyPolicyAskedForPerBlockGetsWholeTable) {
  Options options;
  options.filter_policy = NewWholeTableOnlyPolicy();
  options.filter_layout = FilterLayout::kPerBlock;
  auto table = OpenTable(options, BuildTable(options, {{"a", "1"}}));
  ASSERT_NE(table, nullptr);
  EXPECT_EQ(table->filter_info().metaindex_key,
            "fullfilter.test.WholeTableOnly");
  EXPECT_TRUE(table->filter_info().in_use);
}

Model NumberedModel(int n) {
  Model model;
  for (int i = 0; i < n; ++i) model[absl::StrCat("key", 1000 + i)] = "v";
  return model;
}

void ExpectAllPresentKeysFound(const Table& table, const Model& model) {
  for (const auto& [key, value] : model) {
    auto got = table.Get(ReadOptions(), key);
    ASSERT_TRUE(got.ok()) << key << ": " << got.status();
    EXPECT_EQ(*got, value);
  }
}

TEST(TableFilter, FilterWithBadChecksumOpensWithoutFilterAndIsCounted) {
  const Model model = NumberedModel(100);
  for (FilterLayout layout :
       {FilterLayout::kPerBlock, FilterLayout::kWholeTable}) {
    Options options;
    options.block_size = 256;
    options.filter_policy = NewHashListPolicy();
    options.filter_layout = layout;
    std::string contents = BuildTable(options, model);
    const BlockHandle filter =
        table_test::ReadTableLayout(contents).filter.value();
    contents[filter.offset()] ^= 0x01;
    auto table = OpenTable(options, contents);
    ASSERT_NE(table, nullptr);
    EXPECT_FALSE(table->filter_info().in_use);
    EXPECT_TRUE(
        absl::StrContains(table->filter_info().unused_reason, "checksum"))
        << table->filter_info().unused_reason;
    EXPECT_EQ(table->GetStats().checksum_failures, 1u);
    ExpectAllPresentKeysFound(*table, model);
  }
}

TEST(TableFilter, MalformedFilterBlockWithValidChecksumIsNotUsed) {
  const Model model = NumberedModel(100);
  Options options;
  options.block_size = 256;
  options.filter_policy = NewHashListPolicy();
  std::string contents = BuildTable(options, model);
  const BlockHandle filter =
      table_test::ReadTableLayout(contents).filter.value();
  // base_lg 0 is never written: the block is unusable. Re-seal the CRC.
  const size_t end = filter.offset() + filter.size();
  contents[end - 1] = 0;
  const uint32_t crc =
      crc32c::Value(contents.data() + filter.offset(), filter.size() + 1);
  EncodeFixed32(&contents[end + 1], crc32c::Mask(crc));
  auto table = OpenTable(options, contents);
  ASSERT_NE(table, nullptr);
  EXPECT_FALSE(table->filter_info().in_use);
  EXPECT_EQ(table->GetStats().checksum_failures, 0u);
  ExpectAllPresentKeysFound(*table, model);
}

// ---------------------------------------------------------------------------
// Open's checks.

TEST(TableOpen, FileShorterThanAFooterIsDataLoss) {
  const std::string contents(47, '\0');
  auto table = Table::Open(Options(), NewMemoryRandomAccessFile(contents), 47);
  EXPECT_EQ(table.status().code(), absl::StatusCode::kDataLoss);
}

TEST(TableOpen, RocksDBTableIsUnimplemented) {
  std::string contents = BuildTable(Options(), NumberedModel(3));
  const size_t magic_at = contents.size() - 8;
  contents.resize(magic_at);
  PutFixed64(&contents, kRocksDBBlockBasedTableMagicNumber);
  auto table = Table::Open(Options(), NewMemoryRandomAccessFile(contents),
                           contents.size());
  EXPECT_EQ(table.status().code(), absl::StatusCode::kUnimplemented);
  EXPECT_TRUE(absl::StrContains(table.status().message(), "RocksDB"));
}

TEST(TableOpen, DamagedIndexIsAnOpenError) {
  std::string contents = BuildTable(Options(), NumberedModel(50));
  contents[table_test::ReadFooter(contents).index_handle().offset()] ^= 0x40;
  auto table = Table::Open(Options(), NewMemoryRandomAccessFile(contents),
                           contents.size());
  EXPECT_EQ(table.status().code(), absl::StatusCode::kDataLoss);
}

TEST(TableOpen, DamagedDataBlockIsDataLossOnGetAndIteration) {
  Options options;
  options.compression = CompressionType::kNone;
  const Model model = NumberedModel(20);
  std::string contents = BuildTable(options, model);
  contents[3] ^= 0x01;  // inside the only data block
  auto table = OpenTable(options, contents);
  ASSERT_NE(table, nullptr);
  EXPECT_EQ(table->Get(ReadOptions(), "key1000").status().code(),
            absl::StatusCode::kDataLoss);
  EXPECT_EQ(table->GetStats().checksum_failures, 1u);
  auto it = table->NewIterator(ReadOptions());
  it->SeekToFirst();
  EXPECT_FALSE(it->Valid());
  EXPECT_EQ(it->status().code(), absl::StatusCode::kDataLoss);
}

// ---------------------------------------------------------------------------
// ApproximateOffsetOf.

TEST(TableApproximateOffsetOf, FollowsTheDataSizes) {
  Options options;
  options.compression = CompressionType::kNone;
  options.block_size = 1024;
  Model model;
  model["k01"] = "hello";
  model["k02"] = "hello2";
  model["k03"] = std::string(10000, 'x');
  model["k04"] = std::string(200000, 'x');
  model["k05"] = std::string(300000, 'x');
  model["k06"] = "hello3";
  model["k07"] = std::string(100000, 'x');
  const std::string contents = BuildTable(options, model);
  auto table = OpenTable(options, contents);
  ASSERT_NE(table, nullptr);
  auto between = [&](std::string_view key, uint64_t low, uint64_t high) {
    const uint64_t offset = table->ApproximateOffsetOf(key);
    EXPECT_GE(offset, low) << key;
    EXPECT_LE(offset, high) << key;
  };
  between("abc", 0, 0);
  between("k01", 0, 0);
  between("k02", 0, 0);
  between("k03", 0, 0);
  between("k04", 10000, 11000);
  between("k04a", 210000, 211000);
  between("k05", 210000, 211000);
  between("k06", 510000, 511000);
  between("k07", 510000, 511000);
  between("xyz", 610000, 612000);
}

// ---------------------------------------------------------------------------
// LevelDB-internal keys: user key + fixed64 (sequence << 8 | type).

std::string IKey(std::string_view user_key, uint64_t sequence, ValueType type) {
  std::string key;
  AppendInternalKey(&key, user_key, sequence, type);
  return key;
}

// Internal keys in the table's order (newest version first).
struct InternalKeyLess {
  bool operator()(const std::string& a, const std::string& b) const {
    return InternalKeyComparator(BytewiseComparator()).Compare(a, b) < 0;
  }
};
using InternalModel = std::map<std::string, std::string, InternalKeyLess>;

std::string BuildInternalTable(const Options& options,
                               const InternalModel& model) {
  StringWritableFile file;
  TableBuilder builder(options, &file);
  for (const auto& [key, value] : model) {
    absl::Status status = builder.Add(key, value);
    EXPECT_TRUE(status.ok()) << status;
  }
  EXPECT_TRUE(builder.Finish().ok());
  return file.contents();
}

Options InternalOptions(const Config& config) {
  Options options = config.ToOptions();
  options.key_format = KeyFormat::kLevelDBInternal;
  return options;
}

TEST(TableInternalKeys, GetReturnsTheNewestVersionAndDeletionsAreNotFound) {
  InternalModel model;
  model[IKey("a", 5, ValueType::kValue)] = "a5";
  model[IKey("a", 3, ValueType::kDeletion)] = "";
  model[IKey("a", 1, ValueType::kValue)] = "a1";
  model[IKey("b", 9, ValueType::kDeletion)] = "";
  model[IKey("b", 2, ValueType::kValue)] = "b2";
  model[IKey("c", 4, ValueType::kValue)] = "c4";
  for (size_t block_size : {size_t{1}, size_t{4096}}) {
    for (FilterMode filter :
         {FilterMode::kNone, FilterMode::kPerBlock, FilterMode::kWholeTable}) {
      const Options options =
          InternalOptions(Config{16, block_size, true, filter});
      SCOPED_TRACE(Describe(Config{16, block_size, true, filter}));
      auto table = OpenTable(options, BuildInternalTable(options, model));
      ASSERT_NE(table, nullptr);
      EXPECT_EQ(*table->Get(ReadOptions(), "a"), "a5");
      EXPECT_EQ(table->Get(ReadOptions(), "b").status().code(),
                absl::StatusCode::kNotFound);
      EXPECT_EQ(*table->Get(ReadOptions(), "c"), "c4");
      for (const char* absent : {"", "a\x01", "bb", "d"}) {
        EXPECT_EQ(table->Get(ReadOptions(), absent).status().code(),
                  absl::StatusCode::kNotFound)
            << absent;
      }
      // Iteration yields the internal keys, newest version first.
      auto it = table->NewIterator(ReadOptions());
      auto m = model.begin();
      for (it->SeekToFirst(); it->Valid(); it->Next(), ++m) {
        ASSERT_NE(m, model.end());
        EXPECT_EQ(it->key(), m->first);
        EXPECT_EQ(it->value(), m->second);
      }
      EXPECT_EQ(m, model.end());
      // Seeking takes internal keys.
      it->Seek(IKey("a", 4, ValueType::kValue));
      ASSERT_TRUE(it->Valid());
      EXPECT_EQ(it->key(), IKey("a", 3, ValueType::kDeletion));
    }
  }
}

TEST(TableInternalKeys, RandomVersionsMatchTheModel) {
  std::mt19937 rng(77);
  InternalModel model;
  std::map<std::string, std::string> newest;  // user key -> visible value
  std::map<std::string, uint64_t> newest_sequence;
  uint64_t sequence = 1;
  for (int i = 0; i < 400; ++i) {
    const std::string user_key =
        absl::StrCat("user", rng() % 120, i % 7 == 0 ? "-long-suffix" : "");
    const bool deletion = rng() % 4 == 0;
    const std::string value = deletion ? "" : absl::StrCat("v", sequence);
    model[IKey(user_key, sequence,
               deletion ? ValueType::kDeletion : ValueType::kValue)] = value;
    newest_sequence[user_key] = sequence;
    if (deletion) {
      newest.erase(user_key);
    } else {
      newest[user_key] = value;
    }
    ++sequence;
  }
  for (size_t block_size : {size_t{64}, size_t{1024}}) {
    for (FilterMode filter :
         {FilterMode::kNone, FilterMode::kPerBlock, FilterMode::kWholeTable}) {
      const Options options =
          InternalOptions(Config{4, block_size, false, filter});
      SCOPED_TRACE(Describe(Config{4, block_size, false, filter}));
      auto table = OpenTable(options, BuildInternalTable(options, model));
      ASSERT_NE(table, nullptr);
      for (const auto& [user_key, unused] : newest_sequence) {
        auto got = table->Get(ReadOptions(), user_key);
        auto expected = newest.find(user_key);
        if (expected == newest.end()) {
          EXPECT_EQ(got.status().code(), absl::StatusCode::kNotFound)
              << user_key;
        } else {
          ASSERT_TRUE(got.ok()) << user_key << ": " << got.status();
          EXPECT_EQ(*got, expected->second);
        }
      }
      for (int i = 0; i < 100; ++i) {
        EXPECT_EQ(table->Get(ReadOptions(), absl::StrCat("absent", i))
                      .status()
                      .code(),
                  absl::StatusCode::kNotFound);
      }
      auto it = table->NewIterator(ReadOptions());
      auto m = model.rbegin();
      for (it->SeekToLast(); it->Valid(); it->Prev(), ++m) {
        ASSERT_NE(m, model.rend());
        EXPECT_EQ(it->key(), m->first);
      }
      EXPECT_EQ(m, model.rend());
      EXPECT_TRUE(it->status().ok());
    }
  }
}

// Records the keys each CreateFilter call receives.
class RecordingPolicy final : public FilterPolicy {
 public:
  std::string_view Name() const override { return "test.Recording"; }
  void CreateFilter(const std::string_view* keys, size_t n,
                    std::string* dst) const override {
    for (size_t i = 0; i < n; ++i) keys_.emplace_back(keys[i]);
    inner_.CreateFilter(keys, n, dst);
  }
  bool KeyMayMatch(std::string_view key,
                   std::string_view filter) const override {
    return inner_.KeyMayMatch(key, filter);
  }
  std::vector<std::string>& keys() const { return keys_; }

 private:
  testing_policies::HashListPolicy inner_;
  mutable std::vector<std::string> keys_;
};

TEST(TableInternalKeys, FiltersHoldUserKeys) {
  InternalModel model;
  model[IKey("a", 5, ValueType::kValue)] = "a5";
  model[IKey("a", 3, ValueType::kDeletion)] = "";
  model[IKey("b", 2, ValueType::kValue)] = "b2";
  // Per-block: LevelDB's rule, one user key per entry.
  // Whole-table: adjacent versions of a user key count once.
  for (FilterLayout layout :
       {FilterLayout::kPerBlock, FilterLayout::kWholeTable}) {
    auto policy = std::make_shared<RecordingPolicy>();
    Options options;
    options.key_format = KeyFormat::kLevelDBInternal;
    options.filter_policy = policy;
    options.filter_layout = layout;
    BuildInternalTable(options, model);
    EXPECT_EQ(policy->keys(), layout == FilterLayout::kPerBlock
                                  ? std::vector<std::string>({"a", "a", "b"})
                                  : std::vector<std::string>({"a", "b"}));
  }
}

TEST(TableInternalKeys, MalformedInternalKeyIsInvalidArgumentOnAdd) {
  Options options;
  options.key_format = KeyFormat::kLevelDBInternal;
  for (const std::string& bad :
       {std::string("short"), std::string("abc") + std::string(8, '\x02')}) {
    StringWritableFile file;
    TableBuilder builder(options, &file);
    EXPECT_EQ(builder.Add(bad, "v").code(), absl::StatusCode::kInvalidArgument);
    builder.Abandon();
  }
}

TEST(TableInternalKeys, MalformedInternalKeyInATableIsDataLossOnGet) {
  // A plain table whose key is too short for a tag, read as internal.
  const std::string contents = BuildTable(Options(), {{"abc", "v"}});
  Options options;
  options.key_format = KeyFormat::kLevelDBInternal;
  auto table = OpenTable(options, contents);
  ASSERT_NE(table, nullptr);
  EXPECT_EQ(table->Get(ReadOptions(), "abc").status().code(),
            absl::StatusCode::kDataLoss);
}

// The index block's keys, in order.
std::vector<std::string> IndexKeys(const std::string& contents) {
  std::vector<std::string> keys;
  for (auto& [key, value] : table_test::ReadBlockEntries(
           contents, table_test::ReadFooter(contents).index_handle())) {
    keys.push_back(std::move(key));
  }
  return keys;
}

TEST(TableInternalKeys, IndexSeparatorsShortenUserKeysAndAddTheLargestTag) {
  InternalModel model;
  model[IKey("abcdefg", 5, ValueType::kValue)] = "1";
  model[IKey("abzzz", 3, ValueType::kValue)] = "2";
  model[IKey("abzzz", 2, ValueType::kValue)] = "3";
  Options options;
  options.key_format = KeyFormat::kLevelDBInternal;
  options.block_size = 1;  // one entry per data block
  const std::vector<std::string> keys =
      IndexKeys(BuildInternalTable(options, model));
  std::string max_tag;
  PutFixed64(&max_tag, 0xffffffffffffff01ull);
  ASSERT_EQ(keys.size(), 3u);
  // Between different user keys: shortened, with the largest tag.
  EXPECT_EQ(keys[0], "abd" + max_tag);
  // Between versions of one user key: the internal key itself.
  EXPECT_EQ(keys[1], IKey("abzzz", 3, ValueType::kValue));
  // After the last block: the short successor of the user key.
  EXPECT_EQ(keys[2], "b" + max_tag);
}

}  // namespace
}  // namespace bloomtable
