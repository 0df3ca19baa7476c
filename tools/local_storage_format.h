// The tool's --local_storage forms of a Chrome Local Storage entry
// (bloomtable/local_storage.h): an item as origin, key and value decoded
// to text; other keys as they are.

#ifndef BLOOMTABLE_TOOLS_LOCAL_STORAGE_FORMAT_H_
#define BLOOMTABLE_TOOLS_LOCAL_STORAGE_FORMAT_H_

#include <string>
#include <string_view>

#include "nlohmann/json.hpp"

namespace bloomtable {
namespace tool {

// The text line (without its newline): for an item whose strings decode,
// "origin TAB key TAB value", each in the escaped form but with UTF-8
// sequences kept as they are; for any other entry "key TAB value" escaped
// as scan prints them.
std::string LocalStorageLine(std::string_view key, std::string_view value);

// What the entry is, for --json's "local_storage" field: {"kind": "item",
// "origin", "key", "value"} (strings; "error" instead if one does not
// decode), {"kind": "meta" or "meta_access", "origin"}, {"kind":
// "version"} or {"kind": "other"}. A lone surrogate's WTF-8 sequence is
// not UTF-8: the document shows it as U+FFFD (the entry's "key" and
// "value" fields keep every byte).
nlohmann::json LocalStorageJson(std::string_view key, std::string_view value);

}  // namespace tool
}  // namespace bloomtable

#endif  // BLOOMTABLE_TOOLS_LOCAL_STORAGE_FORMAT_H_
