// A real LevelDB database that builds and uses bloomtable's cache-local Bloom
// filter in its own table files, through the LevelDB adapter.
//
//   leveldb_adapter [DB_DIR]    (default: ./adapter_db)

#include <cstdio>
#include <memory>
#include <string>

#include "bloomtable/filter_policy.h"
#include "bloomtable/leveldb_filter_adapter.h"
#include "leveldb/db.h"

int main(int argc, char** argv) {
  const std::string path = argc > 1 ? argv[1] : "adapter_db";
  auto policy = bloomtable::NewLevelDBFilterPolicyAdapter(
      bloomtable::NewCacheLocalBloomFilterPolicy(10));
  if (!policy.ok()) {
    std::fprintf(stderr, "%s\n", policy.status().ToString().c_str());
    return 1;
  }

  leveldb::Options options;
  options.create_if_missing = true;
  options.filter_policy = policy->get();  // must outlive the database
  leveldb::DB* raw_db = nullptr;
  leveldb::Status status = leveldb::DB::Open(options, path, &raw_db);
  if (!status.ok()) {
    std::fprintf(stderr, "%s\n", status.ToString().c_str());
    return 1;
  }
  std::unique_ptr<leveldb::DB> db(raw_db);

  for (int i = 0; i < 10000; i += 2) {
    char key[32];
    std::snprintf(key, sizeof(key), "%016d", i);
    if (!db->Put(leveldb::WriteOptions(), key, "v").ok()) return 1;
  }
  db->CompactRange(nullptr, nullptr);  // table files, with our filters

  int found = 0, absent = 0;
  for (int i = 0; i < 10000; ++i) {
    char key[32];
    std::snprintf(key, sizeof(key), "%016d", i);
    std::string value;
    leveldb::Status get = db->Get(leveldb::ReadOptions(), key, &value);
    if (get.ok()) {
      ++found;
    } else if (get.IsNotFound()) {
      ++absent;
    } else {
      std::fprintf(stderr, "%s\n", get.ToString().c_str());
      return 1;
    }
  }
  std::printf("filter %s: %d found, %d absent\n", options.filter_policy->Name(),
              found, absent);
  return found == 5000 && absent == 5000 ? 0 : 1;
}
