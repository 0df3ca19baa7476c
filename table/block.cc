#include "table/block.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <utility>

#include "absl/strings/str_format.h"
#include "util/coding.h"
#include "util/string_util.h"

namespace bloomtable {

namespace {

// Decodes an entry's three lengths at `p`, entries ending at `limit`.
// Returns where the key bytes start, or nullptr if the lengths are malformed
// or the key and value would run past `limit`.
inline const char* DecodeEntry(const char* p, const char* limit,
                               uint32_t* shared, uint32_t* unshared,
                               uint32_t* value_length) {
  if (limit - p < 3) return nullptr;
  const auto* u = reinterpret_cast<const unsigned char*>(p);
  if ((u[0] | u[1] | u[2]) < 0x80) {
    // Fast path: the three lengths are one byte each.
    *shared = u[0];
    *unshared = u[1];
    *value_length = u[2];
    p += 3;
  } else {
    if ((p = DecodeVarint32(p, limit, shared)) == nullptr) return nullptr;
    if ((p = DecodeVarint32(p, limit, unshared)) == nullptr) return nullptr;
    if ((p = DecodeVarint32(p, limit, value_length)) == nullptr) return nullptr;
  }
  const uint64_t needed = uint64_t{*unshared} + *value_length;
  if (static_cast<uint64_t>(limit - p) < needed) return nullptr;
  return p;
}

}  // namespace

absl::StatusOr<std::shared_ptr<const Block>> Block::Parse(
    BlockContents contents) {
  const size_t size = contents.data.size();
  if (size < sizeof(uint32_t)) {
    return absl::DataLossError(absl::StrFormat(
        "block of %u bytes is too short for a restart count", size));
  }
  if (size > kMaxBlockSize) {
    // Restart offsets are fixed32: no valid block is this large.
    return absl::DataLossError("block larger than 4 GiB");
  }
  const uint32_t num_restarts =
      DecodeFixed32(contents.data.data() + size - sizeof(uint32_t));
  const size_t max_restarts = (size - sizeof(uint32_t)) / sizeof(uint32_t);
  if (num_restarts > max_restarts) {
    return absl::DataLossError(
        absl::StrFormat("block claims %u restart points, room for %u",
                        num_restarts, max_restarts));
  }
  if (num_restarts == 0 && size != sizeof(uint32_t)) {
    return absl::DataLossError("block has entries but no restart point");
  }
  const auto restart_array_offset = static_cast<uint32_t>(
      size - (1 + static_cast<size_t>(num_restarts)) * sizeof(uint32_t));
  return std::make_shared<const Block>(PrivateTag{}, std::move(contents),
                                       restart_array_offset, num_restarts);
}

Block::Block(PrivateTag, BlockContents contents, uint32_t restart_array_offset,
             uint32_t num_restarts)
    : contents_(std::move(contents)),
      restart_array_offset_(restart_array_offset),
      num_restarts_(num_restarts) {}

const char* Block::RestartEntryStart(uint32_t index) const {
  const char* const data = contents_.data.data();
  return data +
         DecodeFixed32(data + restart_array_offset_ + index * sizeof(uint32_t));
}

bool Block::RestartEntry(uint32_t index, std::string_view* key,
                         std::string_view* value) const {
  if (index >= num_restarts_) return false;
  const char* const data = contents_.data.data();
  const char* const entry = RestartEntryStart(index);
  if (entry >= data + restart_array_offset_) return false;
  uint32_t shared, unshared, value_length;
  const char* key_start = DecodeEntry(entry, data + restart_array_offset_,
                                      &shared, &unshared, &value_length);
  if (key_start == nullptr || shared != 0) return false;
  *key = std::string_view(key_start, unshared);
  *value = std::string_view(key_start + unshared, value_length);
  return true;
}

void KeyBuffer::Append(const char* bytes, size_t n) {
  if (n > capacity_ - size_) {
    const size_t new_capacity = std::max(size_ + n, 2 * capacity_);
    std::unique_ptr<char[]> bigger(new char[new_capacity]);
    std::memcpy(bigger.get(), data_, size_);
    heap_ = std::move(bigger);
    data_ = heap_.get();
    capacity_ = new_capacity;
  }
  std::memcpy(data_ + size_, bytes, n);
  size_ += n;
}

BlockIter::BlockIter(const Comparator* comparator, const Block* block)
    : comparator_(comparator),
      bytewise_(comparator == BytewiseComparator()),
      data_(block->contents().data()),
      restarts_(block->restart_array_offset()),
      num_restarts_(block->num_restarts()),
      current_(restarts_),
      restart_index_(num_restarts_),
      value_(data_ + restarts_, 0) {}

bool BlockIter::Valid() const { return current_ < restarts_; }

uint32_t BlockIter::NextEntryOffset() const {
  return static_cast<uint32_t>(value_.data() + value_.size() - data_);
}

bool BlockIter::GetRestartPoint(uint32_t index, uint32_t* offset) {
  *offset = DecodeFixed32(data_ + restarts_ + index * sizeof(uint32_t));
  // Only an empty block may have a restart point at the restart array.
  if (*offset < restarts_ || (*offset == 0 && restarts_ == 0)) return true;
  MarkCorrupted(absl::StrFormat("restart point %u is %u, past the entries (%u)",
                                index, *offset, restarts_));
  return false;
}

bool BlockIter::SeekToRestartPoint(uint32_t index) {
  uint32_t offset;
  if (!GetRestartPoint(index, &offset)) return false;
  key_ = std::string_view();
  key_in_buffer_ = false;
  restart_index_ = index;
  // ParseNextEntry() starts where value_ ends.
  value_ = std::string_view(data_ + offset, 0);
  return true;
}

void BlockIter::MarkInvalid() {
  current_ = restarts_;
  restart_index_ = num_restarts_;
  key_ = std::string_view();
  key_in_buffer_ = false;
  value_ = std::string_view(data_ + restarts_, 0);
}

void BlockIter::MarkCorrupted(std::string_view what) {
  status_ = absl::DataLossError(absl::StrFormat("bad block: %s", ToAbsl(what)));
  MarkInvalid();
}

bool BlockIter::ParseNextEntry() {
  current_ = NextEntryOffset();
  if (current_ >= restarts_) {
    MarkInvalid();  // past the last entry
    return false;
  }
  const char* const limit = data_ + restarts_;
  uint32_t shared, unshared, value_length;
  const char* p =
      DecodeEntry(data_ + current_, limit, &shared, &unshared, &value_length);
  if (p == nullptr) {
    MarkCorrupted(absl::StrFormat("malformed entry at offset %u", current_));
    return false;
  }
  if (shared > key_.size()) {
    MarkCorrupted(absl::StrFormat(
        "entry at offset %u shares %u bytes of a %u-byte previous key",
        current_, shared, key_.size()));
    return false;
  }
  if (shared == 0) {
    key_ = std::string_view(p, unshared);  // whole key, in place
    key_in_buffer_ = false;
  } else {
    if (key_in_buffer_) {
      key_buffer_.Truncate(shared);
    } else {
      key_buffer_.Clear();
      key_buffer_.Append(key_.data(), shared);
    }
    key_buffer_.Append(p, unshared);
    key_ = key_buffer_.view();
    key_in_buffer_ = true;
  }
  value_ = std::string_view(p + unshared, value_length);
  while (restart_index_ + 1 < num_restarts_ &&
         DecodeFixed32(data_ + restarts_ +
                       (restart_index_ + 1) * sizeof(uint32_t)) < current_) {
    ++restart_index_;
  }
  return true;
}

void BlockIter::SeekToFirst() {
  status_ = absl::OkStatus();
  if (num_restarts_ == 0) return MarkInvalid();
  if (SeekToRestartPoint(0)) ParseNextEntry();
}

void BlockIter::SeekToLast() {
  status_ = absl::OkStatus();
  if (num_restarts_ == 0) return MarkInvalid();
  if (!SeekToRestartPoint(num_restarts_ - 1)) return;
  while (ParseNextEntry() && NextEntryOffset() < restarts_) {
  }
}

void BlockIter::Seek(std::string_view target) {
  if (num_restarts_ == 0) {
    status_ = absl::OkStatus();
    return MarkInvalid();
  }
  SeekWithin(target, 0, num_restarts_ - 1);
}

void BlockIter::SeekWithin(std::string_view target, uint32_t left,
                           uint32_t right) {
  status_ = absl::OkStatus();
  if (num_restarts_ == 0) return MarkInvalid();
  right = std::min(right, num_restarts_ - 1);
  left = std::min(left, right);
  // Find the last restart point whose key is < target (or the first one),
  // comparing the restart keys where they lie in the block.
  const char* const limit = data_ + restarts_;
  while (left < right) {
    const uint32_t mid = left + (right - left + 1) / 2;
    uint32_t offset;
    if (!GetRestartPoint(mid, &offset)) return;
    uint32_t shared, unshared, value_length;
    const char* key_start =
        DecodeEntry(data_ + offset, limit, &shared, &unshared, &value_length);
    if (key_start == nullptr || shared != 0) {
      MarkCorrupted(absl::StrFormat("bad restart entry at offset %u", offset));
      return;
    }
    if (Compare(std::string_view(key_start, unshared), target) < 0) {
      left = mid;
    } else {
      right = mid - 1;
    }
  }
  if (!SeekToRestartPoint(left)) return;
  while (ParseNextEntry()) {
    if (Compare(key_, target) >= 0) return;
  }
}

void BlockIter::Next() { ParseNextEntry(); }

void BlockIter::Prev() {
  // Back up to the restart block before the current entry, then scan
  // forward to the entry just before it. Every entry is at least 3 bytes,
  // so the scan ends even on damaged offsets.
  const uint32_t original = current_;
  while (true) {
    uint32_t offset;
    if (!GetRestartPoint(restart_index_, &offset)) return;
    if (offset < original) break;
    if (restart_index_ == 0) return MarkInvalid();  // before the first entry
    --restart_index_;
  }
  if (!SeekToRestartPoint(restart_index_)) return;
  while (ParseNextEntry() && NextEntryOffset() < original) {
  }
}

}  // namespace bloomtable
