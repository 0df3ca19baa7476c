// The results filter_bench measures (one row per filter implementation, key
// count, layout and bits_per_key), printed as an aligned table or as JSON.
// Plain functions over values: safe from any thread.

#ifndef BLOOMTABLE_DB_BENCH_FILTER_BENCH_REPORT_H_
#define BLOOMTABLE_DB_BENCH_FILTER_BENCH_REPORT_H_

#include <cstddef>
#include <string>
#include <vector>

#include "nlohmann/json.hpp"

namespace bloomtable {

// Times are medians in nanoseconds; rates are fractions (0.01 is 1%).
struct FilterBenchRow {
  std::string filter;    // the implementation's row name
  std::string policy;    // the policy whose bytes it writes
  std::string baseline;  // the row its speed is compared with, or ""
  size_t num_keys = 0;
  size_t keys_per_filter = 0;
  size_t num_filters = 0;
  int bits_per_key = 0;
  double filter_bits_per_key = 0;  // measured from the filters' bytes
  double build_ns_per_key = 0;
  double present_ns_per_probe = 0;
  double absent_ns_per_probe = 0;
  // Absent probes in a dependent chain (BenchFilter::CountMayMatchDependent):
  // one probe's latency.
  double absent_dependent_ns_per_probe = 0;
  // The fastest and slowest of the timed runs behind the two absent medians.
  double absent_ns_min = 0, absent_ns_max = 0;
  double absent_dependent_ns_min = 0, absent_dependent_ns_max = 0;
  double fp_random = 0;     // absent random 16-byte keys
  double fp_near_miss = 0;  // odd decimal keys against even ones
  double fp_expected = 0;   // the ideal formula for the policy's parameters
  double fp_floor = 0;      // 2^-bits_per_key, the best any filter can do
  bool false_negatives = false;        // a present key answered "absent"
  bool same_bytes_as_baseline = true;  // for rows of the baseline's policy
};

// "F x K": F filters of K keys each.
std::string LayoutName(const FilterBenchRow& row);

// The row named row.baseline with the same key count, layout and
// bits_per_key, or nullptr.
const FilterBenchRow* FindBaseline(const std::vector<FilterBenchRow>& rows,
                                   const FilterBenchRow& row);

// Prints `rows` to stdout as a table, with speed ratios to each baseline.
void PrintTable(const std::vector<FilterBenchRow>& rows);

// Every field of every row, snake_case, plus the ratios to the baselines.
nlohmann::json RowsToJson(const std::vector<FilterBenchRow>& rows, int repeats);

}  // namespace bloomtable

#endif  // BLOOMTABLE_DB_BENCH_FILTER_BENCH_REPORT_H_
