// The bloomtable tool and scan filters: build writes them, dump and stats
// show them, scan asks them and says on standard error what they answered
// (golden file scan_filters.golden).

#include "gtest/gtest.h"
#include "tests/tool_test_util.h"

namespace bloomtable {
namespace tool_test {
namespace {

TEST_F(ToolTest, GoldenScanFilters) {
  RunGoldenFile("scan_filters.golden", dir_);
}

}  // namespace
}  // namespace tool_test
}  // namespace bloomtable
