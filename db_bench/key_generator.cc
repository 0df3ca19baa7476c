#include "db_bench/key_generator.h"

#include <cstring>

#include "absl/strings/str_format.h"

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

}  // namespace

KeyGenerator::KeyGenerator(size_t key_size, uint64_t num)
    : key_size_(key_size), num_(num) {}

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

}  // namespace db_bench
}  // namespace bloomtable
