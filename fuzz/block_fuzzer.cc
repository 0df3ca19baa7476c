// The block reader alone: arbitrary bytes parsed as a block, iterated both
// ways, searched, and walked from every search, under the bytewise and the
// LevelDB-internal-key comparators. Every key and value byte is read, so
// that ASan sees any entry that points outside the block.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "bloomtable/comparator.h"
#include "fuzz/touch_entry.h"
#include "table/block.h"
#include "table/internal_key.h"

namespace bloomtable {
namespace {

// Bounds the walks: no block of a fuzzer input holds more entries.
constexpr size_t kMaxSteps = 100000;

uint64_t Exercise(const Comparator* comparator, const Block* block,
                  std::string_view input) {
  BlockIter it(comparator, block);
  uint64_t sum = 0;
  std::vector<std::string> targets = {"", std::string(input.substr(0, 6)),
                                      std::string(9, '\xff')};
  size_t steps = 0;
  for (it.SeekToFirst(); it.Valid() && steps < kMaxSteps; it.Next(), ++steps) {
    sum += TouchEntry(it);
    if (steps % 8 == 0) targets.emplace_back(it.key());
  }
  for (it.SeekToLast(); it.Valid() && steps < 2 * kMaxSteps;
       it.Prev(), ++steps) {
    sum += TouchEntry(it);
  }
  for (const std::string& target : targets) {
    it.Seek(target);
    for (int step = 0; step < 3 && it.Valid(); ++step) {
      sum += TouchEntry(it);
      it.Next();
    }
    it.Seek(target);
    for (int step = 0; step < 3 && it.Valid(); ++step) {
      sum += TouchEntry(it);
      it.Prev();
    }
    (void)it.status();
  }
  return sum;
}

}  // namespace
}  // namespace bloomtable

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using bloomtable::Block;
  using bloomtable::BlockContents;
  // A buffer of exactly the input's size, so that ASan sees any read past it.
  BlockContents contents;
  contents.owned = std::make_unique<char[]>(size);
  if (size > 0) std::memcpy(contents.owned.get(), data, size);
  contents.data = std::string_view(contents.owned.get(), size);
  auto block = Block::Parse(std::move(contents));
  if (!block.ok()) return 0;
  static const auto* const internal_comparator =
      new bloomtable::InternalKeyComparator(bloomtable::BytewiseComparator());
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  uint64_t sum = bloomtable::Exercise(bloomtable::BytewiseComparator(),
                                      block->get(), input);
  sum += bloomtable::Exercise(internal_comparator, block->get(), input);
  // Never true: keeps the reads from being optimised away.
  if (sum == ~uint64_t{0}) __builtin_trap();
  return 0;
}
