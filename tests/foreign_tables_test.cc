// The corpus of tables written by other programs' layouts (tests/data/,
// written by tests/data/make_foreign_tables.cc; layouts in
// tests/foreign_table_writer.h): Mojang's Bedrock fork with zlib (type 2)
// and raw deflate (type 4), upstream LevelDB's zstd (type 2) and the type-3
// zstd of Mojang-derived forks. Each committed file reads back exactly,
// filter in use, and is what the generator writes today.

#include <string>
#include <utility>
#include <vector>

#include "bloomtable/file.h"
#include "bloomtable/filter_policy.h"
#include "bloomtable/iterator.h"
#include "bloomtable/options.h"
#include "bloomtable/table.h"
#include "gtest/gtest.h"
#include "table/format.h"
#include "tests/foreign_table_writer.h"

namespace bloomtable {
namespace {

using foreign_tables::CorpusFile;

std::string ReadCorpusFile(const CorpusFile& spec) {
  const std::string path =
      std::string(BLOOMTABLE_TEST_DATA_DIR) + "/" + spec.name;
  absl::StatusOr<std::string> bytes = ReadFileToString(path);
  EXPECT_TRUE(bytes.ok()) << bytes.status();
  return bytes.ok() ? *bytes : std::string();
}

Options ReadingOptions(const CorpusFile& spec) {
  Options options;
  options.key_format =
      spec.internal_keys ? KeyFormat::kLevelDBInternal : KeyFormat::kPlain;
  options.filter_policy = NewLevelDBBloomFilterPolicy(10);
  return options;
}

// Every entry in order, every key found by Get, the filter in use and
// saying absent for keys that are not there.
void ExpectReadsBackExactly(const CorpusFile& spec, const std::string& bytes) {
  const std::vector<std::pair<std::string, std::string>> expected =
      foreign_tables::CorpusEntries(foreign_tables::kCorpusEntries,
                                    spec.internal_keys);
  auto table = Table::Open(ReadingOptions(spec),
                           NewMemoryRandomAccessFile(bytes), bytes.size());
  ASSERT_TRUE(table.ok()) << table.status();
  EXPECT_TRUE((*table)->filter_info().in_use);
  auto it = (*table)->NewIterator(ReadOptions());
  size_t i = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next(), ++i) {
    ASSERT_LT(i, expected.size());
    ASSERT_EQ(it->key(), expected[i].first) << i;
    ASSERT_EQ(it->value(), expected[i].second) << i;
  }
  ASSERT_TRUE(it->status().ok()) << it->status();
  EXPECT_EQ(i, expected.size());
  for (const auto& [key, value] : expected) {
    const std::string user_key =
        spec.internal_keys ? key.substr(0, key.size() - 8) : key;
    EXPECT_EQ(*(*table)->Get(ReadOptions(), user_key), value);
  }
  // Absent keys between present ones: the filter rules most of them out.
  for (const auto& [key, value] : expected) {
    const std::string absent =
        (spec.internal_keys ? key.substr(0, key.size() - 8) : key) + "x";
    EXPECT_TRUE(
        absl::IsNotFound((*table)->Get(ReadOptions(), absent).status()));
  }
  EXPECT_GT((*table)->GetStats().filter_negatives, expected.size() / 2);
}

// The trailer type of the footer's index block: the codec's number.
unsigned char IndexBlockType(const std::string& bytes) {
  Footer footer;
  EXPECT_TRUE(footer
                  .DecodeFrom(std::string_view(bytes).substr(
                      bytes.size() - Footer::kEncodedLength))
                  .ok());
  const BlockHandle& index = footer.index_handle();
  return static_cast<unsigned char>(bytes[index.offset() + index.size()]);
}

class ForeignTablesTest : public testing::TestWithParam<CorpusFile> {};

TEST_P(ForeignTablesTest, CommittedFileReadsBackExactly) {
  const std::string bytes = ReadCorpusFile(GetParam());
  ASSERT_FALSE(bytes.empty());
  EXPECT_EQ(IndexBlockType(bytes), foreign_tables::TypeOf(GetParam().codec));
  ExpectReadsBackExactly(GetParam(), bytes);
}

// What the generator writes now (with this machine's zlib and zstd, whose
// bytes may differ from the committed ones) reads back the same.
TEST_P(ForeignTablesTest, GeneratorOutputReadsBackExactly) {
  ExpectReadsBackExactly(GetParam(),
                         foreign_tables::WriteCorpusFile(GetParam()));
}

INSTANTIATE_TEST_SUITE_P(Corpus, ForeignTablesTest,
                         testing::ValuesIn(foreign_tables::kCorpus),
                         [](const testing::TestParamInfo<CorpusFile>& info) {
                           std::string name = info.param.name;
                           return name.substr(0, name.find('.'));
                         });

// The same entries written by Mojang's fork itself (leveldb-mcpe, its
// leveldb::DB with a Bloom filter and each of its compressors; see
// tests/data/README.md): the layout's claims rest on the real writer too.
constexpr CorpusFile kMojangForkFiles[] = {
    {"mojang/leveldb_mcpe_zlib.ldb", foreign_tables::ForeignCodec::kBedrockZlib,
     true},
    {"mojang/leveldb_mcpe_raw_deflate.ldb",
     foreign_tables::ForeignCodec::kBedrockRawDeflate, true},
    {"mojang/leveldb_mcpe_zstd.ldb",
     foreign_tables::ForeignCodec::kMojangForkZstd, true},
};

class MojangForkTablesTest : public testing::TestWithParam<CorpusFile> {};

TEST_P(MojangForkTablesTest, RealWritersFileReadsBackExactly) {
  const std::string bytes = ReadCorpusFile(GetParam());
  ASSERT_FALSE(bytes.empty());
  EXPECT_EQ(IndexBlockType(bytes), foreign_tables::TypeOf(GetParam().codec));
  ExpectReadsBackExactly(GetParam(), bytes);
}

INSTANTIATE_TEST_SUITE_P(LevelDBMcpe, MojangForkTablesTest,
                         testing::ValuesIn(kMojangForkFiles),
                         [](const testing::TestParamInfo<CorpusFile>& info) {
                           std::string name = info.param.name;
                           name = name.substr(name.find('/') + 1);
                           return name.substr(0, name.find('.'));
                         });

}  // namespace
}  // namespace bloomtable
