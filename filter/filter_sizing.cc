// Bloom filter sizing (include/bloomtable/filter_sizing.h).
//
// With k probes and b bits per key the ideal rate is p = (1 - e^(-k/b))^k.
// Solving for b at a fixed k gives the closed form used below:
//
//   p^(1/k) = 1 - e^(-k/b)   =>   b = -k / ln(1 - p^(1/k))
//
// and the k that minimises p for the b = -log2(p) / ln 2 of the textbook
// optimum is k = b ln 2 = -log2(p), which is rounded to an integer.
//
// Inputs outside the documented ranges are not errors: they get the answer of
// the nearest meaningful input, so a caller never sees NaN or a negative size.

#include "bloomtable/filter_sizing.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace bloomtable {

BloomSizing BloomSizingForRate(double target_rate) {
  // A rate of 1 or more needs no bits at all (every key "may match").
  if (target_rate >= 1.0) return BloomSizing{0.0, 1};
  // Zero, negative and NaN rates are unreachable; aim for the smallest
  // positive normal double instead, which stays finite (about 1474 bits/key).
  if (!(target_rate > 0.0)) {
    target_rate = std::numeric_limits<double>::min();
  }
  const int num_probes =
      std::max(1, static_cast<int>(std::lround(-std::log2(target_rate))));
  const double per_probe_rate = std::pow(target_rate, 1.0 / num_probes);
  // log1p keeps precision when per_probe_rate is tiny.
  const double bits_per_key = -num_probes / std::log1p(-per_probe_rate);
  return BloomSizing{bits_per_key, num_probes};
}

double BloomFalsePositiveRate(double bits_per_key, int num_probes) {
  // Without probes or bits nothing can be ruled out.
  if (num_probes < 1 || !(bits_per_key > 0.0)) return 1.0;
  // -expm1(-x) = 1 - e^-x, accurate when k/b is small (many bits per key).
  const double bit_set_rate = -std::expm1(-num_probes / bits_per_key);
  return std::pow(bit_set_rate, num_probes);
}

}  // namespace bloomtable
