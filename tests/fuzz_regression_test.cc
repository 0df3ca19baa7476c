// Inputs that broke a reader, kept as bytes so that each bug stays fixed:
// found by the fuzz targets (fuzz/) or by the randomized damage checks
// (randomized_table_test.cc, which prints the damaged table on failure).
// Every input is fed through the same calls as table_fuzzer; the test then
// checks the specific answer the fix gives.
//
// To add a fuzzer's find: minimise the artifact (-minimize_crash=1), and for
// table inputs apply the checksum fix-up the target applies
// (fuzz/fix_checksums.h), so that the bytes reach the same code here.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "bloomtable/file.h"
#include "bloomtable/filter_policy.h"
#include "bloomtable/options.h"
#include "bloomtable/table.h"
#include "gtest/gtest.h"

namespace bloomtable {
namespace {

std::string Bytes(const std::vector<uint8_t>& bytes) {
  return std::string(bytes.begin(), bytes.end());
}

Options ReadOptionsWithEveryPolicy(KeyFormat key_format) {
  Options options;
  options.key_format = key_format;
  options.filter_policy = NewLevelDBBloomFilterPolicy(10);
  options.extra_filter_policies = {NewCacheLocalBloomFilterPolicy(10),
                                   NewRibbonFilterPolicy(10)};
  return options;
}

// What table_fuzzer does with an input: open it both ways, walk it, look up
// a few keys. Returns Open's status for the plain-key reading.
absl::Status ExerciseLikeTableFuzzer(const std::string& bytes) {
  absl::Status plain_open;
  for (KeyFormat key_format :
       {KeyFormat::kPlain, KeyFormat::kLevelDBInternal}) {
    auto table = Table::Open(ReadOptionsWithEveryPolicy(key_format),
                             NewMemoryRandomAccessFile(bytes), bytes.size());
    if (key_format == KeyFormat::kPlain) plain_open = table.status();
    if (!table.ok()) continue;
    auto it = (*table)->NewIterator(ReadOptions());
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
    }
    for (it->SeekToLast(); it->Valid(); it->Prev()) {
    }
    for (std::string_view key : {"", "a", "key0"}) {
      (void)(*table)->Get(ReadOptions(), key);
      it->Seek(key);
    }
  }
  return plain_open;
}

// table_fuzzer, malloc limit: a 10-byte Snappy index block whose length
// header claims 64,045,679 bytes, under the 64 MiB cap. Open allocated the
// claimed size before Snappy found the block short. Ten bytes of Snappy can
// expand to at most 213 (64 per 3), so the claim is now refused first. (The
// fuzzer's footer also had a metaindex handle past the end, which Open now
// rejects before reading the index; and Open reads the metaindex before the
// index: here the metaindex is a valid empty block at offset 0, the index
// follows at 9, right before the footer.)
TEST(FuzzRegression, SnappyIndexClaimingFarMoreThanItsBytesIsRefused) {
  const std::string table = Bytes({
      0x00, 0x00, 0x00, 0x00, 0x00, 0xbc, 0x75, 0xed, 0x8e, 0xef, 0x84, 0xc5,
      0x9e, 0x00, 0x22, 0x04, 0x66, 0x69, 0x6c, 0x01, 0xd6, 0x20, 0xde, 0xf0,
      0x00, 0x04, 0x09, 0x0a, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
      0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
      0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
      0x00, 0x00, 0x00, 0x00, 0x57, 0xfb, 0x80, 0x8b, 0x24, 0x75, 0x47, 0xdb,
  });
  const absl::Status status = ExerciseLikeTableFuzzer(table);
  EXPECT_EQ(status.code(), absl::StatusCode::kDataLoss);
  EXPECT_TRUE(absl::StrContains(status.message(), "can expand to")) << status;
}

// randomized_table_test, damage: a 4-key table (no filter) whose footer's
// index handle was overwritten with a copy of the metaindex handle. Both
// point at the same valid, empty block, so the checksum passed and the
// table opened with an empty index: every present key read as NotFound.
// Open now requires the index or metaindex block to end at the footer, and
// the two not to overlap.
TEST(FuzzRegression, FooterIndexHandleCopiedFromTheMetaindexIsDataLoss) {
  const std::string original = absl::HexStringToBytes(
      "630c00000d792e01001400021a38856262010028000722815cbe30f0a97d6382"
      "01001c000000000100000001c6dd801d000a00e3d82da073dee794b4dc000000"
      "000100000000cd9f6e04000000000100000000c0f2a1b000010282002b000102"
      "e43015000000000600000002000000006bc35fcd4a0857180000000000000000"
      "0000000000000000000000000000000000000000000000000000000057fb808b"
      "247547db");
  const std::string damaged = absl::HexStringToBytes(
      "630c00000d792e01001400021a38856262010028000722815cbe300000000000"
      "01001c000000000100000001c6dd801d000a00e3d82d00000000000000000000"
      "000100000000cd9f6e04000000000100000000c0f2a1b000010282002b000102"
      "e43015000000000600000002000000006bc35fcd4a084a080000000000000000"
      "00ff000000000000000000000000000000000000000000000000000057fb808b"
      "247547db");
  ASSERT_TRUE(ExerciseLikeTableFuzzer(original).ok());
  const absl::Status status = ExerciseLikeTableFuzzer(damaged);
  EXPECT_EQ(status.code(), absl::StatusCode::kDataLoss);
  EXPECT_TRUE(absl::StrContains(status.message(), "overlap")) << status;
}

}  // namespace
}  // namespace bloomtable
