// KeyGenerator makes db_bench's keys: one scheme for every engine, benchmark
// and filter (docs/DESIGN.md, "Near-miss keys").
//
// Key number i is i in decimal, zero-padded to key_size digits (numeric order
// is key order). The tables hold the even numbers: entry j has key number 2j.
//   - a present key is number 2j;
//   - a near-miss key is number 2j+1: absent, different from 2j only in its
//     last byte (sequential ids look like this);
//   - a missing key is present key 2j followed by kMissingSuffixSize random
//     letters: absent, in 2j's data block, with an unrelated hash;
//   - an unrelated key is a number drawn uniformly between the smallest and
//     the largest key's, its last kUnrelatedRandomBytes bytes random (drawn
//     again should that make a present key): anywhere in the key range, its
//     hash independent of every present key's.
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
  // Letters appended to a present key to make a missing key: 26^8 values,
  // two whole 4-byte words of a word-wise hash.
  static constexpr size_t kMissingSuffixSize = 8;
  // Random trailing bytes of an unrelated key: two keep such keys spread
  // over groups of 100 numbers while randomising the last 32-bit word's high
  // half.
  static constexpr size_t kUnrelatedRandomBytes = 2;
  // The widest key: 20 digits hold any uint64_t.
  static constexpr size_t kMaxDigits = 20;

  // The decimal scheme. REQUIRES: Validate(key_size, num).ok().
  KeyGenerator(size_t key_size, uint64_t num);
  // REQUIRES: Validate(key_size, num, scheme).ok(). (kRandom64 ignores
  // key_size: its keys are 8 bytes.)
  KeyGenerator(size_t key_size, uint64_t num, const KeySchemeOptions& scheme);

  // InvalidArgument if key_size cannot hold every key number (keys are never
  // truncated) or is over 1 KiB; for the sparse schemes also a stride below
  // 2, or more than 2^30 random keys.
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
