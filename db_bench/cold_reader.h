// ColdReader is one engine's table (or database) as cold_bench measures it:
// point lookups one Get at a time or as one batched MultiGet, and a count of
// the reads its files made. cold_bench times the calls; each engine opens
// its files as the measurement asks (direct I/O without a block cache, or
// buffered with one) before handing out a reader.
//
// Not thread-safe: one measurement, one thread.

#ifndef BLOOMTABLE_DB_BENCH_COLD_READER_H_
#define BLOOMTABLE_DB_BENCH_COLD_READER_H_

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "absl/status/statusor.h"

namespace bloomtable {
namespace db_bench {

class ColdReader {
 public:
  virtual ~ColdReader() = default;

  // Looks up keys[0..n): with `batched`, one MultiGet of all n; otherwise n
  // Gets, one after another. Returns how many were found; an error other
  // than "not found" fails the call.
  virtual absl::StatusOr<uint64_t> Lookup(const std::string_view* keys,
                                          size_t n, bool batched) = 0;

  // Reads the engine's files made since it was opened (each request of a
  // batched read counts as one).
  virtual uint64_t file_reads() const = 0;
};

}  // namespace db_bench
}  // namespace bloomtable

#endif  // BLOOMTABLE_DB_BENCH_COLD_READER_H_
