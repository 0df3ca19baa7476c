// The write-batch decoder on arbitrary bytes: DecodeWriteBatch and
// IterateWriteBatch agree (both fail, or both give the same operations),
// a failed batch delivers nothing, and a decoded batch re-encodes to bytes
// that decode to the same operations. ReplayWriteBatch delivers the same
// operations with no problem for a batch that decodes, and says what is
// wrong with one that does not.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "bloomtable/write_batch.h"

namespace bloomtable {
namespace {

class Collector : public WriteBatchHandler {
 public:
  void Put(uint64_t sequence, std::string_view key,
           std::string_view value) override {
    WriteOp op;
    op.type = WriteOpType::kPut;
    op.sequence = sequence;
    op.key.assign(key);
    op.value.assign(value);
    ops.push_back(op);
  }
  void Delete(uint64_t sequence, std::string_view key) override {
    WriteOp op;
    op.type = WriteOpType::kDelete;
    op.sequence = sequence;
    op.key.assign(key);
    ops.push_back(op);
  }
  std::vector<WriteOp> ops;
};

bool Same(const std::vector<WriteOp>& a, const std::vector<WriteOp>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].type != b[i].type || a[i].sequence != b[i].sequence ||
        a[i].key != b[i].key || a[i].value != b[i].value) {
      return false;
    }
  }
  return true;
}

}  // namespace
}  // namespace bloomtable

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace bloomtable;
  const std::string_view batch(reinterpret_cast<const char*>(data), size);
  absl::StatusOr<DecodedWriteBatch> decoded = DecodeWriteBatch(batch);
  Collector collector;
  absl::StatusOr<WriteBatchHeader> header =
      IterateWriteBatch(batch, &collector);
  if (decoded.ok() != header.ok()) __builtin_trap();
  Collector replayed;
  absl::StatusOr<WriteBatchReplay> replay = ReplayWriteBatch(batch, &replayed);
  if (replay.ok() && replay->applied != replayed.ops.size()) __builtin_trap();
  if (!decoded.ok()) {
    if (!collector.ops.empty()) __builtin_trap();
    if (replay.ok() && replay->problem.ok()) __builtin_trap();
    return 0;
  }
  if (!replay.ok() || !replay->problem.ok() ||
      !Same(replayed.ops, decoded->ops)) {
    __builtin_trap();
  }
  if (!Same(decoded->ops, collector.ops) ||
      decoded->ops.size() != decoded->count) {
    __builtin_trap();
  }
  absl::StatusOr<DecodedWriteBatch> again =
      DecodeWriteBatch(EncodeWriteBatch(decoded->sequence, decoded->ops));
  if (!again.ok() || !Same(again->ops, decoded->ops)) __builtin_trap();
  return 0;
}
