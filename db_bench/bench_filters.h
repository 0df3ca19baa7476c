// The filter implementations filter_bench measures, each behind one small
// interface (a new policy is one more entry in BenchFilterRegistry()).
// Keys, probes and filters are handed over untimed, so that each
// implementation converts them to its own types or parses its filters
// outside the timed loops; only AppendFilter and CountMayMatch are timed.
// Not thread-safe.

#ifndef BLOOMTABLE_DB_BENCH_BENCH_FILTERS_H_
#define BLOOMTABLE_DB_BENCH_BENCH_FILTERS_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace bloomtable {

class BenchFilter {
 public:
  virtual ~BenchFilter() = default;

  // Untimed. The keys that AppendFilter builds from (their bytes outlive
  // every later call).
  virtual void SetKeys(const std::vector<std::string_view>& keys) = 0;

  // Timed. Appends to `*dst` one filter over keys [begin, end) of SetKeys.
  virtual void AppendFilter(size_t begin, size_t end, std::string* dst) = 0;

  // Untimed. The filters that CountMayMatch asks (likewise).
  virtual void SetFilters(const std::vector<std::string_view>& filters) = 0;

  // Untimed. The keys that CountMayMatch asks about.
  virtual void SetProbes(const std::vector<std::string_view>& probes) = 0;

  // Timed. How many probes i in [begin, end) answer "may match" when asked
  // of filter filter_of_probe[i].
  virtual size_t CountMayMatch(const std::vector<uint32_t>& filter_of_probe,
                               size_t begin, size_t end) = 0;

  // Timed. Asks `count` probes in a chain, each probe's index depending on
  // the previous answer: the latency of one probe rather than the
  // throughput of many. Returns the "may match" answers.
  size_t CountMayMatchDependent(const std::vector<uint32_t>& filter_of_probe,
                                size_t count) {
    const size_t n = filter_of_probe.size();
    size_t index = 0;
    size_t matches = 0;
    for (size_t i = 0; i < count; ++i) {
      const size_t answer = CountMayMatch(filter_of_probe, index, index + 1);
      matches += answer;
      index = (index * 7919 + 1 + answer) % n;
    }
    return matches;
  }

  // The ideal false-positive rate at `bits_per_key`.
  virtual double ExpectedFalsePositiveRate(int bits_per_key) const = 0;
};

struct BenchFilterEntry {
  std::string name;      // the row label, e.g. "bloomtable/reader"
  std::string policy;    // the policy whose bytes it writes
  std::string baseline;  // the row speed ratios compare with, or ""
  std::function<std::unique_ptr<BenchFilter>(int bits_per_key)> make;
  std::string description = "";  // for the legend under the table
};

// Every implementation compiled in, in display order.
std::vector<BenchFilterEntry> BenchFilterRegistry();

}  // namespace bloomtable

#endif  // BLOOMTABLE_DB_BENCH_BENCH_FILTERS_H_
