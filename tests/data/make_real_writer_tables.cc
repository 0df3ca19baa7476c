// Writes the tables of tests/data/leveldb/ and tests/data/rocksdb/ with the
// real engines (Debian's libleveldb-dev and librocksdb-dev), as
// tests/real_writer_tables.h describes them:
//
//   build/release/tests/make_real_writer_tables tests/data
//
// The files are committed; tests/real_writer_tables_test.cc reads them
// without either engine. Rerun only when the set changes: RocksDB records
// the time and a random session id in each file's properties, so its files
// differ on every run (their entries do not).

#include <dirent.h>
#include <sys/stat.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "leveldb/db.h"
#include "leveldb/env.h"
#include "leveldb/filter_policy.h"
#include "leveldb/options.h"
#include "leveldb/table_builder.h"
#include "leveldb/write_batch.h"
#include "rocksdb/env.h"
#include "rocksdb/options.h"
#include "rocksdb/sst_file_writer.h"
#include "rocksdb/table.h"
#include "tests/real_writer_tables.h"

namespace bloomtable {
namespace real_writer_tables {
namespace {

bool Fail(const std::string& what) {
  std::fprintf(stderr, "make_real_writer_tables: %s\n", what.c_str());
  return false;
}

bool ReadWholeFile(const std::string& path, std::string* contents) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  contents->assign(std::istreambuf_iterator<char>(in),
                   std::istreambuf_iterator<char>());
  return true;
}

bool WriteWholeFile(const std::string& path, const std::string& contents) {
  std::FILE* file = std::fopen(path.c_str(), "wb");
  bool ok = file != nullptr;
  if (ok) {
    ok = std::fwrite(contents.data(), 1, contents.size(), file) ==
         contents.size();
    ok = std::fclose(file) == 0 && ok;
  }
  if (ok) std::printf("%s: %zu bytes\n", path.c_str(), contents.size());
  return ok || Fail("cannot write " + path);
}

bool WriteLevelDBTable(const std::string& out, const LevelDBTable& spec,
                       const leveldb::FilterPolicy* bloom) {
  const std::string path = out + "/" + spec.path;
  leveldb::WritableFile* raw_file = nullptr;
  if (!leveldb::Env::Default()->NewWritableFile(path, &raw_file).ok()) {
    return Fail("cannot create " + path);
  }
  std::unique_ptr<leveldb::WritableFile> file(raw_file);
  leveldb::Options options;
  options.filter_policy = bloom;
  options.block_size = kBlockSize;
  options.compression =
      spec.snappy ? leveldb::kSnappyCompression : leveldb::kNoCompression;
  leveldb::TableBuilder builder(options, file.get());
  for (int i = 0; i < kTableEntries; ++i) builder.Add(UserKey(i), Value(i));
  if (!builder.Finish().ok() || !file->Close().ok()) {
    return Fail("leveldb::TableBuilder failed for " + path);
  }
  std::printf("%s: %llu bytes\n", path.c_str(),
              static_cast<unsigned long long>(builder.FileSize()));
  return true;
}

bool WriteLevelDBDatabaseTable(const std::string& out,
                               const leveldb::FilterPolicy* bloom) {
  const std::string db_path = out + "/leveldb/db.tmp";
  leveldb::Options options;
  options.create_if_missing = true;
  options.error_if_exists = true;
  options.filter_policy = bloom;
  options.block_size = kBlockSize;
  options.compression = leveldb::kSnappyCompression;
  leveldb::DB* raw_db = nullptr;
  if (!leveldb::DB::Open(options, db_path, &raw_db).ok()) {
    return Fail("cannot create the database " + db_path);
  }
  std::unique_ptr<leveldb::DB> db(raw_db);
  // Taken before the first write: compaction keeps every version after it.
  const leveldb::Snapshot* snapshot = db->GetSnapshot();
  const std::vector<Record> operations = DatabaseOperations();
  for (size_t begin = 0; begin < operations.size(); begin += kDatabaseKeys) {
    leveldb::WriteBatch batch;
    for (size_t i = begin; i < begin + kDatabaseKeys; ++i) {
      if (operations[i].deletion) {
        batch.Delete(operations[i].user_key);
      } else {
        batch.Put(operations[i].user_key, operations[i].value);
      }
    }
    if (!db->Write(leveldb::WriteOptions(), &batch).ok()) {
      return Fail("a write batch failed");
    }
  }
  db->CompactRange(nullptr, nullptr);
  db->ReleaseSnapshot(snapshot);
  db.reset();
  std::vector<std::string> tables;
  if (DIR* dir = ::opendir(db_path.c_str())) {
    while (const dirent* entry = ::readdir(dir)) {
      const std::string name = entry->d_name;
      if (name.size() > 4 && name.substr(name.size() - 4) == ".ldb") {
        tables.push_back(name);
      }
    }
    ::closedir(dir);
  }
  std::string contents;
  const bool one_table =
      tables.size() == 1 && ReadWholeFile(db_path + "/" + tables[0], &contents);
  (void)leveldb::DestroyDB(db_path, options);
  if (!one_table) {
    return Fail("the compacted database holds " +
                std::to_string(tables.size()) + " tables, not one");
  }
  return WriteWholeFile(out + "/" + kLevelDBDatabaseTable, contents);
}

bool WriteRocksDBTable(const std::string& out, const RocksDBTable& spec) {
  const std::string path = out + "/" + spec.path;
  rocksdb::BlockBasedTableOptions table_options;
  table_options.format_version = 0;
  // Any other checksum makes RocksDB raise format_version to 1.
  table_options.checksum = rocksdb::kCRC32c;
  table_options.block_size = kBlockSize;
  rocksdb::Options options;
  options.table_factory.reset(
      rocksdb::NewBlockBasedTableFactory(table_options));
  options.compression = static_cast<rocksdb::CompressionType>(spec.type);
  rocksdb::SstFileWriter writer(rocksdb::EnvOptions(), options);
  rocksdb::Status status = writer.Open(path);
  for (int i = 0; i < kTableEntries && status.ok(); ++i) {
    status = writer.Put(UserKey(i), Value(i));
  }
  if (status.ok()) status = writer.Finish();
  if (!status.ok()) return Fail(path + ": " + status.ToString());
  std::string contents;
  if (!ReadWholeFile(path, &contents)) return Fail("cannot read " + path);
  std::printf("%s: %zu bytes\n", path.c_str(), contents.size());
  return true;
}

int Main(const std::string& out) {
  ::mkdir((out + "/leveldb").c_str(), 0755);
  ::mkdir((out + "/rocksdb").c_str(), 0755);
  std::unique_ptr<const leveldb::FilterPolicy> bloom(
      leveldb::NewBloomFilterPolicy(10));
  for (const LevelDBTable& spec : kLevelDBTables) {
    if (!WriteLevelDBTable(out, spec, bloom.get())) return 1;
  }
  if (!WriteLevelDBDatabaseTable(out, bloom.get())) return 1;
  for (const RocksDBTable& spec : kRocksDBTables) {
    if (!WriteRocksDBTable(out, spec)) return 1;
  }
  return 0;
}

}  // namespace
}  // namespace real_writer_tables
}  // namespace bloomtable

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_real_writer_tables DIRECTORY\n");
    return 2;
  }
  return bloomtable::real_writer_tables::Main(argv[1]);
}
