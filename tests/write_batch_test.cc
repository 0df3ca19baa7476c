// Write-batch decoding: the layout, all-or-nothing errors, RocksDB's tags,
// and replaying a malformed batch as LevelDB's recovery applies it.

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

// ReplayWriteBatch applies what LevelDB's recovery applies: every operation
// when only the count is wrong, and takes the last sequence from the header.
TEST(WriteBatchReplay, WrongCountDeliversEveryOperation) {
  std::string batch =
      EncodeWriteBatch(10, {Put("a", "1"), Del("b"), Put("c", "3")});
  for (uint32_t count : {1u, 7u, 0u}) {
    SCOPED_TRACE(count);
    EncodeFixed32(batch.data() + 8, count);
    Recorder recorder;
    absl::StatusOr<WriteBatchReplay> replay =
        ReplayWriteBatch(batch, &recorder);
    ASSERT_TRUE(replay.ok()) << replay.status();
    EXPECT_EQ(recorder.log, "put 10 a=1;del 11 b;put 12 c=3;");
    EXPECT_EQ(replay->applied, 3u);
    EXPECT_TRUE(absl::IsDataLoss(replay->problem)) << replay->problem;
    EXPECT_EQ(replay->leveldb_last_sequence, 10u + count - 1);
  }
}

TEST(WriteBatchReplay, StopsAtAnUnknownTagOrACutOperation) {
  const std::string whole =
      EncodeWriteBatch(5, {Put("a", "1"), Put("b", "2"), Del("c")});
  const size_t second = EncodeWriteBatch(5, {Put("a", "1")}).size();
  std::string bad_tag = whole;
  bad_tag[second] = 0x42;
  Recorder recorder;
  absl::StatusOr<WriteBatchReplay> replay =
      ReplayWriteBatch(bad_tag, &recorder);
  ASSERT_TRUE(replay.ok());
  EXPECT_EQ(recorder.log, "put 5 a=1;");
  EXPECT_EQ(replay->applied, 1u);
  EXPECT_NE(replay->problem.message().find("unknown tag 66"), std::string::npos)
      << replay->problem;
  EXPECT_EQ(replay->leveldb_last_sequence,
            7u);  // 5 + 3 - 1, as the header says

  for (size_t cut = second + 1; cut < whole.size(); ++cut) {
    Recorder partial;
    replay = ReplayWriteBatch(whole.substr(0, cut), &partial);
    ASSERT_TRUE(replay.ok());
    EXPECT_FALSE(replay->problem.ok()) << cut;
    EXPECT_EQ(partial.log.substr(0, 10), "put 5 a=1;") << cut;
  }
  // A RocksDB tag stops it the same way, named.
  std::string merge = whole;
  merge[second] = 2;
  Recorder rocksdb;
  replay = ReplayWriteBatch(merge, &rocksdb);
  ASSERT_TRUE(replay.ok());
  EXPECT_EQ(rocksdb.log, "put 5 a=1;");
  EXPECT_TRUE(absl::IsUnimplemented(replay->problem));
}

TEST(WriteBatchReplay, WholeBatchHasNoProblem) {
  Recorder recorder;
  absl::StatusOr<WriteBatchReplay> replay =
      ReplayWriteBatch(EncodeWriteBatch(1, {Put("k", "v")}), &recorder);
  ASSERT_TRUE(replay.ok());
  EXPECT_TRUE(replay->problem.ok());
  EXPECT_EQ(replay->applied, 1u);
  EXPECT_EQ(replay->leveldb_last_sequence, 1u);
}

TEST(WriteBatchReplay, NothingIsDeliveredForAShortHeaderOrAHugeSequence) {
  Recorder recorder;
  EXPECT_TRUE(absl::IsDataLoss(ReplayWriteBatch("12345", &recorder).status()));
  EXPECT_TRUE(absl::IsDataLoss(
      ReplayWriteBatch(EncodeWriteBatch(uint64_t{1} << 56, {Put("a", "1")}),
                       &recorder)
          .status()));
  EXPECT_EQ(recorder.log, "");
  // Operations whose sequence would pass 2^56 - 1 are not delivered.
  absl::StatusOr<WriteBatchReplay> replay = ReplayWriteBatch(
      EncodeWriteBatch((uint64_t{1} << 56) - 1, {Put("a", "1"), Put("b", "2")}),
      &recorder);
  ASSERT_TRUE(replay.ok());
  EXPECT_EQ(replay->applied, 1u);
  EXPECT_FALSE(replay->problem.ok());
}

}  // namespace
}  // namespace bloomtable
