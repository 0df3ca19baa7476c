// The range filter (filter/range_filter.h) on fuzzer-chosen bytes, in two
// modes picked by the top bit of the first byte:
//
//   read (0):  [0][fixed16 n][n bytes of filter][queries...]
//     RangeFilterReader::Parse over arbitrary bytes (in a heap block of
//     exactly their size, so that the sanitizer sees any read past them),
//     then range and point queries, each [length][lo][length][hi] (lengths
//     up to 32). A damaged filter is refused or answers without reading
//     outside its bytes; lo >= hi is always "no".
//
//   build then probe (1):  [0x80 | options][keys...]
//     Keys (each a length byte, up to 32, then that many bytes) go into a
//     filter built with the options' bits per key and range length. The
//     filter must parse, hold every key, and agree with a std::set on
//     every range between the keys, their successors (key + "\0") and
//     their prefixes: a false negative traps. A second build must give the
//     same bytes.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "filter/range_filter.h"

namespace bloomtable {
namespace {

constexpr size_t kMaxKeyLength = 32;
// Bounds of the build mode's ranges: all pairs of up to this many strings.
constexpr size_t kMaxBounds = 24;

// Bits per key and range lengths, ordinary values and the edges the builder
// clamps.
constexpr double kBitsPerKey[] = {
    16, 4, 6, 10, 2.5, 40, 100, std::numeric_limits<double>::quiet_NaN()};
constexpr uint64_t kRangeLengths[] = {64, 1, 2, 7, 0, 1000, uint64_t{1} << 40,
                                      3};

// Reads [length][bytes] at *pos; the length byte is taken modulo
// kMaxKeyLength + 1 and cut to what is left.
std::string_view TakeString(const uint8_t* data, size_t size, size_t* pos) {
  if (*pos >= size) return {};
  const size_t length =
      std::min<size_t>(data[*pos] % (kMaxKeyLength + 1), size - *pos - 1);
  const std::string_view s(reinterpret_cast<const char*>(data + *pos + 1),
                           length);
  *pos += 1 + length;
  return s;
}

void ReadMode(const uint8_t* data, size_t size) {
  if (size < 3) return;
  const size_t length = std::min<size_t>(data[1] | (data[2] << 8), size - 3);
  std::unique_ptr<char[]> copy(new char[length + 1]);
  if (length > 0) std::memcpy(copy.get(), data + 3, length);
  auto reader = RangeFilterReader::Parse(std::string_view(copy.get(), length));
  if (!reader.ok()) return;
  size_t pos = 3 + length;
  while (pos < size) {
    const std::string_view lo = TakeString(data, size, &pos);
    const std::string_view hi = TakeString(data, size, &pos);
    const bool answer = (*reader)->MayContainRange(lo, hi);
    if (lo >= hi && answer) __builtin_trap();
    (void)(*reader)->MayContainKey(lo);
  }
  (void)(*reader)->ApproximateMemoryUsage();
  (void)(*reader)->stored_bits_per_key();
}

bool ModelHasKeyIn(const std::set<std::string>& keys, const std::string& lo,
                   const std::string& hi) {
  if (lo >= hi) return false;
  const auto it = keys.lower_bound(lo);
  return it != keys.end() && *it < hi;
}

void BuildThenProbeMode(const uint8_t* data, size_t size) {
  if (size < 1) return;
  RangeFilterOptions options;
  options.bits_per_key = kBitsPerKey[data[0] & 7];
  options.max_range_length = kRangeLengths[(data[0] >> 3) & 7];
  std::set<std::string> keys;
  size_t pos = 1;
  while (pos < size) keys.insert(std::string(TakeString(data, size, &pos)));

  // Keys added in order, each twice (a repeated key is ignored).
  RangeFilterBuilder builder(options);
  for (const std::string& key : keys) {
    builder.AddKey(key);
    builder.AddKey(key);
  }
  const std::string filter = builder.Finish();
  RangeFilterBuilder again(options);
  for (const std::string& key : keys) again.AddKey(key);
  if (again.Finish() != filter) __builtin_trap();

  auto reader = RangeFilterReader::Parse(filter);
  if (!reader.ok() || (*reader)->num_keys() != keys.size()) __builtin_trap();
  for (const std::string& key : keys) {
    if (!(*reader)->MayContainKey(key)) __builtin_trap();
  }
  std::vector<std::string> bounds = {std::string(), std::string(40, '\xff')};
  // Keys spread over the set: every step-th one.
  const size_t step = 1 + keys.size() / ((kMaxBounds - bounds.size()) / 3);
  size_t index = 0;
  for (const std::string& key : keys) {
    if (index++ % step != 0) continue;
    bounds.push_back(key);
    bounds.push_back(key + std::string(1, '\0'));
    bounds.push_back(key.substr(0, key.size() / 2));
  }
  for (const std::string& lo : bounds) {
    for (const std::string& hi : bounds) {
      const bool answer = (*reader)->MayContainRange(lo, hi);
      if (ModelHasKeyIn(keys, lo, hi) && !answer) __builtin_trap();
      if (lo >= hi && answer) __builtin_trap();
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
