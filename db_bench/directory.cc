#include "db_bench/directory.h"

#include <stdlib.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <system_error>

#include "util/file_errors.h"

namespace bloomtable {
namespace db_bench {
namespace {

absl::Status FromErrorCode(const std::string& path, std::string_view operation,
                           const std::error_code& error) {
  return FileError(path, operation, error.value());
}

}  // namespace

absl::Status RemoveDirectory(const std::string& dir) {
  std::error_code error;
  std::filesystem::remove_all(dir, error);
  if (error) return FromErrorCode(dir, "remove", error);
  return absl::OkStatus();
}

absl::Status CreateDirectories(const std::string& dir) {
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error) return FromErrorCode(dir, "create directory", error);
  return absl::OkStatus();
}

absl::Status RecreateDirectory(const std::string& dir) {
  absl::Status status = RemoveDirectory(dir);
  if (!status.ok()) return status;
  return CreateDirectories(dir);
}

absl::StatusOr<std::vector<std::string>> ListFiles(const std::string& dir,
                                                   std::string_view suffix) {
  std::vector<std::string> paths;
  std::error_code error;
  for (std::filesystem::directory_iterator it(dir, error), end;
       !error && it != end; it.increment(error)) {
    if (!it->is_regular_file()) continue;
    const std::string name = it->path().filename().string();
    if (name.size() >= suffix.size() &&
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0) {
      paths.push_back(it->path().string());
    }
  }
  if (error) return FromErrorCode(dir, "list", error);
  std::sort(paths.begin(), paths.end());
  return paths;
}

absl::StatusOr<std::string> MakeTempDirectory(const std::string& prefix) {
  const char* tmpdir = std::getenv("TMPDIR");
  std::string pattern =
      (tmpdir != nullptr && *tmpdir != '\0') ? tmpdir : "/tmp";
  pattern += "/" + prefix + "XXXXXX";
  if (mkdtemp(pattern.data()) == nullptr) {
    return FileError(pattern, "mkdtemp", errno);
  }
  return pattern;
}

}  // namespace db_bench
}  // namespace bloomtable
