// The version listing streams (Database::NewVersionStream) and lists
// exactly what gathering every record and sorting it lists: a reference
// built here from the files themselves (logs through LogReader, tables
// through Table::ForEachEntry, statuses from the next newer version of the
// same bytes), compared record by record on databases that leveldb::DB
// wrote, with and without a snapshot, bounds, leftovers, a registered
// comparator, an unknown one and a damaged table. And it holds few tables
// open at once, whatever the database's size; ApproximateSplitKeys cuts it
// into ranges that cover every key once, of about equal bytes.

#include <leveldb/comparator.h>
#include <leveldb/db.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "absl/strings/str_cat.h"
#include "bloomtable/database.h"
#include "bloomtable/db_files.h"
#include "bloomtable/log_reader.h"
#include "bloomtable/write_batch.h"
#include "gtest/gtest.h"
#include "table/internal_key.h"
#include "tests/compat/leveldb_database.h"
#include "tests/reverse_comparator.h"
#include "tests/temp_dir.h"

namespace bloomtable {
namespace compat_test {
namespace {

namespace fs = std::filesystem;

using Listed = std::tuple<std::string, uint64_t, bool, std::string, std::string,
                          uint64_t, std::string>;

Listed ToListed(const VersionRecord& r) {
  return {r.user_key,
          r.sequence,
          r.deletion,
          r.value,
          r.file,
          r.offset,
          std::string(RecordStatusName(r.status))};
}

struct Listing {
  std::vector<Listed> records;
  absl::Status status;
};

Listing Stream(const Database& db, const DatabaseReadOptions& options) {
  Listing out;
  std::unique_ptr<VersionStream> stream = db.NewVersionStream(options);
  VersionRecord record;
  while (stream->Next(&record)) out.records.push_back(ToListed(record));
  out.status = stream->status();
  return out;
}

// Adds a write batch's operations to `out`.
class Collector final : public WriteBatchHandler {
 public:
  Collector(std::vector<VersionRecord>* out, std::string file, uint64_t offset,
            RecordStatus status)
      : out_(out), file_(std::move(file)), offset_(offset), status_(status) {}
  void Put(uint64_t sequence, std::string_view key,
           std::string_view value) override {
    Add(sequence, key, false, value);
  }
  void Delete(uint64_t sequence, std::string_view key) override {
    Add(sequence, key, true, {});
  }

 private:
  void Add(uint64_t sequence, std::string_view key, bool deletion,
           std::string_view value) {
    VersionRecord r;
    r.user_key.assign(key);
    r.sequence = sequence;
    r.deletion = deletion;
    r.value.assign(value);
    r.file = file_;
    r.offset = offset_;
    r.status = status_;
    out_->push_back(std::move(r));
  }
  std::vector<VersionRecord>* out_;
  std::string file_;
  uint64_t offset_;
  RecordStatus status_;
};

void ReadLog(const std::string& dir, const std::string& name,
             RecordStatus status, std::vector<VersionRecord>* out) {
  absl::StatusOr<OpenedLogFile> log = OpenLogFile(dir + "/" + name);
  ASSERT_TRUE(log.ok()) << log.status();
  LogReader reader(log->file.get(), log->size);
  LogEntry entry;
  while (reader.NextRecord(&entry)) {
    Collector collector(out, name, entry.offset, status);
    (void)IterateWriteBatch(entry.payload, &collector);
  }
}

absl::Status ReadTable(const Table& table, const std::string& name,
                       RecordStatus status, std::vector<VersionRecord>* out) {
  ReadOptions options;
  options.fill_cache = false;
  return table.ForEachEntry(
      options,
      [&](std::string_view key, std::string_view value, uint64_t offset) {
        ParsedInternalKey parsed;
        EXPECT_TRUE(ParseInternalKey(key, &parsed));
        VersionRecord r;
        r.user_key.assign(parsed.user_key);
        r.sequence = parsed.sequence;
        r.deletion = parsed.type == ValueType::kDeletion;
        if (!r.deletion) r.value.assign(value);
        r.file = name;
        r.offset = offset;
        r.status = status;
        out->push_back(std::move(r));
        return true;
      });
}

// The listing gathered whole: every record of the live logs (in the order
// a sorted view holds them), the live tables in the version's order, the
// leftover logs and tables by number; statuses from the next newer version
// of the same bytes; then by key under `ucmp`, newest first, ties in that
// order (null `ucmp`: file order). Leftover files are those `leftovers`
// names.
Listing Reference(const Database& db, const std::string& dir,
                  const Comparator* ucmp, const DatabaseReadOptions& options,
                  const std::vector<std::string>& leftover_logs = {},
                  const std::vector<std::string>& leftover_tables = {}) {
  Listing out;
  std::vector<VersionRecord> all;
  std::vector<VersionRecord> logs;
  for (const DatabaseLogFile& log : db.logs()) {
    ReadLog(dir, log.name, RecordStatus::kLive, &logs);
  }
  if (ucmp != nullptr) {
    std::stable_sort(logs.begin(), logs.end(),
                     [ucmp](const VersionRecord& a, const VersionRecord& b) {
                       const int c = ucmp->Compare(a.user_key, b.user_key);
                       if (c != 0) return c < 0;
                       if (a.sequence != b.sequence) {
                         return a.sequence > b.sequence;
                       }
                       return a.deletion < b.deletion;  // put first
                     });
  }
  all = std::move(logs);
  for (const DatabaseTableFile& file : db.tables()) {
    absl::StatusOr<std::shared_ptr<const Table>> table = db.OpenTable(file);
    absl::Status status =
        table.ok() ? ReadTable(**table, file.name, RecordStatus::kLive, &all)
                   : table.status();
    if (out.status.ok()) out.status = status;
  }
  for (const std::string& name : leftover_logs) {
    ReadLog(dir, name, RecordStatus::kLeftover, &all);
  }
  for (const std::string& name : leftover_tables) {
    Options table_options;
    table_options.key_format = KeyFormat::kLevelDBInternal;
    table_options.comparator = ucmp != nullptr ? ucmp : BytewiseComparator();
    const std::string path = dir + "/" + name;
    auto table = Table::Open(table_options, OpenRandomAccessFile(path).value(),
                             GetFileSize(path).value());
    if (!table.ok()) continue;
    EXPECT_TRUE(ReadTable(**table, name, RecordStatus::kLeftover, &all).ok());
  }
  const uint64_t snapshot = options.sequence.value_or(kMaxSequenceNumber);
  all.erase(std::remove_if(all.begin(), all.end(),
                           [snapshot](const VersionRecord& r) {
                             return r.sequence > snapshot;
                           }),
            all.end());
  // Statuses: by bytes, newest first, ties in file order.
  std::vector<size_t> order(all.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&all](size_t a, size_t b) {
    if (all[a].user_key != all[b].user_key) {
      return all[a].user_key < all[b].user_key;
    }
    return all[a].sequence > all[b].sequence;
  });
  const VersionRecord* newer = nullptr;
  for (size_t i : order) {
    VersionRecord& r = all[i];
    if (r.status == RecordStatus::kLeftover) continue;
    if (newer == nullptr || newer->user_key != r.user_key) {
      r.status = r.deletion ? RecordStatus::kDeleted : RecordStatus::kLive;
    } else {
      r.status =
          newer->deletion ? RecordStatus::kDeleted : RecordStatus::kOverwritten;
    }
    newer = &r;
  }
  if (ucmp != nullptr) {
    std::stable_sort(all.begin(), all.end(),
                     [ucmp](const VersionRecord& a, const VersionRecord& b) {
                       const int c = ucmp->Compare(a.user_key, b.user_key);
                       if (c != 0) return c < 0;
                       return a.sequence > b.sequence;
                     });
  }
  for (const VersionRecord& r : all) {
    if (options.lower_bound &&
        ucmp->Compare(r.user_key, *options.lower_bound) < 0) {
      continue;
    }
    if (options.upper_bound &&
        ucmp->Compare(r.user_key, *options.upper_bound) >= 0) {
      continue;
    }
    out.records.push_back(ToListed(r));
  }
  return out;
}

std::string Describe(const Listed& r) {
  return absl::StrCat("(", std::get<0>(r), " @", std::get<1>(r),
                      std::get<2>(r) ? " del" : " put", " ", std::get<4>(r),
                      ":", std::get<5>(r), " ", std::get<6>(r), ")");
}

// The listings are equal record by record; the first difference is named.
void ExpectSame(const Listing& ours, const Listing& reference) {
  const size_t common = std::min(ours.records.size(), reference.records.size());
  for (size_t i = 0; i < common; ++i) {
    ASSERT_EQ(ours.records[i], reference.records[i])
        << "record " << i << ": " << Describe(ours.records[i]) << " against "
        << Describe(reference.records[i]);
  }
  ASSERT_EQ(ours.records.size(), reference.records.size())
      << "first extra: "
      << Describe(ours.records.size() > common ? ours.records[common]
                                               : reference.records[common]);
  EXPECT_EQ(ours.status, reference.status);
}

class VersionStreamTest : public testing::Test {
 protected:
  static void SetUpTestSuite() {
    source_ = new TempDir;
    written_ = new WrittenDatabase(
        WriteLevelDBDatabase(source_->File("db"), 7, nullptr, 9000));
  }
  static void TearDownTestSuite() {
    delete written_;
    delete source_;
  }

  std::unique_ptr<Database> Open(const std::string& dir,
                                 const DatabaseOptions& options = {}) {
    absl::StatusOr<std::unique_ptr<Database>> db =
        Database::OpenReadOnly(dir, options);
    EXPECT_TRUE(db.ok()) << db.status();
    return db.ok() ? *std::move(db) : nullptr;
  }

  static TempDir* source_;
  static WrittenDatabase* written_;
  TempDir dir_;
};

TempDir* VersionStreamTest::source_ = nullptr;
WrittenDatabase* VersionStreamTest::written_ = nullptr;

TEST_F(VersionStreamTest, ListsWhatGatheringAndSortingLists) {
  const std::string dir = source_->File("db");
  std::unique_ptr<Database> db = Open(dir);
  ASSERT_NE(db, nullptr);
  ASSERT_FALSE(db->logs().empty());
  ASSERT_GT(db->tables().size(), 3u);
  const Listing ours = Stream(*db, DatabaseReadOptions());
  ExpectSame(ours, Reference(*db, dir, BytewiseComparator(), {}));
  EXPECT_TRUE(ours.status.ok()) << ours.status;
  // ListVersions is the same stream.
  std::vector<Listed> visited;
  ASSERT_TRUE(
      db->ListVersions(DatabaseReadOptions(), [&](const VersionRecord& r) {
          visited.push_back(ToListed(r));
          return true;
        }).ok());
  EXPECT_EQ(visited, ours.records);
}

TEST_F(VersionStreamTest, SnapshotAndBoundsListTheSameAsFiltering) {
  const std::string dir = source_->File("db");
  std::unique_ptr<Database> db = Open(dir);
  ASSERT_NE(db, nullptr);
  DatabaseReadOptions options;
  options.sequence = written_->checkpoint_sequence;
  ExpectSame(Stream(*db, options),
             Reference(*db, dir, BytewiseComparator(), options));
  options = DatabaseReadOptions();
  options.lower_bound = ModelKey(1000);
  options.upper_bound = ModelKey(1700);
  const Listing bounded = Stream(*db, options);
  EXPECT_FALSE(bounded.records.empty());
  ExpectSame(bounded, Reference(*db, dir, BytewiseComparator(), options));
  options.lower_bound = "zz";
  options.upper_bound.reset();
  ExpectSame(Stream(*db, options),
             Reference(*db, dir, BytewiseComparator(), options));
}

// Salvage reads every table into memory at open (SalvageOptions::
// table_blocks): the listing is gathered then, and still comes in key order,
// newest first, confined to the bounds, as the streamed one.
TEST_F(VersionStreamTest, SalvagedTablesListAsTheStreamWithinBounds) {
  const std::string dir = source_->File("db");
  std::unique_ptr<Database> plain = Open(dir);
  DatabaseOptions salvage_options;
  salvage_options.salvage = SalvageOptions::All();
  std::unique_ptr<Database> salvaged = Open(dir, salvage_options);
  ASSERT_NE(plain, nullptr);
  ASSERT_NE(salvaged, nullptr);
  ASSERT_FALSE(salvaged->salvaged());
  DatabaseReadOptions options;
  ExpectSame(Stream(*salvaged, options), Stream(*plain, options));
  options.lower_bound = ModelKey(1000);
  options.upper_bound = ModelKey(1700);
  const Listing bounded = Stream(*salvaged, options);
  EXPECT_FALSE(bounded.records.empty());
  ExpectSame(bounded, Stream(*plain, options));
}

TEST_F(VersionStreamTest, LeftoversListInFileOrderAmongEqualVersions) {
  const std::string dir = dir_.File("db");
  CopyDirectory(source_->File("db"), dir);
  std::unique_ptr<Database> plain = Open(dir);
  ASSERT_NE(plain, nullptr);
  // A live table and the live log copied under numbers the version does
  // not list: every one of their records equals a live one.
  const std::string table = plain->tables().front().name;
  const std::string log = plain->logs().back().name;
  // A log numbered below the live ones is obsolete: a leftover.
  uint64_t obsolete = plain->logs().front().number - 1;
  while (fs::exists(dir + "/" + LogFileName(obsolete))) --obsolete;
  ASSERT_GT(obsolete, 0u);
  fs::copy_file(dir + "/" + table, dir + "/" + TableFileName(999999));
  fs::copy_file(dir + "/" + log, dir + "/" + LogFileName(obsolete));
  DatabaseOptions options;
  options.read_leftovers = true;
  std::unique_ptr<Database> db = Open(dir, options);
  ASSERT_NE(db, nullptr);
  const Listing ours = Stream(*db, DatabaseReadOptions());
  ASSERT_EQ(db->logs().size(), plain->logs().size());
  // Every table and log file of the directory that the version does not
  // list, by number: ours, and whatever LevelDB left behind.
  std::map<uint64_t, std::string> leftover_tables, leftover_logs;
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    std::optional<DbFileName> parsed = ParseDbFileName(name);
    if (!parsed.has_value()) continue;
    bool live = false;
    for (const DatabaseTableFile& t : db->tables()) live |= t.name == name;
    for (const DatabaseLogFile& l : db->logs()) live |= l.name == name;
    if (live) continue;
    if (parsed->type == DbFileType::kTable)
      leftover_tables[parsed->number] = name;
    if (parsed->type == DbFileType::kLog) leftover_logs[parsed->number] = name;
  }
  ASSERT_EQ(leftover_tables.count(999999), 1u);
  ASSERT_EQ(leftover_logs.count(obsolete), 1u);
  std::vector<std::string> tables, logs;
  for (const auto& [number, name] : leftover_tables) tables.push_back(name);
  for (const auto& [number, name] : leftover_logs) logs.push_back(name);
  ExpectSame(ours, Reference(*db, dir, BytewiseComparator(), {}, logs, tables));
  size_t leftovers = 0;
  for (const Listed& r : ours.records) {
    leftovers += std::get<6>(r) == "leftover";
  }
  EXPECT_GT(leftovers, 100u);
}

TEST(VersionStreamComparatorTest, RegisteredAndUnknownComparators) {
  TempDir dir;
  LevelDBReverseComparator leveldb_reverse;
  WriteLevelDBDatabase(dir.File("db"), 5, &leveldb_reverse, 4000);
  ReverseComparator reverse;
  DatabaseOptions options;
  options.comparators.push_back(&reverse);
  auto ordered = Database::OpenReadOnly(dir.File("db"), options);
  ASSERT_TRUE(ordered.ok()) << ordered.status();
  const Listing ours = Stream(**ordered, DatabaseReadOptions());
  ExpectSame(ours, Reference(**ordered, dir.File("db"), &reverse, {}));
  EXPECT_TRUE(ours.status.ok());

  // Unknown: file order, the same records and statuses.
  auto unordered = Database::OpenReadOnly(dir.File("db"));
  ASSERT_TRUE(unordered.ok());
  ExpectSame(Stream(**unordered, DatabaseReadOptions()),
             Reference(**unordered, dir.File("db"), nullptr, {}));
  DatabaseReadOptions bounded;
  bounded.lower_bound = "a";
  const Listing refused = Stream(**unordered, bounded);
  EXPECT_TRUE(refused.records.empty());
  EXPECT_TRUE(absl::IsFailedPrecondition(refused.status)) << refused.status;
}

TEST_F(VersionStreamTest, DamagedTableEndsItsOwnPartOnly) {
  const std::string dir = dir_.File("db");
  CopyDirectory(source_->File("db"), dir);
  std::unique_ptr<Database> whole = Open(dir);
  ASSERT_NE(whole, nullptr);
  // A flipped byte in the middle of a deep table: its blocks up to there
  // list, the rest of the database too, and the status names it.
  const DatabaseTableFile damaged = whole->tables().back();
  const std::string path = dir + "/" + damaged.name;
  {
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(static_cast<std::streamoff>(damaged.size / 2));
    char c = 0;
    f.read(&c, 1);
    f.seekp(static_cast<std::streamoff>(damaged.size / 2));
    c = static_cast<char>(c ^ 0x40);
    f.write(&c, 1);
  }
  std::unique_ptr<Database> db = Open(dir);
  ASSERT_NE(db, nullptr);
  const Listing ours = Stream(*db, DatabaseReadOptions());
  EXPECT_TRUE(absl::IsDataLoss(ours.status)) << ours.status;
  ExpectSame(ours, Reference(*db, dir, BytewiseComparator(), {}));
}

TEST(VersionStreamMemoryTest, HoldsFewTablesOpenAtOnce) {
  // 30,000 keys of 500 incompressible bytes (about 15 MB): tables of 2 MiB,
  // pushed down into one level.
  TempDir dir;
  {
    leveldb::Options options;
    options.create_if_missing = true;
    options.compression = leveldb::kNoCompression;
    leveldb::DB* raw = nullptr;
    ASSERT_TRUE(leveldb::DB::Open(options, dir.File("db"), &raw).ok());
    std::unique_ptr<leveldb::DB> writer(raw);
    std::mt19937 rng(3);
    std::string value(500, '\0');
    for (int i = 0; i < 30000; ++i) {
      for (char& c : value) c = static_cast<char>(rng());
      ASSERT_TRUE(
          writer->Put(leveldb::WriteOptions(), ModelKey(i), value).ok());
    }
    writer->CompactRange(nullptr, nullptr);
  }
  // Every table file the view opens is counted while it is open.
  auto open_now = std::make_shared<std::atomic<int>>(0);
  auto most = std::make_shared<std::atomic<int>>(0);
  class Counted final : public RandomAccessFile {
   public:
    Counted(std::unique_ptr<RandomAccessFile> file,
            std::shared_ptr<std::atomic<int>> open_now,
            std::shared_ptr<std::atomic<int>> most)
        : file_(std::move(file)), open_now_(open_now), most_(most) {
      const int now = ++*open_now_;
      int seen = most_->load();
      while (now > seen && !most_->compare_exchange_weak(seen, now)) {
      }
    }
    ~Counted() override { --*open_now_; }
    absl::Status Read(uint64_t offset, size_t n, std::string_view* result,
                      char* scratch) const override {
      return file_->Read(offset, n, result, scratch);
    }
    const std::string& name() const override { return file_->name(); }

   private:
    std::unique_ptr<RandomAccessFile> file_;
    std::shared_ptr<std::atomic<int>> open_now_;
    std::shared_ptr<std::atomic<int>> most_;
  };
  DatabaseOptions options;
  options.max_open_files = 1;  // the view's own cache keeps one
  auto counters = std::make_shared<FileReadCounters>();
  options.wrap_table_file = [open_now, most,
                             counters](std::unique_ptr<RandomAccessFile> file) {
    return std::unique_ptr<RandomAccessFile>(
        new Counted(NewCountingRandomAccessFile(std::move(file), counters),
                    open_now, most));
  };
  absl::StatusOr<std::unique_ptr<Database>> opened =
      Database::OpenReadOnly(dir.File("db"), options);
  ASSERT_TRUE(opened.ok()) << opened.status();
  const std::unique_ptr<Database>& db = *opened;
  size_t level0 = 0;
  int levels = 0;
  int level = -1;
  for (const DatabaseTableFile& file : db->tables()) {
    level0 += file.level == 0;
    if (file.level != level) ++levels;
    level = file.level;
  }
  ASSERT_GT(db->tables().size(), level0 + levels + 2)
      << "the fixture should have more tables than levels";
  std::unique_ptr<VersionStream> stream =
      db->NewVersionStream(DatabaseReadOptions());
  VersionRecord record;
  size_t records = 0;
  ASSERT_TRUE(stream->Next(&record));
  ++records;
  // The first record comes before the rest is read: a table's footer,
  // metaindex, filter and index, and one data block.
  const uint64_t reads_for_the_first = counters->reads.load();
  while (stream->Next(&record)) ++records;
  ASSERT_TRUE(stream->status().ok()) << stream->status();
  EXPECT_LE(reads_for_the_first, 8u);
  EXPECT_GT(counters->reads.load(), 1000u);
  EXPECT_EQ(records, 30000u);
  // At most one table per level at a time (level 0: each of its tables),
  // plus the one the view's cache keeps: its block per table, never the
  // database.
  EXPECT_LE(most->load(), static_cast<int>(level0) + levels + 1);
}

TEST_F(VersionStreamTest, SplitKeysCutIntoCoveringRangesOfAboutEqualBytes) {
  std::unique_ptr<Database> db = Open(source_->File("db"));
  ASSERT_NE(db, nullptr);
  // The bytes of every version (what the tables and logs store) per range.
  auto version_bytes = [&db](const std::optional<std::string>& lo,
                             const std::optional<std::string>& hi) {
    DatabaseReadOptions options;
    options.lower_bound = lo;
    options.upper_bound = hi;
    uint64_t bytes = 0;
    std::unique_ptr<VersionStream> stream = db->NewVersionStream(options);
    VersionRecord r;
    while (stream->Next(&r)) bytes += r.user_key.size() + 8 + r.value.size();
    return bytes;
  };
  const uint64_t total = version_bytes(std::nullopt, std::nullopt);
  std::vector<std::string> whole;
  std::unique_ptr<Iterator> all = db->NewIterator(DatabaseReadOptions());
  for (all->SeekToFirst(); all->Valid(); all->Next()) {
    whole.emplace_back(all->key());
  }
  for (size_t parts : {1, 2, 4, 7}) {
    absl::StatusOr<std::vector<std::string>> cuts =
        db->ApproximateSplitKeys(parts);
    ASSERT_TRUE(cuts.ok()) << cuts.status();
    ASSERT_LE(cuts->size() + 1, parts);
    if (parts > 1) {
      EXPECT_GE(cuts->size() + 1, parts - 1) << parts;
    }
    EXPECT_TRUE(std::is_sorted(cuts->begin(), cuts->end()));
    std::vector<std::optional<std::string>> bounds = {std::nullopt};
    for (const std::string& cut : *cuts) bounds.emplace_back(cut);
    bounds.emplace_back(std::nullopt);
    std::vector<std::string> keys;
    for (size_t i = 0; i + 1 < bounds.size(); ++i) {
      // The ranges cover the scan exactly once, in order.
      DatabaseReadOptions options;
      options.lower_bound = bounds[i];
      options.upper_bound = bounds[i + 1];
      std::unique_ptr<Iterator> it = db->NewIterator(options);
      for (it->SeekToFirst(); it->Valid(); it->Next()) {
        keys.emplace_back(it->key());
      }
      // Each within half of its share either way: the cuts follow the
      // tables' stored (compressed) bytes and the MANIFEST's key ranges,
      // which follow the versions' bytes that closely on this data.
      const uint64_t bytes = version_bytes(bounds[i], bounds[i + 1]);
      EXPECT_GT(bytes, total / parts / 2) << parts << " range " << i;
      EXPECT_LT(bytes, total / parts * 3 / 2) << parts << " range " << i;
    }
    EXPECT_EQ(keys, whole);
  }
}

}  // namespace
}  // namespace compat_test
}  // namespace bloomtable
