// Test helpers: a real LevelDB database written by leveldb::DB with random
// puts, overwrites and deletes, a small write buffer and a Bloom filter, so
// that it holds tables on several levels and a live log; and what
// leveldb::DB answers for it. Test-only code; not thread-safe.

#ifndef BLOOMTABLE_TESTS_COMPAT_LEVELDB_DATABASE_H_
#define BLOOMTABLE_TESTS_COMPAT_LEVELDB_DATABASE_H_

#include <leveldb/comparator.h>
#include <leveldb/db.h>
#include <leveldb/filter_policy.h>
#include <leveldb/options.h>

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "bloomtable/file.h"
#include "gtest/gtest.h"

namespace bloomtable {
namespace compat_test {

// The keys the writes draw from: "key00000".."keyNNNNN", and a second range
// "zz..." written alone in the middle so that its flush lands on a deeper
// level (it overlaps nothing).
inline std::string ModelKey(int i) { return absl::StrFormat("key%05d", i); }

// LevelDB's side of tests/reverse_comparator.h, under the same name.
class LevelDBReverseComparator final : public leveldb::Comparator {
 public:
  int Compare(const leveldb::Slice& a, const leveldb::Slice& b) const override {
    return b.compare(a);
  }
  const char* Name() const override { return "test.Reverse"; }
  void FindShortestSeparator(std::string*,
                             const leveldb::Slice&) const override {}
  void FindShortSuccessor(std::string*) const override {}
};

struct WrittenDatabase {
  // The newest state, and the state right after `checkpoint_sequence` (one
  // sequence number per single put or delete, from 1).
  std::map<std::string, std::string> model;
  std::map<std::string, std::string> checkpoint_model;
  uint64_t checkpoint_sequence = 0;
  std::vector<std::string> universe;  // every key ever written
  // Keys written after the checkpoint: their checkpoint version may have
  // been compacted away (no snapshot held it).
  std::set<std::string> written_after_checkpoint;
};

// Writes a database into `dir` with leveldb::DB and closes it, leaving its
// last writes in the log. `comparator` null: bytewise.
inline WrittenDatabase WriteLevelDBDatabase(
    const std::string& dir, uint32_t seed,
    const leveldb::Comparator* comparator = nullptr, int operations = 12000,
    leveldb::CompressionType compression = leveldb::kSnappyCompression) {
  WrittenDatabase out;
  std::unique_ptr<const leveldb::FilterPolicy> bloom(
      leveldb::NewBloomFilterPolicy(10));
  leveldb::Options options;
  options.create_if_missing = true;
  options.filter_policy = bloom.get();
  options.write_buffer_size = 64 * 1024;  // LevelDB's smallest
  options.max_file_size = 1024 * 1024;
  options.block_size = 1024;
  options.compression = compression;
  if (comparator != nullptr) options.comparator = comparator;
  leveldb::DB* raw = nullptr;
  leveldb::Status s = leveldb::DB::Open(options, dir, &raw);
  EXPECT_TRUE(s.ok()) << s.ToString();
  if (!s.ok()) return out;
  std::unique_ptr<leveldb::DB> db(raw);
  std::mt19937 rng(seed);
  uint64_t sequence = 0;
  std::set<std::string> universe;
  auto put = [&](const std::string& key) {
    std::string value = absl::StrFormat(
        "v%llu-", static_cast<unsigned long long>(sequence + 1));
    value.append(rng() % 200, static_cast<char>('a' + rng() % 26));
    ASSERT_TRUE(db->Put(leveldb::WriteOptions(), key, value).ok());
    ++sequence;
    out.model[key] = value;
    universe.insert(key);
    if (out.checkpoint_sequence != 0) out.written_after_checkpoint.insert(key);
  };
  auto del = [&](const std::string& key) {
    ASSERT_TRUE(db->Delete(leveldb::WriteOptions(), key).ok());
    ++sequence;
    out.model.erase(key);
    universe.insert(key);
    if (out.checkpoint_sequence != 0) out.written_after_checkpoint.insert(key);
  };
  const int key_space = 3000;
  for (int i = 0; i < operations; ++i) {
    if (i == operations / 3) {
      // Push what is there down, then write a range that overlaps nothing:
      // its flush goes below level 0.
      db->CompactRange(nullptr, nullptr);
      for (int j = 0; j < 600; ++j) put(absl::StrFormat("zz%05d", j));
      out.checkpoint_sequence = sequence;
      out.checkpoint_model = out.model;
    }
    const std::string key = ModelKey(static_cast<int>(rng() % key_space));
    if (rng() % 5 == 0) {
      del(key);
    } else {
      put(key);
    }
  }
  out.universe.assign(universe.begin(), universe.end());
  return out;
}

// Copies the directory `from` to `to` (which must not exist).
inline void CopyDirectory(const std::string& from, const std::string& to) {
  std::filesystem::copy(from, to, std::filesystem::copy_options::recursive);
}

// Every file of `dir` with its bytes, to show that reading changed nothing.
inline std::map<std::string, std::string> DirectoryBytes(
    const std::string& dir) {
  std::map<std::string, std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    absl::StatusOr<std::string> bytes = ReadFileToString(entry.path().string());
    files[entry.path().filename().string()] = bytes.ok() ? *bytes : "?";
  }
  return files;
}

// leveldb::DB opened on `dir` as a reference (reuse_logs, so that opening
// keeps the log's records in memory rather than writing a new table).
inline std::unique_ptr<leveldb::DB> OpenReference(
    const std::string& dir, const leveldb::Comparator* comparator = nullptr) {
  leveldb::Options options;
  options.reuse_logs = true;
  if (comparator != nullptr) options.comparator = comparator;
  leveldb::DB* raw = nullptr;
  leveldb::Status s = leveldb::DB::Open(options, dir, &raw);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return std::unique_ptr<leveldb::DB>(raw);
}

}  // namespace compat_test
}  // namespace bloomtable

#endif  // BLOOMTABLE_TESTS_COMPAT_LEVELDB_DATABASE_H_
