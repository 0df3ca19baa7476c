// Every filter policy on fuzzer-chosen bytes, in two modes picked by the top
// bit of the first byte:
//
//   read (0):  [policy][key length][key][filter bytes]
//     A policy's reader on arbitrary filter bytes and a key. Malformed
//     filters must answer "maybe", never crash; the parsed reader and the
//     one-off call must agree.
//
//   build then probe (1):  [mode|policy][parameter][copies][keys...]
//     Keys come from the input (each a length byte, then that many bytes,
//     up to 64), each repeated `copies` times with a 2-byte suffix so that
//     small inputs still reach Ribbon's sizes. A filter is built over them
//     with the chosen policy and bits per key (or false-positive rate); every
//     key must then match, through both query paths: a false negative traps.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "bloomtable/filter_policy.h"
#include "fuzz/fuzz_options.h"

namespace bloomtable {
namespace {

// Bits per key offered to the builders: ordinary values, fractions, and the
// edges that the policies clamp (negative, zero, huge, NaN, infinity).
constexpr double kBitsPerKey[] = {10,
                                  1,
                                  7,
                                  9.5,
                                  16,
                                  23.7,
                                  0.5,
                                  0,
                                  -3,
                                  2,
                                  32,
                                  64,
                                  100,
                                  1e9,
                                  std::numeric_limits<double>::quiet_NaN(),
                                  std::numeric_limits<double>::infinity()};
// False-positive rates for NewRibbonFilterPolicyForRate, edges included.
constexpr double kRates[] = {0.01,
                             0.5,
                             0.1,
                             1e-3,
                             1e-6,
                             1e-9,
                             1.0,
                             2.0,
                             0,
                             -1.0,
                             0.3,
                             0.05,
                             1e-12,
                             0.99,
                             std::numeric_limits<double>::quiet_NaN(),
                             std::numeric_limits<double>::infinity()};
constexpr size_t kNumParameters = sizeof(kBitsPerKey) / sizeof(kBitsPerKey[0]);
static_assert(sizeof(kRates) / sizeof(kRates[0]) == kNumParameters);

// Enough keys for Ribbon's real (non-fallback) filters, few enough that a
// run stays fast.
constexpr size_t kMaxKeys = 4096;
constexpr size_t kMaxKeyLength = 64;

std::shared_ptr<const FilterPolicy> BuildPolicy(uint8_t choice,
                                                uint8_t parameter) {
  const size_t index = parameter % kNumParameters;
  const double bits = kBitsPerKey[index];
  switch (choice % 4) {
    case 0:
      return NewLevelDBBloomFilterPolicy(
          std::isfinite(bits) ? static_cast<int>(bits) % 1000 : 10);
    case 1:
      return NewCacheLocalBloomFilterPolicy(bits);
    case 2:
      return NewRibbonFilterPolicy(bits);
    default:
      return NewRibbonFilterPolicyForRate(kRates[index]);
  }
}

void ReadMode(const uint8_t* data, size_t size) {
  static const auto* const policies =
      new std::vector<std::shared_ptr<const FilterPolicy>>(AllFilterPolicies());
  if (size < 2) return;
  const FilterPolicy& policy = *(*policies)[data[0] % policies->size()];
  const size_t key_length = data[1] % 32;
  std::string_view rest(reinterpret_cast<const char*>(data + 2), size - 2);
  const std::string_view key = rest.substr(0, key_length);
  const std::string_view filter = rest.substr(key.size());
  const bool direct = policy.KeyMayMatch(key, filter);
  const bool parsed = policy.NewReader(filter)->KeyMayMatch(key);
  // The parsed reader and the direct call read the same bytes the same way.
  if (direct != parsed) __builtin_trap();
}

void BuildThenProbeMode(const uint8_t* data, size_t size) {
  if (size < 3) return;
  const auto policy = BuildPolicy(data[0] & 0x7f, data[1]);
  const size_t copies = 1 + data[2] % 64;
  std::vector<std::string> keys;
  size_t pos = 3;
  while (pos < size && keys.size() < kMaxKeys) {
    const size_t length =
        std::min<size_t>(data[pos] % (kMaxKeyLength + 1), size - pos - 1);
    const std::string key(reinterpret_cast<const char*>(data + pos + 1),
                          length);
    pos += 1 + length;
    for (size_t copy = 0; copy < copies && keys.size() < kMaxKeys; ++copy) {
      std::string derived = key;
      if (copy > 0) {  // the first copy is the key itself
        derived.push_back(static_cast<char>(copy));
        derived.push_back(static_cast<char>(copy >> 8));
      }
      keys.push_back(std::move(derived));
    }
  }
  const std::vector<std::string_view> views(keys.begin(), keys.end());
  // CreateFilter appends: a prefix already in the buffer must stay as it is.
  const std::string prefix = "prefix";
  std::string buffer = prefix;
  policy->CreateFilter(views.data(), views.size(), &buffer);
  if (buffer.compare(0, prefix.size(), prefix) != 0) __builtin_trap();
  const std::string_view filter =
      std::string_view(buffer).substr(prefix.size());
  const std::unique_ptr<FilterReader> reader = policy->NewReader(filter);
  for (const std::string_view key : views) {
    // No false negatives (docs/DESIGN.md, "What a filter guarantees").
    if (!policy->KeyMayMatch(key, filter)) __builtin_trap();
    if (!reader->KeyMayMatch(key)) __builtin_trap();
  }
  // Building is deterministic: the same keys give the same bytes.
  std::string again;
  policy->CreateFilter(views.data(), views.size(), &again);
  if (again != filter) __builtin_trap();
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
