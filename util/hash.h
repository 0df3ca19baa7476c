// LevelDB's 32-bit hash (a Murmur-like mix), part of the format of
// leveldb.BuiltinBloomFilter2 (FORMAT.md). Not a general-purpose hash: new
// code uses XXH3 (util/xxhash64.h).

#ifndef BLOOMTABLE_UTIL_HASH_H_
#define BLOOMTABLE_UTIL_HASH_H_

#include <cstddef>
#include <cstdint>

namespace bloomtable {

uint32_t LevelDBHash(const char* data, size_t n, uint32_t seed);

// The hash as LevelDB computed it before 2014 where char is signed (x86): the
// 1-3 tail bytes sign-extended, so a key whose length is not a multiple of
// 4 and whose tail holds a byte >= 0x80 hashes differently. Where char is
// unsigned (ARM), and in goleveldb, it equals LevelDBHash. Filters named
// "leveldb.BuiltinBloomFilter" (no "2") may have been built either way.
uint32_t LevelDBHashSignedTail(const char* data, size_t n, uint32_t seed);

}  // namespace bloomtable

#endif  // BLOOMTABLE_UTIL_HASH_H_
