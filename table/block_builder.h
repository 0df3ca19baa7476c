// BlockBuilder assembles one block (FORMAT.md, "Blocks"): prefix-compressed
// entries, then the restart array.
//
//   entry:   varint32 shared, varint32 unshared, varint32 value_length,
//            key[shared, shared + unshared), value
//   trailer: fixed32 restart_offset[num_restarts], fixed32 num_restarts
//
// Every `restart_interval`-th entry, the first included, stores its whole
// key (shared = 0) and is listed in the restart array; an empty block has one
// restart point at offset 0.
//
// Call order: (Add)* Finish Reset, repeatable. Not thread-safe.

#ifndef BLOOMTABLE_TABLE_BLOCK_BUILDER_H_
#define BLOOMTABLE_TABLE_BLOCK_BUILDER_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace bloomtable {

class BlockBuilder {
 public:
  // A restart_interval below 1 is treated as 1.
  explicit BlockBuilder(int restart_interval);
  BlockBuilder(const BlockBuilder&) = delete;
  BlockBuilder& operator=(const BlockBuilder&) = delete;

  // Forgets everything added, as if newly constructed.
  void Reset();

  // REQUIRES: Finish() not called since the last Reset(); `key` is after
  // every key added before, in the table's order (the caller checks).
  void Add(std::string_view key, std::string_view value);

  // Appends the restart array and returns the whole block, valid until the
  // next Reset() or the builder's destruction.
  std::string_view Finish();

  // The exact size of the block Finish() would return now.
  size_t CurrentSizeEstimate() const;

  bool empty() const { return buffer_.empty(); }

 private:
  const int restart_interval_;
  std::string buffer_;
  std::vector<uint32_t> restarts_;
  int entries_since_restart_ = 0;
  bool finished_ = false;
  std::string last_key_;
};

}  // namespace bloomtable

#endif  // BLOOMTABLE_TABLE_BLOCK_BUILDER_H_
