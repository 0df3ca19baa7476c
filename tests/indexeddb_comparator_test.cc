// IndexedDBComparator ("idb_cmp1"): Chromium's IndexedDB key order on keys
// built here byte by byte, what it does with a key it cannot decode, and
// how Database surfaces that (DataLoss naming the key; InvalidArgument for
// a key the caller gives). tests/indexeddb_order_test.cc checks the order
// against a real Chromium's cursors.

#include "bloomtable/indexeddb_comparator.h"

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "bloomtable/database.h"
#include "gtest/gtest.h"
#include "tests/log_only_database.h"
#include "tests/temp_dir.h"
#include "util/comparison_errors.h"
#include "util/string_util.h"

namespace bloomtable {
namespace {

// Chromium's prefix: a byte of lengths, then the ids little-endian in
// their fewest bytes.
std::string Prefix(uint64_t db, uint64_t store, uint64_t index) {
  auto bytes = [](uint64_t v) {
    std::string out;
    do {
      out.push_back(static_cast<char>(v & 0xff));
      v >>= 8;
    } while (v != 0);
    return out;
  };
  const std::string d = bytes(db), s = bytes(store), i = bytes(index);
  std::string key(1, static_cast<char>(((d.size() - 1) << 5) |
                                       ((s.size() - 1) << 2) | (i.size() - 1)));
  return key + d + s + i;
}

std::string Varint(uint64_t v) {
  std::string out;
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
  return out;
}

std::string Number(double d, char type = 3) {
  uint64_t bits;
  std::memcpy(&bits, &d, 8);
  std::string out(1, type);
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>(bits >> (8 * i)));
  return out;
}
std::string Date(double ms) { return Number(ms, 2); }
std::string String(std::u16string s) {
  std::string out = "\x01" + Varint(s.size());
  for (char16_t c : s) {
    out.push_back(static_cast<char>(c >> 8));
    out.push_back(static_cast<char>(c & 0xff));
  }
  return out;
}
std::string Binary(std::string b) { return "\x06" + Varint(b.size()) + b; }
std::string Array(const std::vector<std::string>& items) {
  std::string out = "\x04" + Varint(items.size());
  for (const std::string& item : items) out += item;
  return out;
}
const std::string kMinKey("\x05", 1);
const std::string kMaxKey("\x00", 1);

std::string Record(const std::string& key, uint64_t store = 1) {
  return Prefix(1, store, 1) + key;
}

int Compare(const std::string& a, const std::string& b) {
  return IndexedDBComparator()->Compare(a, b);
}

TEST(IndexedDBComparator, IsNamedAsChromiumNamesIt) {
  EXPECT_EQ(IndexedDBComparator()->Name(), "idb_cmp1");
}

TEST(IndexedDBComparator, OrdersKeyTypesAsIndexedDBDoes) {
  // min < numbers < dates < strings < binary < arrays < the max key.
  const std::vector<std::string> ascending = {
      kMinKey,
      Number(-INFINITY),
      Number(-1.5),
      Number(0),
      Number(2),
      Number(1e300),
      Number(INFINITY),
      Date(-5),
      Date(0),
      Date(1e12),
      String(u""),
      String(std::u16string(1, u'\0')),
      String(u"A"),
      String(u"a"),
      String(u"aa"),
      String(u"b"),
      String(u"\xd800\xdc00"),  // U+10000 sorts before U+FFFF in UTF-16
      String(u"\xffff"),
      Binary(""),
      Binary(std::string(1, '\0')),
      Binary("\x01"),
      Binary("\x80"),
      Binary("\xff"),
      Array({}),
      Array({Number(1)}),
      Array({Number(1), Number(0)}),
      Array({Number(2)}),
      Array({String(u"a")}),
      Array({Array({})}),
      kMaxKey};
  for (size_t i = 0; i < ascending.size(); ++i) {
    for (size_t j = 0; j < ascending.size(); ++j) {
      const int order = Compare(Record(ascending[i]), Record(ascending[j]));
      EXPECT_EQ(order < 0, i < j) << i << " " << j;
      EXPECT_EQ(order == 0, i == j) << i << " " << j;
    }
  }
}

TEST(IndexedDBComparator, NegativeZeroEqualsZero) {
  EXPECT_EQ(Compare(Record(Number(-0.0)), Record(Number(0.0))), 0);
}

TEST(IndexedDBComparator, PrefixIdsOrderAsIntegersNotBytes) {
  // Object store 300 takes two bytes, which the lengths byte says: by
  // bytes, database 2's prefix (lengths byte 0) would sort first.
  EXPECT_LT(Compare(Prefix(1, 300, 1) + Number(9), Prefix(2, 1, 1) + Number(0)),
            0);
  // Global metadata, then a database's metadata, then its object stores'
  // records, exists entries, blob entries and index entries.
  const std::vector<std::string> ascending = {
      Prefix(0, 0, 0) + std::string(1, '\0'),
      Prefix(0, 0, 0) + "\x01",
      Prefix(0, 0, 0) + "\x64" + Varint(3),
      Prefix(0, 0, 0) + "\xc9" + String(u"o").substr(1) +
          String(u"a").substr(1),
      Prefix(0, 0, 0) + "\xc9" + String(u"o").substr(1) +
          String(u"b").substr(1),
      Prefix(1, 0, 0) + std::string(1, '\0'),
      Prefix(1, 0, 0) + "\x32" + Varint(1) + std::string(1, '\0'),
      Prefix(1, 0, 0) + "\x32" + Varint(1) + "\x07",
      Prefix(1, 0, 0) + "\x32" + Varint(200) + std::string(1, '\0'),
      Prefix(1, 0, 0) + "\x64" + Varint(1) + Varint(30) + "\x01",
      Prefix(1, 0, 0) + "\xc8" + String(u"store").substr(1),
      Prefix(1, 0, 0) + "\xc9" + Varint(1) + String(u"index").substr(1),
      Prefix(1, 1, 1),
      Prefix(1, 1, 1) + Number(1),
      Prefix(1, 1, 2) + Number(1),
      Prefix(1, 1, 3) + Number(1),
      Prefix(1, 1, 30) + Number(1) + Varint(0) + String(u"a"),
      Prefix(1, 1, 30) + Number(1) + Varint(0) + String(u"b"),
      Prefix(1, 1, 30) + Number(2) + Varint(0) + String(u"a"),
  };
  for (size_t i = 0; i + 1 < ascending.size(); ++i) {
    EXPECT_LT(Compare(ascending[i], ascending[i + 1]), 0) << i;
    EXPECT_GT(Compare(ascending[i + 1], ascending[i]), 0) << i;
  }
}

TEST(IndexedDBComparator, AnUndecodableKeyIsReportedAndOrderedByItsBytes) {
  const std::vector<std::string> bad = {
      "",                                   // no prefix
      std::string("\xe0\x01", 2),           // ids cut short
      Prefix(1, 1, 1) + "\x07",             // unknown key type
      Prefix(1, 1, 1) + "\x01\x05" + "ab",  // string past the end
      Prefix(1, 1, 1) + "\x03\x00\x00",     // number cut short
      Prefix(1, 1, 1) + "\x04\xff",         // array length malformed
      Prefix(1, 1, 5) + Number(1),          // index id 5
      Prefix(0, 0, 0) + "\x09",             // unknown global metadata
      Prefix(1, 0, 0) + "\x07",             // unknown database metadata
      Prefix(1, 0, 0),                      // metadata without a type
  };
  for (const std::string& key : bad) {
    ComparisonErrorScope errors;
    const int order = Compare(key, key + "x");
    EXPECT_TRUE(errors.failed()) << absl::CHexEscape(ToAbsl(key));
    EXPECT_LT(order, 0) << absl::CHexEscape(ToAbsl(key));  // the bytes' order
    EXPECT_TRUE(absl::IsDataLoss(errors.status()));
  }
  // Deeply nested arrays are refused, not recursed into.
  std::string deep = Prefix(1, 1, 1);
  for (int i = 0; i < 5000; ++i) deep += "\x04\x01";
  ComparisonErrorScope errors;
  Compare(deep, deep);
  EXPECT_TRUE(errors.failed());
  EXPECT_NE(errors.status().message().find("nest deeper"), std::string::npos);
}

TEST(IndexedDBComparator, NamesTheKeyAtFault) {
  const std::string good = Record(Number(1));
  const std::string bad = Prefix(1, 1, 1) + "\x07zz";
  ComparisonErrorScope errors;
  Compare(good, bad);
  ASSERT_TRUE(errors.failed());
  EXPECT_NE(errors.status().message().find("\\x07zz"), std::string::npos)
      << errors.status();
  EXPECT_NE(errors.status().message().find("unknown type byte"),
            std::string::npos)
      << errors.status();
}

TEST(IndexedDBComparator, WithoutAScopeAReportGoesNowhere) {
  EXPECT_NE(Compare("", "x"), 0);  // does not crash, still ordered
}

// A database of comparator idb_cmp1 whose log holds `keys`.
void WriteDatabase(const std::string& dir,
                   const std::vector<std::string>& keys) {
  std::vector<std::pair<std::string, std::string>> entries;
  for (const std::string& key : keys) entries.emplace_back(key, "v");
  test::WriteLogOnlyDatabase(dir, "idb_cmp1", entries);
}

TEST(IndexedDBComparator, ADatabaseWithAnUndecodableKeyFailsReadsNamingIt) {
  TempDir dir;
  const std::string bad = Prefix(1, 1, 1) + "\x07" + "broken";
  WriteDatabase(dir.path(), {Record(Number(1)), Record(Number(2)), bad});
  absl::StatusOr<std::unique_ptr<Database>> db =
      Database::OpenReadOnly(dir.path());
  ASSERT_TRUE(db.ok()) << db.status();
  // Sorting the log's records met it: a warning names it.
  ASSERT_FALSE((*db)->warnings().empty());
  EXPECT_NE((*db)->warnings().back().find("broken"), std::string::npos);

  std::unique_ptr<Iterator> it = (*db)->NewIterator({});
  int seen = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next()) ++seen;
  EXPECT_TRUE(absl::IsDataLoss(it->status())) << it->status();
  EXPECT_NE(it->status().message().find("broken"), std::string::npos)
      << it->status();
  EXPECT_LT(seen, 3);

  // A good key whose lookup meets the bad one: DataLoss naming it.
  absl::StatusOr<std::string> got = (*db)->Get({}, Record(Number(3)));
  EXPECT_TRUE(absl::IsDataLoss(got.status())) << got.status();
  // A key the caller gives that is no IndexedDB key: InvalidArgument.
  got = (*db)->Get({}, "plain text");
  EXPECT_TRUE(absl::IsInvalidArgument(got.status())) << got.status();
  EXPECT_NE(got.status().message().find("idb_cmp1"), std::string::npos);
}

TEST(IndexedDBComparator, ADatabaseOfGoodKeysReadsInOrder) {
  TempDir dir;
  WriteDatabase(dir.path(), {Record(String(u"b")), Record(Number(10)),
                             Record(Number(9)), Record(Array({}))});
  absl::StatusOr<std::unique_ptr<Database>> db =
      Database::OpenReadOnly(dir.path());
  ASSERT_TRUE(db.ok()) << db.status();
  EXPECT_TRUE((*db)->warnings().empty());
  std::vector<std::string> keys;
  std::unique_ptr<Iterator> it = (*db)->NewIterator({});
  for (it->SeekToFirst(); it->Valid(); it->Next()) keys.emplace_back(it->key());
  ASSERT_TRUE(it->status().ok()) << it->status();
  EXPECT_EQ(keys, (std::vector<std::string>{
                      Record(Number(9)), Record(Number(10)),
                      Record(String(u"b")), Record(Array({}))}));
  EXPECT_EQ(*(*db)->Get({}, Record(Number(10))), "v");
}

}  // namespace
}  // namespace bloomtable
