// Small directory helpers for the engines' working directories.

#ifndef BLOOMTABLE_DB_BENCH_DIRECTORY_H_
#define BLOOMTABLE_DB_BENCH_DIRECTORY_H_

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace bloomtable {
namespace db_bench {

// Removes `dir` and everything in it, if it exists, and creates it empty.
absl::Status RecreateDirectory(const std::string& dir);

// Creates `dir` (and its parents) if missing.
absl::Status CreateDirectories(const std::string& dir);

// Removes `dir` and everything in it; OK if it does not exist.
absl::Status RemoveDirectory(const std::string& dir);

// Full paths of the regular files in `dir` whose names end in `suffix`,
// sorted by name.
absl::StatusOr<std::vector<std::string>> ListFiles(const std::string& dir,
                                                   std::string_view suffix);

// A new, empty directory under $TMPDIR (or /tmp) whose name starts with
// `prefix`.
absl::StatusOr<std::string> MakeTempDirectory(const std::string& prefix);

}  // namespace db_bench
}  // namespace bloomtable

#endif  // BLOOMTABLE_DB_BENCH_DIRECTORY_H_
