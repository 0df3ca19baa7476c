// Write-batch decoding: one pass that validates the whole batch, then one
// that delivers it, so that a handler never sees part of a bad batch.

#include "bloomtable/write_batch.h"

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

// Calls `visit(type, key, value)` for each operation, after checking the
// framing. Stops at the first error.
template <typename Visit>
absl::StatusOr<WriteBatchHeader> Walk(std::string_view batch, Visit&& visit) {
  if (batch.size() < kWriteBatchHeaderSize) {
    return BatchError(absl::StrCat("shorter than its ", kWriteBatchHeaderSize,
                                   "-byte header (", batch.size(), " bytes)"));
  }
  WriteBatchHeader header;
  header.sequence = DecodeFixed64(batch.data());
  header.count = DecodeFixed32(batch.data() + 8);
  if (header.sequence > kMaxSequenceNumber ||
      header.count > kMaxSequenceNumber - header.sequence + 1) {
    return BatchError(absl::StrCat("sequence ", header.sequence, " with ",
                                   header.count,
                                   " operations passes 2^56 - 1"));
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
        return BatchError(absl::StrCat("operation ", found, ": truncated put"));
      }
    } else if (tag == static_cast<unsigned char>(WriteOpType::kDelete)) {
      if (!GetLengthPrefixed(&input, &key)) {
        return BatchError(
            absl::StrCat("operation ", found, ": truncated delete"));
      }
    } else {
      const std::string_view rocksdb = RocksDBTagName(tag);
      if (!rocksdb.empty()) {
        return absl::UnimplementedError(absl::StrCat(
            "write batch operation ", found, " has tag ", tag, " (RocksDB's ",
            ToAbsl(rocksdb), "): a RocksDB write-ahead log, not LevelDB's"));
      }
      return BatchError(
          absl::StrCat("operation ", found, ": unknown tag ", tag));
    }
    if (found == header.count) {
      return BatchError(
          absl::StrCat("more operations than its count ", header.count));
    }
    visit(static_cast<WriteOpType>(tag), header.sequence + found, key, value);
    ++found;
  }
  if (found != header.count) {
    return BatchError(
        absl::StrCat("count ", header.count, " but ", found, " operations"));
  }
  return header;
}

}  // namespace

WriteBatchHandler::~WriteBatchHandler() = default;

absl::StatusOr<WriteBatchHeader> IterateWriteBatch(std::string_view batch,
                                                   WriteBatchHandler* handler) {
  absl::StatusOr<WriteBatchHeader> checked = Walk(
      batch, [](WriteOpType, uint64_t, std::string_view, std::string_view) {});
  if (!checked.ok()) return checked.status();
  return Walk(batch, [handler](WriteOpType type, uint64_t sequence,
                               std::string_view key, std::string_view value) {
    if (type == WriteOpType::kPut) {
      handler->Put(sequence, key, value);
    } else {
      handler->Delete(sequence, key);
    }
  });
}

absl::StatusOr<DecodedWriteBatch> DecodeWriteBatch(std::string_view batch) {
  DecodedWriteBatch decoded;
  absl::StatusOr<WriteBatchHeader> header =
      Walk(batch, [&decoded](WriteOpType type, uint64_t sequence,
                             std::string_view key, std::string_view value) {
        WriteOp op;
        op.type = type;
        op.sequence = sequence;
        op.key.assign(key);
        op.value.assign(value);
        decoded.ops.push_back(std::move(op));
      });
  if (!header.ok()) return header.status();
  decoded.sequence = header->sequence;
  decoded.count = header->count;
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
