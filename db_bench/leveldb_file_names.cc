// The two file-name functions LevelDB's TableCache calls
// (db/filename.h: TableFileName, SSTTableFileName), for a db_bench linked to
// Debian's shared LevelDB, which hides them (it exports only LevelDB's public
// API). Written here from their documented contract: "dbname/NNNNNN.ldb" and
// the older ".sst" name, the number zero-padded to six digits. Compiled only
// against the packaged LevelDB: a static release build has its own.

#include <cinttypes>
#include <cstdio>
#include <string>

#include "db/filename.h"

namespace leveldb {
namespace {

std::string NumberedFileName(const std::string& dbname, uint64_t number,
                             const char* suffix) {
  char name[32];
  std::snprintf(name, sizeof(name), "/%06" PRIu64 ".%s", number, suffix);
  return dbname + name;
}

}  // namespace

std::string TableFileName(const std::string& dbname, uint64_t number) {
  return NumberedFileName(dbname, number, "ldb");
}

std::string SSTTableFileName(const std::string& dbname, uint64_t number) {
  return NumberedFileName(dbname, number, "sst");
}

}  // namespace leveldb
