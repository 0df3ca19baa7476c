// XXH3, which the cache-local Bloom and Ribbon filters store (through
// util/xxhash64.h), pinned: its output changed before xxHash 0.8.0 and is
// promised stable from it on; the build requires >= 0.8.0. Every length
// class of XXH3's code (0, 1-3, 4-8, 9-16, 17-128, 129-240, longer), with
// seed 0 and the two filters' seeds. The empty input with seed 0 is
// XXH3's published test value; the rest were computed with xxHash 0.8.1.
// (The filters' own golden bytes are in cache_local_bloom_test.cc and
// ribbon_test.cc.)

#include <cstddef>
#include <cstdint>
#include <string>

#include "gtest/gtest.h"
#include "util/xxhash64.h"

namespace bloomtable {
namespace {

struct Pinned {
  size_t length;
  uint64_t seed;
  uint64_t hash;
};

constexpr Pinned kPinned[] = {
    {0, 0x0ull, 0x2d06800538d394c2ull},
    {0, 0x434c426c6f6f6d31ull, 0xd3163828ee49fe10ull},
    {0, 0x526962626f6e3100ull, 0x8fd72f66b0d2d145ull},
    {1, 0x0ull, 0xe6c632b61e964e1full},
    {1, 0x434c426c6f6f6d31ull, 0xf0f27eead530ce31ull},
    {1, 0x526962626f6e3100ull, 0xfc51212737e2e9a4ull},
    {3, 0x0ull, 0x78af5f94892f3950ull},
    {3, 0x434c426c6f6f6d31ull, 0x53478855595e4426ull},
    {3, 0x526962626f6e3100ull, 0xeb314925f1b34091ull},
    {4, 0x0ull, 0x6497a96f53a89890ull},
    {4, 0x434c426c6f6f6d31ull, 0x26f8ea12c7279128ull},
    {4, 0x526962626f6e3100ull, 0x2719467948428f95ull},
    {8, 0x0ull, 0x6f45a76842a96483ull},
    {8, 0x434c426c6f6f6d31ull, 0xdbdcdd1feb5eb57aull},
    {8, 0x526962626f6e3100ull, 0x65ff942506f8844aull},
    {9, 0x0ull, 0xe0dde4fc174590a0ull},
    {9, 0x434c426c6f6f6d31ull, 0x37183a689654b027ull},
    {9, 0x526962626f6e3100ull, 0x631033726ad2bbc1ull},
    {16, 0x0ull, 0x3d3ccac9af14d8a8ull},
    {16, 0x434c426c6f6f6d31ull, 0x62e74a43037d62d3ull},
    {16, 0x526962626f6e3100ull, 0xd5b810e06d319ff2ull},
    {17, 0x0ull, 0xca7f3571df47cacfull},
    {17, 0x434c426c6f6f6d31ull, 0x708a0527d959c9c2ull},
    {17, 0x526962626f6e3100ull, 0x6214cff51aadee76ull},
    {128, 0x0ull, 0x3e99edc6c76f21c6ull},
    {128, 0x434c426c6f6f6d31ull, 0xf61bb8bf5e6e6c85ull},
    {128, 0x526962626f6e3100ull, 0x33f68e39c626fa8eull},
    {129, 0x0ull, 0x852cb20608c9d2c7ull},
    {129, 0x434c426c6f6f6d31ull, 0x6c3fae9aabccb73bull},
    {129, 0x526962626f6e3100ull, 0xef2e4148e0f6a32bull},
    {240, 0x0ull, 0xea0e0f78188232edull},
    {240, 0x434c426c6f6f6d31ull, 0x8a7106e757fb8351ull},
    {240, 0x526962626f6e3100ull, 0x03f339d69ca64d12ull},
    {241, 0x0ull, 0xbb0a906af5b5c211ull},
    {241, 0x434c426c6f6f6d31ull, 0x9774f8afbfd43c2full},
    {241, 0x526962626f6e3100ull, 0x7450f795f1cf68b6ull},
    {300, 0x0ull, 0x7f720c1f731c9648ull},
    {300, 0x434c426c6f6f6d31ull, 0xae899ea143c60885ull},
    {300, 0x526962626f6e3100ull, 0x2aa684859c997575ull},
};

TEST(XXH3, MatchesPinnedValuesForEveryLengthClass) {
  std::string text;
  for (int i = 0; i < 300; ++i) text.push_back(static_cast<char>('a' + i % 26));
  for (const Pinned& pinned : kPinned) {
    EXPECT_EQ(XXH3Hash64(std::string_view(text).substr(0, pinned.length),
                         pinned.seed),
              pinned.hash)
        << "length " << pinned.length << ", seed " << pinned.seed;
  }
}

}  // namespace
}  // namespace bloomtable
