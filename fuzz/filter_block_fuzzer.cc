// The per-block filter block (filter/filter_block.h) on fuzzer-chosen bytes,
// in two modes picked by the top bit of the first byte:
//
//   read (0):  [policy][fixed16 n][n bytes of filter block][queries...]
//     FilterBlockReader over arbitrary bytes, asked about arbitrary keys at
//     arbitrary data-block offsets (each query: a key-length byte, the key,
//     then a fixed64 offset, short inputs padded with zeros). Damaged
//     blocks answer "maybe"; nothing reads outside the block.
//
//   build then probe (1):  [mode|policy][records...]
//     A record byte with the top bit set ends the current data block: the
//     next one starts (low 7 bits) x 64 + 1 bytes later, so that blocks
//     share, skip and fill 2 KiB filter ranges. Otherwise the byte is a key
//     length (up to 64), followed by the key, added to the current block.
//     The builder is driven as TableBuilder drives it; then every key must
//     match at its block's offset: a false negative traps.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "bloomtable/filter_policy.h"
#include "filter/filter_block.h"
#include "fuzz/fuzz_options.h"

namespace bloomtable {
namespace {

const std::vector<std::shared_ptr<const FilterPolicy>>& Policies() {
  static const auto* const policies =
      new std::vector<std::shared_ptr<const FilterPolicy>>(AllFilterPolicies());
  return *policies;
}

void ReadMode(const uint8_t* data, size_t size) {
  if (size < 3) return;
  const FilterPolicy* policy = Policies()[data[0] % Policies().size()].get();
  const size_t declared = data[1] | (size_t{data[2]} << 8);
  std::string_view rest(reinterpret_cast<const char*>(data + 3), size - 3);
  // A copy of exactly the block's bytes, so that ASan sees any read past it.
  const std::string_view block_bytes = rest.substr(0, declared);
  const std::unique_ptr<char[]> block(new char[block_bytes.size()]);
  std::copy(block_bytes.begin(), block_bytes.end(), block.get());
  const FilterBlockReader reader(
      policy, std::string_view(block.get(), block_bytes.size()));
  if (!reader.usable() && reader.num_filters() != 0) __builtin_trap();
  rest.remove_prefix(block_bytes.size());

  // Queries until the bytes run out (at least one, at most 64), then the
  // extreme offsets.
  for (int query = 0; query < 64; ++query) {
    const size_t key_length =
        rest.empty() ? 0 : static_cast<uint8_t>(rest[0]) % 33;
    if (!rest.empty()) rest.remove_prefix(1);
    const std::string_view key = rest.substr(0, key_length);
    rest.remove_prefix(key.size());
    uint64_t offset = 0;
    for (int i = 0; i < 8 && !rest.empty(); ++i) {
      offset |= uint64_t{static_cast<uint8_t>(rest[0])} << (8 * i);
      rest.remove_prefix(1);
    }
    const bool may_match = reader.KeyMayMatch(offset, key);
    // An unusable block has no filters to say "absent" with.
    if (!reader.usable() && !may_match) __builtin_trap();
    if (rest.empty()) break;
  }
  for (const uint64_t offset : {~uint64_t{0}, uint64_t{1} << 40, kFilterBase}) {
    if (!reader.KeyMayMatch(offset, "key") && !reader.usable()) {
      __builtin_trap();
    }
  }
}

struct DataBlock {
  uint64_t offset = 0;
  std::vector<std::string> keys;
};

void BuildThenProbeMode(const uint8_t* data, size_t size) {
  const FilterPolicy* policy =
      Policies()[(data[0] & 0x7f) % Policies().size()].get();
  std::vector<DataBlock> blocks(1);
  size_t pos = 1;
  while (pos < size) {
    const uint8_t record = data[pos++];
    if (record & 0x80) {
      DataBlock next;
      next.offset = blocks.back().offset + (record & 0x7f) * 64 + 1;
      blocks.push_back(std::move(next));
      continue;
    }
    const size_t length = std::min<size_t>(record % 65, size - pos);
    blocks.back().keys.emplace_back(reinterpret_cast<const char*>(data + pos),
                                    length);
    pos += length;
  }
  // The file offset after the last data block, where the filter block goes.
  const uint64_t end_offset = blocks.back().offset + 1;

  FilterBlockBuilder builder(policy);
  builder.StartBlock(0);
  for (size_t i = 0; i < blocks.size(); ++i) {
    for (const std::string& key : blocks[i].keys) builder.AddKey(key);
    builder.StartBlock(i + 1 < blocks.size() ? blocks[i + 1].offset
                                             : end_offset);
  }
  const std::string contents(builder.Finish());
  const FilterBlockReader reader(policy, contents);
  if (!reader.usable()) __builtin_trap();
  for (const DataBlock& block : blocks) {
    for (const std::string& key : block.keys) {
      // No false negatives (docs/DESIGN.md, "What a filter guarantees").
      if (!reader.KeyMayMatch(block.offset, key)) __builtin_trap();
    }
  }
}

}  // namespace
}  // namespace bloomtable

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  if (data[0] & 0x80) {
    bloomtable::BuildThenProbeMode(data, size);
  } else {
    bloomtable::ReadMode(data, size);
  }
  return 0;
}
