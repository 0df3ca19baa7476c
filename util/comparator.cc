#include "bloomtable/comparator.h"

#include <algorithm>

#include "bloomtable/indexeddb_comparator.h"
#include "util/string_util.h"

namespace bloomtable {
namespace {

class BytewiseComparatorImpl final : public Comparator {
 public:
  int Compare(std::string_view a, std::string_view b) const override {
    return BytewiseCompare(a, b);
  }

  std::string_view Name() const override {
    return "leveldb.BytewiseComparator";
  }

  void FindShortestSeparator(std::string* start,
                             std::string_view limit) const override {
    const size_t min_length = std::min(start->size(), limit.size());
    size_t diff_index = 0;
    while (diff_index < min_length &&
           (*start)[diff_index] == limit[diff_index]) {
      ++diff_index;
    }
    if (diff_index >= min_length) return;  // one is a prefix of the other
    const auto diff_byte = static_cast<unsigned char>((*start)[diff_index]);
    if (diff_byte < 0xff &&
        diff_byte + 1 < static_cast<unsigned char>(limit[diff_index])) {
      (*start)[diff_index] = static_cast<char>(diff_byte + 1);
      start->resize(diff_index + 1);
    }
  }

  void FindShortSuccessor(std::string* key) const override {
    for (size_t i = 0; i < key->size(); ++i) {
      const auto byte = static_cast<unsigned char>((*key)[i]);
      if (byte != 0xff) {
        (*key)[i] = static_cast<char>(byte + 1);
        key->resize(i + 1);
        return;
      }
    }
    // Every byte is 0xff: leave the key as it is.
  }
};

}  // namespace

Comparator::~Comparator() = default;

const Comparator* BytewiseComparator() {
  static const BytewiseComparatorImpl* const comparator =
      new BytewiseComparatorImpl;
  return comparator;
}

const Comparator* BuiltinComparator(std::string_view name) {
  for (const Comparator* comparator :
       {BytewiseComparator(), IndexedDBComparator()}) {
    if (comparator->Name() == name) return comparator;
  }
  return nullptr;
}

}  // namespace bloomtable
