// Write-batch decoding: one walk over the operations, used three ways: to
// validate a whole batch before delivering it (IterateWriteBatch), to
// deliver what LevelDB's recovery applies (ReplayWriteBatch), and to decode.

#include "bloomtable/write_batch.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "table/internal_key.h"
#include "util/coding.h"
#include "util/string_util.h"

namespace bloomtable {
namespace {

// What RocksDB's batch tags mean (LevelDB writes only 0 and 1).
std::string_view RocksDBTagName(unsigned char tag) {
  switch (tag) {
    case 2:
      return "merge";
    case 3:
      return "log data";
    case 4:
    case 5:
    case 6:
      return "column family operation";
    case 7:
    case 8:
      return "single delete";
    case 9:
    case 10:
    case 11:
    case 12:
    case 18:
    case 19:
      return "transaction marker";
    case 13:
      return "no-op";
    case 14:
    case 15:
      return "range deletion";
    case 16:
    case 17:
      return "blob index";
    case 20:
      return "deletion with timestamp";
    case 21:
      return "commit with timestamp";
    case 22:
    case 23:
      return "wide-column entity";
    default:
      return std::string_view();
  }
}

absl::Status BatchError(std::string_view what) {
  return absl::DataLossError(absl::StrCat("bad write batch: ", ToAbsl(what)));
}

// What Walk found: the header, the operations it visited, and the first
// problem with the batch's contents (OK if none).
struct WalkResult {
  WriteBatchHeader header;
  uint32_t visited = 0;
  absl::Status problem;
};

// Calls `visit(type, sequence, key, value)` for each operation in order
// until the batch ends or an operation does not decode (or would pass the
// largest sequence number); a count that disagrees with the operations is a
// problem found at the end. Errors: a batch too short for its header, or
// whose first sequence number is out of range.
template <typename Visit>
absl::StatusOr<WalkResult> Walk(std::string_view batch, Visit&& visit) {
  if (batch.size() < kWriteBatchHeaderSize) {
    return BatchError(absl::StrCat("shorter than its ", kWriteBatchHeaderSize,
                                   "-byte header (", batch.size(), " bytes)"));
  }
  WalkResult result;
  WriteBatchHeader& header = result.header;
  header.sequence = DecodeFixed64(batch.data());
  header.count = DecodeFixed32(batch.data() + 8);
  if (header.sequence > kMaxSequenceNumber) {
    return BatchError(
        absl::StrCat("sequence ", header.sequence, " passes 2^56 - 1"));
  }
  std::string_view input = batch.substr(kWriteBatchHeaderSize);
  uint64_t found = 0;
  while (!input.empty()) {
    const unsigned char tag = static_cast<unsigned char>(input[0]);
    input.remove_prefix(1);
    std::string_view key;
    std::string_view value;
    if (tag == static_cast<unsigned char>(WriteOpType::kPut)) {
      if (!GetLengthPrefixed(&input, &key) ||
          !GetLengthPrefixed(&input, &value)) {
        result.problem =
            BatchError(absl::StrCat("operation ", found, ": truncated put"));
        break;
      }
    } else if (tag == static_cast<unsigned char>(WriteOpType::kDelete)) {
      if (!GetLengthPrefixed(&input, &key)) {
        result.problem =
            BatchError(absl::StrCat("operation ", found, ": truncated delete"));
        break;
      }
    } else {
      const std::string_view rocksdb = RocksDBTagName(tag);
      if (!rocksdb.empty()) {
        result.problem = absl::UnimplementedError(absl::StrCat(
            "write batch operation ", found, " has tag ", tag, " (RocksDB's ",
            ToAbsl(rocksdb), "): a RocksDB write-ahead log, not LevelDB's"));
      } else {
        result.problem = BatchError(
            absl::StrCat("operation ", found, ": unknown tag ", tag));
      }
      break;
    }
    if (found > kMaxSequenceNumber - header.sequence) {
      result.problem = BatchError(
          absl::StrCat("operation ", found, ": sequence ", header.sequence,
                       " + ", found, " passes 2^56 - 1"));
      break;
    }
    // The count is never used to size anything: a batch of a few bytes may
    // claim 2^32 - 1 operations.
    if (found == UINT32_MAX) {
      result.problem = BatchError("more than 2^32 - 1 operations");
      break;
    }
    visit(static_cast<WriteOpType>(tag), header.sequence + found, key, value);
    ++found;
  }
  result.visited = static_cast<uint32_t>(found);
  if (result.problem.ok() && found != header.count) {
    result.problem = BatchError(
        found > header.count ? absl::StrCat("more operations than its count ",
                                            header.count, " (", found, ")")
                             : absl::StrCat("count ", header.count, " but ",
                                            found, " operations"));
  }
  return result;
}

void Deliver(WriteBatchHandler* handler, WriteOpType type, uint64_t sequence,
             std::string_view key, std::string_view value) {
  if (type == WriteOpType::kPut) {
    handler->Put(sequence, key, value);
  } else {
    handler->Delete(sequence, key);
  }
}

}  // namespace

WriteBatchHandler::~WriteBatchHandler() = default;

absl::StatusOr<WriteBatchHeader> IterateWriteBatch(std::string_view batch,
                                                   WriteBatchHandler* handler) {
  absl::StatusOr<WalkResult> checked = Walk(
      batch, [](WriteOpType, uint64_t, std::string_view, std::string_view) {});
  if (!checked.ok()) return checked.status();
  if (!checked->problem.ok()) return checked->problem;
  absl::StatusOr<WalkResult> walked =
      Walk(batch, [handler](WriteOpType type, uint64_t sequence,
                            std::string_view key, std::string_view value) {
        Deliver(handler, type, sequence, key, value);
      });
  if (!walked.ok()) return walked.status();
  return walked->header;
}

absl::StatusOr<WriteBatchReplay> ReplayWriteBatch(std::string_view batch,
                                                  WriteBatchHandler* handler) {
  absl::StatusOr<WalkResult> walked =
      Walk(batch, [handler](WriteOpType type, uint64_t sequence,
                            std::string_view key, std::string_view value) {
        Deliver(handler, type, sequence, key, value);
      });
  if (!walked.ok()) return walked.status();
  WriteBatchReplay replay;
  replay.header = walked->header;
  replay.applied = walked->visited;
  // LevelDB's arithmetic, unsigned: a count of 0 gives sequence - 1.
  replay.leveldb_last_sequence =
      replay.header.sequence + uint64_t{replay.header.count} - 1;
  replay.problem = std::move(walked->problem);
  return replay;
}

absl::StatusOr<DecodedWriteBatch> DecodeWriteBatch(std::string_view batch) {
  DecodedWriteBatch decoded;
  absl::StatusOr<WalkResult> walked =
      Walk(batch, [&decoded](WriteOpType type, uint64_t sequence,
                             std::string_view key, std::string_view value) {
        WriteOp op;
        op.type = type;
        op.sequence = sequence;
        op.key.assign(key);
        op.value.assign(value);
        decoded.ops.push_back(std::move(op));
      });
  if (!walked.ok()) return walked.status();
  if (!walked->problem.ok()) return walked->problem;
  decoded.sequence = walked->header.sequence;
  decoded.count = walked->header.count;
  return decoded;
}

std::string EncodeWriteBatch(uint64_t sequence,
                             const std::vector<WriteOp>& ops) {
  std::string batch;
  PutFixed64(&batch, sequence);
  PutFixed32(&batch, static_cast<uint32_t>(ops.size()));
  for (const WriteOp& op : ops) {
    batch.push_back(static_cast<char>(op.type));
    PutLengthPrefixed(&batch, op.key);
    if (op.type == WriteOpType::kPut) PutLengthPrefixed(&batch, op.value);
  }
  return batch;
}

}  // namespace bloomtable
