// Small helpers for std::string_view, the type of the public API.
//
// Debian builds Abseil with its own absl::string_view class rather than an
// alias of std::string_view, so a view crosses between the two by its data
// and size: ToAbsl and FromAbsl are the one place that does it. Header-only,
// pure functions.

#ifndef BLOOMTABLE_UTIL_STRING_UTIL_H_
#define BLOOMTABLE_UTIL_STRING_UTIL_H_

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "absl/strings/string_view.h"
#include "util/coding.h"

namespace bloomtable {

// The same bytes as an absl::string_view (for absl::StrCat, StrFormat, ...).
inline absl::string_view ToAbsl(std::string_view view) {
  return absl::string_view(view.data(), view.size());
}

// The same bytes as a std::string_view.
inline std::string_view FromAbsl(absl::string_view view) {
  return std::string_view(view.data(), view.size());
}

// The number of leading bytes `a` and `b` share.
inline size_t CommonPrefixLength(std::string_view a, std::string_view b) {
  const size_t limit = a.size() < b.size() ? a.size() : b.size();
  size_t i = 0;
  while (i < limit && a[i] == b[i]) ++i;
  return i;
}

// Whether `text` begins with `prefix`.
inline bool StartsWith(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

// The bytewise (memcmp, then shorter first) order of `a` and `b`: negative,
// zero or positive. Inline and 8 bytes at a time, for the hot searches of
// index and data blocks, where keys are short and a call to memcmp costs
// more than the comparison.
inline int BytewiseCompare(std::string_view a, std::string_view b) {
  const size_t common = a.size() < b.size() ? a.size() : b.size();
  size_t i = 0;
  for (; i + 8 <= common; i += 8) {
    const uint64_t x = DecodeBigEndian64(a.data() + i);
    const uint64_t y = DecodeBigEndian64(b.data() + i);
    if (x != y) return x < y ? -1 : 1;
  }
  for (; i < common; ++i) {
    const unsigned char x = static_cast<unsigned char>(a[i]);
    const unsigned char y = static_cast<unsigned char>(b[i]);
    if (x != y) return x < y ? -1 : 1;
  }
  return a.size() < b.size() ? -1 : (a.size() > b.size() ? 1 : 0);
}

}  // namespace bloomtable

#endif  // BLOOMTABLE_UTIL_STRING_UTIL_H_
