// A RocksDB database is a valid database of another engine: its directory
// and its MANIFEST are Unimplemented, naming RocksDB, never DataLoss. The
// database is written by Debian's RocksDB at test time.

#include <rocksdb/db.h>
#include <rocksdb/options.h>

#include <filesystem>
#include <memory>
#include <string>

#include "bloomtable/db_files.h"
#include "bloomtable/db_version.h"
#include "bloomtable/file.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/temp_dir.h"

namespace bloomtable {
namespace {

using ::testing::HasSubstr;

std::string WriteRocksDB(const TempDir& dir) {
  const std::string path = dir.path() + "/rocks";
  rocksdb::Options options;
  options.create_if_missing = true;
  rocksdb::DB* raw = nullptr;
  const rocksdb::Status status = rocksdb::DB::Open(options, path, &raw);
  EXPECT_TRUE(status.ok()) << status.ToString();
  std::unique_ptr<rocksdb::DB> db(raw);
  EXPECT_TRUE(db->Put(rocksdb::WriteOptions(), "k", "v").ok());
  EXPECT_TRUE(db->Flush(rocksdb::FlushOptions()).ok());
  return path;
}

TEST(RocksDBManifest, DirectoryIsUnimplementedNamingRocksDB) {
  TempDir dir;
  const std::string path = WriteRocksDB(dir);
  const absl::Status status = ReadVersion(path).status();
  EXPECT_TRUE(absl::IsUnimplemented(status)) << status;
  EXPECT_THAT(std::string(status.message()), HasSubstr("RocksDB"));
}

TEST(RocksDBManifest, ManifestIsUnimplementedNamingRocksDB) {
  TempDir dir;
  const std::string path = WriteRocksDB(dir);
  int manifests = 0;
  for (const auto& entry : std::filesystem::directory_iterator(path)) {
    const std::string name = entry.path().filename().string();
    const std::optional<DbFileName> parsed = ParseDbFileName(name);
    if (!parsed || parsed->type != DbFileType::kManifest) continue;
    ++manifests;
    const std::string file_path = entry.path().string();
    std::unique_ptr<RandomAccessFile> file =
        OpenRandomAccessFile(file_path).value();
    const uint64_t size = GetFileSize(file_path).value();
    EXPECT_EQ(IdentifyLogContents(*file, size).value(), LogContents::kManifest);
    const absl::Status status = ReadManifest(*file, size).status();
    EXPECT_TRUE(absl::IsUnimplemented(status)) << status;
    EXPECT_THAT(std::string(status.message()), HasSubstr("RocksDB"));
  }
  EXPECT_EQ(manifests, 1);
}

}  // namespace
}  // namespace bloomtable
