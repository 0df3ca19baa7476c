// The sidecar filter file format (db/sidecar_format.h, docs/FORMAT.md
// "Sidecar filter files"): the exact bytes of a tiny file, the round trip,
// and what decoding makes of damaged bytes (every truncation and every
// flipped byte of a small file fails with DataLoss, never a crash).

#include "db/sidecar_format.h"

#include <string>

#include "gtest/gtest.h"
#include "util/coding.h"
#include "util/crc32c.h"

namespace bloomtable {
namespace {

SidecarContents TinyContents() {
  SidecarContents contents;
  SidecarBinding& binding = contents.binding;
  binding.kind = SidecarTableKind::kDatabaseTable;
  binding.file_number = 5;
  binding.file_size = 300;
  binding.footer = std::string(48, 'F');
  binding.index_trailer = std::string("\x01IIII", 5);
  binding.meta_trailers = {std::string("\x00MMMM", 5)};
  binding.smallest = "a";
  binding.largest = "b";
  contents.internal_keys = true;
  contents.entries = 3;
  contents.keys = 2;
  contents.settings = "s";
  SidecarSection point;
  point.type = SidecarSectionType::kPointFilter;
  point.name = "p";
  point.data = "xyz";
  contents.sections.push_back(point);
  return contents;
}

// Re-seals `bytes` with a correct checksum, so that what lies behind the
// checksum is reached.
std::string Reseal(std::string bytes) {
  bytes.resize(bytes.size() - 4);
  PutFixed32(&bytes, crc32c::Mask(crc32c::Value(bytes)));
  return bytes;
}

TEST(SidecarFormat, TinyFileHasTheDocumentedBytes) {
  std::string expected("btsidecr", 8);
  expected += std::string("\x01\x00\x00\x00", 4);  // version 1
  expected += '\x01';                              // a table of a database
  expected += '\x05';                              // file number
  expected += std::string("\xac\x02", 2);          // file size 300
  expected += std::string(48, 'F');                // footer
  expected += std::string("\x01IIII", 5);          // index trailer
  expected += '\x01';                              // one meta trailer
  expected += std::string("\x00MMMM", 5);
  expected += std::string(
      "\x01"
      "a"
      "\x01"
      "b",
      4);              // key range
  expected += '\x01';  // user keys
  expected += '\x03';  // entries
  expected += '\x02';  // keys
  expected += std::string(
      "\x01"
      "s",
      2);                                          // settings
  expected += '\x01';                              // one section
  expected += std::string("\x01\x01p\x03xyz", 7);  // point filter "p"
  PutFixed32(&expected, crc32c::Mask(crc32c::Value(expected)));
  EXPECT_EQ(EncodeSidecar(TinyContents()), expected);
}

TEST(SidecarFormat, DecodeGivesBackWhatWasEncoded) {
  const SidecarContents contents = TinyContents();
  absl::StatusOr<SidecarContents> decoded =
      DecodeSidecar(EncodeSidecar(contents));
  ASSERT_TRUE(decoded.ok()) << decoded.status();
  EXPECT_TRUE(decoded->binding == contents.binding);
  EXPECT_TRUE(decoded->internal_keys);
  EXPECT_EQ(decoded->entries, 3u);
  EXPECT_EQ(decoded->keys, 2u);
  EXPECT_EQ(decoded->settings, "s");
  ASSERT_EQ(decoded->sections.size(), 1u);
  EXPECT_EQ(decoded->sections[0].name, "p");
  EXPECT_EQ(decoded->sections[0].data, "xyz");
}

TEST(SidecarFormat, EveryTruncationIsDataLoss) {
  const std::string bytes = EncodeSidecar(TinyContents());
  for (size_t size = 0; size < bytes.size(); ++size) {
    absl::StatusOr<SidecarContents> decoded =
        DecodeSidecar(bytes.substr(0, size));
    EXPECT_TRUE(absl::IsDataLoss(decoded.status())) << size;
  }
}

TEST(SidecarFormat, EveryFlippedByteIsDataLoss) {
  const std::string bytes = EncodeSidecar(TinyContents());
  for (size_t i = 0; i < bytes.size(); ++i) {
    std::string damaged = bytes;
    damaged[i] ^= 0x20;
    absl::StatusOr<SidecarContents> decoded = DecodeSidecar(damaged);
    EXPECT_TRUE(absl::IsDataLoss(decoded.status())) << i;
  }
}

TEST(SidecarFormat, ResealedTruncationsNeverReadPastTheEnd) {
  // Cut at every length, then given a valid checksum: the structure itself
  // must be found short (DataLoss), or still whole where the cut fell in
  // the last section's bytes and lengths no longer agree.
  const std::string bytes = EncodeSidecar(TinyContents());
  for (size_t size = kSidecarMinSize; size < bytes.size(); ++size) {
    const std::string cut = Reseal(bytes.substr(0, size));
    absl::StatusOr<SidecarContents> decoded = DecodeSidecar(cut);
    EXPECT_FALSE(decoded.ok()) << size;
  }
}

TEST(SidecarFormat, LaterVersionIsUnsupported) {
  std::string bytes = EncodeSidecar(TinyContents());
  bytes[8] = 2;
  absl::StatusOr<SidecarContents> decoded = DecodeSidecar(Reseal(bytes));
  EXPECT_TRUE(absl::IsUnimplemented(decoded.status())) << decoded.status();
}

TEST(SidecarFormat, UnknownSectionTypeIsSkipped) {
  SidecarContents contents = TinyContents();
  SidecarSection later;
  later.type = static_cast<SidecarSectionType>(9);
  later.name = "later";
  later.data = "???";
  contents.sections.insert(contents.sections.begin(), later);
  absl::StatusOr<SidecarContents> decoded =
      DecodeSidecar(EncodeSidecar(contents));
  ASSERT_TRUE(decoded.ok()) << decoded.status();
  ASSERT_EQ(decoded->sections.size(), 1u);
  EXPECT_EQ(decoded->sections[0].type, SidecarSectionType::kPointFilter);
}

TEST(SidecarFormat, SectionLongerThanTheFileIsDataLoss) {
  std::string bytes = EncodeSidecar(TinyContents());
  // The point filter's length byte (3) sits 4 bytes before the checksum's
  // 4 bytes, behind "xyz".
  const size_t length_at = bytes.size() - 4 - 3 - 1;
  ASSERT_EQ(bytes[length_at], 3);
  bytes[length_at] = 100;
  absl::StatusOr<SidecarContents> decoded = DecodeSidecar(Reseal(bytes));
  EXPECT_TRUE(absl::IsDataLoss(decoded.status())) << decoded.status();
}

TEST(SidecarFormat, HugeMetaTrailerCountFailsAtTheEndOfTheBytes) {
  std::string bytes = EncodeSidecar(TinyContents());
  // The meta trailer count (1) follows the 48-byte footer and the 5-byte
  // index trailer, which follow magic, version, kind, number and size.
  const size_t count_at = 8 + 4 + 1 + 1 + 2 + 48 + 5;
  ASSERT_EQ(bytes[count_at], 1);
  std::string huge = bytes.substr(0, count_at);
  PutVarint32(&huge, 0x7fffffff);
  huge += bytes.substr(count_at + 1);
  absl::StatusOr<SidecarContents> decoded = DecodeSidecar(Reseal(huge));
  EXPECT_TRUE(absl::IsDataLoss(decoded.status())) << decoded.status();
}

}  // namespace
}  // namespace bloomtable
