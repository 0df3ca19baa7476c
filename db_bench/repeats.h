// Several runs of one plan (--repeats) made into one report: each timing
// figure is the median of the runs, the runs kept beside it for the range;
// and the order in which each run visits the stores, rotated between runs so
// that no engine always runs first (a cold machine) or last.

#ifndef BLOOMTABLE_DB_BENCH_REPEATS_H_
#define BLOOMTABLE_DB_BENCH_REPEATS_H_

#include <cstddef>
#include <vector>

#include "db_bench/report.h"

namespace bloomtable {
namespace db_bench {

// The order of `groups` store groups in run `run` (0-based) of `runs`: the
// groups rotated left by run * groups / runs.
std::vector<size_t> RotatedOrder(size_t groups, int run, int runs);

// The median of `values` (the mean of the middle two for an even count);
// NaN if empty. NaN values are left out.
double Median(std::vector<double> values);

// One report per configuration from `runs` (one vector per run, each in the
// plan's configuration order, all of the same length). A result's timing
// figures (RunFigures) become the medians over the runs that have a result
// of the same benchmark and thread count at the same place, and `runs` lists
// each run's; its counters and answers are those of the run whose
// micros/op is nearest the median. Storage and memory come from the last
// run; the first error of any run is kept.
std::vector<ConfigReport> MergeRuns(
    const std::vector<std::vector<ConfigReport>>& runs);

}  // namespace db_bench
}  // namespace bloomtable

#endif  // BLOOMTABLE_DB_BENCH_REPEATS_H_
