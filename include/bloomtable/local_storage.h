// Chrome's Local Storage (window.localStorage) is kept in a LevelDB
// database, a profile's "Local Storage/leveldb" directory (Chrome, Edge,
// Electron apps). Its keys are:
//
//   _<origin>\0<string>   an item of that origin; the value is a <string>
//   META:<origin>         the origin's metadata (a protocol buffer)
//   METAACCESS:<origin>   its last access (a protocol buffer)
//   VERSION               the schema version, "1"
//
// where <string> starts with one byte saying its encoding: 0 = UTF-16LE
// (two bytes per code unit), 1 = Latin-1 (one byte per character). These
// functions decode them; they are pure and thread-safe.

#ifndef BLOOMTABLE_INCLUDE_BLOOMTABLE_LOCAL_STORAGE_H_
#define BLOOMTABLE_INCLUDE_BLOOMTABLE_LOCAL_STORAGE_H_

#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace bloomtable {

enum class LocalStorageKeyKind {
  kItem,        // _<origin>\0<string>
  kMeta,        // META:<origin>
  kMetaAccess,  // METAACCESS:<origin>
  kVersion,     // VERSION
  kOther,       // none of these
};

struct LocalStorageKey {
  LocalStorageKeyKind kind = LocalStorageKeyKind::kOther;
  std::string origin;  // kItem, kMeta, kMetaAccess: as stored
  std::string key;     // kItem: the item's key, UTF-8 (see below)
};

// What a key is. kOther (not an error) for a key of none of the shapes
// above; DataLoss for an item key whose string does not decode.
absl::StatusOr<LocalStorageKey> ParseLocalStorageKey(std::string_view key);

// Decodes a <string> (an item's value, or the key part of an item's key)
// into UTF-8. JavaScript strings may hold lone surrogates, which UTF-8
// cannot: each is written as its 3-byte sequence (WTF-8), so that nothing
// is lost. DataLoss for an empty string, an unknown encoding byte or
// UTF-16 of an odd length.
absl::StatusOr<std::string> DecodeLocalStorageString(std::string_view encoded);

}  // namespace bloomtable

#endif  // BLOOMTABLE_INCLUDE_BLOOMTABLE_LOCAL_STORAGE_H_
