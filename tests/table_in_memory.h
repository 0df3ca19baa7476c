// Test helpers: a table built in memory from a sorted map of entries, and
// opened from those bytes. Failures are reported as test failures.

#ifndef BLOOMTABLE_TESTS_TABLE_IN_MEMORY_H_
#define BLOOMTABLE_TESTS_TABLE_IN_MEMORY_H_

#include <map>
#include <memory>
#include <string>
#include <utility>

#include "bloomtable/file.h"
#include "bloomtable/options.h"
#include "bloomtable/table.h"
#include "bloomtable/table_builder.h"
#include "gtest/gtest.h"

namespace bloomtable {
namespace table_test {

// The file TableBuilder writes from `entries`, in their order.
inline std::string BuildTableInMemory(
    const Options& options, const std::map<std::string, std::string>& entries) {
  StringWritableFile file;
  TableBuilder builder(options, &file);
  for (const auto& [key, value] : entries) {
    EXPECT_TRUE(builder.Add(key, value).ok());
  }
  EXPECT_TRUE(builder.Finish().ok());
  return file.contents();
}

// `contents` opened as a table; null (and a test failure) if Open fails.
inline std::unique_ptr<Table> OpenTableInMemory(const Options& options,
                                                const std::string& contents) {
  auto table = Table::Open(options, NewMemoryRandomAccessFile(contents),
                           contents.size());
  EXPECT_TRUE(table.ok()) << table.status();
  return table.ok() ? *std::move(table) : nullptr;
}

}  // namespace table_test
}  // namespace bloomtable

#endif  // BLOOMTABLE_TESTS_TABLE_IN_MEMORY_H_
