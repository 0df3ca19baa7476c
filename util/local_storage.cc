#include "bloomtable/local_storage.h"

#include <cstdint>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"

namespace bloomtable {
namespace {

constexpr uint8_t kUtf16LittleEndian = 0;
constexpr uint8_t kLatin1 = 1;

// Appends the code point `c` (up to U+10FFFF; a lone surrogate too) in
// UTF-8's byte layout.
void AppendUtf8(uint32_t c, std::string* out) {
  if (c < 0x80) {
    out->push_back(static_cast<char>(c));
  } else if (c < 0x800) {
    out->push_back(static_cast<char>(0xc0 | (c >> 6)));
    out->push_back(static_cast<char>(0x80 | (c & 0x3f)));
  } else if (c < 0x10000) {
    out->push_back(static_cast<char>(0xe0 | (c >> 12)));
    out->push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3f)));
    out->push_back(static_cast<char>(0x80 | (c & 0x3f)));
  } else {
    out->push_back(static_cast<char>(0xf0 | (c >> 18)));
    out->push_back(static_cast<char>(0x80 | ((c >> 12) & 0x3f)));
    out->push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3f)));
    out->push_back(static_cast<char>(0x80 | (c & 0x3f)));
  }
}

bool IsHighSurrogate(uint32_t unit) { return unit >= 0xd800 && unit < 0xdc00; }
bool IsLowSurrogate(uint32_t unit) { return unit >= 0xdc00 && unit < 0xe000; }

bool StartsWith(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

}  // namespace

absl::StatusOr<std::string> DecodeLocalStorageString(std::string_view encoded) {
  if (encoded.empty()) {
    return absl::DataLossError(
        "an empty Local Storage string (no encoding byte)");
  }
  const uint8_t encoding = static_cast<uint8_t>(encoded.front());
  const std::string_view bytes = encoded.substr(1);
  std::string out;
  if (encoding == kLatin1) {
    out.reserve(bytes.size());
    for (char c : bytes) AppendUtf8(static_cast<uint8_t>(c), &out);
    return out;
  }
  if (encoding != kUtf16LittleEndian) {
    return absl::DataLossError(
        absl::StrCat("unknown Local Storage string encoding byte ", encoding,
                     " (0 is UTF-16LE, 1 is Latin-1)"));
  }
  if (bytes.size() % 2 != 0) {
    return absl::DataLossError(
        absl::StrCat("a UTF-16 Local Storage string of an odd length (",
                     bytes.size(), " bytes)"));
  }
  out.reserve(bytes.size());
  const size_t units = bytes.size() / 2;
  auto unit_at = [&bytes](size_t i) {
    return static_cast<uint32_t>(static_cast<uint8_t>(bytes[2 * i])) |
           (static_cast<uint32_t>(static_cast<uint8_t>(bytes[2 * i + 1])) << 8);
  };
  for (size_t i = 0; i < units; ++i) {
    const uint32_t unit = unit_at(i);
    if (IsHighSurrogate(unit) && i + 1 < units &&
        IsLowSurrogate(unit_at(i + 1))) {
      const uint32_t low = unit_at(++i);
      AppendUtf8(0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00), &out);
    } else {
      AppendUtf8(unit, &out);
    }
  }
  return out;
}

absl::StatusOr<LocalStorageKey> ParseLocalStorageKey(std::string_view key) {
  LocalStorageKey parsed;
  if (key == "VERSION") {
    parsed.kind = LocalStorageKeyKind::kVersion;
    return parsed;
  }
  for (const auto& [prefix, kind] :
       {std::pair<std::string_view, LocalStorageKeyKind>{
            "METAACCESS:", LocalStorageKeyKind::kMetaAccess},
        {"META:", LocalStorageKeyKind::kMeta}}) {
    if (StartsWith(key, prefix)) {
      parsed.kind = kind;
      parsed.origin.assign(key.substr(prefix.size()));
      return parsed;
    }
  }
  const size_t separator = key.find('\0');
  if (!StartsWith(key, "_") || separator == std::string_view::npos) {
    return parsed;  // kOther
  }
  absl::StatusOr<std::string> item_key =
      DecodeLocalStorageString(key.substr(separator + 1));
  if (!item_key.ok()) {
    return absl::DataLossError(
        absl::StrCat("the item key's string: ", item_key.status().message()));
  }
  parsed.kind = LocalStorageKeyKind::kItem;
  parsed.origin.assign(key.substr(1, separator - 1));
  parsed.key = *std::move(item_key);
  return parsed;
}

}  // namespace bloomtable
