// Test helper: writes a LevelDB database directory with this project's own
// writers, as LevelDB lays one out: tables of internal keys (LevelDB's
// Bloom filter per block, no compression, so that a table's size depends
// only on its keys' and values' lengths), a MANIFEST naming them by level
// with their key ranges, and CURRENT; and, if asked, one live log of
// write batches. Test-only code; not thread-safe.

#ifndef BLOOMTABLE_TESTS_TEST_DATABASE_WRITER_H_
#define BLOOMTABLE_TESTS_TEST_DATABASE_WRITER_H_

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "bloomtable/db_files.h"
#include "bloomtable/durable_file.h"
#include "bloomtable/file.h"
#include "bloomtable/filter_policy.h"
#include "bloomtable/options.h"
#include "bloomtable/table_builder.h"
#include "bloomtable/version_edit.h"
#include "bloomtable/write_batch.h"
#include "db/log_writer.h"
#include "gtest/gtest.h"
#include "util/coding.h"

namespace bloomtable {
namespace test_db {

// One version of a user key.
struct TestVersion {
  std::string user_key;
  uint64_t sequence = 0;
  bool deletion = false;
  std::string value;
};

inline std::string InternalKey(const TestVersion& version) {
  std::string key = version.user_key;
  PutFixed64(&key, (version.sequence << 8) | (version.deletion ? 0 : 1));
  return key;
}

// The options the writer's tables are built with.
inline Options TestTableOptions() {
  Options options;
  options.key_format = KeyFormat::kLevelDBInternal;
  options.filter_policy = NewLevelDBBloomFilterPolicy(10);
  options.compression = CompressionType::kNone;
  options.block_size = 1024;
  return options;
}

// The bytes of a table holding `versions` (sorted here: user key
// ascending, sequence descending).
inline std::string TableBytes(std::vector<TestVersion> versions) {
  std::sort(versions.begin(), versions.end(),
            [](const TestVersion& a, const TestVersion& b) {
              if (a.user_key != b.user_key) return a.user_key < b.user_key;
              return a.sequence > b.sequence;
            });
  StringWritableFile file;
  TableBuilder builder(TestTableOptions(), &file);
  for (const TestVersion& version : versions) {
    EXPECT_TRUE(builder.Add(InternalKey(version), version.value).ok());
  }
  EXPECT_TRUE(builder.Finish().ok());
  return file.contents();
}

class TestDatabaseWriter {
 public:
  explicit TestDatabaseWriter(std::string dir) : dir_(std::move(dir)) {}

  // Writes a table of `versions` at `level`; returns its number.
  uint64_t AddTable(int level, const std::vector<TestVersion>& versions) {
    const uint64_t number = next_number_++;
    const std::string bytes = TableBytes(versions);
    EXPECT_TRUE(
        WriteFileDurably(Path(TableFileName(number)), [&bytes](
                                                          WritableFile* file) {
          return file->Append(bytes);
        }).ok());
    // Internal order: user key ascending, sequence descending.
    const auto less = [](const TestVersion& a, const TestVersion& b) {
      return a.user_key != b.user_key ? a.user_key < b.user_key
                                      : a.sequence > b.sequence;
    };
    const TestVersion& smallest =
        *std::min_element(versions.begin(), versions.end(), less);
    const TestVersion& largest =
        *std::max_element(versions.begin(), versions.end(), less);
    for (const TestVersion& version : versions) {
      max_sequence_ = std::max(max_sequence_, version.sequence);
    }
    VersionEdit::NewFile file;
    file.level = level;
    file.file = {number, bytes.size(), InternalKey(smallest),
                 InternalKey(largest)};
    files_.push_back(file);
    return number;
  }

  // Adds `version` to the live log, as a batch of its own (logged in the
  // order of the calls, which should follow the sequence numbers).
  void AddLogRecord(const TestVersion& version) {
    WriteOp op;
    op.type = version.deletion ? WriteOpType::kDelete : WriteOpType::kPut;
    op.key = version.user_key;
    op.value = version.value;
    log_records_.push_back(EncodeWriteBatch(version.sequence, {op}));
  }

  // Writes the live log (if AddLogRecord was called), the MANIFEST (one
  // edit naming every table) and CURRENT.
  void Finish() {
    if (!log_records_.empty()) {
      absl::StatusOr<std::unique_ptr<WritableFile>> log =
          NewWritableFile(Path(LogFileName(next_number_)));
      ASSERT_TRUE(log.ok()) << log.status();
      LogWriter log_writer(log->get());
      for (const std::string& record : log_records_) {
        ASSERT_TRUE(log_writer.AddRecord(record).ok());
      }
      ASSERT_TRUE((*log)->Close().ok());
    }
    VersionEdit edit;
    edit.comparator = "leveldb.BytewiseComparator";
    edit.log_number = next_number_;
    edit.prev_log_number = 0;
    edit.next_file_number = next_number_ + 1;
    edit.last_sequence = max_sequence_;
    edit.new_files = files_;
    std::string record;
    edit.EncodeTo(&record);
    const std::string manifest = absl::StrCat("MANIFEST-", "000001");
    absl::StatusOr<std::unique_ptr<WritableFile>> file =
        NewWritableFile(Path(manifest));
    ASSERT_TRUE(file.ok()) << file.status();
    LogWriter writer(file->get());
    ASSERT_TRUE(writer.AddRecord(record).ok());
    ASSERT_TRUE((*file)->Close().ok());
    ASSERT_TRUE(WriteFileDurably(Path("CURRENT"), [&](WritableFile* out) {
                  return out->Append(manifest + "\n");
                }).ok());
  }

  std::string Path(const std::string& name) const {
    return absl::StrCat(dir_, "/", name);
  }

 private:
  const std::string dir_;
  uint64_t next_number_ = 2;
  uint64_t max_sequence_ = 0;
  std::vector<std::string> log_records_;
  std::vector<VersionEdit::NewFile> files_;
};

}  // namespace test_db
}  // namespace bloomtable

#endif  // BLOOMTABLE_TESTS_TEST_DATABASE_WRITER_H_
