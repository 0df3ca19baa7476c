// Elias-Fano encoding of a sorted sequence of integers, with the one query a
// range filter needs: "is some value in [lo, hi]?" (docs/FILTERS.md, range
// filter section).
//
// n non-decreasing values below a universe u are split into l low bits and
// the high part v >> l, with l = floor(log2(u / n)) (0 when u <= n):
//
//   varint64  n
//   uint8     l                         0..63
//   fixed64 * ceil(n * l / 64)          low bits: value i's at bits [i*l,
//   i*l+l) fixed64 * ceil((Z + n) / 64)        high bits, Z = ((u - 1) >> l) +
//   1:
//                                       value i sets bit (v_i >> l) + i
//
// Bit p of a bit string is bit p % 64 of its word p / 64; unused bits of the
// last word are zero. The high bits hold n ones and Z zeros; zero number k
// (counting from 0) ends bucket k, the values whose high part is k. Their
// total is n * (l + 1) + Z bits, about n * (2 + log2(u / n)).
//
// Thread-safety: an EliasFanoReader is immutable after Parse; it reads the
// bytes it was parsed from, which must outlive it.

#ifndef BLOOMTABLE_FILTER_ELIAS_FANO_H_
#define BLOOMTABLE_FILTER_ELIAS_FANO_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace bloomtable {

// l for n values below `universe` (n >= 1, universe >= 1).
int EliasFanoLowBits(uint64_t n, uint64_t universe);

// The payload bits of n values below `universe`: n * (l + 1) + Z, without
// the header and the padding of the two bit strings to whole words.
// Non-decreasing in `universe`.
uint64_t EliasFanoBits(uint64_t n, uint64_t universe);

// Appends the encoding of `values` to *dst.
// REQUIRES: values non-decreasing, non-empty, each below `universe`.
void EncodeEliasFano(const std::vector<uint64_t>& values, uint64_t universe,
                     std::string* dst);

class EliasFanoReader {
 public:
  EliasFanoReader() = default;
  EliasFanoReader(const EliasFanoReader&) = delete;
  EliasFanoReader& operator=(const EliasFanoReader&) = delete;

  // Parses an encoding for `universe` at the front of *input and advances
  // *input past it. Returns false if it is truncated or structurally wrong
  // (n = 0, l not the encoder's, sizes that do not fit, not exactly n ones,
  // nonzero padding, high bits not ending in a zero). Never reads past *input.
  // REQUIRES: universe >= 1.
  bool Parse(std::string_view* input, uint64_t universe);

  // Whether some value v has lo <= v <= hi.
  // REQUIRES: Parse succeeded, lo <= hi < universe.
  bool AnyInRange(uint64_t lo, uint64_t hi) const;

  uint64_t size() const { return n_; }
  size_t ApproximateMemoryUsage() const;

 private:
  // Every kSampleZeros-th zero's position is kept: a select scans at most
  // about kSampleZeros * 2 bits (half the high bits are ones at most rates).
  static constexpr uint64_t kSampleZeros = 256;

  uint64_t Word(const char* base, uint64_t index) const;
  uint64_t Low(uint64_t i) const;
  // The position of zero number k in the high bits. REQUIRES: k < zeros_.
  uint64_t Select0(uint64_t k) const;

  const char* low_ = nullptr;
  const char* high_ = nullptr;
  uint64_t n_ = 0;
  int l_ = 0;
  uint64_t zeros_ = 0;
  std::vector<uint64_t> samples_;  // samples_[j]: position of zero j * 256
};

}  // namespace bloomtable

#endif  // BLOOMTABLE_FILTER_ELIAS_FANO_H_
