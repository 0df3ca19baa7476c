// The order of a real Chromium IndexedDB database: tests/data/indexeddb/
// holds a directory that a headless Chromium wrote (page.html in
// tests/data/generators/indexeddb/: keys of every IndexedDB key type in
// several object stores and indexes, overwrites and deletions, a table and
// a live log) and the order its own cursors returned. The view's scan, in
// the built-in "idb_cmp1" order, must list every object store and index in
// exactly that order, and Get must find every record. No browser is
// needed here.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "bloomtable/database.h"
#include "bloomtable/indexeddb_comparator.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "util/string_util.h"

namespace bloomtable {
namespace {

const std::string kDir =
    absl::StrCat(BLOOMTABLE_TEST_DATA_DIR, "/indexeddb/chromium_idb");
const std::string kOrder = absl::StrCat(BLOOMTABLE_TEST_DATA_DIR,
                                        "/indexeddb/chromium_idb.order.json");

// Chromium stores ids (the values of name keys) as little-endian integers
// of their fewest bytes, versions as varints.
// A small reader of the test's own: enough of the key layout to name
// what each key is (docs/FORMAT.md, "IndexedDB keys").
struct Reader {
  std::string_view in;
  bool ok = true;

  uint8_t Byte() {
    if (in.empty()) {
      ok = false;
      return 0;
    }
    const uint8_t b = static_cast<uint8_t>(in.front());
    in.remove_prefix(1);
    return b;
  }
  uint64_t Varint() {
    uint64_t value = 0;
    for (int shift = 0; ok && shift < 64; shift += 7) {
      const uint8_t b = Byte();
      value |= static_cast<uint64_t>(b & 0x7f) << shift;
      if ((b & 0x80) == 0) return value;
    }
    ok = false;
    return 0;
  }
  std::string_view Bytes(size_t n) {
    if (in.size() < n) {
      ok = false;
      return {};
    }
    std::string_view out = in.substr(0, n);
    in.remove_prefix(n);
    return out;
  }
  uint64_t LittleEndian(size_t n) {
    std::string_view b = Bytes(n);
    uint64_t value = 0;
    for (size_t i = 0; i < b.size(); ++i) {
      value |= static_cast<uint64_t>(static_cast<uint8_t>(b[i])) << (8 * i);
    }
    return value;
  }
  std::tuple<uint64_t, uint64_t, uint64_t> Prefix() {
    const uint8_t lengths = Byte();
    const uint64_t db = LittleEndian(((lengths >> 5) & 7) + 1);
    const uint64_t os = LittleEndian(((lengths >> 2) & 7) + 1);
    const uint64_t index = LittleEndian((lengths & 3) + 1);
    return {db, os, index};
  }
  // UTF-16BE code units with a varint count, as hex of each unit.
  std::string String() {
    const uint64_t units = Varint();
    std::string_view b = Bytes(units * 2);
    std::vector<std::string> out;
    for (size_t i = 0; i + 1 < b.size(); i += 2) {
      out.push_back(absl::StrFormat(
          "%04x",
          (static_cast<uint8_t>(b[i]) << 8) | static_cast<uint8_t>(b[i + 1])));
    }
    return absl::StrJoin(out, " ");
  }
  // An encoded IndexedDB key, described as Describe() describes the JSON.
  std::string Key() {
    const uint8_t type = Byte();
    switch (type) {
      case 1:
        return absl::StrCat("string(", String(), ")");
      case 2:
      case 3: {
        const uint64_t bits = LittleEndian(8);
        double d;
        std::memcpy(&d, &bits, 8);
        return absl::StrCat(type == 2 ? "date(" : "number(", Number(d), ")");
      }
      case 4: {
        const uint64_t n = Varint();
        std::vector<std::string> items;
        for (uint64_t i = 0; ok && i < n; ++i) items.push_back(Key());
        return absl::StrCat("array(", absl::StrJoin(items, ", "), ")");
      }
      case 6:
        return absl::StrCat(
            "binary(", absl::BytesToHexString(ToAbsl(Bytes(Varint()))), ")");
      default:
        ok = false;
        return absl::StrCat("type ", type);
    }
  }
  static std::string Number(double d) {
    if (std::isinf(d)) return d > 0 ? "Infinity" : "-Infinity";
    if (d == 0 && std::signbit(d)) return "-0";
    return absl::StrFormat("%.17g", d);
  }
};

std::string Describe(const nlohmann::json& key) {
  const std::string type = key.at("type");
  const nlohmann::json& value = key.at("value");
  if (type == "number" || type == "date") {
    std::string number;
    if (value.is_string()) {
      number = value.get<std::string>();
    } else {
      number = Reader::Number(value.get<double>());
    }
    return absl::StrCat(type, "(", number, ")");
  }
  if (type == "string") {
    std::vector<std::string> units;
    for (const nlohmann::json& unit : value) {
      units.push_back(absl::StrFormat("%04x", unit.get<int>()));
    }
    return absl::StrCat("string(", absl::StrJoin(units, " "), ")");
  }
  if (type == "binary")
    return absl::StrCat("binary(", value.get<std::string>(), ")");
  std::vector<std::string> items;
  for (const nlohmann::json& item : value) items.push_back(Describe(item));
  return absl::StrCat("array(", absl::StrJoin(items, ", "), ")");
}

// What the scan finds, per object store and index.
struct Listing {
  // (database name, object store name) -> (database id, object store id).
  std::map<std::pair<std::string, std::string>, std::pair<uint64_t, uint64_t>>
      stores;
  // (database id, object store id, index name) -> index id.
  std::map<std::tuple<uint64_t, uint64_t, std::string>, uint64_t> indexes;
  // (database id, object store id) -> primary keys in scan order, with the
  // version each record's exists entry carries.
  std::map<std::pair<uint64_t, uint64_t>, std::vector<std::string>> records;
  std::map<std::pair<uint64_t, uint64_t>, std::map<std::string, uint64_t>>
      versions;
  // (database id, object store id, index id) -> (index key, primary key,
  // version) in scan order.
  std::map<std::tuple<uint64_t, uint64_t, uint64_t>,
           std::vector<std::tuple<std::string, std::string, uint64_t>>>
      index_entries;
  // Every record's raw key, for Get.
  std::vector<std::pair<std::string, std::string>> raw;
};

std::string Utf16Name(std::string_view hex_units) {
  // Names in this test are ASCII: the hex of each unit's low byte.
  std::string name;
  for (size_t i = 0; i + 4 <= hex_units.size(); i += 5) {
    name.push_back(static_cast<char>(
        std::stoi(std::string(hex_units.substr(i + 2, 2)), nullptr, 16)));
  }
  return name;
}

// An ASCII name stored as UTF-16BE.
std::string Utf16Value(std::string_view bytes) {
  std::string name;
  for (size_t i = 1; i < bytes.size(); i += 2) name.push_back(bytes[i]);
  return name;
}

Listing Scan(const Database& db) {
  Listing listing;
  std::map<uint64_t, std::string> database_names;
  std::unique_ptr<Iterator> it = db.NewIterator({});
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    Reader key{it->key()};
    Reader value{it->value()};
    auto [db_id, os_id, index_id] = key.Prefix();
    if (db_id == 0 && os_id == 0 && index_id == 0) {
      if (key.Byte() == 201) {  // database name -> id
        key.String();           // origin
        database_names[value.LittleEndian(value.in.size())] =
            Utf16Name(key.String());
      }
    } else if (os_id == 0) {
      // An object store's and an index's metadata of type 0 is its name
      // (UTF-16BE, the whole value).
      const uint8_t type = key.Byte();
      if (type == 50) {
        const uint64_t store = key.Varint();
        if (key.Byte() == 0) {
          listing.stores[{database_names.at(db_id), Utf16Value(value.in)}] = {
              db_id, store};
        }
      } else if (type == 100) {
        const uint64_t store = key.Varint();
        const uint64_t index = key.Varint();
        if (key.Byte() == 0) {
          listing.indexes[{db_id, store, Utf16Value(value.in)}] = index;
        }
      }
    } else if (index_id == 1) {
      listing.records[{db_id, os_id}].push_back(key.Key());
      listing.raw.emplace_back(std::string(it->key()),
                               std::string(it->value()));
    } else if (index_id == 2) {
      listing.versions[{db_id, os_id}][key.Key()] = value.Varint();
    } else if (index_id >= 30) {
      std::string index_key = key.Key();
      key.Varint();  // the obsolete sequence number
      std::string primary = key.Key();
      listing.index_entries[{db_id, os_id, index_id}].emplace_back(
          index_key, primary, value.Varint());
    }
    EXPECT_TRUE(key.ok) << absl::CHexEscape(ToAbsl(it->key()));
  }
  EXPECT_TRUE(it->status().ok()) << it->status();
  return listing;
}

nlohmann::json ReadOrder() {
  std::ifstream in(kOrder);
  std::stringstream text;
  text << in.rdbuf();
  return nlohmann::json::parse(text.str());
}

TEST(IndexedDBOrder, OpensWithTheBuiltInComparator) {
  absl::StatusOr<std::unique_ptr<Database>> db = Database::OpenReadOnly(kDir);
  ASSERT_TRUE(db.ok()) << db.status();
  EXPECT_EQ((*db)->comparator_name(), "idb_cmp1");
  EXPECT_TRUE((*db)->ordered());
  // The fixture holds a table and a live log.
  EXPECT_EQ((*db)->tables().size(), 1u);
  EXPECT_EQ((*db)->logs().size(), 1u);
  EXPECT_TRUE((*db)->warnings().empty());
}

TEST(IndexedDBOrder, EveryObjectStoreAndIndexScansInChromiumsCursorOrder) {
  absl::StatusOr<std::unique_ptr<Database>> db = Database::OpenReadOnly(kDir);
  ASSERT_TRUE(db.ok()) << db.status();
  const Listing listing = Scan(**db);
  const nlohmann::json order = ReadOrder();
  size_t stores = 0;
  size_t indexes = 0;
  size_t entries = 0;
  for (const nlohmann::json& database : order.at("databases")) {
    const std::string db_name = database.at("name");
    for (const nlohmann::json& store : database.at("objectStores")) {
      const std::string store_name = store.at("name");
      SCOPED_TRACE(absl::StrCat(db_name, "/", store_name));
      ASSERT_EQ(listing.stores.count({db_name, store_name}), 1u);
      const auto ids = listing.stores.at({db_name, store_name});
      std::vector<std::string> expected;
      for (const nlohmann::json& entry : store.at("order")) {
        expected.push_back(Describe(entry.at("key")));
      }
      EXPECT_EQ(listing.records.at(ids), expected);
      entries += expected.size();
      ++stores;
      const std::map<std::string, uint64_t>& live = listing.versions.at(ids);
      for (const nlohmann::json& index : store.at("indexes")) {
        const std::string index_name = index.at("name");
        SCOPED_TRACE(index_name);
        const uint64_t index_id =
            listing.indexes.at({ids.first, ids.second, index_name});
        // Chromium leaves an overwritten or deleted record's index entries
        // behind and its cursors skip them: an entry counts if its version
        // is the one its record's exists entry holds.
        std::vector<std::string> found;
        for (const auto& [key, primary, version] :
             listing.index_entries.at({ids.first, ids.second, index_id})) {
          auto it = live.find(primary);
          if (it != live.end() && it->second == version) {
            found.push_back(absl::StrCat(key, " -> ", primary));
          }
        }
        std::vector<std::string> cursor;
        for (const nlohmann::json& entry : index.at("order")) {
          cursor.push_back(absl::StrCat(Describe(entry.at("key")), " -> ",
                                        Describe(entry.at("primaryKey"))));
        }
        EXPECT_EQ(found, cursor);
        entries += cursor.size();
        ++indexes;
      }
    }
  }
  // What page.html writes: 4 object stores, 8 indexes.
  EXPECT_EQ(stores, 4u);
  EXPECT_EQ(indexes, 8u);
  EXPECT_GT(entries, 900u);
}

TEST(IndexedDBOrder, ReverseScanIsTheForwardScanReversed) {
  absl::StatusOr<std::unique_ptr<Database>> db = Database::OpenReadOnly(kDir);
  ASSERT_TRUE(db.ok()) << db.status();
  std::vector<std::string> forward;
  std::unique_ptr<Iterator> it = (*db)->NewIterator({});
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    forward.emplace_back(it->key());
  }
  ASSERT_TRUE(it->status().ok()) << it->status();
  std::vector<std::string> backward;
  for (it->SeekToLast(); it->Valid(); it->Prev()) {
    backward.emplace_back(it->key());
  }
  ASSERT_TRUE(it->status().ok()) << it->status();
  std::reverse(backward.begin(), backward.end());
  EXPECT_EQ(forward, backward);
  EXPECT_GT(forward.size(), 1000u);
}

TEST(IndexedDBOrder, GetFindsEveryRecordAndSeekLandsOnIt) {
  absl::StatusOr<std::unique_ptr<Database>> db = Database::OpenReadOnly(kDir);
  ASSERT_TRUE(db.ok()) << db.status();
  const Listing listing = Scan(**db);
  ASSERT_GT(listing.raw.size(), 300u);
  std::unique_ptr<Iterator> it = (*db)->NewIterator({});
  for (const auto& [key, value] : listing.raw) {
    absl::StatusOr<std::string> got = (*db)->Get({}, key);
    ASSERT_TRUE(got.ok()) << got.status() << " "
                          << absl::CHexEscape(ToAbsl(key));
    EXPECT_EQ(*got, value);
    it->Seek(key);
    ASSERT_TRUE(it->Valid());
    EXPECT_EQ(it->key(), key);
  }
}

TEST(IndexedDBOrder, AComparatorOfAnotherNameIsRefused) {
  DatabaseOptions options;
  options.comparator = BytewiseComparator();
  absl::StatusOr<std::unique_ptr<Database>> db =
      Database::OpenReadOnly(kDir, options);
  ASSERT_TRUE(absl::IsInvalidArgument(db.status())) << db.status();
  EXPECT_NE(db.status().message().find("'idb_cmp1', not "
                                       "'leveldb.BytewiseComparator'"),
            std::string::npos)
      << db.status();
  options.comparator = IndexedDBComparator();
  EXPECT_TRUE(Database::OpenReadOnly(kDir, options).ok());
}

}  // namespace
}  // namespace bloomtable
