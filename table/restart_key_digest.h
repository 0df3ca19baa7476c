// RestartKeyDigest narrows a Seek in one block: the index block of a table,
// searched on every point lookup. A plain Seek binary-searches the restart
// keys, decoding each where it lies and comparing it with the comparator.
// The digest keeps, for every restart key but the last, 8 bytes of its user
// key after the prefix that all of them share, as an integer: one search
// over those integers bounds the restart point that Seek looks for, and
// Seek then compares whole keys only where integers tie.
//
// It exists only where integers order as the keys do: keys ordered
// bytewise, or LevelDB internal keys whose user keys are (the order of the
// user keys decides first, and a smaller integer means a smaller user key).
//
// Of an index block with a restart point at every entry (LevelDB writes
// them so), it may also keep each entry's data-block offset: where the
// integers alone tell which entry a Seek would land on (CertainEntry), a
// lookup then asks the block's per-block filter without reading the index
// block at all, and reads it only if the filter says "maybe".
//
// Thread-safety: immutable after Build; Narrow may be called from many
// threads at once. It holds no pointer into the block.

#ifndef BLOOMTABLE_TABLE_RESTART_KEY_DIGEST_H_
#define BLOOMTABLE_TABLE_RESTART_KEY_DIGEST_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "table/block.h"

namespace bloomtable {

class RestartKeyDigest {
 public:
  enum class KeyOrder {
    kBytewise,          // keys compared bytewise
    kInternalBytewise,  // internal keys of bytewise-ordered user keys
  };

  // The digest of `block`, or null where it would not help or cannot be
  // trusted: fewer than 2 restart points, a malformed restart entry, an
  // internal key shorter than its 8-byte tag, or user keys out of order.
  // Without a digest a plain Seek searches (and reports any damage).
  // With `keep_block_offsets`, an index block's entries are also checked
  // to be one per restart point with values that decode as block handles
  // at offsets below 4 GiB, and the offsets are kept (4 bytes per entry);
  // if they are not, the digest is built without them.
  static std::unique_ptr<const RestartKeyDigest> Build(
      const Block& block, KeyOrder order, bool keep_block_offsets = false);

  RestartKeyDigest(const RestartKeyDigest&) = delete;
  RestartKeyDigest& operator=(const RestartKeyDigest&) = delete;

  // Bounds for BlockIter::SeekWithin(target, *left, *right) on the block
  // the digest was built from: the last restart point whose key is <
  // target (or 0) lies in [*left, *right].
  void Narrow(std::string_view target, uint32_t* left, uint32_t* right) const;

  // True, with *entry set, when the digest kept block offsets and the
  // integers alone show that entry *entry is the first whose key is >=
  // target (the entry a Seek lands on); false when only a search can tell.
  bool CertainEntry(std::string_view target, uint32_t* entry) const;

  // The data-block offset of entry `entry`, one that CertainEntry gave.
  uint64_t block_offset(uint32_t entry) const { return block_offsets_[entry]; }

  // Bytes held.
  size_t MemoryUsage() const;

 private:
  RestartKeyDigest(KeyOrder order, uint32_t num_restarts);

  // [0, *below) hold keys < target and [*above, digested) keys > target.
  // False if `target` is no internal key where one is expected.
  bool Bounds(std::string_view target, uint32_t* below, uint32_t* above) const;

  const KeyOrder order_;
  const uint32_t num_restarts_;
  // The prefix shared by the user keys of restarts [0, num_restarts_ - 1),
  // and their next 8 bytes, as BigEndianPrefix64 reads them. The last
  // restart key is left out: it is often a short successor ("1" after
  // "0999..."), which would leave no shared prefix.
  std::string common_prefix_;
  std::vector<uint64_t> prefixes_;
  // Keep_block_offsets: the data-block offset of each digested entry (one
  // per restart point), else empty.
  std::vector<uint32_t> block_offsets_;
};

}  // namespace bloomtable

#endif  // BLOOMTABLE_TABLE_RESTART_KEY_DIGEST_H_
