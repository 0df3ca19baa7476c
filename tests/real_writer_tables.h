// The committed tables in tests/data/leveldb/ and tests/data/rocksdb/, which
// the real engines wrote: Debian's LevelDB (libleveldb-dev) through
// leveldb::TableBuilder and leveldb::DB, and Debian's RocksDB
// (librocksdb-dev) through SstFileWriter with format_version 0 (LevelDB's
// magic number, RocksDB's numbering of compression types). Written by
// tests/data/make_real_writer_tables.cc; read by
// tests/real_writer_tables_test.cc without linking either engine. This
// header says what each file holds, for both. Test-only code.

#ifndef BLOOMTABLE_TESTS_REAL_WRITER_TABLES_H_
#define BLOOMTABLE_TESTS_REAL_WRITER_TABLES_H_

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace bloomtable {
namespace real_writer_tables {

// The tables written with leveldb::TableBuilder and SstFileWriter hold
// kTableEntries plain keys "key00000", ... with these values (compressible,
// different per key), cut into blocks of about kBlockSize bytes.
inline constexpr int kTableEntries = 400;
inline constexpr size_t kBlockSize = 1024;

inline std::string UserKey(int i) {
  char key[16];
  std::snprintf(key, sizeof(key), "key%05d", i);
  return key;
}

inline std::string Value(int i) {
  std::string value;
  for (int j = 0; j <= i % 4; ++j) {
    value += "value " + std::to_string(i) + " part " + std::to_string(j) + "; ";
  }
  return value;
}

// leveldb::TableBuilder with LevelDB's Bloom filter at 10 bits per key.
struct LevelDBTable {
  const char* path;  // under tests/data/
  bool snappy;       // kSnappyCompression, else kNoCompression
};

inline constexpr LevelDBTable kLevelDBTables[] = {
    {"leveldb/tablebuilder_none.ldb", false},
    {"leveldb/tablebuilder_snappy.ldb", true},
};

// SstFileWriter, format_version 0 with CRC32C checksums, no filter. `type`
// is RocksDB's number of the compression (and its enum's value): 0 none,
// 1 Snappy, 2 raw deflate, 3 bzip2, 4 LZ4, 5 LZ4HC, 7 zstd.
struct RocksDBTable {
  const char* path;  // under tests/data/
  int type;
};

inline constexpr RocksDBTable kRocksDBTables[] = {
    {"rocksdb/fv0_none.sst", 0}, {"rocksdb/fv0_snappy.sst", 1},
    {"rocksdb/fv0_zlib.sst", 2}, {"rocksdb/fv0_bzip2.sst", 3},
    {"rocksdb/fv0_lz4.sst", 4},  {"rocksdb/fv0_lz4hc.sst", 5},
    {"rocksdb/fv0_zstd.sst", 7},
};

// A database's table: leveldb::DB (LevelDB's Bloom filter at 10 bits per
// key, Snappy, 1 KiB blocks) took kDatabaseRounds write batches while a
// snapshot taken before the first write kept every version; then
// CompactRange wrote one table holding every record below.
inline constexpr const char* kLevelDBDatabaseTable = "leveldb/db_compacted.ldb";
inline constexpr int kDatabaseKeys = 150;
inline constexpr int kDatabaseRounds = 3;

struct Record {
  std::string user_key;
  uint64_t sequence = 0;
  bool deletion = false;
  std::string value;  // empty for a deletion
};

// In round r, key i is deleted when (i + r) % 5 == 0 and otherwise put with
// RoundValue(i, r); each round is one batch in key order.
inline std::string RoundValue(int i, int round) {
  return std::string(1 + i % 13, static_cast<char>('A' + round)) + "-" +
         std::to_string(i);
}

// The operations in the order they were written, with LevelDB's sequence
// numbers (the first write is 1; each operation of a batch takes the next).
inline std::vector<Record> DatabaseOperations() {
  std::vector<Record> records;
  uint64_t sequence = 0;
  for (int round = 0; round < kDatabaseRounds; ++round) {
    for (int i = 0; i < kDatabaseKeys; ++i) {
      Record record;
      record.user_key = UserKey(i);
      record.sequence = ++sequence;
      record.deletion = (i + round) % 5 == 0;
      if (!record.deletion) record.value = RoundValue(i, round);
      records.push_back(record);
    }
  }
  return records;
}

// The same records in a table's order: user key ascending, newest first.
inline std::vector<Record> DatabaseRecordsInTableOrder() {
  std::vector<Record> records = DatabaseOperations();
  std::sort(records.begin(), records.end(),
            [](const Record& a, const Record& b) {
              if (a.user_key != b.user_key) return a.user_key < b.user_key;
              return a.sequence > b.sequence;
            });
  return records;
}

}  // namespace real_writer_tables
}  // namespace bloomtable

#endif  // BLOOMTABLE_TESTS_REAL_WRITER_TABLES_H_
