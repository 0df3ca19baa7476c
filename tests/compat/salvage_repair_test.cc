// Salvage against leveldb::RepairDB, on every truncation and every flipped
// byte of a database LevelDB 1.23 wrote: three tables (several data blocks
// each, Snappy-compressed) and a live log of single writes and batches.
// For each damaged copy, RepairDB runs on a copy of its own (in memory) and
// the view opens the damaged directory with SalvageOptions::All() and
// read_leftovers; then
//
//   - every record the view lists (ListVersions) is one that was written:
//     the write of that sequence number, with its key, type and value;
//   - every record of RepairDB's repaired tables that was written (RepairDB
//     reads logs without checksums and tables without verifying blocks, so
//     it may keep records with damaged bytes, which do not count) is one
//     the view lists;
//   - where the view lists fewer of the written records than the undamaged
//     database holds, its warnings name the damaged file.
//
// A record is (user key, sequence, put or delete, value). The sanitizer
// builds check every seventh case, for time.

#include <fcntl.h>
#include <leveldb/db.h>
#include <leveldb/env.h>
#include <leveldb/filter_policy.h>
#include <leveldb/helpers/memenv.h>
#include <leveldb/iterator.h>
#include <leveldb/options.h>
#include <leveldb/table.h>
#include <leveldb/write_batch.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "bloomtable/database.h"
#include "bloomtable/file.h"
#include "bloomtable/log_reader.h"
#include "gtest/gtest.h"
#include "table/internal_key.h"
#include "tests/temp_dir.h"
#include "util/coding.h"

namespace bloomtable {
namespace {

namespace fs = std::filesystem;

#if defined(__SANITIZE_ADDRESS__)
constexpr int kStride = 7;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr int kStride = 7;
#else
constexpr int kStride = 1;
#endif
#else
constexpr int kStride = 1;
#endif

// (user key, sequence, deletion, value)
using Record = std::tuple<std::string, uint64_t, bool, std::string>;
using Files = std::map<std::string, std::string>;  // name -> bytes

std::string Key(int i) { return absl::StrFormat("key%04d", i); }

struct Fixture {
  Files files;
  std::map<uint64_t, Record> written;  // by sequence
  // Where the live log's records end (and 0): a log cut there is a whole
  // log of fewer writes, which no reader can tell from damage.
  std::set<size_t> log_boundaries = {0};
};

// Each write is its own sequence number (a batch's operations take
// consecutive ones), as LevelDB numbers them.
class Writer {
 public:
  Writer(leveldb::DB* db, Fixture* fixture) : db_(db), fixture_(fixture) {}
  void Put(const std::string& key, const std::string& value) {
    leveldb::WriteBatch batch;
    batch.Put(key, value);
    Write(&batch, {{key, false, value}});
  }
  void Delete(const std::string& key) {
    leveldb::WriteBatch batch;
    batch.Delete(key);
    Write(&batch, {{key, true, ""}});
  }
  void Write(
      leveldb::WriteBatch* batch,
      const std::vector<std::tuple<std::string, bool, std::string>>& ops) {
    ASSERT_TRUE(db_->Write(leveldb::WriteOptions(), batch).ok());
    for (const auto& [key, deletion, value] : ops) {
      ++sequence_;
      fixture_->written[sequence_] = Record(key, sequence_, deletion, value);
    }
  }

 private:
  leveldb::DB* const db_;
  Fixture* const fixture_;
  uint64_t sequence_ = 0;
};

void Flush(leveldb::DB* db) {
  const leveldb::Slice begin("~~0");
  const leveldb::Slice end("~~1");
  db->CompactRange(&begin, &end);
}

const Fixture& GetFixture() {
  static const Fixture* const fixture = [] {
    auto* f = new Fixture;
    TempDir dir;
    std::unique_ptr<const leveldb::FilterPolicy> bloom(
        leveldb::NewBloomFilterPolicy(10));
    leveldb::Options options;
    options.create_if_missing = true;
    options.filter_policy = bloom.get();
    options.block_size = 512;  // several data blocks per table
    leveldb::DB* raw = nullptr;
    EXPECT_TRUE(leveldb::DB::Open(options, dir.path(), &raw).ok());
    std::unique_ptr<leveldb::DB> db(raw);
    Writer w(db.get(), f);
    for (int i = 0; i < 50; ++i) w.Put(Key(i), absl::StrCat("first ", i));
    Flush(db.get());
    for (int i = 0; i < 50; i += 2) w.Put(Key(i), absl::StrCat("second ", i));
    for (int i = 1; i < 50; i += 7) w.Delete(Key(i));
    Flush(db.get());
    for (int i = 40; i < 70; ++i) w.Put(Key(i), absl::StrCat("third ", i));
    Flush(db.get());
    // The live log: single writes and batches.
    for (int i = 0; i < 20; ++i) {
      if (i % 5 == 4) {
        leveldb::WriteBatch batch;
        batch.Put(Key(100 + i), "batched a");
        batch.Delete(Key(i));
        batch.Put(Key(200 + i), "batched b");
        w.Write(&batch, {{Key(100 + i), false, "batched a"},
                         {Key(i), true, ""},
                         {Key(200 + i), false, "batched b"}});
      } else {
        w.Put(Key(3 * i), absl::StrCat("log ", i));
      }
    }
    db.reset();
    for (const auto& entry : fs::directory_iterator(dir.path())) {
      const std::string name = entry.path().filename().string();
      if (name == "LOCK" || absl::StartsWith(name, "LOG")) continue;
      f->files[name] = ReadFileToString(entry.path().string()).value();
      if (absl::EndsWith(name, ".log")) {
        const std::string& bytes = f->files[name];
        std::unique_ptr<RandomAccessFile> file =
            NewMemoryRandomAccessFile(bytes, name);
        LogReader reader(file.get(), bytes.size());
        LogEntry record;
        while (reader.NextRecord(&record)) {
          f->log_boundaries.insert(record.offset + record.length);
        }
      }
    }
    return f;
  }();
  return *fixture;
}

std::set<Record> RepairDBRecordsInProcess(const Files& files) {
  std::unique_ptr<leveldb::Env> env(
      leveldb::NewMemEnv(leveldb::Env::Default()));
  const std::string name = "/db";
  env->CreateDir(name);
  for (const auto& [file, bytes] : files) {
    leveldb::WritableFile* raw = nullptr;
    EXPECT_TRUE(env->NewWritableFile(name + "/" + file, &raw).ok());
    std::unique_ptr<leveldb::WritableFile> out(raw);
    EXPECT_TRUE(out->Append(bytes).ok());
    EXPECT_TRUE(out->Close().ok());
  }
  leveldb::Options options;
  options.env = env.get();
  (void)leveldb::RepairDB(name, options);
  std::set<Record> records;
  std::vector<std::string> children;
  env->GetChildren(name, &children);
  for (const std::string& child : children) {
    if (!absl::EndsWith(child, ".ldb") && !absl::EndsWith(child, ".sst")) {
      continue;
    }
    const std::string path = name + "/" + child;
    uint64_t size = 0;
    env->GetFileSize(path, &size);
    leveldb::RandomAccessFile* raw_file = nullptr;
    if (!env->NewRandomAccessFile(path, &raw_file).ok()) continue;
    std::unique_ptr<leveldb::RandomAccessFile> file(raw_file);
    leveldb::Table* raw_table = nullptr;
    if (!leveldb::Table::Open(options, file.get(), size, &raw_table).ok()) {
      continue;
    }
    std::unique_ptr<leveldb::Table> table(raw_table);
    std::unique_ptr<leveldb::Iterator> it(
        table->NewIterator(leveldb::ReadOptions()));
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      ParsedInternalKey parsed;
      const std::string key = it->key().ToString();
      if (!ParseInternalKey(key, &parsed)) continue;
      const bool deletion = parsed.type == ValueType::kDeletion;
      records.emplace(std::string(parsed.user_key), parsed.sequence, deletion,
                      deletion ? std::string() : it->value().ToString());
    }
  }
  return records;
}

// RepairDB in a child process: Debian's LevelDB is built with assertions,
// and RepairDB asserts on some damaged directories (a table it salvages
// no entry from). nullopt if it died.
std::optional<std::set<Record>> RepairDBRecords(const Files& files) {
  int fds[2];
  if (::pipe(fds) != 0) return std::nullopt;
  const pid_t child = ::fork();
  if (child == 0) {
    ::close(fds[0]);
    // Its assertion messages are expected, and counted by the parent.
    const int null = ::open("/dev/null", O_WRONLY);
    if (null >= 0) ::dup2(null, 2);
    std::string out;
    for (const auto& [key, sequence, deletion, value] :
         RepairDBRecordsInProcess(files)) {
      PutLengthPrefixed(&out, key);
      PutFixed64(&out, sequence);
      out.push_back(deletion ? 1 : 0);
      PutLengthPrefixed(&out, value);
    }
    for (size_t done = 0; done < out.size();) {
      const ssize_t n = ::write(fds[1], out.data() + done, out.size() - done);
      if (n <= 0) ::_exit(2);
      done += static_cast<size_t>(n);
    }
    ::_exit(0);
  }
  ::close(fds[1]);
  std::string in;
  char buffer[4096];
  for (ssize_t n; (n = ::read(fds[0], buffer, sizeof(buffer))) > 0;) {
    in.append(buffer, static_cast<size_t>(n));
  }
  ::close(fds[0]);
  int status = 0;
  ::waitpid(child, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return std::nullopt;
  std::set<Record> records;
  std::string_view rest = in;
  while (!rest.empty()) {
    std::string_view key;
    std::string_view value;
    uint64_t sequence = 0;
    if (!GetLengthPrefixed(&rest, &key) || !GetFixed64(&rest, &sequence) ||
        rest.empty()) {
      break;
    }
    const bool deletion = rest[0] != 0;
    rest.remove_prefix(1);
    if (!GetLengthPrefixed(&rest, &value)) break;
    records.emplace(std::string(key), sequence, deletion, std::string(value));
  }
  return records;
}

struct ViewResult {
  bool opened = false;
  std::string error;
  std::set<Record> records;
  std::vector<std::string> warnings;
};

ViewResult SalvageRecords(const Files& files) {
  TempDir dir;
  for (const auto& [file, bytes] : files) {
    std::unique_ptr<WritableFile> out = NewWritableFile(dir.File(file)).value();
    EXPECT_TRUE(out->Append(bytes).ok());
    EXPECT_TRUE(out->Close().ok());
  }
  DatabaseOptions options;
  options.salvage = SalvageOptions::All();
  options.read_leftovers = true;
  ViewResult result;
  absl::StatusOr<std::unique_ptr<Database>> db =
      Database::OpenReadOnly(dir.path(), options);
  if (!db.ok()) {
    result.error = std::string(db.status().message());
    return result;
  }
  result.opened = true;
  result.warnings = (*db)->warnings();
  DatabaseReadOptions all;
  all.sequence = kMaxSequenceNumber;
  const absl::Status listed =
      (*db)->ListVersions(all, [&result](const VersionRecord& r) {
        result.records.emplace(r.user_key, r.sequence, r.deletion, r.value);
        return true;
      });
  if (!listed.ok()) result.error = std::string(listed.message());
  return result;
}

struct Totals {
  int cases = 0;
  int repair_aborted = 0;         // cases where RepairDB died (an assertion)
  uint64_t repair_records = 0;    // RepairDB's records that were written
  uint64_t repair_unwritten = 0;  // RepairDB's records that were not
  uint64_t view_records = 0;
  int lossy_cases = 0;  // the view lists fewer than the undamaged database
};

void CheckCase(const Fixture& fixture, const std::set<Record>& undamaged,
               const std::string& file, const Files& damaged,
               const std::string& what, bool undetectable, Totals* totals) {
  SCOPED_TRACE(what);
  ++totals->cases;
  const ViewResult view = SalvageRecords(damaged);
  ASSERT_TRUE(view.opened) << view.error;
  EXPECT_EQ(view.error, "");
  for (const Record& record : view.records) {
    auto it = fixture.written.find(std::get<1>(record));
    ASSERT_TRUE(it != fixture.written.end() && it->second == record)
        << "not written: " << std::get<0>(record) << " @"
        << std::get<1>(record);
  }
  totals->view_records += view.records.size();
  const std::optional<std::set<Record>> repaired = RepairDBRecords(damaged);
  if (!repaired.has_value()) ++totals->repair_aborted;
  for (const Record& record : repaired.value_or(std::set<Record>())) {
    auto it = fixture.written.find(std::get<1>(record));
    if (it == fixture.written.end() || it->second != record) {
      ++totals->repair_unwritten;
      continue;
    }
    ++totals->repair_records;
    EXPECT_EQ(view.records.count(record), 1u)
        << "RepairDB keeps " << std::get<0>(record) << " @"
        << std::get<1>(record) << ", salvage does not";
  }
  if (view.records.size() < undamaged.size() && !undetectable) {
    ++totals->lossy_cases;
    bool named = false;
    for (const std::string& warning : view.warnings) {
      named = named || absl::StrContains(warning, file);
    }
    EXPECT_TRUE(named) << "lost records without a warning naming " << file;
  }
}

TEST(SalvageVersusRepairDB, EveryTruncationAndFlippedByte) {
  const Fixture& fixture = GetFixture();
  int tables = 0;
  bool log = false;
  for (const auto& [name, bytes] : fixture.files) {
    tables += absl::EndsWith(name, ".ldb");
    log = log || absl::EndsWith(name, ".log");
  }
  ASSERT_GE(tables, 3);
  ASSERT_TRUE(log);
  // The undamaged database: salvage lists exactly what was written and is
  // still held (overwritten values kept by no snapshot are gone).
  const ViewResult whole = SalvageRecords(fixture.files);
  ASSERT_TRUE(whole.opened) << whole.error;
  EXPECT_TRUE(whole.warnings.empty());
  ASSERT_GT(whole.records.size(), 100u);

  Totals totals;
  for (const auto& [name, bytes] : fixture.files) {
    for (size_t at = 0; at < bytes.size(); at += kStride) {
      Files truncated = fixture.files;
      truncated[name].resize(at);
      CheckCase(
          fixture, whole.records, name, truncated,
          absl::StrCat(name, " truncated to ", at, " bytes"),
          absl::EndsWith(name, ".log") && fixture.log_boundaries.count(at) > 0,
          &totals);
      Files flipped = fixture.files;
      flipped[name][at] ^= 0x5a;
      CheckCase(fixture, whole.records, name, flipped,
                absl::StrCat(name, " byte ", at, " flipped"), false, &totals);
      if (HasFatalFailure()) return;
    }
  }
  std::printf(
      "salvage vs RepairDB: %d cases (RepairDB died in %d); RepairDB kept "
      "%llu written records (and %llu not written); salvage listed %llu; %d "
      "cases lost records, each named in a warning\n",
      totals.cases, totals.repair_aborted,
      static_cast<unsigned long long>(totals.repair_records),
      static_cast<unsigned long long>(totals.repair_unwritten),
      static_cast<unsigned long long>(totals.view_records), totals.lossy_cases);
}

}  // namespace
}  // namespace bloomtable
