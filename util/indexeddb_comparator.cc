// Chromium's IndexedDB key order ("idb_cmp1"), from the layout that
// docs/FORMAT.md ("IndexedDB keys") describes:
//
//   key    := prefix suffix
//   prefix := lengths database_id object_store_id index_id
//             lengths: one byte, bits 7-5 = database_id bytes - 1,
//             bits 4-2 = object_store_id bytes - 1, bits 1-0 = index_id
//             bytes - 1; each id little-endian in that many bytes
//
// The prefix orders first (its three ids as integers); the suffix then
// depends on what the prefix says the key is: global metadata (database
// id 0), a database's metadata (object store id 0), an object store's
// record (index id 1), its exists entry (2) or blob entry (3), or an index
// entry (index id 30 and above).

#include "bloomtable/indexeddb_comparator.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "util/string_util.h"

namespace bloomtable {
namespace {

// The encoded IndexedDB key's type bytes.
constexpr uint8_t kNullType = 0;  // sorts after every key ("max key")
constexpr uint8_t kStringType = 1;
constexpr uint8_t kDateType = 2;
constexpr uint8_t kNumberType = 3;
constexpr uint8_t kArrayType = 4;
constexpr uint8_t kMinType = 5;  // sorts before every key
constexpr uint8_t kBinaryType = 6;

// Index ids of the records that are not index entries.
constexpr int64_t kObjectStoreDataIndex = 1;
constexpr int64_t kExistsEntryIndex = 2;
constexpr int64_t kBlobEntryIndex = 3;
constexpr int64_t kMinimumIndexId = 30;

// Global metadata type bytes: below 7, one key each (schema version, max
// database id, data version, blob journals, sweep and compaction times);
// 50 starts Chromium's "scopes" bookkeeping, ordered by its bytes.
constexpr uint8_t kFirstComplexGlobalType = 7;
constexpr uint8_t kScopesType = 50;
constexpr uint8_t kDatabaseFreeListType = 100;
constexpr uint8_t kDatabaseNameType = 201;

// A database's metadata type bytes: below 6, one key each (origin, name,
// versions, max object store id, blob key generator).
constexpr uint8_t kFirstComplexDatabaseType = 6;
constexpr uint8_t kObjectStoreMetaDataType = 50;
constexpr uint8_t kIndexMetaDataType = 100;
constexpr uint8_t kObjectStoreFreeListType = 150;
constexpr uint8_t kIndexFreeListType = 151;
constexpr uint8_t kObjectStoreNamesType = 200;
constexpr uint8_t kIndexNamesType = 201;

// Chromium refuses to write arrays nested deeper; the bound also keeps
// the recursion over a hostile key's arrays off the end of the stack.
constexpr int kMaxArrayDepth = 2000;

template <typename T>
int Sign(T a, T b) {
  return a < b ? -1 : (a > b ? 1 : 0);
}

// The rank of a key type in IndexedDB's order (min, number, date, string,
// binary, array, then the null "max" key); -1 for a byte of no type.
int TypeRank(uint8_t type) {
  switch (type) {
    case kMinType:
      return 0;
    case kNumberType:
      return 1;
    case kDateType:
      return 2;
    case kStringType:
      return 3;
    case kBinaryType:
      return 4;
    case kArrayType:
      return 5;
    case kNullType:
      return 6;
    default:
      return -1;
  }
}

bool ReadByte(std::string_view* in, uint8_t* value) {
  if (in->empty()) return false;
  *value = static_cast<uint8_t>(in->front());
  in->remove_prefix(1);
  return true;
}

// A base-128 varint of at most 64 bits, as a non-negative int64.
bool ReadVarint(std::string_view* in, int64_t* value) {
  uint64_t result = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    uint8_t byte = 0;
    if (!ReadByte(in, &byte)) return false;
    result |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) {
      if (result > static_cast<uint64_t>(INT64_MAX)) return false;
      *value = static_cast<int64_t>(result);
      return true;
    }
  }
  return false;
}

// A varint count of units of `unit_bytes` bytes, then the units.
bool ReadCounted(std::string_view* in, size_t unit_bytes,
                 std::string_view* bytes) {
  int64_t count = 0;
  if (!ReadVarint(in, &count)) return false;
  if (static_cast<uint64_t>(count) > in->size() / unit_bytes) return false;
  *bytes = in->substr(0, static_cast<size_t>(count) * unit_bytes);
  in->remove_prefix(bytes->size());
  return true;
}

// A UTF-16BE string with its length in code units: ordered by its bytes,
// which is the order of its code units.
bool ReadString(std::string_view* in, std::string_view* bytes) {
  return ReadCounted(in, 2, bytes);
}

// A double in 8 bytes, little-endian (the byte order of the machines
// Chromium writes on).
bool ReadDouble(std::string_view* in, double* value) {
  if (in->size() < 8) return false;
  uint64_t bits = 0;
  for (int i = 7; i >= 0; --i) {
    bits = (bits << 8) | static_cast<uint8_t>((*in)[i]);
  }
  std::memcpy(value, &bits, sizeof(*value));
  in->remove_prefix(8);
  return true;
}

struct KeyPrefix {
  int64_t database_id = 0;
  int64_t object_store_id = 0;
  int64_t index_id = 0;
};

// An id of `bytes` bytes, little-endian.
int64_t ReadId(std::string_view* in, size_t bytes) {
  uint64_t value = 0;
  for (size_t i = 0; i < bytes; ++i) {
    value |= static_cast<uint64_t>(static_cast<uint8_t>((*in)[i])) << (8 * i);
  }
  in->remove_prefix(bytes);
  return static_cast<int64_t>(value);
}

bool ReadPrefix(std::string_view* in, KeyPrefix* prefix) {
  uint8_t lengths = 0;
  if (!ReadByte(in, &lengths)) return false;
  const size_t database_bytes = ((lengths >> 5) & 0x7) + 1;
  const size_t object_store_bytes = ((lengths >> 2) & 0x7) + 1;
  const size_t index_bytes = (lengths & 0x3) + 1;
  if (database_bytes + object_store_bytes + index_bytes > in->size()) {
    return false;
  }
  prefix->database_id = ReadId(in, database_bytes);
  prefix->object_store_id = ReadId(in, object_store_bytes);
  prefix->index_id = ReadId(in, index_bytes);
  return true;
}

// One comparison: the order of two keys, or failure() saying why they
// could not be ordered (the order is then meaningless).
class KeyOrder {
 public:
  const char* failure() const { return failure_; }

  int Keys(std::string_view a, std::string_view b) {
    KeyPrefix pa;
    KeyPrefix pb;
    if (!ReadPrefix(&a, &pa) || !ReadPrefix(&b, &pb)) {
      return Fail("its key prefix is cut short");
    }
    if (int order = Sign(pa.database_id, pb.database_id)) return order;
    if (int order = Sign(pa.object_store_id, pb.object_store_id)) return order;
    if (int order = Sign(pa.index_id, pb.index_id)) return order;
    if (pa.database_id == 0) return GlobalMetadata(a, b);
    if (pa.object_store_id == 0) return DatabaseMetadata(a, b);
    switch (pa.index_id) {
      case kObjectStoreDataIndex:
      case kExistsEntryIndex:
      case kBlobEntryIndex:
        // A prefix alone sorts before the object store's keys.
        if (a.empty() || b.empty()) return Sign(a.size(), b.size());
        return EncodedKeys(&a, &b, 0);
      default:
        break;
    }
    if (pa.index_id < kMinimumIndexId) {
      return Fail("its index id is one IndexedDB never uses (4 to 29)");
    }
    return IndexEntries(a, b);
  }

 private:
  int Fail(const char* why) {
    if (failure_ == nullptr) failure_ = why;
    return 0;
  }

  // An index entry: the index key, a varint sequence number (obsolete),
  // then the primary key; the last two may be absent.
  int IndexEntries(std::string_view a, std::string_view b) {
    if (a.empty() || b.empty()) return Sign(a.size(), b.size());
    int order = EncodedKeys(&a, &b, 0);
    if (failure_ != nullptr || order != 0) return order;
    int64_t sequence_a = -1;
    int64_t sequence_b = -1;
    // Chromium treats an unreadable sequence number as equal.
    if (!a.empty() && !ReadVarint(&a, &sequence_a)) return 0;
    if (!b.empty() && !ReadVarint(&b, &sequence_b)) return 0;
    if (a.empty() || b.empty()) return Sign(a.size(), b.size());
    order = EncodedKeys(&a, &b, 0);
    if (failure_ != nullptr || order != 0) return order;
    return Sign(sequence_a, sequence_b);
  }

  // Two encoded IndexedDB keys, each consumed from its input.
  int EncodedKeys(std::string_view* a, std::string_view* b, int depth) {
    if (depth > kMaxArrayDepth) {
      return Fail("its arrays nest deeper than 2000");
    }
    uint8_t type_a = 0;
    uint8_t type_b = 0;
    if (!ReadByte(a, &type_a) || !ReadByte(b, &type_b)) {
      return Fail("an IndexedDB key is missing");
    }
    const int rank_a = TypeRank(type_a);
    const int rank_b = TypeRank(type_b);
    if (rank_a < 0 || rank_b < 0) {
      return Fail("an IndexedDB key has an unknown type byte");
    }
    if (rank_a != rank_b) return Sign(rank_a, rank_b);
    switch (type_a) {
      case kNullType:
      case kMinType:
        return 0;
      case kArrayType: {
        int64_t length_a = 0;
        int64_t length_b = 0;
        if (!ReadVarint(a, &length_a) || !ReadVarint(b, &length_b)) {
          return Fail("an array's length is malformed");
        }
        for (int64_t i = 0; i < length_a && i < length_b; ++i) {
          const int order = EncodedKeys(a, b, depth + 1);
          if (failure_ != nullptr || order != 0) return order;
        }
        return Sign(length_a, length_b);
      }
      case kBinaryType:
      case kStringType: {
        const size_t unit = type_a == kStringType ? 2 : 1;
        std::string_view bytes_a;
        std::string_view bytes_b;
        if (!ReadCounted(a, unit, &bytes_a) ||
            !ReadCounted(b, unit, &bytes_b)) {
          return Fail(type_a == kStringType
                          ? "a string's length passes the key's end"
                          : "a binary key's length passes the key's end");
        }
        return BytewiseCompare(bytes_a, bytes_b);
      }
      default: {  // dates and numbers
        double value_a = 0;
        double value_b = 0;
        if (!ReadDouble(a, &value_a) || !ReadDouble(b, &value_b)) {
          return Fail("a number or date is cut short");
        }
        // As Chromium: -0 equals 0, and NaN (never written) equals all.
        if (value_a < value_b) return -1;
        if (value_a > value_b) return 1;
        return 0;
      }
    }
  }

  int GlobalMetadata(std::string_view a, std::string_view b) {
    uint8_t type_a = 0;
    uint8_t type_b = 0;
    if (!ReadByte(&a, &type_a) || !ReadByte(&b, &type_b)) {
      return Fail("a metadata key has no type byte");
    }
    if (type_a != type_b) return Sign(type_a, type_b);
    if (type_a < kFirstComplexGlobalType) return 0;
    switch (type_a) {
      case kScopesType:
        return BytewiseCompare(a, b);
      case kDatabaseFreeListType: {
        int64_t id_a = 0;
        int64_t id_b = 0;
        if (!ReadVarint(&a, &id_a) || !ReadVarint(&b, &id_b)) {
          return Fail("a database free-list key is malformed");
        }
        return Sign(id_a, id_b);
      }
      case kDatabaseNameType: {
        std::string_view origin_a, name_a, origin_b, name_b;
        if (!ReadString(&a, &origin_a) || !ReadString(&a, &name_a) ||
            !ReadString(&b, &origin_b) || !ReadString(&b, &name_b)) {
          return Fail("a database name key is malformed");
        }
        if (int order = BytewiseCompare(origin_a, origin_b)) return order;
        return BytewiseCompare(name_a, name_b);
      }
      default:
        return Fail("its global metadata type byte is unknown");
    }
  }

  // Reads the fields of a database metadata key of `type`: up to two
  // varint ids, then a string or a trailing type byte.
  bool ReadDatabaseFields(uint8_t type, std::string_view* in, int64_t ids[2],
                          std::string_view* name, uint8_t* last) {
    switch (type) {
      case kObjectStoreMetaDataType:
        return ReadVarint(in, &ids[0]) && ReadByte(in, last);
      case kIndexMetaDataType:
        return ReadVarint(in, &ids[0]) && ReadVarint(in, &ids[1]) &&
               ReadByte(in, last);
      case kObjectStoreFreeListType:
        return ReadVarint(in, &ids[0]);
      case kIndexFreeListType:
        return ReadVarint(in, &ids[0]) && ReadVarint(in, &ids[1]);
      case kObjectStoreNamesType:
        return ReadString(in, name);
      case kIndexNamesType:
        return ReadVarint(in, &ids[0]) && ReadString(in, name);
      default:
        return false;
    }
  }

  int DatabaseMetadata(std::string_view a, std::string_view b) {
    uint8_t type_a = 0;
    uint8_t type_b = 0;
    if (!ReadByte(&a, &type_a) || !ReadByte(&b, &type_b)) {
      return Fail("a metadata key has no type byte");
    }
    if (type_a != type_b) return Sign(type_a, type_b);
    if (type_a < kFirstComplexDatabaseType) return 0;
    int64_t ids_a[2] = {0, 0};
    int64_t ids_b[2] = {0, 0};
    std::string_view name_a;
    std::string_view name_b;
    uint8_t last_a = 0;
    uint8_t last_b = 0;
    if (!ReadDatabaseFields(type_a, &a, ids_a, &name_a, &last_a) ||
        !ReadDatabaseFields(type_b, &b, ids_b, &name_b, &last_b)) {
      return Fail("a database metadata key is malformed or of unknown type");
    }
    if (int order = Sign(ids_a[0], ids_b[0])) return order;
    if (int order = Sign(ids_a[1], ids_b[1])) return order;
    if (int order = BytewiseCompare(name_a, name_b)) return order;
    return Sign(last_a, last_b);
  }

  const char* failure_ = nullptr;
};

class IndexedDBComparatorImpl final : public Comparator {
 public:
  int Compare(std::string_view a, std::string_view b) const override {
    KeyOrder order;
    const int result = order.Keys(a, b);
    if (order.failure() == nullptr) return result;
    // Name the key at fault: the one that cannot be compared with itself
    // (which decodes every part of it that a comparison may read).
    bool reported = false;
    for (std::string_view key : {a, b}) {
      KeyOrder alone;
      alone.Keys(key, key);
      if (alone.failure() != nullptr) {
        ReportComparisonError(key, alone.failure());
        reported = true;
      }
    }
    if (!reported) ReportComparisonError(a, order.failure());
    return BytewiseCompare(a, b);
  }

  std::string_view Name() const override { return "idb_cmp1"; }

  void FindShortestSeparator(std::string*, std::string_view) const override {}
  void FindShortSuccessor(std::string*) const override {}
};

}  // namespace

const Comparator* IndexedDBComparator() {
  static const IndexedDBComparatorImpl* const comparator =
      new IndexedDBComparatorImpl;
  return comparator;
}

}  // namespace bloomtable
