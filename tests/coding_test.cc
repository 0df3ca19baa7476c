#include "util/coding.h"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace bloomtable {
namespace {

TEST(Coding, Fixed32IsLittleEndian) {
  std::string s;
  PutFixed32(&s, 0x04030201u);
  ASSERT_EQ(s, std::string("\x01\x02\x03\x04", 4));
  EXPECT_EQ(DecodeFixed32(s.data()), 0x04030201u);
}

TEST(Coding, Fixed64IsLittleEndian) {
  std::string s;
  PutFixed64(&s, 0xdb4775248b80fb57ull);
  ASSERT_EQ(s, std::string("\x57\xfb\x80\x8b\x24\x75\x47\xdb", 8));
  EXPECT_EQ(DecodeFixed64(s.data()), 0xdb4775248b80fb57ull);
}

TEST(Coding, Varint32RoundTripsEdgeValues) {
  std::vector<uint32_t> values;
  for (int bit = 0; bit < 32; ++bit) {
    const uint32_t power = 1u << bit;
    values.push_back(power - 1);
    values.push_back(power);
    values.push_back(power + 1);
  }
  values.push_back(std::numeric_limits<uint32_t>::max());
  std::string s;
  for (uint32_t v : values) PutVarint32(&s, v);
  std::string_view input(s);
  for (uint32_t expected : values) {
    uint32_t actual;
    ASSERT_TRUE(GetVarint32(&input, &actual));
    EXPECT_EQ(actual, expected);
  }
  EXPECT_TRUE(input.empty());
}

TEST(Coding, Varint64RoundTripsEdgeValues) {
  std::vector<uint64_t> values = {0, 100, std::numeric_limits<uint64_t>::max(),
                                  std::numeric_limits<uint64_t>::max() - 1};
  for (int bit = 0; bit < 64; ++bit) {
    const uint64_t power = 1ull << bit;
    values.push_back(power - 1);
    values.push_back(power);
  }
  std::string s;
  for (uint64_t v : values) PutVarint64(&s, v);
  std::string_view input(s);
  for (uint64_t expected : values) {
    uint64_t actual;
    ASSERT_TRUE(GetVarint64(&input, &actual));
    EXPECT_EQ(actual, expected);
    EXPECT_EQ(VarintLength(expected), VarintLength(actual));
  }
  EXPECT_TRUE(input.empty());
}

TEST(Coding, VarintLengthMatchesEncoding) {
  for (uint64_t v : {0ull, 127ull, 128ull, 16383ull, 16384ull, ~0ull}) {
    std::string s;
    PutVarint64(&s, v);
    EXPECT_EQ(static_cast<int>(s.size()), VarintLength(v)) << v;
  }
  std::string max;
  PutVarint64(&max, ~0ull);
  EXPECT_EQ(max.size(), static_cast<size_t>(kMaxVarint64Length));
}

TEST(Coding, TruncatedVarintIsRejectedWithoutConsumingInput) {
  std::string s;
  PutVarint32(&s, 1u << 30);
  for (size_t length = 0; length < s.size(); ++length) {
    std::string_view input(s.data(), length);
    uint32_t value;
    EXPECT_FALSE(GetVarint32(&input, &value)) << length;
    EXPECT_EQ(input.size(), length);
  }
}

TEST(Coding, OverlongVarint32IsRejected) {
  // Five bytes whose last byte carries more than the top 4 bits of a uint32.
  const std::string too_big("\xff\xff\xff\xff\x1f", 5);
  std::string_view input(too_big);
  uint32_t value;
  EXPECT_FALSE(GetVarint32(&input, &value));
  // Six continuation bytes: never a valid varint32.
  const std::string too_long("\x80\x80\x80\x80\x80\x00", 6);
  input = too_long;
  EXPECT_FALSE(GetVarint32(&input, &value));
}

TEST(Coding, OverlongVarint64IsRejected) {
  std::string eleven(10, '\x80');
  eleven.push_back('\x00');
  std::string_view input(eleven);
  uint64_t value;
  EXPECT_FALSE(GetVarint64(&input, &value));
  // Ten bytes whose last carries more than the top bit.
  std::string overflow(9, '\xff');
  overflow.push_back('\x02');
  input = overflow;
  EXPECT_FALSE(GetVarint64(&input, &value));
}

TEST(Coding, FixedDecodersRejectShortInput) {
  const std::string three("abc");
  std::string_view input(three);
  uint32_t v32;
  uint64_t v64;
  EXPECT_FALSE(GetFixed32(&input, &v32));
  EXPECT_FALSE(GetFixed64(&input, &v64));
  EXPECT_EQ(input.size(), 3u);
}

TEST(Coding, LengthPrefixedRoundTripsAndRejectsShortBody) {
  std::string s;
  PutLengthPrefixed(&s, "");
  PutLengthPrefixed(&s, "hello");
  PutLengthPrefixed(&s, std::string(300, 'x'));
  std::string_view input(s);
  std::string_view value;
  ASSERT_TRUE(GetLengthPrefixed(&input, &value));
  EXPECT_EQ(value, "");
  ASSERT_TRUE(GetLengthPrefixed(&input, &value));
  EXPECT_EQ(value, "hello");
  ASSERT_TRUE(GetLengthPrefixed(&input, &value));
  EXPECT_EQ(value, std::string(300, 'x'));
  EXPECT_TRUE(input.empty());

  std::string short_body;
  PutVarint32(&short_body, 10);
  short_body += "abc";
  input = short_body;
  EXPECT_FALSE(GetLengthPrefixed(&input, &value));
  EXPECT_EQ(input.size(), short_body.size());
}

}  // namespace
}  // namespace bloomtable
