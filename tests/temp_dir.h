// TempDir: a fresh directory for one test, removed with everything in it when
// the object is destroyed. It is made under $TEST_TMPDIR when that is set,
// else under /tmp. Test-only code; not thread-safe.

#ifndef BLOOMTABLE_TESTS_TEMP_DIR_H_
#define BLOOMTABLE_TESTS_TEMP_DIR_H_

#include <stdlib.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <system_error>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"

namespace bloomtable {

class TempDir {
 public:
  TempDir() {
    const char* base = std::getenv("TEST_TMPDIR");
    std::string pattern =
        absl::StrCat(base != nullptr && *base != '\0' ? base : "/tmp",
                     "/bloomtable-test-XXXXXX");
    if (::mkdtemp(pattern.data()) == nullptr) {
      ADD_FAILURE() << "mkdtemp(" << pattern << ") failed: errno " << errno;
    }
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::string& path() const { return path_; }
  // The path of `name` inside the directory.
  std::string File(const std::string& name) const {
    return absl::StrCat(path_, "/", name);
  }

 private:
  std::string path_;
};

}  // namespace bloomtable

#endif  // BLOOMTABLE_TESTS_TEMP_DIR_H_
