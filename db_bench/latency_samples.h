// LatencySamples collects sampled operation latencies (in nanoseconds) and
// answers percentiles and a text histogram from them.
//
// db_bench times whole loops for micros/op and samples individual operations
// for the distribution, so that reading the clock does not slow every
// operation. Not thread-safe: one per thread, then Merge.

#ifndef BLOOMTABLE_DB_BENCH_LATENCY_SAMPLES_H_
#define BLOOMTABLE_DB_BENCH_LATENCY_SAMPLES_H_

#include <cstdint>
#include <string>
#include <vector>

namespace bloomtable {
namespace db_bench {

class LatencySamples {
 public:
  void Reserve(size_t n) { nanos_.reserve(n); }
  void Add(uint64_t nanos) { nanos_.push_back(nanos); }
  void Merge(const LatencySamples& other);

  size_t count() const { return nanos_.size(); }

  // The p-th percentile (0 <= p <= 100) in microseconds; NaN if empty.
  // Sorts the samples on first use.
  double PercentileMicros(double p);

  // Count, mean, min, median, max and percentiles, then one line per
  // non-empty bucket (bounds growing by about 1.25x) with its share and the
  // running total, in the spirit of LevelDB's --histogram output.
  std::string HistogramText();

 private:
  void Sort();

  std::vector<uint64_t> nanos_;
  bool sorted_ = false;
};

}  // namespace db_bench
}  // namespace bloomtable

#endif  // BLOOMTABLE_DB_BENCH_LATENCY_SAMPLES_H_
