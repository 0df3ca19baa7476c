// Table::Open on arbitrary bytes, then Gets of a few keys taken from the
// input and from the table, and full forward and backward iteration. Every
// answer must be a value, NotFound or an error; never a crash, a hang or an
// out-of-bounds read.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "bloomtable/file.h"
#include "bloomtable/table.h"
#include "fuzz/fuzz_options.h"

namespace bloomtable {
namespace {

void Exercise(const std::string& bytes, KeyFormat key_format) {
  auto table = Table::Open(FuzzReadOptions(key_format),
                           NewMemoryRandomAccessFile(bytes), bytes.size());
  if (!table.ok()) return;
  ReadOptions read_options;
  std::vector<std::string> keys = {"", "a", bytes.substr(0, 8)};

  auto it = (*table)->NewIterator(read_options);
  size_t forward = 0;
  for (it->SeekToFirst(); it->Valid() && forward < 100000; it->Next()) {
    if (forward < 4) keys.emplace_back(it->key());
    ++forward;
  }
  size_t backward = 0;
  for (it->SeekToLast(); it->Valid() && backward < 100000; it->Prev()) {
    ++backward;
  }
  for (const std::string& key : keys) {
    (void)(*table)->Get(read_options, key);
    it->Seek(key);
    (void)(*table)->ApproximateOffsetOf(key);
  }
  (void)(*table)->GetStats();
}

}  // namespace
}  // namespace bloomtable

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  bloomtable::Exercise(bytes, bloomtable::KeyFormat::kPlain);
  bloomtable::Exercise(bytes, bloomtable::KeyFormat::kLevelDBInternal);
  return 0;
}
