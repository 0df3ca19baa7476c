// Key sets and helpers shared by the tests of the cache-local Bloom, the
// Ribbon and the range filters: random and structured keys (decimal counters,
// big-endian integers, long shared prefixes, binary keys, the empty key,
// duplicates), the near-miss generator of DESIGN.md, and a buffer of exact
// size for the address sanitizer.

#ifndef BLOOMTABLE_TESTS_FILTER_KEY_SETS_H_
#define BLOOMTABLE_TESTS_FILTER_KEY_SETS_H_

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "bloomtable/filter_policy.h"
#include "util/xxhash64.h"

namespace bloomtable {
namespace filter_test {

inline std::vector<std::string> RandomKeys(size_t n, size_t length,
                                           uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::string> keys(n, std::string(length, '\0'));
  for (std::string& key : keys) {
    for (char& c : key) c = static_cast<char>(rng());
  }
  return keys;
}

// DESIGN.md's near-miss generator: key i is i as a 16-digit zero-padded
// decimal.
inline std::string DecimalKey(uint64_t i) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%016llu",
                static_cast<unsigned long long>(i));
  return buffer;
}

// Keys first, first + step, ... (n of them) from the near-miss generator.
inline std::vector<std::string> DecimalKeys(size_t n, uint64_t first,
                                            uint64_t step) {
  std::vector<std::string> keys;
  keys.reserve(n);
  for (size_t i = 0; i < n; ++i) keys.push_back(DecimalKey(first + i * step));
  return keys;
}

// `value` as 8 big-endian bytes: their bytewise order is the numeric order.
inline std::string BigEndianKey(uint64_t value) {
  std::string key(8, '\0');
  for (int i = 0; i < 8; ++i) key[i] = static_cast<char>(value >> (56 - 8 * i));
  return key;
}

// A string of 0 to max_length bytes drawn from `alphabet` (the range
// filter's tests use a small one, so that prefixes and zero bytes abound).
inline std::string RandomString(std::mt19937_64* rng, std::string_view alphabet,
                                size_t max_length) {
  std::string s((*rng)() % (max_length + 1), '\0');
  for (char& c : s) c = alphabet[(*rng)() % alphabet.size()];
  return s;
}

// n keys that share a 200-byte prefix and differ in a short suffix.
inline std::vector<std::string> SharedPrefixKeys(size_t n) {
  const std::string prefix(200, 'p');
  std::vector<std::string> keys;
  keys.reserve(n);
  for (size_t i = 0; i < n; ++i) keys.push_back(prefix + std::to_string(i));
  return keys;
}

// n keys of 8 binary bytes: i as a little-endian fixed64, so most bytes are
// zero and keys differ in their first bytes only.
inline std::vector<std::string> BinaryCounterKeys(size_t n) {
  std::vector<std::string> keys;
  keys.reserve(n);
  for (uint64_t i = 0; i < n; ++i) {
    std::string key(8, '\0');
    std::memcpy(&key[0], &i, 8);  // the byte order does not matter here
    keys.push_back(key);
  }
  return keys;
}

// The empty key, one-byte keys of every value, and some longer keys.
inline std::vector<std::string> ShortAndEmptyKeys() {
  std::vector<std::string> keys = {""};
  for (int c = 0; c < 256; ++c) keys.push_back(std::string(1, char(c)));
  keys.push_back(std::string(1000, '\0'));
  keys.push_back(std::string(1000, '\xff'));
  return keys;
}

// `keys` with each key `copies` times, interleaved.
inline std::vector<std::string> Repeated(const std::vector<std::string>& keys,
                                         int copies) {
  std::vector<std::string> out;
  for (int c = 0; c < copies; ++c)
    out.insert(out.end(), keys.begin(), keys.end());
  return out;
}

inline std::vector<std::string_view> Views(
    const std::vector<std::string>& keys) {
  return std::vector<std::string_view>(keys.begin(), keys.end());
}

inline std::string BuildFilter(const FilterPolicy& policy,
                               const std::vector<std::string>& keys) {
  const std::vector<std::string_view> views = Views(keys);
  std::string filter;
  policy.CreateFilter(views.data(), views.size(), &filter);
  return filter;
}

// The number of keys of `probes` the filter may contain, asked through a
// reader.
inline size_t CountMayMatch(const FilterPolicy& policy, std::string_view filter,
                            const std::vector<std::string>& probes) {
  const std::unique_ptr<FilterReader> reader = policy.NewReader(filter);
  size_t count = 0;
  for (const std::string& probe : probes) count += reader->KeyMayMatch(probe);
  return count;
}

// A copy of `bytes` in a heap block of exactly its size, so that the address
// sanitizer reports any read past its end.
class ExactBuffer {
 public:
  explicit ExactBuffer(std::string_view bytes)
      : data_(new char[bytes.size() + (bytes.empty() ? 1 : 0)]),
        size_(bytes.size()) {
    if (!bytes.empty()) std::memcpy(data_.get(), bytes.data(), bytes.size());
  }
  std::string_view view() const { return std::string_view(data_.get(), size_); }

 private:
  std::unique_ptr<char[]> data_;
  size_t size_;
};

// XXH3 (seed 0) of some bytes as 16 hex digits, for golden values of whole
// filters.
inline std::string Fingerprint(std::string_view bytes) {
  char buffer[17];
  std::snprintf(buffer, sizeof(buffer), "%016llx",
                static_cast<unsigned long long>(XXH3Hash64(bytes, 0)));
  return buffer;
}

// The bytes as lowercase hex.
inline std::string Hex(std::string_view bytes) {
  static const char kDigits[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out.push_back(kDigits[c >> 4]);
    out.push_back(kDigits[c & 15]);
  }
  return out;
}

}  // namespace filter_test
}  // namespace bloomtable

#endif  // BLOOMTABLE_TESTS_FILTER_KEY_SETS_H_
