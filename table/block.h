// Block is a parsed, immutable block (FORMAT.md, "Blocks") that owns its
// bytes; BlockIter walks its entries.
//
// Parsing checks only that the restart array fits. Everything else is
// checked as it is used: every restart offset, and every entry's lengths
// (shared <= previous key length, key and value inside the entry area). A
// violation makes the iterator !Valid() with a DataLoss status(); it never
// reads outside the block.
//
// Thread-safety: a Block is immutable and may be shared by any number of
// threads (data blocks are held by std::shared_ptr<const Block> so that a
// cache can share them). A BlockIter is used by one thread at a time; the
// Block must outlive it.

#ifndef BLOOMTABLE_TABLE_BLOCK_H_
#define BLOOMTABLE_TABLE_BLOCK_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "bloomtable/comparator.h"
#include "bloomtable/iterator.h"
#include "table/format.h"
#include "util/string_util.h"

namespace bloomtable {

// The largest block Parse accepts: its restart offsets are fixed32.
inline constexpr uint64_t kMaxBlockSize = 0xffffffffu;

class Block {
 public:
  // Takes `contents` and checks the restart array: at least 4 bytes,
  // num_restarts fitting in the block, and num_restarts >= 1 unless the block
  // is exactly the 4-byte count (an empty block). DataLoss otherwise.
  static absl::StatusOr<std::shared_ptr<const Block>> Parse(
      BlockContents contents);

  Block(const Block&) = delete;
  Block& operator=(const Block&) = delete;

  // The block's bytes, restart array included.
  std::string_view contents() const { return contents_.data; }
  // Offset of the restart array: entries lie in [0, restart_array_offset()).
  uint32_t restart_array_offset() const { return restart_array_offset_; }
  uint32_t num_restarts() const { return num_restarts_; }

  // The key and value of restart entry `index` (< num_restarts()), in
  // place: false if the restart offset or the entry there is malformed (a
  // restart entry shares no bytes with the key before it).
  bool RestartEntry(uint32_t index, std::string_view* key,
                    std::string_view* value) const;
  // Where restart entry `index` (< num_restarts()) starts, as its restart
  // offset says (unchecked).
  const char* RestartEntryStart(uint32_t index) const;

 private:
  struct PrivateTag {};

 public:
  // Use Parse().
  Block(PrivateTag, BlockContents contents, uint32_t restart_array_offset,
        uint32_t num_restarts);

 private:
  const BlockContents contents_;
  const uint32_t restart_array_offset_;
  const uint32_t num_restarts_;
};

// Holds the current key of a BlockIter: up to kInlineCapacity bytes without
// touching the heap, so that point lookups over short keys allocate nothing.
class KeyBuffer {
 public:
  KeyBuffer() = default;
  KeyBuffer(const KeyBuffer&) = delete;
  KeyBuffer& operator=(const KeyBuffer&) = delete;

  std::string_view view() const { return std::string_view(data_, size_); }
  size_t size() const { return size_; }
  void Clear() { size_ = 0; }
  // REQUIRES: n <= size().
  void Truncate(size_t n) { size_ = n; }
  void Append(const char* bytes, size_t n);

 private:
  // Covers typical keys (16-byte ids, internal keys of short user keys).
  static constexpr size_t kInlineCapacity = 64;

  char inline_[kInlineCapacity];
  std::unique_ptr<char[]> heap_;
  char* data_ = inline_;
  size_t size_ = 0;
  size_t capacity_ = kInlineCapacity;
};

// Iterates over one block's entries in the order of `comparator`.
// Seek is a binary search over the restart points (comparing keys in place),
// then a linear scan. Final, so calls through a BlockIter are direct.
class BlockIter final : public Iterator {
 public:
  // `comparator` and `block` must outlive the iterator.
  BlockIter(const Comparator* comparator, const Block* block);

  bool Valid() const override;
  void SeekToFirst() override;
  void SeekToLast() override;
  void Seek(std::string_view target) override;
  // Seek, told that the last restart point whose key is < target (or the
  // first one, if none is) lies in [left, right]: RestartKeyDigest::Narrow
  // (restart_key_digest.h) finds such bounds without reading the block.
  // REQUIRES: left <= right < num_restarts of a non-empty block.
  void SeekWithin(std::string_view target, uint32_t left, uint32_t right);
  void Next() override;
  void Prev() override;
  std::string_view key() const override { return key_; }
  std::string_view value() const override { return value_; }
  absl::Status status() const override { return status_; }

 private:
  uint32_t NextEntryOffset() const;
  // Reads restart_array_[index]; false (and a corruption status) if it does
  // not point inside the entry area.
  bool GetRestartPoint(uint32_t index, uint32_t* offset);
  bool SeekToRestartPoint(uint32_t index);
  bool ParseNextEntry();
  void MarkInvalid();
  void MarkCorrupted(std::string_view what);
  // comparator_'s order; inline for the bytewise comparator, which orders
  // nearly every block searched.
  int Compare(std::string_view a, std::string_view b) const {
    return bytewise_ ? BytewiseCompare(a, b) : comparator_->Compare(a, b);
  }

  const Comparator* const comparator_;
  const bool bytewise_;
  const char* const data_;
  const uint32_t restarts_;  // offset of the restart array
  const uint32_t num_restarts_;

  // Offset of the current entry; restarts_ when !Valid().
  uint32_t current_;
  // The restart block holding the current entry.
  uint32_t restart_index_;
  // The current key: in the block itself for restart entries (shared == 0),
  // else assembled in key_buffer_.
  std::string_view key_;
  KeyBuffer key_buffer_;
  bool key_in_buffer_ = false;
  std::string_view value_;
  absl::Status status_;
};

}  // namespace bloomtable

#endif  // BLOOMTABLE_TABLE_BLOCK_H_
