#include "db_bench/key_generator.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "db_bench/random.h"

namespace bloomtable {
namespace db_bench {
namespace {

// Keys longer than this are not what these benchmarks model and would make
// the pre-generated key arrays needlessly large.
constexpr size_t kMaxKeySize = 1024;

size_t DecimalDigits(uint64_t value) {
  size_t digits = 1;
  while (value >= 10) {
    value /= 10;
    ++digits;
  }
  return digits;
}

// The largest number key_size decimal digits hold.
uint64_t MaxDecimal(size_t key_size) {
  uint64_t max = 0;
  for (size_t i = 0; i < key_size && i < KeyGenerator::kMaxDigits; ++i) {
    if (max > (UINT64_MAX - 9) / 10) return UINT64_MAX;
    max = max * 10 + 9;
  }
  return max;
}

// kRandom64 keys hold at most this many entries (8 bytes each in memory).
constexpr uint64_t kMaxRandomKeys = uint64_t{1} << 30;
// Random numbers stay below 2^64 - kRandomHeadroom, so that a scan's end
// past the last key is still a number.
constexpr uint64_t kRandomHeadroom = uint64_t{1} << 32;

}  // namespace

absl::StatusOr<KeyScheme> ParseKeyScheme(std::string_view name) {
  if (name == "decimal") return KeyScheme::kDecimal;
  if (name == "strided") return KeyScheme::kStrided;
  if (name == "random64") return KeyScheme::kRandom64;
  return absl::InvalidArgumentError(
      absl::StrCat("--key_scheme=", absl::string_view(name.data(), name.size()),
                   ": expected decimal, strided or random64"));
}

const char* KeySchemeName(KeyScheme scheme) {
  switch (scheme) {
    case KeyScheme::kDecimal:
      return "decimal";
    case KeyScheme::kStrided:
      return "strided";
    case KeyScheme::kRandom64:
      return "random64";
  }
  return "?";
}

KeyGenerator::KeyGenerator(size_t key_size, uint64_t num)
    : key_size_(key_size), num_(num), max_number_(MaxDecimal(key_size)) {}

KeyGenerator::KeyGenerator(size_t key_size, uint64_t num,
                           const KeySchemeOptions& scheme)
    : KeyGenerator(key_size, num) {
  scheme_ = scheme.scheme;
  if (scheme_ == KeyScheme::kStrided) stride_ = scheme.stride;
  if (scheme_ != KeyScheme::kRandom64) return;
  key_size_ = 8;
  max_number_ = UINT64_MAX;
  Random64 random(DeriveSeed(scheme.seed, 0x6b657973));  // "keys"
  random_numbers_.resize(num);
  for (uint64_t& number : random_numbers_) {
    number = random.Uniform(UINT64_MAX - kRandomHeadroom);
  }
  std::sort(random_numbers_.begin(), random_numbers_.end());
  // At least 2 apart, so that number + 1 (a near-miss key) is never a key;
  // collisions are rare enough that the shifts leave the numbers random.
  for (size_t i = 1; i < random_numbers_.size(); ++i) {
    if (random_numbers_[i] < random_numbers_[i - 1] + 2) {
      random_numbers_[i] = random_numbers_[i - 1] + 2;
    }
  }
}

absl::Status KeyGenerator::Validate(size_t key_size, uint64_t num,
                                    const KeySchemeOptions& scheme) {
  switch (scheme.scheme) {
    case KeyScheme::kDecimal:
      return Validate(key_size, num);
    case KeyScheme::kStrided: {
      if (scheme.stride < 2) {
        return absl::InvalidArgumentError("--key_stride must be at least 2");
      }
      if (num == 0) {
        return absl::InvalidArgumentError("--num must be at least 1");
      }
      // The largest number asked for: the last key's near miss.
      const uint64_t last = num - 1;
      if (last > (UINT64_MAX - 1) / scheme.stride) {
        return absl::InvalidArgumentError("--num * --key_stride is too large");
      }
      const size_t needed = DecimalDigits(scheme.stride * last + 1);
      if (key_size < needed || key_size > kMaxKeySize) {
        return absl::InvalidArgumentError(absl::StrFormat(
            "--key_size=%d: strided keys up to %d need %d to %d digits",
            key_size, scheme.stride * last + 1, needed, kMaxKeySize));
      }
      return absl::OkStatus();
    }
    case KeyScheme::kRandom64:
      if (num == 0 || num > kMaxRandomKeys) {
        return absl::InvalidArgumentError(absl::StrFormat(
            "--num must be in [1, %d] with --key_scheme=random64",
            kMaxRandomKeys));
      }
      return absl::OkStatus();
  }
  return absl::InvalidArgumentError("unknown key scheme");
}

absl::Status KeyGenerator::Validate(size_t key_size, uint64_t num) {
  if (num == 0) return absl::InvalidArgumentError("--num must be at least 1");
  if (num > (uint64_t{1} << 62)) {
    return absl::InvalidArgumentError("--num is too large");
  }
  // The largest key number asked for is a near-miss key, 2 * num - 1.
  const size_t needed = DecimalDigits(2 * num - 1);
  if (key_size < needed) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "--key_size=%d is too small: keys are decimal numbers up to %d, "
        "which need %d digits",
        key_size, 2 * num - 1, needed));
  }
  if (key_size > kMaxKeySize) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "--key_size=%d is larger than %d", key_size, kMaxKeySize));
  }
  return absl::OkStatus();
}

void KeyGenerator::KeyNumber(uint64_t number, char* dst) const {
  if (scheme_ == KeyScheme::kRandom64) {
    for (int i = 7; i >= 0; --i) {
      dst[i] = static_cast<char>(number & 0xff);
      number >>= 8;
    }
    return;
  }
  // Digits from the right; everything left of them is '0'.
  char* p = dst + key_size_;
  while (p > dst) {
    *--p = static_cast<char>('0' + number % 10);
    number /= 10;
  }
}

std::string KeyGenerator::PresentKey(uint64_t j) const {
  std::string key(key_size_, '0');
  PresentKey(j, key.data());
  return key;
}

void KeyGenerator::MissingKey(uint64_t j, uint64_t random_bits,
                              char* dst) const {
  PresentKey(j, dst);
  char* suffix = dst + key_size_;
  for (size_t i = 0; i < kMissingSuffixSize; ++i) {
    suffix[i] = static_cast<char>('a' + random_bits % 26);
    random_bits /= 26;
  }
}

void KeyGenerator::UnrelatedKey(Random64* random, char* dst) const {
  const uint64_t first = Number(0);
  const uint64_t span = Number(num_ - 1) - first;
  const size_t random_bytes = std::min(kUnrelatedRandomBytes, key_size_);
  do {
    const uint64_t number =
        first +
        (span == UINT64_MAX ? random->Next() : random->Uniform(span + 1));
    KeyNumber(number, dst);
    for (size_t i = key_size_ - random_bytes; i < key_size_; ++i) {
      dst[i] = static_cast<char>(random->Next() >> 56);
    }
  } while (IsPresent(std::string_view(dst, key_size_)));
}

std::vector<uint64_t> KeyGenerator::DistinctEntries(uint64_t first,
                                                    uint64_t count,
                                                    uint64_t seed) const {
  std::vector<uint64_t> out;
  out.reserve(count);
  std::vector<uint64_t> pool(num_);
  for (uint64_t at = first; at < first + count;) {
    const uint64_t offset = at % num_;
    const uint64_t take = std::min(num_ - offset, first + count - at);
    // The round's shuffle (Fisher-Yates), as far as this slice needs it.
    Random64 random(DeriveSeed(seed, at / num_));
    for (uint64_t j = 0; j < num_; ++j) pool[j] = j;
    for (uint64_t i = 0; i < offset + take; ++i) {
      std::swap(pool[i], pool[i + random.Uniform(num_ - i)]);
      if (i >= offset) out.push_back(pool[i]);
    }
    at += take;
  }
  return out;
}

bool KeyGenerator::IsPresent(std::string_view key) const {
  if (key.size() != key_size_) return false;
  uint64_t number = 0;
  if (scheme_ == KeyScheme::kRandom64) {
    for (char c : key) number = (number << 8) | static_cast<uint8_t>(c);
    return std::binary_search(random_numbers_.begin(), random_numbers_.end(),
                              number);
  }
  for (char c : key) {
    if (c < '0' || c > '9') return false;
    const uint64_t digit = static_cast<uint64_t>(c - '0');
    if (number > (UINT64_MAX - digit) / 10) return false;
    number = number * 10 + digit;
  }
  if (number % stride_ != 0) return false;
  return number / stride_ < num_;
}

}  // namespace db_bench
}  // namespace bloomtable
