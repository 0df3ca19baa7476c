// KeyGenerator makes db_bench's keys: one scheme for every engine, benchmark
// and filter (docs/DESIGN.md, "Near-miss keys").
//
// Key number i is i written in decimal, zero-padded to key_size digits
// (16 by default: "0000000000000042"). The tables hold the even numbers: entry
// j (0 <= j < num) has key number 2j. So
//   - a present key is number 2j;
//   - a near-miss key is number 2j+1: absent, the same length, and different
//     from the present key 2j only in its last byte (sequential ids and
//     counters look like this, and they are where LevelDB's Bloom is weak);
//   - a missing key is present key 2j followed by kMissingSuffixSize random
//     lowercase letters: absent, sorting just after 2j (so it lands in the
//     same data blocks as a read of 2j, spread over the whole table), with a
//     hash unrelated to any present key's;
//   - an unrelated key is drawn independently of the present keys: a number
//     drawn uniformly between the smallest and the largest key's, written in
//     the scheme's form, with its last kUnrelatedRandomBytes bytes replaced
//     by random bytes (any of 256), drawn again in the rare case that this
//     makes a present key. It has the present keys' length, lands anywhere
//     in the key range (so its lookups spread over the whole table), and the
//     random bytes make its hash, word-wise hashes included, independent of
//     every present key's.
// Because every key has the same width, numeric order is key order.
//
// --key_size other than 16 changes the padding, never the scheme: keys are
// key_size digits wide. A key_size too small to hold the largest number
// (2 * num - 1) is rejected by Validate, so keys are never truncated.
//
// Two sparse schemes (--key_scheme) leave room for empty ranges, which the
// dense one does not (every even number is a key, so no range of two or more
// numbers is empty):
//   - strided: entry j is number stride * j (stride >= 2), key_size digits;
//   - random64: entry j is the j-th smallest of `num` random 64-bit numbers
//     (drawn from the seed, at least 2 apart), written as 8 bytes
//     big-endian, so that byte order is number order.
// Near-miss keys are number(j) + 1 in every scheme; missing keys append
// letters to a present key as above.
//
// Thread-safety: immutable after construction; all methods are const.

#ifndef BLOOMTABLE_DB_BENCH_KEY_GENERATOR_H_
#define BLOOMTABLE_DB_BENCH_KEY_GENERATOR_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "db_bench/random.h"

namespace bloomtable {
namespace db_bench {

enum class KeyScheme { kDecimal, kStrided, kRandom64 };

struct KeySchemeOptions {
  KeyScheme scheme = KeyScheme::kDecimal;
  // kStrided: the distance between consecutive keys' numbers.
  uint64_t stride = 128;
  // kRandom64: the seed of the numbers.
  uint64_t seed = 0;
};

// "decimal", "strided" or "random64"; InvalidArgument for another name.
absl::StatusOr<KeyScheme> ParseKeyScheme(std::string_view name);
const char* KeySchemeName(KeyScheme scheme);

class KeyGenerator {
 public:
  // The number of random bytes appended to a present key to make a missing
  // key: 8 letters (26^8, about 2e11 values) make repeats rare and carry
  // two whole 4-byte words into a word-wise hash.
  static constexpr size_t kMissingSuffixSize = 8;
  // Random trailing bytes of an unrelated key: one word-wise hash step's
  // worth would spread such keys over groups of 10^4 numbers only (their
  // lookups would meet a few hundred data blocks); two keep them spread over
  // groups of 100 while randomising the last 32-bit word's high half.
  static constexpr size_t kUnrelatedRandomBytes = 2;
  // The widest key: 20 digits hold any uint64_t.
  static constexpr size_t kMaxDigits = 20;

  // The decimal scheme. REQUIRES: Validate(key_size, num).ok().
  KeyGenerator(size_t key_size, uint64_t num);
  // REQUIRES: Validate(key_size, num, scheme).ok(). (kRandom64 ignores
  // key_size: its keys are 8 bytes.)
  KeyGenerator(size_t key_size, uint64_t num, const KeySchemeOptions& scheme);

  // InvalidArgument if key_size cannot hold every key number of a table of
  // `num` entries, or is larger than the widest sensible key (1 KiB); for
  // the sparse schemes also a stride below 2, or more than 2^30 random keys.
  static absl::Status Validate(size_t key_size, uint64_t num);
  static absl::Status Validate(size_t key_size, uint64_t num,
                               const KeySchemeOptions& scheme);

  KeyScheme scheme() const { return scheme_; }
  size_t key_size() const { return key_size_; }
  size_t missing_key_size() const { return key_size_ + kMissingSuffixSize; }
  uint64_t num() const { return num_; }

  // The number of entry j's key. REQUIRES: j < num().
  uint64_t Number(uint64_t j) const {
    switch (scheme_) {
      case KeyScheme::kDecimal:
        return 2 * j;
      case KeyScheme::kStrided:
        return stride_ * j;
      case KeyScheme::kRandom64:
        break;
    }
    return random_numbers_[j];
  }
  // The largest number a key can be written with (what a scan's end is
  // capped at).
  uint64_t MaxNumber() const { return max_number_; }

  // Writes key number `number` into dst[0, key_size()).
  // REQUIRES: number <= MaxNumber().
  void KeyNumber(uint64_t number, char* dst) const;

  // The key of entry j. REQUIRES: j < num().
  void PresentKey(uint64_t j, char* dst) const { KeyNumber(Number(j), dst); }
  std::string PresentKey(uint64_t j) const;

  // Number(j) + 1: absent, and one past present key j.
  void NearMissKey(uint64_t j, char* dst) const {
    KeyNumber(Number(j) + 1, dst);
  }

  // An unrelated absent key (above), of key_size() bytes, drawn with
  // `random`.
  void UnrelatedKey(Random64* random, char* dst) const;

  // True if `key` is one of the table's keys.
  bool IsPresent(std::string_view key) const;

  // Present key 2j followed by kMissingSuffixSize letters drawn from
  // `random_bits` (any 64 random bits), written to dst[0, missing_key_size()).
  void MissingKey(uint64_t j, uint64_t random_bits, char* dst) const;

  // Entries [first, first + count) of an endless sequence of rounds, each a
  // shuffle of [0, num()) drawn from `seed` and the round's number. An
  // absent-key stream built on them (near-miss keys: one per entry)
  // repeats a key only once every entry was drawn.
  std::vector<uint64_t> DistinctEntries(uint64_t first, uint64_t count,
                                        uint64_t seed) const;

 private:
  KeyScheme scheme_ = KeyScheme::kDecimal;
  size_t key_size_;
  uint64_t num_;
  uint64_t stride_ = 2;
  uint64_t max_number_ = 0;
  std::vector<uint64_t> random_numbers_;  // kRandom64, ascending
};

}  // namespace db_bench
}  // namespace bloomtable

#endif  // BLOOMTABLE_DB_BENCH_KEY_GENERATOR_H_
