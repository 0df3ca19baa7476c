#include "util/coding.h"

namespace bloomtable {

void PutFixed32(std::string* dst, uint32_t value) {
  char buf[4];
  EncodeFixed32(buf, value);
  dst->append(buf, sizeof(buf));
}

void PutFixed64(std::string* dst, uint64_t value) {
  char buf[8];
  EncodeFixed64(buf, value);
  dst->append(buf, sizeof(buf));
}

char* EncodeVarint64(char* dst, uint64_t value) {
  unsigned char* p = reinterpret_cast<unsigned char*>(dst);
  while (value >= 0x80) {
    *p++ = static_cast<unsigned char>(value | 0x80);
    value >>= 7;
  }
  *p++ = static_cast<unsigned char>(value);
  return reinterpret_cast<char*>(p);
}

char* EncodeVarint32(char* dst, uint32_t value) {
  return EncodeVarint64(dst, value);
}

void PutVarint32(std::string* dst, uint32_t value) {
  char buf[kMaxVarint32Length];
  dst->append(buf, EncodeVarint32(buf, value) - buf);
}

void PutVarint64(std::string* dst, uint64_t value) {
  char buf[kMaxVarint64Length];
  dst->append(buf, EncodeVarint64(buf, value) - buf);
}

void PutLengthPrefixed(std::string* dst, std::string_view value) {
  PutVarint32(dst, static_cast<uint32_t>(value.size()));
  dst->append(value.data(), value.size());
}

int VarintLength(uint64_t value) {
  int length = 1;
  while (value >= 0x80) {
    value >>= 7;
    ++length;
  }
  return length;
}

const char* DecodeVarint64(const char* p, const char* limit, uint64_t* value) {
  uint64_t result = 0;
  for (int shift = 0; shift <= 63 && p < limit; shift += 7) {
    const uint64_t byte = static_cast<unsigned char>(*p++);
    // The tenth byte may only contribute the top bit.
    if (shift == 63 && byte > 1) return nullptr;
    result |= (byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) {
      *value = result;
      return p;
    }
  }
  return nullptr;
}

const char* DecodeVarint32(const char* p, const char* limit, uint32_t* value) {
  uint32_t result = 0;
  for (int shift = 0; shift <= 28 && p < limit; shift += 7) {
    const uint32_t byte = static_cast<unsigned char>(*p++);
    // The fifth byte may only contribute the top four bits.
    if (shift == 28 && byte > 0x0f) return nullptr;
    result |= (byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) {
      *value = result;
      return p;
    }
  }
  return nullptr;
}

bool GetFixed32(std::string_view* input, uint32_t* value) {
  if (input->size() < 4) return false;
  *value = DecodeFixed32(input->data());
  input->remove_prefix(4);
  return true;
}

bool GetFixed64(std::string_view* input, uint64_t* value) {
  if (input->size() < 8) return false;
  *value = DecodeFixed64(input->data());
  input->remove_prefix(8);
  return true;
}

bool GetVarint32(std::string_view* input, uint32_t* value) {
  const char* begin = input->data();
  const char* end = begin + input->size();
  const char* next = DecodeVarint32(begin, end, value);
  if (next == nullptr) return false;
  input->remove_prefix(next - begin);
  return true;
}

bool GetVarint64(std::string_view* input, uint64_t* value) {
  const char* begin = input->data();
  const char* end = begin + input->size();
  const char* next = DecodeVarint64(begin, end, value);
  if (next == nullptr) return false;
  input->remove_prefix(next - begin);
  return true;
}

bool GetLengthPrefixed(std::string_view* input, std::string_view* value) {
  std::string_view rest = *input;
  uint32_t length;
  if (!GetVarint32(&rest, &length) || rest.size() < length) return false;
  *value = rest.substr(0, length);
  rest.remove_prefix(length);
  *input = rest;
  return true;
}

}  // namespace bloomtable
