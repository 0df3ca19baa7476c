// SalvageTable: what a damaged table still holds. A data block with one
// damaged byte is repaired by its checksum; one with more is skipped and
// named; a table cut short or with a damaged footer is walked block by
// block, its data blocks found by their checksums. Nothing is returned
// that no checksum vouches for.

#include "table/table_salvage.h"

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "bloomtable/file.h"
#include "bloomtable/options.h"
#include "bloomtable/table.h"
#include "bloomtable/table_builder.h"
#include "gtest/gtest.h"
#include "table/internal_key.h"
#include "tests/table_in_memory.h"

namespace bloomtable {
namespace {

using Entries = std::map<std::string, std::string>;

struct Built {
  Entries entries;  // internal key -> value
  std::string bytes;
  std::vector<uint64_t> block_offsets;  // of the data blocks, ascending
};

Built Build(CompressionType compression) {
  static const InternalKeyComparator* const icmp =
      new InternalKeyComparator(BytewiseComparator());
  Built built;
  for (int i = 0; i < 200; ++i) {
    std::string key;
    AppendInternalKey(&key, absl::StrFormat("key%04d", i), 1000 - i,
                      ValueType::kValue);
    built.entries[key] = absl::StrCat("value ", i, std::string(i % 17, 'v'));
  }
  Options options;
  options.comparator = icmp;
  options.key_format = KeyFormat::kLevelDBInternal;
  options.block_size = 512;
  options.compression = compression;
  // The map orders by bytes; the internal keys here order the same way.
  built.bytes = table_test::BuildTableInMemory(options, built.entries);
  std::unique_ptr<Table> table =
      table_test::OpenTableInMemory(options, built.bytes);
  std::map<uint64_t, bool> offsets;
  EXPECT_TRUE(table
                  ->ForEachEntry(ReadOptions(),
                                 [&offsets](std::string_view, std::string_view,
                                            uint64_t offset) {
                                   offsets[offset] = true;
                                   return true;
                                 })
                  .ok());
  for (const auto& [offset, unused] : offsets) {
    built.block_offsets.push_back(offset);
  }
  return built;
}

struct Salvaged {
  Entries entries;
  std::vector<std::string> problems;
};

Salvaged Salvage(const std::string& bytes) {
  std::unique_ptr<RandomAccessFile> file = NewMemoryRandomAccessFile(bytes);
  Salvaged out;
  EXPECT_TRUE(SalvageTable(
                  *file, bytes.size(), TableSalvageOptions(),
                  [&out](std::string_view key, std::string_view value,
                         uint64_t) { out.entries.emplace(key, value); },
                  &out.problems)
                  .ok());
  return out;
}

// Every salvaged entry is one that was written.
void ExpectSubset(const Salvaged& salvaged, const Built& built) {
  for (const auto& [key, value] : salvaged.entries) {
    auto it = built.entries.find(key);
    ASSERT_TRUE(it != built.entries.end());
    EXPECT_EQ(it->second, value);
  }
}

TEST(TableSalvage, AWholeTableGivesEveryEntryAndNoProblem) {
  const Built built = Build(CompressionType::kSnappy);
  ASSERT_GE(built.block_offsets.size(), 5u);
  const Salvaged salvaged = Salvage(built.bytes);
  EXPECT_EQ(salvaged.entries, built.entries);
  EXPECT_TRUE(salvaged.problems.empty());
}

TEST(TableSalvage, OneDamagedByteOfADataBlockIsRepaired) {
  for (CompressionType compression :
       {CompressionType::kNone, CompressionType::kSnappy}) {
    const Built built = Build(compression);
    std::string bytes = built.bytes;
    bytes[built.block_offsets[2] + 30] ^= 0x08;
    const Salvaged salvaged = Salvage(bytes);
    EXPECT_EQ(salvaged.entries, built.entries);
    ASSERT_EQ(salvaged.problems.size(), 1u);
    EXPECT_NE(salvaged.problems[0].find(
                  absl::StrCat("at offset ", built.block_offsets[2])),
              std::string::npos)
        << salvaged.problems[0];
    EXPECT_NE(salvaged.problems[0].find("repaired"), std::string::npos);
  }
}

TEST(TableSalvage, ABlockWithMoreDamageIsSkippedAndNamed) {
  const Built built = Build(CompressionType::kNone);
  std::string bytes = built.bytes;
  bytes[built.block_offsets[1] + 10] ^= 0x01;
  bytes[built.block_offsets[1] + 40] ^= 0x02;
  const Salvaged salvaged = Salvage(bytes);
  ExpectSubset(salvaged, built);
  EXPECT_LT(salvaged.entries.size(), built.entries.size());
  EXPECT_GT(salvaged.entries.size(), built.entries.size() / 2);
  ASSERT_EQ(salvaged.problems.size(), 1u);
  EXPECT_NE(salvaged.problems[0].find(absl::StrCat(
                "at offset ", built.block_offsets[1], ": data block")),
            std::string::npos)
      << salvaged.problems[0];
  EXPECT_NE(salvaged.problems[0].find("skipped"), std::string::npos);
}

TEST(TableSalvage, ATruncatedTableIsWalkedByChecksums) {
  const Built built = Build(CompressionType::kSnappy);
  // Cut inside the fourth data block: the first three are whole.
  const std::string bytes = built.bytes.substr(0, built.block_offsets[3] + 7);
  const Salvaged salvaged = Salvage(bytes);
  ExpectSubset(salvaged, built);
  EXPECT_GT(salvaged.entries.size(), 0u);
  EXPECT_LT(salvaged.entries.size(), built.entries.size());
  EXPECT_FALSE(salvaged.problems.empty());
  EXPECT_NE(salvaged.problems[0].find("found by their checksums"),
            std::string::npos)
      << salvaged.problems[0];
}

TEST(TableSalvage, ADamagedFooterIsWalkedToo) {
  const Built built = Build(CompressionType::kSnappy);
  std::string bytes = built.bytes;
  bytes[bytes.size() - 3] ^= 0xff;  // the magic number
  const Salvaged salvaged = Salvage(bytes);
  EXPECT_EQ(salvaged.entries, built.entries);
  EXPECT_EQ(salvaged.problems.size(), 1u);
}

}  // namespace
}  // namespace bloomtable
