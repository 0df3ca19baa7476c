// Files that are not tables, or not ours: each gets its own clear message
// that names the file and says what it is.

#include <sys/stat.h>

#include <cstdlib>
#include <string>

#include "bloomtable/file.h"
#include "bloomtable/table.h"
#include "bloomtable/table_builder.h"
#include "gtest/gtest.h"
#include "tests/temp_dir.h"
#include "util/coding.h"
#include "util/crc32c.h"

namespace bloomtable {
namespace {

absl::Status OpenBytes(const std::string& bytes, const std::string& name) {
  return Table::Open(Options(), NewMemoryRandomAccessFile(bytes, name),
                     bytes.size())
      .status();
}

bool Mentions(const absl::Status& status, const std::string& text) {
  return std::string(status.message()).find(text) != std::string::npos;
}

TEST(FileKinds, EmptyFileSaysEmpty) {
  const absl::Status status = OpenBytes("", "empty.ldb");
  EXPECT_TRUE(absl::IsDataLoss(status));
  EXPECT_TRUE(Mentions(status, "empty.ldb")) << status;
  EXPECT_TRUE(Mentions(status, "empty file")) << status;
}

TEST(FileKinds, FileShorterThanAFooterSaysSo) {
  const absl::Status status = OpenBytes("0123456789", "short.ldb");
  EXPECT_TRUE(absl::IsDataLoss(status));
  EXPECT_TRUE(Mentions(status, "short.ldb")) << status;
  EXPECT_TRUE(Mentions(status, "shorter than a table's 48-byte footer"))
      << status;
}

TEST(FileKinds, TextFileIsNotATable) {
  const absl::Status status =
      OpenBytes(std::string(200, 'x') + "\n", "notes.txt");
  EXPECT_TRUE(absl::IsDataLoss(status));
  EXPECT_TRUE(Mentions(status, "notes.txt")) << status;
  EXPECT_TRUE(Mentions(status, "not a table")) << status;
}

TEST(FileKinds, RocksDBMagicIsAnUnsupportedFormat) {
  std::string bytes(100, '\0');
  std::string magic;
  PutFixed64(&magic, 0x88e241b785f4cff7ull);
  bytes += magic;
  const absl::Status status = OpenBytes(bytes, "rocks.sst");
  EXPECT_TRUE(absl::IsUnimplemented(status));
  EXPECT_TRUE(Mentions(status, "rocks.sst")) << status;
  EXPECT_TRUE(Mentions(status, "RocksDB")) << status;
}

TEST(FileKinds, DirectoryIsAnErrorNamingIt) {
  const TempDir temp_dir;
  const std::string dir = temp_dir.path();
  auto file = OpenRandomAccessFile(dir);
  ASSERT_FALSE(file.ok());
  EXPECT_TRUE(Mentions(file.status(), dir)) << file.status();
  EXPECT_TRUE(Mentions(file.status(), "directory")) << file.status();
}

TEST(FileKinds, UnknownCompressionTypeIsNamed) {
  Options options;
  options.compression = CompressionType::kNone;
  StringWritableFile out;
  TableBuilder builder(options, &out);
  ASSERT_TRUE(builder.Add("key", "value").ok());
  ASSERT_TRUE(builder.Finish().ok());
  std::string bytes = out.contents();
  // The first data block starts at 0: its trailer follows its contents.
  // Find its size from the first entry: shared 0, unshared 3, value 5, then
  // the key and value, then one restart (4 bytes) and the count (4 bytes).
  const size_t block_size = 3 + 3 + 5 + 4 + 4;
  bytes[block_size] = 7;
  const uint32_t crc = crc32c::Extend(crc32c::Value(bytes.data(), block_size),
                                      bytes.data() + block_size, 1);
  EncodeFixed32(&bytes[block_size + 1], crc32c::Mask(crc));
  auto table = Table::Open(options, NewMemoryRandomAccessFile(bytes, "t.ldb"),
                           bytes.size());
  ASSERT_TRUE(table.ok()) << table.status();
  const absl::Status status = (*table)->Get(ReadOptions(), "key").status();
  EXPECT_TRUE(absl::IsDataLoss(status));
  EXPECT_TRUE(Mentions(status, "t.ldb")) << status;
  EXPECT_TRUE(Mentions(status, "unknown compression type 7")) << status;
}

}  // namespace
}  // namespace bloomtable
