// Little-endian fixed-width and LEB128 varint encoding (FORMAT.md).
//
// Encoders append to a std::string. Decoders read from the front of a
// std::string_view, advance it past what they consumed, and return false on
// malformed or truncated input without reading past the end.

#ifndef BLOOMTABLE_UTIL_CODING_H_
#define BLOOMTABLE_UTIL_CODING_H_

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace bloomtable {

// A varint64 takes at most 10 bytes, a varint32 at most 5.
constexpr int kMaxVarint32Length = 5;
constexpr int kMaxVarint64Length = 10;

void PutFixed32(std::string* dst, uint32_t value);
void PutFixed64(std::string* dst, uint64_t value);
void PutVarint32(std::string* dst, uint32_t value);
void PutVarint64(std::string* dst, uint64_t value);
// A varint32 length followed by the bytes.
void PutLengthPrefixed(std::string* dst, std::string_view value);

// Writes `value` at `dst` (which must have room) and returns the end.
char* EncodeVarint32(char* dst, uint32_t value);
char* EncodeVarint64(char* dst, uint64_t value);
int VarintLength(uint64_t value);

inline void EncodeFixed32(char* dst, uint32_t value) {
  unsigned char* p = reinterpret_cast<unsigned char*>(dst);
  p[0] = static_cast<unsigned char>(value);
  p[1] = static_cast<unsigned char>(value >> 8);
  p[2] = static_cast<unsigned char>(value >> 16);
  p[3] = static_cast<unsigned char>(value >> 24);
}

inline void EncodeFixed64(char* dst, uint64_t value) {
  EncodeFixed32(dst, static_cast<uint32_t>(value));
  EncodeFixed32(dst + 4, static_cast<uint32_t>(value >> 32));
}

// REQUIRES: 4 (or 8) readable bytes at `p`.
inline uint32_t DecodeFixed32(const char* p) {
  const unsigned char* u = reinterpret_cast<const unsigned char*>(p);
  return static_cast<uint32_t>(u[0]) | (static_cast<uint32_t>(u[1]) << 8) |
         (static_cast<uint32_t>(u[2]) << 16) |
         (static_cast<uint32_t>(u[3]) << 24);
}

inline uint64_t DecodeFixed64(const char* p) {
  return static_cast<uint64_t>(DecodeFixed32(p)) |
         (static_cast<uint64_t>(DecodeFixed32(p + 4)) << 32);
}

// The 8 bytes at `p` as a big-endian integer, so that integers compare as
// the bytes do under memcmp. REQUIRES: 8 readable bytes at `p`.
inline uint64_t DecodeBigEndian64(const char* p) {
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  uint64_t value;
  std::memcpy(&value, p, sizeof(value));
  return __builtin_bswap64(value);
#else
  uint64_t value = 0;
  for (int i = 0; i < 8; ++i) {
    value = (value << 8) | static_cast<unsigned char>(p[i]);
  }
  return value;
#endif
}

// The first 8 bytes of `s` as a big-endian integer, zero-padded. Bytewise
// order never decreases it: if BigEndianPrefix64(a) < BigEndianPrefix64(b)
// then a < b under memcmp order (at the first differing byte either both
// bytes are real, or a has ended and b's byte is not zero).
inline uint64_t BigEndianPrefix64(std::string_view s) {
  if (s.size() >= 8) return DecodeBigEndian64(s.data());
  uint64_t value = 0;
  for (unsigned char byte : s) value = (value << 8) | byte;
  return s.empty() ? 0 : value << (8 * (8 - s.size()));
}

bool GetFixed32(std::string_view* input, uint32_t* value);
bool GetFixed64(std::string_view* input, uint64_t* value);
bool GetVarint32(std::string_view* input, uint32_t* value);
bool GetVarint64(std::string_view* input, uint64_t* value);
bool GetLengthPrefixed(std::string_view* input, std::string_view* value);

// Decodes a varint from [p, limit). Returns the byte after it, or nullptr if
// the varint is truncated or too long (or overflows 32 bits for Varint32).
const char* DecodeVarint32(const char* p, const char* limit, uint32_t* value);
const char* DecodeVarint64(const char* p, const char* limit, uint64_t* value);

}  // namespace bloomtable

#endif  // BLOOMTABLE_UTIL_CODING_H_
