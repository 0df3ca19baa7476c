// Random64 is a small, fast, seeded pseudo-random generator (SplitMix64) for
// benchmark inputs. Its sequence is fixed by the seed on every machine and
// build, so every engine and every run sees the same keys. Not thread-safe:
// give each thread its own.

#ifndef BLOOMTABLE_DB_BENCH_RANDOM_H_
#define BLOOMTABLE_DB_BENCH_RANDOM_H_

#include <cstdint>

namespace bloomtable {
namespace db_bench {

class Random64 {
 public:
  explicit Random64(uint64_t seed) : state_(seed) {}

  uint64_t Next() {
    // SplitMix64 (Steele, Lea and Flood): a Weyl sequence through a
    // 64-bit finalizer; every seed gives a full-period, well-mixed stream.
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }

  // Uniform in [0, n), by the multiply-high method (no division; bias below
  // n / 2^64). REQUIRES: n > 0.
  uint64_t Uniform(uint64_t n) {
    return static_cast<uint64_t>((static_cast<unsigned __int128>(Next()) * n) >>
                                 64);
  }

 private:
  uint64_t state_;
};

// A seed for stream `stream` derived from the user's --seed, so that
// independent streams (per benchmark, per thread) do not overlap.
inline uint64_t DeriveSeed(uint64_t base_seed, uint64_t stream) {
  Random64 mixer(base_seed ^ (stream * 0xd1b54a32d192ed03ULL));
  return mixer.Next();
}

}  // namespace db_bench
}  // namespace bloomtable

#endif  // BLOOMTABLE_DB_BENCH_RANDOM_H_
