// A real RocksDB table (written by RocksDB's `ldb` tool from rocksdb-tools)
// is refused as unsupported, with a message that says what it is.

#include <dirent.h>

#include <cstdlib>
#include <string>

#include "bloomtable/file.h"
#include "bloomtable/table.h"
#include "gtest/gtest.h"
#include "tests/temp_dir.h"

namespace bloomtable {
namespace {

TEST(RocksDBFile, RealRocksDBTableIsRefusedAsUnsupported) {
  const TempDir temp_dir;
  const std::string dir = temp_dir.path();
  const std::string db = dir + "/db";
  const std::string commands =
      "ldb --db=" + db + " --create_if_missing put key1 value1 >/dev/null && " +
      "ldb --db=" + db + " put key2 value2 >/dev/null && " + "ldb --db=" + db +
      " compact >/dev/null";
  ASSERT_EQ(std::system(commands.c_str()), 0)
      << "ldb (rocksdb-tools) must be installed: third_party/install_deps.sh";

  std::string sst;
  DIR* listing = opendir(db.c_str());
  ASSERT_NE(listing, nullptr);
  while (dirent* entry = readdir(listing)) {
    const std::string name = entry->d_name;
    if (name.size() > 4 && name.substr(name.size() - 4) == ".sst") {
      sst = db + "/" + name;
    }
  }
  closedir(listing);
  ASSERT_FALSE(sst.empty()) << "RocksDB wrote no table file";

  auto size = GetFileSize(sst);
  auto file = OpenRandomAccessFile(sst);
  ASSERT_TRUE(size.ok() && file.ok());
  auto table = Table::Open(Options(), std::move(*file), *size);
  ASSERT_FALSE(table.ok());
  EXPECT_TRUE(absl::IsUnimplemented(table.status())) << table.status();
  const std::string message(table.status().message());
  EXPECT_NE(message.find(sst), std::string::npos) << message;
  EXPECT_NE(message.find("RocksDB"), std::string::npos) << message;
}

}  // namespace
}  // namespace bloomtable
