// Files that are not tables, or not ours, or not regular files: each gets
// its own clear message that names the file and says what it is.

#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

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

// A watchdog for the tests that open special files: an open that blocked
// (as a plain open of a FIFO with no writer does) would hang the test, so
// SIGALRM ends the binary instead; a test that returns disarms it.
class OpenWatchdog {
 public:
  OpenWatchdog() { ::alarm(60); }
  ~OpenWatchdog() { ::alarm(0); }
};

// Every way the library opens a file by name, with its status.
std::vector<std::pair<std::string, absl::Status>> OpenEveryWay(
    const std::string& path) {
  RandomAccessFileOptions direct;
  direct.use_direct_io = true;
  return {
      {"OpenRandomAccessFile", OpenRandomAccessFile(path).status()},
      {"OpenMmapRandomAccessFile", OpenMmapRandomAccessFile(path).status()},
      {"O_DIRECT", OpenRandomAccessFileWithOptions(path, direct).status()},
      {"GetFileSize", GetFileSize(path).status()},
      {"ReadFileToString", ReadFileToString(path).status()},
  };
}

// A FIFO (no writer: opening it for reading would block), a character
// device, a socket: each is refused at once, naming the path and its kind.
TEST(FileKinds, SpecialFilesAreRefusedWithoutBlocking) {
  const TempDir temp_dir;
  const std::string fifo = temp_dir.File("fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const std::string socket_path = temp_dir.File("socket");
  const int listener = ::socket(AF_UNIX, SOCK_STREAM, 0);
  ASSERT_GE(listener, 0);
  sockaddr_un address = {};
  address.sun_family = AF_UNIX;
  ASSERT_LT(socket_path.size(), sizeof(address.sun_path));
  std::memcpy(address.sun_path, socket_path.c_str(), socket_path.size() + 1);
  ASSERT_EQ(
      ::bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof(address)),
      0);
  const std::vector<std::pair<std::string, std::string>> files = {
      {fifo, "a FIFO"},
      {"/dev/null", "a character device"},
      {socket_path, "a socket"},
  };
  OpenWatchdog watchdog;
  for (const auto& [path, kind] : files) {
    for (const auto& [how, status] : OpenEveryWay(path)) {
      SCOPED_TRACE(how);
      EXPECT_TRUE(absl::IsFailedPrecondition(status)) << status;
      EXPECT_TRUE(Mentions(status, path)) << status;
      EXPECT_TRUE(Mentions(status, "not a regular file (" + kind + ")"))
          << status;
    }
  }
  ::close(listener);
}

// With a writer holding the FIFO open (so that a blocking open would not
// block), it is refused all the same: its type, not the wait, decides.
TEST(FileKinds, FifoWithAWriterIsRefusedToo) {
  const TempDir temp_dir;
  const std::string fifo = temp_dir.File("fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const int writer = ::open(fifo.c_str(), O_RDWR | O_NONBLOCK);
  ASSERT_GE(writer, 0);
  ASSERT_EQ(::write(writer, "data", 4), 4);
  OpenWatchdog watchdog;
  for (const auto& [how, status] : OpenEveryWay(fifo)) {
    SCOPED_TRACE(how);
    EXPECT_TRUE(absl::IsFailedPrecondition(status)) << status;
  }
  ::close(writer);
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
