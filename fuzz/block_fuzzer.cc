// The block reader alone: arbitrary bytes parsed as a block, iterated both
// ways and searched.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>

#include "bloomtable/comparator.h"
#include "table/block.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using bloomtable::Block;
  using bloomtable::BlockContents;
  BlockContents contents;
  contents.owned = std::make_unique<char[]>(size);
  if (size > 0) std::memcpy(contents.owned.get(), data, size);
  contents.data = std::string_view(contents.owned.get(), size);
  auto block = Block::Parse(std::move(contents));
  if (!block.ok()) return 0;
  bloomtable::BlockIter it(bloomtable::BytewiseComparator(), block->get());
  size_t steps = 0;
  std::string last_key;
  for (it.SeekToFirst(); it.Valid() && steps < 100000; it.Next(), ++steps) {
    last_key.assign(it.key());
  }
  for (it.SeekToLast(); it.Valid() && steps < 200000; it.Prev(), ++steps) {
  }
  it.Seek(last_key);
  it.Seek(std::string_view(reinterpret_cast<const char*>(data),
                           size < 6 ? size : 6));
  if (it.Valid()) it.Prev();
  return 0;
}
