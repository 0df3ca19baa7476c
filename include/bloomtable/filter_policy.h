// A FilterPolicy builds a compact summary of a set of keys (a filter) and
// answers "may this key be in the set?" from it. An answer of false means the
// key is definitely absent; true means it may be present. Filters are stored
// in table files, so a policy's bytes are a format: a policy's Name() names
// exactly one encoding, forever.
//
// Policies are immutable and thread-safe: every method may be called from
// many threads at once. A FilterReader is likewise immutable after creation.
//
// Two layouts use policies (see FORMAT.md):
//   - per-block: LevelDB's filter block, one filter per 2 KiB of data-block
//     offsets, each over the keys of a few data blocks;
//   - whole-table: one filter over every key of the table.
// A policy that can only build whole-table filters says so with
// SupportsPerBlock() == false.
//
// What "never a false absent" rests on. A filter answers "maybe" for every
// key it was built from: that is a property of the bytes CreateFilter
// wrote. A reader also answers "maybe" for bytes it can tell are not such a
// filter (too short, a reserved encoding), and never crashes or reads out of
// bounds on any bytes. But damage that leaves the bytes well-formed (a bit
// cleared, a length rewritten) cannot be told from a filter of other keys,
// and may answer "absent" for a present key. Inside a table, the filter
// block's CRC32C is what rules that out: Table::Open verifies it always,
// whatever ReadOptions::verify_checksums says, and a table never uses a
// filter block that fails it (it is read without a filter). What remains is
// damage that the CRC32C misses: about 2^-32 of random damage, or bytes
// rewritten together with a matching checksum.

#ifndef BLOOMTABLE_INCLUDE_BLOOMTABLE_FILTER_POLICY_H_
#define BLOOMTABLE_INCLUDE_BLOOMTABLE_FILTER_POLICY_H_

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

namespace bloomtable {

// A parsed filter that answers queries without re-reading its header. It
// refers to the filter bytes it was made from, which must outlive it.
class FilterReader {
 public:
  virtual ~FilterReader();
  // False only if `key` is certainly not among the keys the filter was built
  // from: never false for a key that was added to the filter these bytes
  // hold (see the top of this file for damaged bytes).
  virtual bool KeyMayMatch(std::string_view key) const = 0;

  // Asks the processor to bring the memory that KeyMayMatch(key) will read
  // first toward the cache, without waiting for it: a batch of lookups
  // (Table::MultiGet) prefetches every key before it probes any, so that
  // their cache misses overlap. A hint only: it never changes an answer.
  // The default does nothing.
  virtual void Prefetch(std::string_view key) const;
};

class FilterPolicy {
 public:
  FilterPolicy() = default;
  FilterPolicy(const FilterPolicy&) = delete;
  FilterPolicy& operator=(const FilterPolicy&) = delete;
  virtual ~FilterPolicy();

  // The name stored in the table's metaindex ("filter.<Name()>" or
  // "fullfilter.<Name()>"). Changing the encoding requires a new name.
  virtual std::string_view Name() const = 0;

  // Appends to `*dst` a filter over `keys[0, n)`. Keys may repeat.
  virtual void CreateFilter(const std::string_view* keys, size_t n,
                            std::string* dst) const = 0;

  // `filter` holds bytes produced by CreateFilter of this policy, or
  // arbitrary (damaged) bytes. Returns false only if `key` was certainly not
  // added to the filter these bytes hold. Bytes it does not recognise as
  // such a filter must answer true; damage that keeps them well-formed
  // cannot be recognised (see the top of this file).
  virtual bool KeyMayMatch(std::string_view key,
                           std::string_view filter) const = 0;

  // Parses `filter` once for repeated queries. `filter` must outlive the
  // reader. The default answers through KeyMayMatch.
  virtual std::unique_ptr<FilterReader> NewReader(
      std::string_view filter) const;

  // Whether filters of this policy may be used in LevelDB's per-block layout
  // (many small filters). Whole-table-only policies return false.
  virtual bool SupportsPerBlock() const { return true; }
};

// LevelDB's Bloom filter, named "leveldb.BuiltinBloomFilter2", whose filters
// are byte-identical to LevelDB 1.23's NewBloomFilterPolicy(bits_per_key) for
// every key set and every bits_per_key >= 0 (0 gives, as in LevelDB, one
// probe over at least 64 bits; tools treat 0 as "no filter" instead). A
// negative bits_per_key, which LevelDB does not handle, is taken as 0.
// See FORMAT.md for the encoding and its known weaknesses.
std::shared_ptr<const FilterPolicy> NewLevelDBBloomFilterPolicy(
    int bits_per_key);

// For reading filters named "leveldb.BuiltinBloomFilter" (no "2"), which
// goleveldb and geth write today and LevelDB wrote before 2014. The bytes
// are LevelDB's Bloom filter, but the name covers two hashes: LevelDB's old
// hash read the 1-3 bytes after the last whole 4-byte word as signed chars
// where char is signed (x86), so keys whose length is not a multiple of 4
// and whose tail holds a byte >= 0x80 got other bits (the bug that made
// LevelDB rename the filter with a "2"); goleveldb and LevelDB on ARM read
// them as unsigned. A filter does not record which, so this policy answers
// "maybe" if either hash's probes are all set: never a false "absent"
// whoever wrote it, at the price of a few more false positives for such
// keys only. It writes what goleveldb writes (the unsigned hash: the same
// bits as leveldb.BuiltinBloomFilter2).
std::shared_ptr<const FilterPolicy> NewLegacyLevelDBBloomFilterPolicy(
    int bits_per_key);

// The cache-local Bloom filter, named "bloomtable.CacheLocalBloom": all
// probes of a key fall in one 64-byte line (one cache miss per absent key),
// keys are hashed with 64-bit XXH3, so keys that differ only in their last
// bytes are no worse than random ones. bits_per_key may be fractional (9.5 is
// valid); values outside [1, 64] are clamped to it. A filter over n keys
// holds at least n * bits_per_key bits, in lines of 64 bytes (shorter ones
// in filters of at most 8 lines), plus a 6-byte trailer; a filter of one
// line (at most 512 bits: most per-block filters) has a 1-byte trailer
// instead and its line gets the 5 bytes saved (up to 64), so that it is
// never larger. At 10 bits per key about 0.96% of absent keys match in a
// large filter, fewer in one line. Works per block and whole-table.
// See docs/FILTERS.md for the encoding.
std::shared_ptr<const FilterPolicy> NewCacheLocalBloomFilterPolicy(
    double bits_per_key);

// A standard Ribbon filter (Dillinger and Walzer, 2021), named
// "bloomtable.Ribbon": a linear system over GF(2) with 128-bit coefficient
// rows, solved when the filter is built, that stores r bits per slot for
// slightly more slots than keys. At the same false-positive rate it uses
// about 30% less space than a Bloom filter (about 1.04 x log2(1/rate) bits
// per key for a million keys); building costs more.
//
// bits_per_key (fractional; clamped to [1, 32]) is the memory budget: the
// filter mixes r and r + 1 result bits per slot to spend it. At 7 bits per
// key about 1% of absent keys match.
//
// Whole-table only: SupportsPerBlock() is false, since it needs a few hundred
// keys to beat a Bloom filter. Filters over fewer than 256 keys, and the rare
// key sets for which no solution is found after 8 seeds, are stored as a
// cache-local Bloom filter (of the same budget, or sized for the rate), which
// this policy's reader recognises by its format byte: never "no filter".
// Duplicate keys are allowed. See docs/FILTERS.md.
std::shared_ptr<const FilterPolicy> NewRibbonFilterPolicy(double bits_per_key);

// The same Ribbon filter (same name and encoding), sized by a target
// false-positive rate instead of a budget: r = ceil(log2(1 / fp_rate)) result
// bits per slot (clamped to [1, 32]), so the rate is at most fp_rate.
std::shared_ptr<const FilterPolicy> NewRibbonFilterPolicyForRate(
    double fp_rate);

}  // namespace bloomtable

#endif  // BLOOMTABLE_INCLUDE_BLOOMTABLE_FILTER_POLICY_H_
