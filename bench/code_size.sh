#!/usr/bin/env bash
# Lines of code (.cc, .h, .py, .sh; tests aside: *_test.*) of the benchmark
# harness (db_bench/, bench/) beside the library's table/, filter/ and db/.
cd "$(dirname "$0")/.."
count() {
  find "$@" -type f \( -name '*.cc' -o -name '*.h' -o -name '*.py' \
    -o -name '*.sh' \) ! -name '*_test.*' -print0 | xargs -0 cat | wc -l
}
echo "harness (db_bench, bench): $(count db_bench bench)"
echo "library (table, filter, db): $(count table filter db)"
