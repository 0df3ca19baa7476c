#include "db_bench/latency_samples.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "absl/strings/str_format.h"

namespace bloomtable {
namespace db_bench {

void LatencySamples::Merge(const LatencySamples& other) {
  nanos_.insert(nanos_.end(), other.nanos_.begin(), other.nanos_.end());
  sorted_ = false;
}

void LatencySamples::Sort() {
  if (!sorted_) {
    std::sort(nanos_.begin(), nanos_.end());
    sorted_ = true;
  }
}

double LatencySamples::PercentileMicros(double p) {
  if (nanos_.empty()) return std::numeric_limits<double>::quiet_NaN();
  Sort();
  // Nearest rank: the smallest sample with at least p% of samples <= it.
  const double rank = std::ceil(p / 100.0 * nanos_.size());
  const size_t index =
      rank < 1 ? 0 : std::min(nanos_.size() - 1, static_cast<size_t>(rank) - 1);
  return nanos_[index] / 1000.0;
}

std::string LatencySamples::HistogramText() {
  if (nanos_.empty()) return "no samples\n";
  Sort();
  const double mean =
      std::accumulate(nanos_.begin(), nanos_.end(), 0.0) / nanos_.size() / 1000;
  std::string text = absl::StrFormat(
      "Count: %d  Average: %.4f  Min: %.4f  Median: %.4f  Max: %.4f "
      "(micros)\nPercentiles: P50: %.2f P75: %.2f P99: %.2f P99.9: %.2f "
      "P99.99: %.2f\n------------------------------------------------------\n",
      nanos_.size(), mean, nanos_.front() / 1000.0, PercentileMicros(50),
      nanos_.back() / 1000.0, PercentileMicros(50), PercentileMicros(75),
      PercentileMicros(99), PercentileMicros(99.9), PercentileMicros(99.99));
  // Buckets [low, high) in nanoseconds, growing by 1.25x from 10 ns:
  // fine enough to tell a cache hit from a block read.
  double low = 0;
  double high = 10;
  size_t index = 0;
  size_t cumulative = 0;
  while (index < nanos_.size()) {
    size_t in_bucket = 0;
    while (index < nanos_.size() && nanos_[index] < high) {
      ++in_bucket;
      ++index;
    }
    if (in_bucket > 0) {
      cumulative += in_bucket;
      absl::StrAppendFormat(&text, "[ %10.3f, %10.3f ) %9d %7.3f%% %7.3f%%\n",
                            low / 1000, high / 1000, in_bucket,
                            100.0 * in_bucket / nanos_.size(),
                            100.0 * cumulative / nanos_.size());
    }
    low = high;
    high = std::ceil(high * 1.25);
  }
  return text;
}

}  // namespace db_bench
}  // namespace bloomtable
