// Write-batch decoding: the layout, all-or-nothing errors, RocksDB's tags.

#include "bloomtable/write_batch.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "util/coding.h"

namespace bloomtable {
namespace {

WriteOp Put(std::string key, std::string value) {
  WriteOp op;
  op.type = WriteOpType::kPut;
  op.key = std::move(key);
  op.value = std::move(value);
  return op;
}

WriteOp Del(std::string key) {
  WriteOp op;
  op.type = WriteOpType::kDelete;
  op.key = std::move(key);
  return op;
}

class Recorder : public WriteBatchHandler {
 public:
  void Put(uint64_t sequence, std::string_view key,
           std::string_view value) override {
    log += "put " + std::to_string(sequence) + " " + std::string(key) + "=" +
           std::string(value) + ";";
  }
  void Delete(uint64_t sequence, std::string_view key) override {
    log += "del " + std::to_string(sequence) + " " + std::string(key) + ";";
  }
  std::string log;
};

TEST(WriteBatch, EncodingIsLevelDBsLayout) {
  const std::string batch = EncodeWriteBatch(7, {Put("k", "v"), Del("d")});
  std::string expected;
  PutFixed64(&expected, 7);
  PutFixed32(&expected, 2);
  expected += std::string("\x01\x01k\x01v", 5);
  expected += std::string(
      "\x00\x01"
      "d",
      3);
  EXPECT_EQ(batch, expected);
}

TEST(WriteBatch, OperationsTakeConsecutiveSequences) {
  const std::string batch =
      EncodeWriteBatch(100, {Put("a", "1"), Del("b"), Put("c", "")});
  Recorder recorder;
  absl::StatusOr<WriteBatchHeader> header = IterateWriteBatch(batch, &recorder);
  ASSERT_TRUE(header.ok()) << header.status();
  EXPECT_EQ(header->sequence, 100u);
  EXPECT_EQ(header->count, 3u);
  EXPECT_EQ(recorder.log, "put 100 a=1;del 101 b;put 102 c=;");

  absl::StatusOr<DecodedWriteBatch> decoded = DecodeWriteBatch(batch);
  ASSERT_TRUE(decoded.ok());
  ASSERT_EQ(decoded->ops.size(), 3u);
  EXPECT_EQ(decoded->ops[1].type, WriteOpType::kDelete);
  EXPECT_EQ(decoded->ops[1].sequence, 101u);
  EXPECT_EQ(decoded->ops[2].key, "c");
}

TEST(WriteBatch, EmptyBatchIsValid) {
  absl::StatusOr<DecodedWriteBatch> decoded =
      DecodeWriteBatch(EncodeWriteBatch(5, {}));
  ASSERT_TRUE(decoded.ok());
  EXPECT_EQ(decoded->count, 0u);
  EXPECT_TRUE(decoded->ops.empty());
}

TEST(WriteBatch, ShortHeaderIsDataLoss) {
  EXPECT_TRUE(absl::IsDataLoss(DecodeWriteBatch("12345").status()));
}

TEST(WriteBatch, WrongCountIsDataLossAndNothingIsDelivered) {
  std::string batch = EncodeWriteBatch(1, {Put("a", "1"), Put("b", "2")});
  batch[8] = 3;  // count 3, two operations
  Recorder recorder;
  const absl::Status status = IterateWriteBatch(batch, &recorder).status();
  EXPECT_TRUE(absl::IsDataLoss(status)) << status;
  EXPECT_EQ(recorder.log, "");
  batch[8] = 1;  // count 1, two operations
  EXPECT_TRUE(absl::IsDataLoss(IterateWriteBatch(batch, &recorder).status()));
  EXPECT_EQ(recorder.log, "");
}

TEST(WriteBatch, EveryTruncationIsDataLoss) {
  const std::string batch =
      EncodeWriteBatch(9, {Put("key", "value"), Del("gone")});
  for (size_t n = 0; n < batch.size(); ++n) {
    Recorder recorder;
    const absl::Status status =
        IterateWriteBatch(batch.substr(0, n), &recorder).status();
    EXPECT_TRUE(absl::IsDataLoss(status)) << n;
    EXPECT_EQ(recorder.log, "") << n;
  }
}

TEST(WriteBatch, UnknownTagIsDataLoss) {
  std::string batch = EncodeWriteBatch(1, {Put("a", "1")});
  batch[12] = 0x40;
  const absl::Status status = DecodeWriteBatch(batch).status();
  EXPECT_TRUE(absl::IsDataLoss(status)) << status;
  EXPECT_NE(status.message().find("unknown tag 64"), std::string::npos);
}

TEST(WriteBatch, RocksDBMergeIsUnimplementedNamingRocksDB) {
  std::string batch = EncodeWriteBatch(1, {Put("a", "1")});
  batch[12] = 2;  // RocksDB's merge
  const absl::Status status = DecodeWriteBatch(batch).status();
  EXPECT_TRUE(absl::IsUnimplemented(status)) << status;
  EXPECT_NE(status.message().find("RocksDB"), std::string::npos);
}

TEST(WriteBatch, SequencePastTheLimitIsDataLoss) {
  const uint64_t max_sequence = (uint64_t{1} << 56) - 1;
  EXPECT_TRUE(
      DecodeWriteBatch(EncodeWriteBatch(max_sequence, {Put("a", "1")})).ok());
  EXPECT_TRUE(absl::IsDataLoss(
      DecodeWriteBatch(
          EncodeWriteBatch(max_sequence, {Put("a", "1"), Put("b", "2")}))
          .status()));
}

TEST(WriteBatch, HugeCountWithFewBytesIsDataLossWithoutAllocating) {
  std::string batch = EncodeWriteBatch(1, {});
  EncodeFixed32(batch.data() + 8, 0xffffffffu);
  EXPECT_TRUE(absl::IsDataLoss(DecodeWriteBatch(batch).status()));
}

}  // namespace
}  // namespace bloomtable
