// LatencySamples collects sampled operation latencies (in nanoseconds) and
// answers percentiles of them. db_bench times whole loops for micros/op and
// samples single operations for the distribution, so that reading the clock
// does not slow every operation. Not thread-safe: one per thread, then Merge.

#ifndef BLOOMTABLE_DB_BENCH_LATENCY_SAMPLES_H_
#define BLOOMTABLE_DB_BENCH_LATENCY_SAMPLES_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace bloomtable {
namespace db_bench {

class LatencySamples {
 public:
  void Reserve(size_t n) { nanos_.reserve(n); }
  void Add(uint64_t nanos) { nanos_.push_back(nanos); }
  void Merge(const LatencySamples& other) {
    nanos_.insert(nanos_.end(), other.nanos_.begin(), other.nanos_.end());
  }

  // The p-th percentile (0 <= p <= 100) in microseconds, by nearest rank
  // (the smallest sample with at least p% of the samples <= it); NaN if
  // empty.
  double PercentileMicros(double p) {
    if (nanos_.empty()) return std::numeric_limits<double>::quiet_NaN();
    const double rank = std::ceil(p / 100.0 * nanos_.size());
    const size_t index =
        rank < 1 ? 0
                 : std::min(nanos_.size() - 1, static_cast<size_t>(rank) - 1);
    std::nth_element(nanos_.begin(), nanos_.begin() + index, nanos_.end());
    return nanos_[index] / 1000.0;
  }

 private:
  std::vector<uint64_t> nanos_;
};

}  // namespace db_bench
}  // namespace bloomtable

#endif  // BLOOMTABLE_DB_BENCH_LATENCY_SAMPLES_H_
