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
//     hash unrelated to any present key's.
// Because every key has the same width, numeric order is key order.
//
// --key_size other than 16 changes the padding, never the scheme: keys are
// key_size digits wide. A key_size too small to hold the largest number
// (2 * num - 1) is rejected by Validate, so keys are never truncated.
//
// Thread-safety: immutable after construction; all methods are const.

#ifndef BLOOMTABLE_DB_BENCH_KEY_GENERATOR_H_
#define BLOOMTABLE_DB_BENCH_KEY_GENERATOR_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/status/status.h"

namespace bloomtable {
namespace db_bench {

class KeyGenerator {
 public:
  // The number of random bytes appended to a present key to make a missing
  // key: 8 letters (26^8, about 2e11 values) make repeats rare and carry
  // two whole 4-byte words into a word-wise hash.
  static constexpr size_t kMissingSuffixSize = 8;
  // The widest key: 20 digits hold any uint64_t.
  static constexpr size_t kMaxDigits = 20;

  // REQUIRES: Validate(key_size, num).ok().
  KeyGenerator(size_t key_size, uint64_t num);

  // InvalidArgument if key_size cannot hold every key number of a table of
  // `num` entries, or is larger than the widest sensible key (1 KiB).
  static absl::Status Validate(size_t key_size, uint64_t num);

  size_t key_size() const { return key_size_; }
  size_t missing_key_size() const { return key_size_ + kMissingSuffixSize; }
  uint64_t num() const { return num_; }

  // Writes key number `number` into dst[0, key_size()).
  void KeyNumber(uint64_t number, char* dst) const;

  // The key of entry j: number 2j. REQUIRES: j < num().
  void PresentKey(uint64_t j, char* dst) const { KeyNumber(2 * j, dst); }
  std::string PresentKey(uint64_t j) const;

  // Number 2j+1: absent, and one past present key 2j in the last digit.
  void NearMissKey(uint64_t j, char* dst) const { KeyNumber(2 * j + 1, dst); }

  // Present key 2j followed by kMissingSuffixSize letters drawn from
  // `random_bits` (any 64 random bits), written to dst[0, missing_key_size()).
  void MissingKey(uint64_t j, uint64_t random_bits, char* dst) const;

 private:
  const size_t key_size_;
  const uint64_t num_;
};

}  // namespace db_bench
}  // namespace bloomtable

#endif  // BLOOMTABLE_DB_BENCH_KEY_GENERATOR_H_
