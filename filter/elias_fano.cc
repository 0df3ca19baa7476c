// Elias-Fano encoding and its range query (elias_fano.h).

#include "filter/elias_fano.h"

#include <cassert>

#include "util/coding.h"

namespace bloomtable {
namespace {

inline int FloorLog2(uint64_t x) { return 63 - __builtin_clzll(x); }

inline uint64_t WordsFor(uint64_t bits) { return bits / 64 + (bits % 64 != 0); }

// The position of the k-th (from 0) set bit of x. REQUIRES: k < popcount(x).
inline int SelectInWord(uint64_t x, int k) {
  int base = 0;
  for (;;) {
    const int count = __builtin_popcountll(x & 0xff);
    if (k < count) break;
    k -= count;
    x >>= 8;
    base += 8;
  }
  for (; k > 0; --k) x &= x - 1;  // at most 7 bits of one byte
  return base + __builtin_ctzll(x);
}

void SetBit(std::vector<uint64_t>* words, uint64_t bit) {
  (*words)[bit / 64] |= uint64_t{1} << (bit % 64);
}

void PutWords(const std::vector<uint64_t>& words, std::string* dst) {
  for (const uint64_t word : words) PutFixed64(dst, word);
}

}  // namespace

int EliasFanoLowBits(uint64_t n, uint64_t universe) {
  assert(n >= 1);
  return universe > n ? FloorLog2(universe / n) : 0;
}

uint64_t EliasFanoBits(uint64_t n, uint64_t universe) {
  const int l = EliasFanoLowBits(n, universe);
  return n * static_cast<uint64_t>(l + 1) + ((universe - 1) >> l) + 1;
}

void EncodeEliasFano(const std::vector<uint64_t>& values, uint64_t universe,
                     std::string* dst) {
  assert(!values.empty());
  const uint64_t n = values.size();
  const int l = EliasFanoLowBits(n, universe);
  const uint64_t zeros = ((universe - 1) >> l) + 1;
  std::vector<uint64_t> low(WordsFor(n * l), 0);
  std::vector<uint64_t> high(WordsFor(zeros + n), 0);
  const uint64_t mask = l == 0 ? 0 : (~uint64_t{0} >> (64 - l));
  for (uint64_t i = 0; i < n; ++i) {
    assert(values[i] < universe && (i == 0 || values[i - 1] <= values[i]));
    const uint64_t bits = values[i] & mask;
    if (bits != 0) {
      const uint64_t start = i * l;
      const int shift = static_cast<int>(start % 64);
      low[start / 64] |= bits << shift;
      if (shift + l > 64) low[start / 64 + 1] |= bits >> (64 - shift);
    }
    SetBit(&high, (values[i] >> l) + i);
  }
  PutVarint64(dst, n);
  dst->push_back(static_cast<char>(l));
  PutWords(low, dst);
  PutWords(high, dst);
}

bool EliasFanoReader::Parse(std::string_view* input, uint64_t universe) {
  assert(universe >= 1);
  uint64_t n;
  if (!GetVarint64(input, &n) || input->empty()) return false;
  const int l = static_cast<unsigned char>((*input)[0]);
  input->remove_prefix(1);
  // Each value takes at least one bit of the input (its high bit), and
  // each bucket one zero: bounds that keep the products below in range.
  const uint64_t max_bits = static_cast<uint64_t>(input->size()) * 8;
  if (n == 0 || n > max_bits || l != EliasFanoLowBits(n, universe)) {
    return false;
  }
  const uint64_t zeros = ((universe - 1) >> l) + 1;
  if (zeros > max_bits) return false;
  const uint64_t low_words = WordsFor(n * l);
  const uint64_t high_bits = zeros + n;
  const uint64_t high_words = WordsFor(high_bits);
  if (low_words + high_words > input->size() / 8) return false;
  const char* low = input->data();
  const char* high = low + low_words * 8;

  // Low padding zero; exactly n ones and no padding in the high bits; the
  // last high bit a zero (it ends the last bucket, so every one lies in a
  // bucket below Z). Zero positions are sampled on the way.
  if (low_words > 0 && (n * l) % 64 != 0 &&
      (Word(low, low_words - 1) >> ((n * l) % 64)) != 0) {
    return false;
  }
  std::vector<uint64_t> samples;
  samples.reserve(zeros / kSampleZeros + 1);
  uint64_t ones = 0;
  uint64_t zeros_seen = 0;
  for (uint64_t w = 0; w < high_words; ++w) {
    const uint64_t word = Word(high, w);
    const uint64_t valid =
        w + 1 < high_words || high_bits % 64 == 0 ? 64 : high_bits % 64;
    if (valid < 64 && (word >> valid) != 0) return false;
    const uint64_t valid_mask =
        valid == 64 ? ~uint64_t{0} : (uint64_t{1} << valid) - 1;
    uint64_t zero_bits = ~word & valid_mask;
    const uint64_t count = __builtin_popcountll(zero_bits);
    // Record the zeros numbered j * kSampleZeros that fall in this word.
    uint64_t next = samples.size() * kSampleZeros;
    while (next < zeros_seen + count) {
      samples.push_back(
          w * 64 +
          SelectInWord(zero_bits, static_cast<int>(next - zeros_seen)));
      next += kSampleZeros;
    }
    zeros_seen += count;
    ones += __builtin_popcountll(word);
  }
  if (ones != n || zeros_seen != zeros) return false;
  if (((Word(high, (high_bits - 1) / 64) >> ((high_bits - 1) % 64)) & 1) != 0) {
    return false;
  }
  low_ = low;
  high_ = high;
  n_ = n;
  l_ = l;
  zeros_ = zeros;
  samples_ = std::move(samples);
  input->remove_prefix((low_words + high_words) * 8);
  return true;
}

uint64_t EliasFanoReader::Word(const char* base, uint64_t index) const {
  return DecodeFixed64(base + index * 8);
}

uint64_t EliasFanoReader::Low(uint64_t i) const {
  if (l_ == 0) return 0;
  const uint64_t bit = i * l_;
  const uint64_t word = bit / 64;
  const int shift = static_cast<int>(bit % 64);
  uint64_t value = Word(low_, word) >> shift;
  if (shift + l_ > 64) value |= Word(low_, word + 1) << (64 - shift);
  return value & (~uint64_t{0} >> (64 - l_));
}

uint64_t EliasFanoReader::Select0(uint64_t k) const {
  assert(k < zeros_);
  uint64_t position = samples_[k / kSampleZeros];
  uint64_t remaining = k % kSampleZeros;
  uint64_t w = position / 64;
  // Zeros at or after `position` in its word.
  uint64_t zero_bits = ~Word(high_, w) & (~uint64_t{0} << (position % 64));
  for (;;) {
    const uint64_t count = __builtin_popcountll(zero_bits);
    if (remaining < count) break;
    remaining -= count;
    zero_bits = ~Word(high_, ++w);
  }
  return w * 64 + SelectInWord(zero_bits, static_cast<int>(remaining));
}

bool EliasFanoReader::AnyInRange(uint64_t lo, uint64_t hi) const {
  assert(lo <= hi);
  const uint64_t bucket_lo = lo >> l_;
  const uint64_t bucket_hi = hi >> l_;
  const uint64_t low_mask = l_ == 0 ? 0 : (~uint64_t{0} >> (64 - l_));
  // Values before bucket b: (position of zero b - 1) + 1 - b.
  const uint64_t end_lo = Select0(bucket_lo) - bucket_lo;
  uint64_t begin = bucket_lo == 0 ? 0 : Select0(bucket_lo - 1) + 1 - bucket_lo;
  // The first value of bucket_lo whose low bits are >= lo's (a bucket's low
  // bits are sorted).
  uint64_t end = end_lo;
  const uint64_t target = lo & low_mask;
  while (begin < end) {
    const uint64_t mid = begin + (end - begin) / 2;
    if (Low(mid) < target) {
      begin = mid + 1;
    } else {
      end = mid;
    }
  }
  if (begin < end_lo) {
    const uint64_t value = (bucket_lo << l_) | Low(begin);
    return value <= hi;
  }
  if (bucket_hi == bucket_lo) return false;
  // The next value, number end_lo, lies in a bucket above bucket_lo.
  const uint64_t end_hi = Select0(bucket_hi) - bucket_hi;
  if (end_lo >= end_hi) return false;  // none up to bucket_hi
  const uint64_t begin_hi = bucket_hi - 1 == bucket_lo
                                ? end_lo
                                : Select0(bucket_hi - 1) + 1 - bucket_hi;
  if (end_lo < begin_hi) return true;  // in a bucket strictly between
  return Low(end_lo) <= (hi & low_mask);
}

size_t EliasFanoReader::ApproximateMemoryUsage() const {
  return sizeof(*this) + samples_.capacity() * sizeof(uint64_t);
}

}  // namespace bloomtable
