// Decoding LevelDB's write batches: the records of a write-ahead log
// (docs/FORMAT.md, "Write batches").
//
//   [fixed64 sequence][fixed32 count]
//   count x ( 0x01 varint32 key length, key, varint32 value length, value
//           | 0x00 varint32 key length, key )
//
// The i-th operation (from 0) has sequence number sequence + i.
//
// Two ways to take a batch that is malformed although its log record
// passed its checksum:
//
//   IterateWriteBatch, DecodeWriteBatch: all or nothing. A batch whose bytes
//     are truncated, have an unknown tag, hold more or fewer operations than
//     its count, or whose sequence numbers would pass 2^56 - 1 is DataLoss,
//     and nothing of it is delivered (for checking and listing a log).
//   ReplayWriteBatch: as LevelDB's recovery applies it (paranoid_checks off,
//     its default): the operations before an unknown tag or an operation cut
//     short are delivered, and all of them when only the count is wrong;
//     what is wrong is reported beside them.
//
// A tag that only RocksDB writes (merge, single delete, column families,
// ...) is Unimplemented and names RocksDB. Memory is bounded by the batch's
// own size (the count is never trusted for an allocation). Pure functions,
// safe from any thread.

#ifndef BLOOMTABLE_INCLUDE_BLOOMTABLE_WRITE_BATCH_H_
#define BLOOMTABLE_INCLUDE_BLOOMTABLE_WRITE_BATCH_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace bloomtable {

// The batch's 12-byte header.
inline constexpr size_t kWriteBatchHeaderSize = 12;

enum class WriteOpType : unsigned char {
  kDelete = 0,  // the tag byte of a deletion, as in internal keys
  kPut = 1,
};

// Receives a batch's operations in order (from IterateWriteBatch only for a
// batch that decoded whole); the views point into the batch's bytes.
class WriteBatchHandler {
 public:
  virtual ~WriteBatchHandler();
  virtual void Put(uint64_t sequence, std::string_view key,
                   std::string_view value) = 0;
  virtual void Delete(uint64_t sequence, std::string_view key) = 0;
};

struct WriteBatchHeader {
  uint64_t sequence = 0;
  uint32_t count = 0;
};

// Validates the whole batch, then calls `handler` for each operation.
// Returns the header; errors as in the file comment.
absl::StatusOr<WriteBatchHeader> IterateWriteBatch(std::string_view batch,
                                                   WriteBatchHandler* handler);

// What ReplayWriteBatch delivered.
struct WriteBatchReplay {
  WriteBatchHeader header;
  // Operations delivered: the first `applied` of the batch, in order.
  uint32_t applied = 0;
  // The last sequence number LevelDB's recovery takes from this batch:
  // header.sequence + header.count - 1 in unsigned 64-bit arithmetic,
  // whatever the batch holds (a count of 0 gives sequence - 1).
  uint64_t leveldb_last_sequence = 0;
  // OK, or what is wrong with the batch's contents (as IterateWriteBatch
  // would say it): an unknown tag or an operation cut short, where delivery
  // stopped; a count that disagrees with the operations, all delivered.
  absl::Status problem;
};

// Delivers the operations of `batch` to `handler` as LevelDB's recovery
// applies them: in order, stopping at the first operation that does not
// decode (or whose sequence number would pass 2^56 - 1). Errors, with
// nothing delivered: a batch shorter than its header, or whose first
// sequence number passes 2^56 - 1 (LevelDB would wrap it). Anything else
// wrong is WriteBatchReplay::problem.
absl::StatusOr<WriteBatchReplay> ReplayWriteBatch(std::string_view batch,
                                                  WriteBatchHandler* handler);

// One decoded operation, owning its bytes.
struct WriteOp {
  WriteOpType type = WriteOpType::kPut;
  uint64_t sequence = 0;
  std::string key;
  std::string value;  // empty for kDelete
};

struct DecodedWriteBatch {
  uint64_t sequence = 0;
  uint32_t count = 0;
  std::vector<WriteOp> ops;  // count of them, in batch order
};

// The batch's operations as a vector; errors as IterateWriteBatch's.
absl::StatusOr<DecodedWriteBatch> DecodeWriteBatch(std::string_view batch);

// Encodes a batch (for tests and writers of fixtures): the inverse of
// DecodeWriteBatch. The ops' own sequence numbers are ignored.
std::string EncodeWriteBatch(uint64_t sequence,
                             const std::vector<WriteOp>& ops);

}  // namespace bloomtable

#endif  // BLOOMTABLE_INCLUDE_BLOOMTABLE_WRITE_BATCH_H_
