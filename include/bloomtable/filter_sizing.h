// Bloom filter sizing arithmetic.
//
// The classic approximation for a Bloom filter of m bits holding n keys with
// k independent, uniformly distributed probes:
//
//   false-positive rate  p(b, k) = (1 - e^(-k / b))^k,   b = m / n bits per key
//   best k for b         k* = b * ln 2
//   bits per key for p   b  = -log2(p) / ln 2 = 1.44 * log2(1 / p)
//
// It assumes hash functions that behave like independent uniform random
// choices and m large enough that the expected fill is close to its mean. Real
// filters deviate: LevelDB's double hashing of a 32-bit hash is worse than the
// formula on large filters and on keys that differ only in their last bytes;
// cache-local (blocked) filters lose a little to uneven block fill.

#ifndef BLOOMTABLE_INCLUDE_BLOOMTABLE_FILTER_SIZING_H_
#define BLOOMTABLE_INCLUDE_BLOOMTABLE_FILTER_SIZING_H_

namespace bloomtable {

struct BloomSizing {
  double bits_per_key;
  int num_probes;
};

// The bits per key and probe count that reach a false-positive rate of
// `target_rate` (0 < target_rate < 1) with an ideal Bloom filter. The number
// of probes is rounded to the nearest integer >= 1; bits per key is then the
// smallest value for which p(b, k) <= target_rate.
BloomSizing BloomSizingForRate(double target_rate);

// The expected false-positive rate p(b, k) of an ideal Bloom filter with
// `bits_per_key` bits per key and `num_probes` probes (k >= 1, b > 0).
double BloomFalsePositiveRate(double bits_per_key, int num_probes);

}  // namespace bloomtable

#endif  // BLOOMTABLE_INCLUDE_BLOOMTABLE_FILTER_SIZING_H_
