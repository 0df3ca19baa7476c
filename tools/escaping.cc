#include "tools/escaping.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace bloomtable {
namespace tool {
namespace {

constexpr char kLowerHexDigits[] = "0123456789abcdef";

// The value of a hex digit, or -1.
int HexDigitValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

void AppendHexByte(unsigned char byte, std::string* dst) {
  dst->push_back(kLowerHexDigits[byte >> 4]);
  dst->push_back(kLowerHexDigits[byte & 0x0f]);
}

}  // namespace

std::string EscapeBytes(std::string_view bytes) {
  std::string escaped;
  escaped.reserve(bytes.size());
  for (char c : bytes) {
    const unsigned char byte = static_cast<unsigned char>(c);
    if (byte == '\\') {
      escaped.append("\\\\");
    } else if (byte >= 0x20 && byte <= 0x7e) {  // printable ASCII
      escaped.push_back(c);
    } else {
      escaped.append("\\x");
      AppendHexByte(byte, &escaped);
    }
  }
  return escaped;
}

absl::StatusOr<std::string> UnescapeBytes(std::string_view text) {
  std::string bytes;
  bytes.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\\') {
      bytes.push_back(text[i]);
      continue;
    }
    if (i + 1 < text.size() && text[i + 1] == '\\') {
      bytes.push_back('\\');
      i += 1;
      continue;
    }
    if (i + 3 < text.size() && text[i + 1] == 'x') {
      const int high = HexDigitValue(text[i + 2]);
      const int low = HexDigitValue(text[i + 3]);
      if (high >= 0 && low >= 0) {
        bytes.push_back(static_cast<char>((high << 4) | low));
        i += 3;
        continue;
      }
    }
    return absl::InvalidArgumentError(absl::StrCat(
        "bad escape at column ", i + 1,
        ": a backslash must be followed by \\ or xNN (two hex digits)"));
  }
  return bytes;
}

std::string HexEncode(std::string_view bytes) {
  std::string hex;
  hex.reserve(2 * bytes.size());
  for (char c : bytes) AppendHexByte(static_cast<unsigned char>(c), &hex);
  return hex;
}

absl::StatusOr<std::string> HexDecode(std::string_view hex) {
  if (hex.size() % 2 != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("odd number of hex digits (", hex.size(), ")"));
  }
  std::string bytes;
  bytes.reserve(hex.size() / 2);
  for (size_t i = 0; i < hex.size(); i += 2) {
    const int high = HexDigitValue(hex[i]);
    const int low = HexDigitValue(hex[i + 1]);
    if (high < 0 || low < 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "not a hex digit at column ", (high < 0 ? i : i + 1) + 1));
    }
    bytes.push_back(static_cast<char>((high << 4) | low));
  }
  return bytes;
}

}  // namespace tool
}  // namespace bloomtable
