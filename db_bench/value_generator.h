// ValueGenerator makes db_bench's values: compressible bytes, the same for
// every engine, so that value j is a pure function of (seed, j).
//
// Like the values of LevelDB's and RocksDB's db_bench, they compress to about
// --compression_ratio of their size: the generator fills a buffer with
// 100-byte pieces, each made of ratio * 100 random printable characters
// repeated to fill the piece, and value j is a value_size slice of that
// buffer. Block compressors (Snappy) then find the repeats within a value.
//
// Thread-safety: immutable after construction.

#ifndef BLOOMTABLE_DB_BENCH_VALUE_GENERATOR_H_
#define BLOOMTABLE_DB_BENCH_VALUE_GENERATOR_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/status.h"

namespace bloomtable {
namespace db_bench {

class ValueGenerator {
 public:
  // REQUIRES: Validate(value_size, compression_ratio).ok().
  ValueGenerator(size_t value_size, double compression_ratio, uint64_t seed);

  static absl::Status Validate(size_t value_size, double compression_ratio);

  size_t value_size() const { return value_size_; }

  // The value of entry j; valid while the generator lives.
  std::string_view Value(uint64_t j) const;

 private:
  const size_t value_size_;
  // Distinct slice starts; value j starts at (j % period_) * value_size_
  // modulo period_ bytes.
  const size_t period_;
  std::string data_;
};

}  // namespace db_bench
}  // namespace bloomtable

#endif  // BLOOMTABLE_DB_BENCH_VALUE_GENERATOR_H_
