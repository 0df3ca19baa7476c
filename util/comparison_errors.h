// ComparisonErrorScope collects the keys that the comparators called on
// its thread, while it lives, could not order (ReportComparisonError in
// bloomtable/comparator.h). A comparator returns an int, with no way to
// fail: one that meets a key it cannot decode answers a deterministic
// fallback order and reports the key, and the caller that opened the scope
// turns the report into its own error.
//
// Scopes nest: a report goes to the innermost scope of the thread. A scope
// is used by the thread that made it, and must be destroyed by it, in the
// reverse order of creation (a stack object).

#ifndef BLOOMTABLE_UTIL_COMPARISON_ERRORS_H_
#define BLOOMTABLE_UTIL_COMPARISON_ERRORS_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/status.h"

namespace bloomtable {

class ComparisonErrorScope {
 public:
  ComparisonErrorScope();
  ~ComparisonErrorScope();
  ComparisonErrorScope(const ComparisonErrorScope&) = delete;
  ComparisonErrorScope& operator=(const ComparisonErrorScope&) = delete;

  // True once a comparison failed within the scope.
  bool failed() const { return count_ > 0; }
  // OK, or DataLoss naming the first key that could not be ordered (its
  // bytes escaped), why, and how many reports there were.
  absl::Status status() const;

  // Records a report in the calling thread's innermost scope, if any.
  static void Report(std::string_view key, std::string_view why);

 private:
  ComparisonErrorScope* const outer_;
  uint64_t count_ = 0;
  std::string first_key_;
  std::string first_reason_;
};

}  // namespace bloomtable

#endif  // BLOOMTABLE_UTIL_COMPARISON_ERRORS_H_
