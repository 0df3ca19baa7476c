// The text input of the bloomtable tool: `build`'s lines of key, a tab and
// value, and `get --key_file`'s lines of one key.
//
// tsv: keys and values in the escaped form that `scan` prints (escaping.h);
//      bytes that need no escape may also appear raw.
// hex: keys and values as hexadecimal.
// A final "\r" on a line is dropped (files written on Windows); a last line
// without "\n" is read like the others. Errors are InvalidArgument and name
// the line.
//
// Pure functions, safe from any thread, except ReadInputText on standard
// input.

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

// The path that stands for standard input.
inline constexpr std::string_view kStandardInput = "-";

// The whole of the file at `path`, or of standard input for "-".
absl::StatusOr<std::string> ReadInputText(const std::string& path);

// How messages name `path`: "standard input" for "-".
std::string InputName(const std::string& path);

// `build`'s input: every line must hold exactly one tab, so an empty line is
// an error.
absl::StatusOr<std::vector<InputEntry>> ParseInput(std::string_view text,
                                                   InputFormat format);

// `get --key_file`'s input: one key per line, in order (an empty line is the
// empty key).
absl::StatusOr<std::vector<std::string>> ParseKeyLines(std::string_view text,
                                                       InputFormat format);

// Sorts `*entries` by key in `comparator`'s order. InvalidArgument naming
// both lines if two entries have the same key.
absl::Status SortInput(const Comparator* comparator,
                       std::vector<InputEntry>* entries);

}  // namespace tool
}  // namespace bloomtable

#endif  // BLOOMTABLE_TOOLS_BUILD_INPUT_H_
