// Small helpers for std::string_view, the type of the public API.
//
// Debian builds Abseil with its own absl::string_view class rather than an
// alias of std::string_view, so a view crosses between the two by its data
// and size: ToAbsl and FromAbsl are the one place that does it. Header-only,
// pure functions.

#ifndef BLOOMTABLE_UTIL_STRING_UTIL_H_
#define BLOOMTABLE_UTIL_STRING_UTIL_H_

#include <string_view>

#include "absl/strings/string_view.h"

namespace bloomtable {

// The same bytes as an absl::string_view (for absl::StrCat, StrFormat, ...).
inline absl::string_view ToAbsl(std::string_view view) {
  return absl::string_view(view.data(), view.size());
}

// The same bytes as a std::string_view.
inline std::string_view FromAbsl(absl::string_view view) {
  return std::string_view(view.data(), view.size());
}

// Whether `text` begins with `prefix`.
inline bool StartsWith(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

}  // namespace bloomtable

#endif  // BLOOMTABLE_UTIL_STRING_UTIL_H_
