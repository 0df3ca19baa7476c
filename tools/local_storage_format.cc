#include "tools/local_storage_format.h"

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "bloomtable/local_storage.h"
#include "tools/escaping.h"

namespace bloomtable {
namespace tool {
namespace {

// The escaped form, except that bytes of 0x80 and above (decoded text's
// UTF-8) stand for themselves.
std::string EscapeText(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte == '\\') {
      out += "\\\\";
    } else if (byte >= 0x20 && byte != 0x7f) {
      out.push_back(c);
    } else {
      absl::StrAppendFormat(&out, "\\x%02x", byte);
    }
  }
  return out;
}

struct DecodedItem {
  LocalStorageKey key;
  std::string value;
};

absl::StatusOr<DecodedItem> DecodeItem(std::string_view key,
                                       std::string_view value) {
  absl::StatusOr<LocalStorageKey> parsed = ParseLocalStorageKey(key);
  if (!parsed.ok()) return parsed.status();
  DecodedItem item;
  item.key = *std::move(parsed);
  if (item.key.kind != LocalStorageKeyKind::kItem) return item;
  absl::StatusOr<std::string> decoded = DecodeLocalStorageString(value);
  if (!decoded.ok()) {
    return absl::DataLossError(
        absl::StrCat("the value's string: ", decoded.status().message()));
  }
  item.value = *std::move(decoded);
  return item;
}

}  // namespace

std::string LocalStorageLine(std::string_view key, std::string_view value) {
  absl::StatusOr<DecodedItem> item = DecodeItem(key, value);
  if (!item.ok() || item->key.kind != LocalStorageKeyKind::kItem) {
    return absl::StrCat(EscapeBytes(key), "\t", EscapeBytes(value));
  }
  return absl::StrCat(EscapeText(item->key.origin), "\t",
                      EscapeText(item->key.key), "\t", EscapeText(item->value));
}

nlohmann::json LocalStorageJson(std::string_view key, std::string_view value) {
  absl::StatusOr<DecodedItem> item = DecodeItem(key, value);
  if (!item.ok()) {
    return {{"kind", "item"}, {"error", std::string(item.status().message())}};
  }
  switch (item->key.kind) {
    case LocalStorageKeyKind::kItem:
      return {{"kind", "item"},
              {"origin", item->key.origin},
              {"key", item->key.key},
              {"value", item->value}};
    case LocalStorageKeyKind::kMeta:
      return {{"kind", "meta"}, {"origin", item->key.origin}};
    case LocalStorageKeyKind::kMetaAccess:
      return {{"kind", "meta_access"}, {"origin", item->key.origin}};
    case LocalStorageKeyKind::kVersion:
      return {{"kind", "version"}};
    case LocalStorageKeyKind::kOther:
      break;
  }
  return {{"kind", "other"}};
}

}  // namespace tool
}  // namespace bloomtable
