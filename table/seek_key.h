// SeekKey: the key a point lookup seeks to. For a table of plain keys, the
// key itself; for LevelDB internal keys, (user key, tag), by default the
// newest possible version. Built in a stack buffer when it fits, so that
// lookups of ordinary keys allocate nothing. Used by Table's lookups and the
// database's log view.

#ifndef BLOOMTABLE_TABLE_SEEK_KEY_H_
#define BLOOMTABLE_TABLE_SEEK_KEY_H_

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "bloomtable/options.h"
#include "table/internal_key.h"

namespace bloomtable {

class SeekKey {
 public:
  SeekKey(KeyFormat format, std::string_view key, uint64_t tag = kMaxValueTag) {
    if (format != KeyFormat::kLevelDBInternal) {
      key_ = key;
      return;
    }
    const size_t size = key.size() + kInternalKeyTagSize;
    char* out = inline_;
    if (size > sizeof(inline_)) {
      heap_.resize(size);
      out = heap_.data();
    }
    std::memcpy(out, key.data(), key.size());
    for (size_t i = 0; i < kInternalKeyTagSize; ++i) {
      out[key.size() + i] = static_cast<char>(tag >> (8 * i));
    }
    key_ = std::string_view(out, size);
  }
  SeekKey(const SeekKey&) = delete;
  SeekKey& operator=(const SeekKey&) = delete;

  std::string_view view() const { return key_; }

 private:
  char inline_[128];
  std::string heap_;
  std::string_view key_;
};

}  // namespace bloomtable

#endif  // BLOOMTABLE_TABLE_SEEK_KEY_H_
