// LevelDB's per-block filter layout (FORMAT.md, "Filter block"): one filter
// for every 2 KiB (1 << kFilterBaseLg bytes) of data-block start offsets.
//
//   [filter 0] ... [filter F-1]
//   fixed32 offset_of_filter[0 .. F-1]
//   fixed32 offset_of_the_offset_array
//   uint8   base_lg (11)
//
// The builder's call order is StartBlock(0) (AddKey* StartBlock(offset))*
// Finish: it is told where each data block starts (0 at the start, and the
// file offset after each data block written, the last included) and given the
// keys of each block. Output is byte-identical to LevelDB's filter block for
// the same calls and policy, trailing empty filters included.
//
// The reader answers "maybe" for every inconsistency it can see (a block
// shorter than its trailer, base_lg outside [1, 30], an offset array past
// the block, a filter's range out of order or past the array) and never
// reads outside the block. Damage that stays consistent (an offset rewritten
// into an empty range, a filter shorter than 2 bytes, a bit cleared) cannot
// be seen and may answer "absent" for a present key: what rules it out is
// the block's CRC32C, which Table::Open always verifies (whatever
// ReadOptions::verify_checksums says) before it uses the block
// (filter_policy.h, "never a false absent"). Builders are single-threaded;
// readers are immutable and thread-safe.

#ifndef BLOOMTABLE_FILTER_FILTER_BLOCK_H_
#define BLOOMTABLE_FILTER_FILTER_BLOCK_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "bloomtable/filter_policy.h"

namespace bloomtable {

// Data blocks starting in the same 2 KiB of file offsets share one filter:
// small enough that a filter covers one or two 4 KiB blocks, large enough
// that the offset array stays small. Part of the format.
inline constexpr int kFilterBaseLg = 11;
inline constexpr uint64_t kFilterBase = uint64_t{1} << kFilterBaseLg;

// The filters of a filter block end at most here: their offsets, and the
// offset of the offset array, are fixed32.
inline constexpr uint64_t kMaxFilterBytes = 0xffffffffu;

class FilterBlockBuilder {
 public:
  // `policy` must outlive the builder. The filters end at most at
  // `max_filter_bytes` (tests lower it): a filter that would pass it is not
  // written, and neither is any later one, so that the data blocks from
  // there on have no filter (readers answer "maybe" for them), rather than
  // offsets that wrap around.
  explicit FilterBlockBuilder(const FilterPolicy* policy,
                              uint64_t max_filter_bytes = kMaxFilterBytes);
  FilterBlockBuilder(const FilterBlockBuilder&) = delete;
  FilterBlockBuilder& operator=(const FilterBlockBuilder&) = delete;

  // A data block starts at `block_offset`: emits filters until there is one
  // for every 2 KiB before it. REQUIRES: offsets never decrease.
  void StartBlock(uint64_t block_offset);
  void AddKey(std::string_view key);
  // Returns the whole filter block, valid while the builder lives.
  // REQUIRES: called once, last.
  std::string_view Finish();

 private:
  // Emits a filter over the keys collected since the last one.
  void GenerateFilter();

  const FilterPolicy* const policy_;
  const uint64_t max_filter_bytes_;
  bool full_ = false;               // a filter did not fit: no more filters
  std::string keys_;                // collected keys, concatenated
  std::vector<size_t> key_starts_;  // where each key begins in keys_
  std::vector<std::string_view> key_views_;  // scratch for CreateFilter
  std::string result_;                       // filters emitted so far
  std::vector<uint32_t> filter_offsets_;
};

class FilterBlockReader {
 public:
  // `policy` and `contents` must outlive the reader. Contents that do not
  // parse leave the reader unusable: every query answers "maybe".
  FilterBlockReader(const FilterPolicy* policy, std::string_view contents);

  // False only if `key` is certainly not in the data block starting at
  // `block_offset`.
  bool KeyMayMatch(uint64_t block_offset, std::string_view key) const;
  // Prefetches the first kMaxPrefetchBytes of the filter that
  // KeyMayMatch(block_offset, ...) will ask (a per-block filter is small:
  // a few cache lines). A hint only.
  void Prefetch(uint64_t block_offset) const;
  static constexpr size_t kMaxPrefetchBytes = 256;

  // Whether the block's structure parsed (base_lg in [1, 30], offset array
  // inside the block).
  bool usable() const { return offsets_ != nullptr; }
  // Why a block is not usable(), as readers report it.
  static constexpr std::string_view kUnusableReason =
      "layout does not parse (base_lg or offset array out of range)";
  size_t num_filters() const { return num_filters_; }

 private:
  const FilterPolicy* const policy_;
  const char* data_ = nullptr;     // start of the block
  const char* offsets_ = nullptr;  // start of the offset array
  size_t array_offset_ = 0;        // offsets_ - data_
  size_t num_filters_ = 0;
  int base_lg_ = 0;
};

}  // namespace bloomtable

#endif  // BLOOMTABLE_FILTER_FILTER_BLOCK_H_
