// Helpers for the compatibility tests: LevelDB's table builder writing into a
// std::string, LevelDB's table reader reading from one, and the same for
// bloomtable, so that a test can put one key/value sequence through both
// implementations and compare bytes and entries.
//
// Test-only code; not thread-safe unless a method says so.

#ifndef BLOOMTABLE_TESTS_COMPAT_LEVELDB_FILES_H_
#define BLOOMTABLE_TESTS_COMPAT_LEVELDB_FILES_H_

#include <leveldb/env.h>
#include <leveldb/iterator.h>
#include <leveldb/options.h>
#include <leveldb/table.h>
#include <leveldb/table_builder.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "bloomtable/file.h"
#include "bloomtable/options.h"
#include "bloomtable/table.h"
#include "bloomtable/table_builder.h"
#include "gtest/gtest.h"

namespace bloomtable {
namespace compat_test {

using KeyValue = std::pair<std::string, std::string>;

// A leveldb::WritableFile that appends to a string.
class LevelDBStringSink final : public leveldb::WritableFile {
 public:
  leveldb::Status Append(const leveldb::Slice& data) override {
    contents_.append(data.data(), data.size());
    return leveldb::Status::OK();
  }
  leveldb::Status Close() override { return leveldb::Status::OK(); }
  leveldb::Status Flush() override { return leveldb::Status::OK(); }
  leveldb::Status Sync() override { return leveldb::Status::OK(); }

  const std::string& contents() const { return contents_; }

 private:
  std::string contents_;
};

// A leveldb::RandomAccessFile over a string it owns. Safe for concurrent
// reads.
class LevelDBStringSource final : public leveldb::RandomAccessFile {
 public:
  explicit LevelDBStringSource(std::string contents)
      : contents_(std::move(contents)) {}

  leveldb::Status Read(uint64_t offset, size_t n, leveldb::Slice* result,
                       char* scratch) const override {
    if (offset > contents_.size()) {
      *result = leveldb::Slice();
      return leveldb::Status::IOError("read past the end of the string");
    }
    const size_t available = contents_.size() - static_cast<size_t>(offset);
    if (n > available) n = available;
    std::memcpy(scratch, contents_.data() + offset, n);
    *result = leveldb::Slice(scratch, n);
    return leveldb::Status::OK();
  }

 private:
  std::string contents_;
};

// The file leveldb::TableBuilder writes from `entries` (which must be in the
// comparator's order).
inline std::string BuildWithLevelDB(const leveldb::Options& options,
                                    const std::vector<KeyValue>& entries) {
  LevelDBStringSink sink;
  leveldb::TableBuilder builder(options, &sink);
  for (const KeyValue& entry : entries) builder.Add(entry.first, entry.second);
  leveldb::Status status = builder.Finish();
  EXPECT_TRUE(status.ok()) << status.ToString();
  EXPECT_EQ(builder.FileSize(), sink.contents().size());
  EXPECT_EQ(builder.NumEntries(), entries.size());
  return sink.contents();
}

// The file bloomtable's TableBuilder writes from `entries`.
inline std::string BuildWithBloomtable(const Options& options,
                                       const std::vector<KeyValue>& entries) {
  StringWritableFile file;
  TableBuilder builder(options, &file);
  for (const KeyValue& entry : entries) {
    absl::Status status = builder.Add(entry.first, entry.second);
    if (!status.ok()) {
      ADD_FAILURE() << "Add(" << absl::CHexEscape(entry.first)
                    << ") failed: " << status;
      builder.Abandon();
      return file.contents();
    }
  }
  absl::Status status = builder.Finish();
  EXPECT_TRUE(status.ok()) << status;
  EXPECT_EQ(builder.FileSize(), file.contents().size());
  EXPECT_EQ(builder.NumEntries(), entries.size());
  return file.contents();
}

// Every entry of `contents` in order, as LevelDB's own reader sees it.
// `options.filter_policy` may be set to have LevelDB load the filter too.
inline std::vector<KeyValue> ReadAllWithLevelDB(const leveldb::Options& options,
                                                std::string contents) {
  std::vector<KeyValue> entries;
  const uint64_t size = contents.size();
  LevelDBStringSource source(std::move(contents));
  leveldb::Table* raw_table = nullptr;
  leveldb::Status status =
      leveldb::Table::Open(options, &source, size, &raw_table);
  EXPECT_TRUE(status.ok()) << status.ToString();
  if (!status.ok()) return entries;
  std::unique_ptr<leveldb::Table> table(raw_table);
  std::unique_ptr<leveldb::Iterator> it(
      table->NewIterator(leveldb::ReadOptions()));
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    entries.emplace_back(it->key().ToString(), it->value().ToString());
  }
  EXPECT_TRUE(it->status().ok()) << it->status().ToString();
  return entries;
}

// Whether two table files are the same bytes; on a difference, says where
// the first one is and shows the bytes around it.
inline testing::AssertionResult SameBytes(const std::string& ours,
                                          const std::string& theirs) {
  if (ours == theirs) return testing::AssertionSuccess();
  size_t first = 0;
  while (first < ours.size() && first < theirs.size() &&
         ours[first] == theirs[first]) {
    ++first;
  }
  const size_t window_start = first < 16 ? 0 : first - 16;
  auto window = [&](const std::string& bytes) {
    if (window_start >= bytes.size()) return std::string("(end)");
    return absl::BytesToHexString(bytes.substr(window_start, 48));
  };
  return testing::AssertionFailure()
         << "files differ: ours has " << ours.size() << " bytes, LevelDB's "
         << theirs.size() << "; first difference at offset " << first
         << "\n  ours   from " << window_start << ": " << window(ours)
         << "\n  theirs from " << window_start << ": " << window(theirs);
}

}  // namespace compat_test
}  // namespace bloomtable

#endif  // BLOOMTABLE_TESTS_COMPAT_LEVELDB_FILES_H_
