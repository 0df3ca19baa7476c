// The filter implementations filter_bench measures, each behind one small
// interface, so that a new policy (a cache-local Bloom, a Ribbon filter) is one
// more entry in BenchFilterRegistry() and shows up as more rows by name.
//
// A BenchFilter is driven in phases. Keys, probes and filters are handed over
// untimed, so that each implementation converts them to its own types (e.g.
// leveldb::Slice) or parses its filters (as a table does at open) outside the
// timed loops; only AppendFilter and CountMayMatch are timed. Not thread-safe.

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

  // Untimed. The keys that AppendFilter builds from; the bytes they view
  // outlive every later call.
  virtual void SetKeys(const std::vector<std::string_view>& keys) = 0;

  // Timed. Appends to `*dst` one filter over keys [begin, end) of SetKeys.
  virtual void AppendFilter(size_t begin, size_t end, std::string* dst) = 0;

  // Untimed. The filters that CountMayMatch asks, viewing bytes that outlive
  // every later call. Implementations may parse them here, once.
  virtual void SetFilters(const std::vector<std::string_view>& filters) = 0;

  // Untimed. The keys that CountMayMatch asks about.
  virtual void SetProbes(const std::vector<std::string_view>& probes) = 0;

  // Timed. How many probes i in [begin, end) answer "may match" when asked
  // of filter filter_of_probe[i]. REQUIRES: end <= the number of probes, and
  // filter_of_probe has an entry for each probe.
  virtual size_t CountMayMatch(const std::vector<uint32_t>& filter_of_probe,
                               size_t begin, size_t end) = 0;

  // Timed. Asks `count` probes in a chain: each probe's index depends on the
  // previous answer (next = (index * 7919 + 1 + answer) mod probes), so the
  // processor cannot start a probe's memory access before the previous one
  // finished: the latency of one probe rather than the throughput of many.
  // Returns the "may match" answers. REQUIRES: probes were set.
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

  // The ideal false-positive rate for this filter's parameters at
  // `bits_per_key`, to print beside the measured one.
  virtual double ExpectedFalsePositiveRate(int bits_per_key) const = 0;
};

struct BenchFilterEntry {
  // The row label, unique, e.g. "bloomtable/reader".
  std::string name;
  // The policy whose bytes it writes, e.g. "leveldb.BuiltinBloomFilter2".
  std::string policy;
  // The row that speed ratios compare with ("" for none): the peer engine's
  // implementation of the same policy.
  std::string baseline;
  std::function<std::unique_ptr<BenchFilter>(int bits_per_key)> make;
  // What the row measures, for the legend under the table (optional).
  std::string description = "";
};

// Every implementation compiled in, in display order; LevelDB's only when the
// build has it (BLOOMTABLE_WITH_LEVELDB).
std::vector<BenchFilterEntry> BenchFilterRegistry();

}  // namespace bloomtable

#endif  // BLOOMTABLE_DB_BENCH_BENCH_FILTERS_H_
