// LevelDB's 32-bit hash (a Murmur-like mix), part of the format of
// leveldb.BuiltinBloomFilter2 (FORMAT.md). Not a general-purpose hash: new
// code uses XXH3 (util/xxhash64.h).

#ifndef BLOOMTABLE_UTIL_HASH_H_
#define BLOOMTABLE_UTIL_HASH_H_

#include <cstddef>
#include <cstdint>

namespace bloomtable {

uint32_t LevelDBHash(const char* data, size_t n, uint32_t seed);

}  // namespace bloomtable

#endif  // BLOOMTABLE_UTIL_HASH_H_
