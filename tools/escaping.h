// Text forms of binary keys and values for the bloomtable tool.
//
// Escaped form (what `scan` and `get` print by default, and what
// `build --input_format tsv` reads back): bytes 0x20-0x7e stand for
// themselves except the backslash, which is written `\\`; every other byte is
// written `\xNN` with two lowercase hexadecimal digits. The escaped form of any
// byte string therefore contains no tab, newline or carriage return, and
// UnescapeBytes(EscapeBytes(s)) == s for every s.
//
// Hex form (`--hex`): two lowercase hexadecimal digits per byte; either case
// is accepted when reading.
//
// Pure functions, safe from any thread.

#ifndef BLOOMTABLE_TOOLS_ESCAPING_H_
#define BLOOMTABLE_TOOLS_ESCAPING_H_

#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace bloomtable {
namespace tool {

std::string EscapeBytes(std::string_view bytes);

// Reverses EscapeBytes. Other bytes (a raw UTF-8 sequence, a control
// character other than tab and newline) are taken as they are. InvalidArgument
// for a backslash followed by anything but `\` or `x` and two hex digits.
absl::StatusOr<std::string> UnescapeBytes(std::string_view text);

std::string HexEncode(std::string_view bytes);

// InvalidArgument for an odd number of digits or a non-hex character.
absl::StatusOr<std::string> HexDecode(std::string_view hex);

}  // namespace tool
}  // namespace bloomtable

#endif  // BLOOMTABLE_TOOLS_ESCAPING_H_
