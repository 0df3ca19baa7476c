// The input of `bloomtable build`: lines of key, a tab and value.
//
// tsv: key and value in the escaped form that `scan` prints (escaping.h);
//      bytes that need no escape may also appear raw.
// hex: key and value as hexadecimal.
// A final "\r" on a line is dropped (files written on Windows); a last line
// without "\n" is read like the others. Every line must hold exactly one tab,
// so an empty line is an error. Errors are InvalidArgument and name the line.
//
// Pure functions, safe from any thread.

#ifndef BLOOMTABLE_TOOLS_BUILD_INPUT_H_
#define BLOOMTABLE_TOOLS_BUILD_INPUT_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "bloomtable/comparator.h"

namespace bloomtable {
namespace tool {

enum class InputFormat { kTsv, kHex };

struct InputEntry {
  std::string key;
  std::string value;
  size_t line = 0;  // 1-based, for error messages
};

absl::StatusOr<std::vector<InputEntry>> ParseInput(std::string_view text,
                                                   InputFormat format);

// Sorts `*entries` by key in `comparator`'s order. InvalidArgument naming
// both lines if two entries have the same key.
absl::Status SortInput(const Comparator* comparator,
                       std::vector<InputEntry>* entries);

}  // namespace tool
}  // namespace bloomtable

#endif  // BLOOMTABLE_TOOLS_BUILD_INPUT_H_
