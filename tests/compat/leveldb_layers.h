// Test helper: a real leveldb::DB written in deliberate layers, with a model
// of every write it was given. Test-only code; not thread-safe.
//
// The write buffer is large, so that LevelDB flushes its memtable only when
// Flush() asks: Flush() is a CompactRange over a key range nothing is written
// in, which writes the memtable to a table and compacts nothing. Where that
// table lands follows LevelDB's rule for a flushed memtable: level 2 when it
// overlaps no table, else one level above the shallowest table it overlaps
// (level 0 once level 1 holds an overlapping table). So four overlapping
// flushes leave tables on levels 2, 1, 0 and 0, and no automatic compaction
// starts (level 0 stays below LevelDB's trigger of 4 files). Writes after the
// last Flush() stay in the live log.
//
// The model is the list of every write with its sequence number, kept apart
// from the code under test: tests derive what the view must show from it.

#ifndef BLOOMTABLE_TESTS_COMPAT_LEVELDB_LAYERS_H_
#define BLOOMTABLE_TESTS_COMPAT_LEVELDB_LAYERS_H_

#include <leveldb/db.h>
#include <leveldb/filter_policy.h>
#include <leveldb/options.h>
#include <leveldb/write_batch.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace bloomtable {
namespace compat_test {

// One write to one key as the model keeps it.
struct ModelWrite {
  uint64_t sequence = 0;
  bool deletion = false;
  std::string value;  // empty for a deletion
};

class LayeredLevelDB {
 public:
  // Creates the database in `dir` (which must not hold one).
  explicit LayeredLevelDB(const std::string& dir)
      : bloom_(leveldb::NewBloomFilterPolicy(10)) {
    leveldb::Options options;
    options.create_if_missing = true;
    options.error_if_exists = true;
    options.filter_policy = bloom_.get();
    options.write_buffer_size = 64 << 20;  // flushes only on Flush()
    options.block_size = 512;              // several data blocks per table
    leveldb::DB* raw = nullptr;
    const leveldb::Status s = leveldb::DB::Open(options, dir, &raw);
    EXPECT_TRUE(s.ok()) << s.ToString();
    db_.reset(raw);
  }
  ~LayeredLevelDB() { Close(); }

  bool ok() const { return db_ != nullptr; }

  void Put(const std::string& key, const std::string& value) {
    ASSERT_TRUE(db_->Put(leveldb::WriteOptions(), key, value).ok());
    Record(key, false, value);
  }
  void Delete(const std::string& key) {
    ASSERT_TRUE(db_->Delete(leveldb::WriteOptions(), key).ok());
    Record(key, true, "");
  }
  // Several operations in one batch: LevelDB gives them consecutive
  // sequence numbers in order, as the model does.
  struct Op {
    std::string key;
    bool deletion;
    std::string value;
  };
  void Batch(const std::vector<Op>& ops) {
    leveldb::WriteBatch batch;
    for (const Op& op : ops) {
      if (op.deletion) {
        batch.Delete(op.key);
      } else {
        batch.Put(op.key, op.value);
      }
    }
    ASSERT_TRUE(db_->Write(leveldb::WriteOptions(), &batch).ok());
    for (const Op& op : ops) {
      Record(op.key, op.deletion, op.deletion ? "" : op.value);
    }
  }

  // Writes the memtable to a table (see the top of this file).
  void Flush() {
    const leveldb::Slice begin = "\xff\xff flush";
    const leveldb::Slice end = "\xff\xff flush\xff";
    db_->CompactRange(&begin, &end);
  }
  // Compacts every level: versions hidden below the oldest snapshot held
  // are dropped.
  void CompactAll() { db_->CompactRange(nullptr, nullptr); }

  const leveldb::Snapshot* TakeSnapshot() { return db_->GetSnapshot(); }
  void ReleaseSnapshot(const leveldb::Snapshot* snapshot) {
    db_->ReleaseSnapshot(snapshot);
  }

  // LevelDB's count of tables on `level`.
  int TablesAt(int level) {
    std::string count;
    EXPECT_TRUE(db_->GetProperty(
        "leveldb.num-files-at-level" + std::to_string(level), &count));
    return std::stoi(count);
  }

  // Closes the database; its last writes stay in the log.
  void Close() { db_.reset(); }

  uint64_t last_sequence() const { return sequence_; }
  // Every key's writes, oldest first.
  const std::map<std::string, std::vector<ModelWrite>>& writes() const {
    return writes_;
  }

 private:
  void Record(const std::string& key, bool deletion, const std::string& value) {
    writes_[key].push_back(ModelWrite{++sequence_, deletion, value});
  }

  std::unique_ptr<const leveldb::FilterPolicy> bloom_;
  std::unique_ptr<leveldb::DB> db_;
  uint64_t sequence_ = 0;  // LevelDB numbers writes from 1
  std::map<std::string, std::vector<ModelWrite>> writes_;
};

}  // namespace compat_test
}  // namespace bloomtable

#endif  // BLOOMTABLE_TESTS_COMPAT_LEVELDB_LAYERS_H_
