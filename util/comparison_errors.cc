#include "util/comparison_errors.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "bloomtable/comparator.h"
#include "util/string_util.h"

namespace bloomtable {
namespace {

// The innermost scope of each thread: a per-thread stack of objects that
// live on that thread's stack, never shared between threads.
thread_local ComparisonErrorScope* innermost_scope = nullptr;

// Keys are named in full up to this many bytes, so that a message stays
// one readable line.
constexpr size_t kMaxKeyBytesShown = 200;

}  // namespace

ComparisonErrorScope::ComparisonErrorScope() : outer_(innermost_scope) {
  innermost_scope = this;
}

ComparisonErrorScope::~ComparisonErrorScope() { innermost_scope = outer_; }

void ComparisonErrorScope::Report(std::string_view key, std::string_view why) {
  ComparisonErrorScope* scope = innermost_scope;
  if (scope == nullptr) return;
  if (scope->count_++ == 0) {
    scope->first_key_.assign(key);
    scope->first_reason_.assign(why);
  }
}

absl::Status ComparisonErrorScope::status() const {
  if (count_ == 0) return absl::OkStatus();
  const std::string_view key = first_key_;
  std::string shown;
  for (char c : key.substr(0, kMaxKeyBytesShown)) {
    // The tool's escaped form: printable ASCII as it is, else \xNN.
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x20 && byte < 0x7f && byte != '\\') {
      shown.push_back(c);
    } else {
      absl::StrAppendFormat(&shown, "\\x%02x", byte);
    }
  }
  if (key.size() > kMaxKeyBytesShown) {
    absl::StrAppend(&shown, "... (", key.size(), " bytes)");
  }
  std::string message = absl::StrCat("the comparator cannot order the key \"",
                                     shown, "\": ", first_reason_);
  if (count_ > 1) {
    absl::StrAppend(&message, " (", count_ - 1,
                    " more comparisons failed; keys were ordered by their "
                    "bytes where they did)");
  } else {
    absl::StrAppend(&message, " (ordered by its bytes)");
  }
  return absl::DataLossError(message);
}

void ReportComparisonError(std::string_view key, std::string_view why) {
  ComparisonErrorScope::Report(key, why);
}

}  // namespace bloomtable
