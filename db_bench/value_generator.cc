#include "db_bench/value_generator.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_format.h"
#include "db_bench/random.h"

namespace bloomtable {
namespace db_bench {
namespace {

// 1 MiB of distinct data: far more than any block, so that no block sees
// the same bytes twice and compression only finds the repeats we put in
// each piece.
constexpr size_t kPeriod = 1 << 20;
// The unit of compressibility: each piece compresses to about ratio * piece.
constexpr size_t kPieceSize = 100;
// Values beyond this are not what the benchmark models.
constexpr size_t kMaxValueSize = 16 << 20;

}  // namespace

absl::Status ValueGenerator::Validate(size_t value_size,
                                      double compression_ratio) {
  if (value_size > kMaxValueSize) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "--value_size=%d is larger than %d", value_size, kMaxValueSize));
  }
  if (!(compression_ratio > 0.0 && compression_ratio <= 1.0)) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "--compression_ratio=%g must be in (0, 1]", compression_ratio));
  }
  return absl::OkStatus();
}

ValueGenerator::ValueGenerator(size_t value_size, double compression_ratio,
                               uint64_t seed)
    : value_size_(value_size), period_(kPeriod) {
  Random64 random(seed);
  const size_t distinct = std::max<size_t>(
      1, static_cast<size_t>(std::lround(kPieceSize * compression_ratio)));
  data_.reserve(period_ + value_size_ + kPieceSize);
  std::string piece(kPieceSize, ' ');
  while (data_.size() < period_ + value_size_) {
    for (size_t i = 0; i < distinct; ++i) {
      // Printable ASCII, ' ' to '~' (95 characters), as text-like values.
      piece[i] = static_cast<char>(' ' + random.Uniform(95));
    }
    for (size_t i = distinct; i < kPieceSize; ++i) {
      piece[i] = piece[i % distinct];
    }
    data_.append(piece);
  }
}

std::string_view ValueGenerator::Value(uint64_t j) const {
  // Consecutive values take consecutive slices; a value_size that is a
  // multiple of the period still moves by one byte per value.
  const uint64_t stride =
      value_size_ % period_ == 0 ? 1 : value_size_ % period_;
  const uint64_t start = ((j % period_) * stride) % period_;
  return std::string_view(data_).substr(start, value_size_);
}

}  // namespace db_bench
}  // namespace bloomtable
