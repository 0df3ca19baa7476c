#include "db_bench/cold_keys.h"

#include <cstdio>
#include <random>

namespace bloomtable {
namespace db_bench {

std::string ColdKey(uint64_t i) {
  char key[32];
  std::snprintf(key, sizeof(key), "%016llu",
                static_cast<unsigned long long>(i));
  return key;
}

std::vector<std::string> ColdKeyStream(uint64_t num, bool present,
                                       uint64_t count, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::string> keys;
  keys.reserve(count);
  for (uint64_t k = 0; k < count; ++k) {
    const uint64_t n = rng() % num;
    keys.push_back(ColdKey(2 * n + (present ? 0 : 1)));
  }
  return keys;
}

uint64_t ColdStreamSeed(int run, bool present, int64_t batch) {
  // Distinct for every (run, workload, batch) that cold_bench accepts
  // (batches up to 4096).
  return 301 + (static_cast<uint64_t>(run) << 20) +
         (static_cast<uint64_t>(present) << 16) + static_cast<uint64_t>(batch);
}

}  // namespace db_bench
}  // namespace bloomtable
