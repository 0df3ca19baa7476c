// Damaged table files: truncated at every length, every byte flipped in
// turn, and hand-made damage that keeps the checksums valid (bad handles,
// restart arrays, shared-prefix lengths, filter blocks, Snappy lengths).
//
// The promise under test (docs/DESIGN.md, "Errors" and "What a filter
// guarantees"): Open fails with DataLoss, or every Get returns the right value
// or a DataLoss error (with checksums verified: never a wrong value, and never
// NotFound for a present key), and iteration yields correct entries in order,
// then either ends cleanly with all of them or stops with a non-OK status.
// Never a crash, an out-of-bounds read (the asan-ubsan build runs this file),
// or an allocation sized from unchecked bytes.
//
// The tables are small (a few KB) so that the exhaustive sweeps stay fast.

#include <snappy.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "bloomtable/file.h"
#include "bloomtable/filter_policy.h"
#include "bloomtable/options.h"
#include "bloomtable/table.h"
#include "bloomtable/table_builder.h"
#include "gtest/gtest.h"
#include "util/coding.h"
#include "util/crc32c.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
    __has_feature(memory_sanitizer)
#define BLOOMTABLE_TEST_SHADOW_MEMORY 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define BLOOMTABLE_TEST_SHADOW_MEMORY 1
#endif

#if defined(BLOOMTABLE_TEST_SHADOW_MEMORY)
// Under a sanitizer, any single allocation above 512 MiB is reported as an
// error: nothing in these tests should come close, so a reader that sizes a
// buffer from a damaged length fails loudly instead of swapping.
extern "C" const char* __asan_default_options() {
  return "max_allocation_size_mb=512";
}
#endif

namespace bloomtable {
namespace {

using KeyValue = std::pair<std::string, std::string>;

constexpr size_t kFooterSize = 48;
constexpr size_t kTrailerSize = 5;
constexpr char kFilterMetaKey[] = "filter.leveldb.BuiltinBloomFilter2";

// Near-miss keys (docs/DESIGN.md): key i is i as a 16-digit zero-padded
// decimal; tables hold the even ones.
std::string Key(int i) { return absl::StrFormat("%016d", i); }

// ---------------------------------------------------------------------------
// The tables under test, and a small independent parser of their layout
// (trusting the bytes: it only reads undamaged files).

struct Handle {
  uint64_t offset = 0;
  uint64_t size = 0;
};

void PutHandle(std::string* dst, Handle handle) {
  PutVarint64(dst, handle.offset);
  PutVarint64(dst, handle.size);
}

Handle GetHandle(std::string_view* input) {
  Handle handle;
  EXPECT_TRUE(GetVarint64(input, &handle.offset));
  EXPECT_TRUE(GetVarint64(input, &handle.size));
  return handle;
}

std::string EncodeFooter(Handle metaindex, Handle index,
                         uint64_t magic = 0xdb4775248b80fb57ull) {
  std::string footer;
  PutHandle(&footer, metaindex);
  PutHandle(&footer, index);
  footer.resize(kFooterSize - 8, '\0');
  PutFixed64(&footer, magic);
  return footer;
}

// The contents of the block at `handle`, uncompressed.
std::string BlockAt(const std::string& file, Handle handle) {
  const std::string stored = file.substr(handle.offset, handle.size);
  const char type = file[handle.offset + handle.size];
  if (type == 0) return stored;
  EXPECT_EQ(type, 1);
  std::string uncompressed;
  EXPECT_TRUE(snappy::Uncompress(stored.data(), stored.size(), &uncompressed));
  return uncompressed;
}

// Every entry of a well-formed block, in order.
std::vector<KeyValue> DecodeBlock(std::string_view block) {
  const uint32_t num_restarts = DecodeFixed32(block.data() + block.size() - 4);
  std::string_view entries =
      block.substr(0, block.size() - 4 - 4 * size_t{num_restarts});
  std::vector<KeyValue> result;
  std::string key;
  while (!entries.empty()) {
    uint32_t shared, unshared, value_length;
    EXPECT_TRUE(GetVarint32(&entries, &shared));
    EXPECT_TRUE(GetVarint32(&entries, &unshared));
    EXPECT_TRUE(GetVarint32(&entries, &value_length));
    key.resize(shared);
    key.append(entries.substr(0, unshared));
    entries.remove_prefix(unshared);
    result.emplace_back(key, std::string(entries.substr(0, value_length)));
    entries.remove_prefix(value_length);
  }
  return result;
}

// A block of `entries` with a restart point every `restart_interval`
// entries, written here independently of table/ (FORMAT.md, "Blocks").
std::string EncodeBlock(const std::vector<KeyValue>& entries,
                        int restart_interval) {
  std::string block;
  std::vector<uint32_t> restarts = {0};
  std::string previous;
  for (size_t i = 0; i < entries.size(); ++i) {
    const std::string& key = entries[i].first;
    size_t shared = 0;
    if (i % restart_interval == 0) {
      if (i != 0) restarts.push_back(static_cast<uint32_t>(block.size()));
    } else {
      while (shared < previous.size() && shared < key.size() &&
             previous[shared] == key[shared]) {
        ++shared;
      }
    }
    PutVarint32(&block, static_cast<uint32_t>(shared));
    PutVarint32(&block, static_cast<uint32_t>(key.size() - shared));
    PutVarint32(&block, static_cast<uint32_t>(entries[i].second.size()));
    block.append(key, shared, std::string::npos);
    block.append(entries[i].second);
    previous = key;
  }
  for (uint32_t restart : restarts) PutFixed32(&block, restart);
  PutFixed32(&block, static_cast<uint32_t>(restarts.size()));
  return block;
}

// The stored trailer for `contents` of compression `type`.
std::string Trailer(std::string_view contents, char type) {
  uint32_t crc = crc32c::Value(contents);
  crc = crc32c::Extend(crc, &type, 1);
  std::string trailer(1, type);
  PutFixed32(&trailer, crc32c::Mask(crc));
  return trailer;
}

// Makes the trailer of the block at `handle` match its (changed) bytes.
void RepairChecksum(std::string* file, Handle handle) {
  const std::string_view stored =
      std::string_view(*file).substr(handle.offset, handle.size);
  const std::string trailer =
      Trailer(stored, (*file)[handle.offset + handle.size]);
  file->replace(handle.offset + handle.size, kTrailerSize, trailer);
}

struct Layout {
  Handle metaindex;
  Handle index;
  Handle filter;
  std::vector<KeyValue> index_entries;  // separator -> encoded data handle
  std::vector<Handle> data_blocks;
};

Layout ParseLayout(const std::string& file) {
  Layout layout;
  std::string_view footer =
      std::string_view(file).substr(file.size() - kFooterSize);
  layout.metaindex = GetHandle(&footer);
  layout.index = GetHandle(&footer);
  layout.index_entries = DecodeBlock(BlockAt(file, layout.index));
  for (const KeyValue& entry : layout.index_entries) {
    std::string_view encoded = entry.second;
    layout.data_blocks.push_back(GetHandle(&encoded));
  }
  for (const KeyValue& entry : DecodeBlock(BlockAt(file, layout.metaindex))) {
    if (entry.first == kFilterMetaKey) {
      std::string_view encoded = entry.second;
      layout.filter = GetHandle(&encoded);
    }
  }
  return layout;
}

// `file` with the filter block, metaindex, index and footer rewritten: the
// data blocks are kept, the filter block is `filter` (raw) and the index
// holds `index_entries`. Metaindex and index are stored uncompressed.
std::string RebuildTail(const std::string& file, const Layout& layout,
                        const std::string& filter,
                        const std::vector<KeyValue>& index_entries,
                        int restart_interval) {
  std::string rebuilt = file.substr(0, layout.filter.offset);
  const Handle filter_handle{rebuilt.size(), filter.size()};
  rebuilt += filter + Trailer(filter, 0);
  std::string filter_handle_encoding;
  PutHandle(&filter_handle_encoding, filter_handle);
  const std::string metaindex =
      EncodeBlock({{kFilterMetaKey, filter_handle_encoding}}, restart_interval);
  const Handle metaindex_handle{rebuilt.size(), metaindex.size()};
  rebuilt += metaindex + Trailer(metaindex, 0);
  const std::string index = EncodeBlock(index_entries, 1);
  const Handle index_handle{rebuilt.size(), index.size()};
  rebuilt += index + Trailer(index, 0);
  rebuilt += EncodeFooter(metaindex_handle, index_handle);
  return rebuilt;
}

struct TableUnderTest {
  Options options;
  std::vector<KeyValue> entries;
  std::vector<std::string> absent;
  std::string contents;
  Layout layout;
};

// 150 entries in blocks of about 256 bytes, restart points every 4 entries,
// a per-block Bloom filter; about 4 KB. With Snappy, the values compress.
TableUnderTest SmallTable(bool snappy) {
  TableUnderTest table;
  table.options.block_size = 256;
  table.options.block_restart_interval = 4;
  table.options.compression =
      snappy ? CompressionType::kSnappy : CompressionType::kNone;
  table.options.filter_policy = NewLevelDBBloomFilterPolicy(10);
  for (int i = 0; i < 150; ++i) {
    table.entries.emplace_back(
        Key(2 * i), absl::StrCat("v", i, ":", (i * 2654435761u) % 1000003,
                                 std::string(i % 29, 'a' + i % 26)));
    table.absent.push_back(Key(2 * i + 1));
  }
  table.absent.push_back(Key(1000000));
  StringWritableFile file;
  TableBuilder builder(table.options, &file);
  for (const KeyValue& entry : table.entries) {
    EXPECT_TRUE(builder.Add(entry.first, entry.second).ok());
  }
  EXPECT_TRUE(builder.Finish().ok());
  table.contents = file.contents();
  table.layout = ParseLayout(table.contents);
  return table;
}

// ---------------------------------------------------------------------------
// What a damaged table must do. Each check returns the first problem found,
// or an empty string.

bool IsAllowedError(const absl::Status& status) {
  return absl::IsDataLoss(status);
}

std::string Describe(const absl::Status& status) { return status.ToString(); }

// Iterates forward (or backward) and checks that what comes out is a prefix
// (suffix) of `entries`, then either all of them with an OK status or a
// DataLoss. When `check_values` is false (checksums off) only the bounds
// and the status codes are checked.
std::string CheckIteration(const Table& table, const ReadOptions& read_options,
                           const std::vector<KeyValue>& entries, bool forward,
                           bool check_values, size_t file_size,
                           bool* saw_error = nullptr) {
  std::unique_ptr<Iterator> it = table.NewIterator(read_options);
  size_t seen = 0;
  // Every entry takes at least 3 bytes, so a file holds fewer entries than
  // bytes: a longer walk is a loop.
  const size_t limit = file_size + 1;
  for (forward ? it->SeekToFirst() : it->SeekToLast(); it->Valid();
       forward ? it->Next() : it->Prev()) {
    if (seen >= limit) return "iteration does not end";
    if (check_values) {
      if (seen >= entries.size()) return "iteration yields extra entries";
      const KeyValue& expected =
          forward ? entries[seen] : entries[entries.size() - 1 - seen];
      if (it->key() != expected.first || it->value() != expected.second) {
        return absl::StrCat(forward ? "forward" : "backward",
                            " iteration entry #", seen, " is wrong: key ",
                            std::string(it->key()), ", expected ",
                            expected.first);
      }
    }
    ++seen;
  }
  const absl::Status status = it->status();
  if (saw_error != nullptr && !status.ok()) *saw_error = true;
  if (status.ok()) {
    if (check_values && seen != entries.size()) {
      return absl::StrCat(forward ? "forward" : "backward",
                          " iteration ended cleanly after ", seen, " of ",
                          entries.size(), " entries");
    }
  } else if (!IsAllowedError(status)) {
    return "iteration error is not DataLoss: " + Describe(status);
  }
  return "";
}

// Seeks to a few keys: the iterator lands on the right entry, or is invalid
// with a DataLoss status (or invalid and OK past the last entry).
std::string CheckSeeks(const Table& table, const std::vector<KeyValue>& entries,
                       const std::vector<std::string>& absent) {
  std::unique_ptr<Iterator> it = table.NewIterator(ReadOptions());
  std::vector<std::string> targets;
  for (size_t i = 0; i < entries.size(); i += 17)
    targets.push_back(entries[i].first);
  for (size_t i = 5; i < absent.size(); i += 23) targets.push_back(absent[i]);
  for (const std::string& target : targets) {
    auto expected =
        std::lower_bound(entries.begin(), entries.end(), target,
                         [](const KeyValue& e, const std::string& key) {
                           return e.first < key;
                         });
    it->Seek(target);
    if (it->Valid()) {
      if (expected == entries.end() || it->key() != expected->first ||
          it->value() != expected->second) {
        return absl::StrCat("Seek(", target, ") lands on a wrong entry");
      }
    } else if (!it->status().ok()) {
      if (!IsAllowedError(it->status())) {
        return "Seek error is not DataLoss: " + Describe(it->status());
      }
    } else if (expected != entries.end()) {
      return absl::StrCat("Seek(", target, ") finds nothing, without error");
    }
  }
  return "";
}

// How a damaged file was handled.
enum class Outcome {
  kOpenFailed,
  kErrorsReported,  // opened; some Get or iteration reported DataLoss
  kAllCorrect,      // opened; everything read back correctly
};

// The whole promise, for one damaged file, with checksums verified. Sets
// `*outcome` (if not null) when the file passes.
std::string CheckErrorOrCorrectData(const TableUnderTest& original,
                                    const std::string& damaged,
                                    Outcome* outcome = nullptr) {
  Outcome ignored;
  if (outcome == nullptr) outcome = &ignored;
  *outcome = Outcome::kOpenFailed;
  auto opened = Table::Open(original.options,
                            NewMemoryRandomAccessFile(damaged), damaged.size());
  if (!opened.ok()) {
    if (!IsAllowedError(opened.status())) {
      return "Open error is not DataLoss: " + Describe(opened.status());
    }
    return "";
  }
  const Table& table = **opened;
  const ReadOptions read_options;  // verify_checksums = true
  bool saw_error = false;
  std::string value;
  for (const KeyValue& entry : original.entries) {
    const absl::Status status = table.Get(read_options, entry.first, &value);
    if (!status.ok()) saw_error = true;
    if (status.ok()) {
      if (value != entry.second) {
        return absl::StrCat("Get(", entry.first, ") returns a wrong value");
      }
    } else if (absl::IsNotFound(status)) {
      return absl::StrCat("Get(", entry.first,
                          ") of a present key is NotFound");
    } else if (!IsAllowedError(status)) {
      return absl::StrCat("Get(", entry.first,
                          ") error is not DataLoss: ", Describe(status));
    }
  }
  for (const std::string& key : original.absent) {
    const absl::Status status = table.Get(read_options, key, &value);
    if (status.ok())
      return absl::StrCat("Get(", key, ") of an absent key finds a value");
    if (!absl::IsNotFound(status) && !IsAllowedError(status)) {
      return absl::StrCat("Get(", key,
                          ") error is not DataLoss: ", Describe(status));
    }
  }
  for (bool forward : {true, false}) {
    std::string problem =
        CheckIteration(table, read_options, original.entries, forward, true,
                       damaged.size(), &saw_error);
    if (!problem.empty()) return problem;
  }
  *outcome = saw_error ? Outcome::kErrorsReported : Outcome::kAllCorrect;
  return CheckSeeks(table, original.entries, original.absent);
}

// For damage the checksums cannot see (checksums off, or repaired): no
// crash, no endless iteration, and only the documented status codes.
std::string CheckNoCrash(const TableUnderTest& original,
                         const std::string& damaged,
                         const ReadOptions& read_options) {
  auto opened = Table::Open(original.options,
                            NewMemoryRandomAccessFile(damaged), damaged.size());
  if (!opened.ok()) {
    if (!IsAllowedError(opened.status())) {
      return "Open error is not DataLoss: " + Describe(opened.status());
    }
    return "";
  }
  const Table& table = **opened;
  std::string value;
  for (const KeyValue& entry : original.entries) {
    const absl::Status status = table.Get(read_options, entry.first, &value);
    if (!status.ok() && !absl::IsNotFound(status) && !IsAllowedError(status)) {
      return absl::StrCat("Get(", entry.first,
                          ") error is not DataLoss: ", Describe(status));
    }
  }
  for (size_t i = 0; i < original.absent.size(); i += 4) {
    const absl::Status status =
        table.Get(read_options, original.absent[i], &value);
    if (!status.ok() && !absl::IsNotFound(status) && !IsAllowedError(status)) {
      return "Get error is not DataLoss: " + Describe(status);
    }
  }
  for (bool forward : {true, false}) {
    std::string problem = CheckIteration(table, read_options, original.entries,
                                         forward, false, damaged.size());
    if (!problem.empty()) return problem;
  }
  table.ApproximateOffsetOf(original.entries[7].first);
  return "";
}

// Where `offset` lies in the table, for messages.
std::string Region(const Layout& layout, uint64_t offset, uint64_t file_size) {
  auto within = [offset](Handle h) {
    return offset >= h.offset && offset < h.offset + h.size + kTrailerSize;
  };
  if (offset >= file_size - kFooterSize) return "footer";
  if (within(layout.index)) return "index block";
  if (within(layout.metaindex)) return "metaindex block";
  if (within(layout.filter)) return "filter block";
  for (size_t i = 0; i < layout.data_blocks.size(); ++i) {
    if (within(layout.data_blocks[i])) return absl::StrCat("data block ", i);
  }
  return "between blocks";
}

// Collects the problems of a sweep; reports the first few in full.
class ProblemLog {
 public:
  void Add(std::string what, const std::string& problem) {
    if (problem.empty()) return;
    if (++count_ <= 8) first_ += "\n  " + what + ": " + problem;
  }
  void Add(std::string what, const std::string& problem, Outcome outcome) {
    Add(std::move(what), problem);
    ++outcomes_[static_cast<int>(outcome)];
  }
  int outcomes(Outcome outcome) const {
    return outcomes_[static_cast<int>(outcome)];
  }
  testing::AssertionResult Clean() const {
    if (count_ == 0) return testing::AssertionSuccess();
    return testing::AssertionFailure()
           << count_ << " damaged files misbehaved; the first:" << first_;
  }

 private:
  int count_ = 0;
  std::string first_;
  int outcomes_[3] = {0, 0, 0};
};

class TableCorruptionTest : public testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    table_ = SmallTable(/*snappy=*/GetParam());
    ASSERT_GT(table_.layout.data_blocks.size(), 8u);
    ASSERT_GT(table_.layout.filter.size, 0u);
    if (GetParam()) {
      // The Snappy table must really hold compressed data blocks.
      int compressed = 0;
      for (Handle h : table_.layout.data_blocks) {
        compressed += table_.contents[h.offset + h.size] == 1;
      }
      ASSERT_GT(compressed, 0);
    }
    // The undamaged table passes every check.
    ASSERT_EQ(CheckErrorOrCorrectData(table_, table_.contents), "");
  }

  const std::string& contents() const { return table_.contents; }
  const Layout& layout() const { return table_.layout; }

  std::string Where(uint64_t offset) const {
    return absl::StrCat("offset ", offset, " (",
                        Region(layout(), offset, contents().size()), ")");
  }

  // XORs each byte of the table in turn with `mask`: every damaged copy must
  // give an error or the right data, and the sweep must meet every outcome.
  void ExpectEveryByteXoredGivesAnErrorOrCorrectData(char mask) const;

  TableUnderTest table_;
};

INSTANTIATE_TEST_SUITE_P(Compression, TableCorruptionTest, testing::Bool(),
                         [](const testing::TestParamInfo<bool>& info) {
                           return info.param ? "Snappy" : "Uncompressed";
                         });

// ---------------------------------------------------------------------------
// Exhaustive sweeps.

// A byte-flip sweep meets all three outcomes: damage to the footer, index or
// metaindex fails Open; damage to a data block fails the Gets and scans that
// reach it; damage to the filter block only disables the filter.
void ExpectEveryOutcome(const ProblemLog& log) {
  EXPECT_GT(log.outcomes(Outcome::kOpenFailed), 0);
  EXPECT_GT(log.outcomes(Outcome::kErrorsReported), 0);
  EXPECT_GT(log.outcomes(Outcome::kAllCorrect), 0);
}

void TableCorruptionTest::ExpectEveryByteXoredGivesAnErrorOrCorrectData(
    char mask) const {
  ProblemLog log;
  for (size_t offset = 0; offset < contents().size(); ++offset) {
    std::string damaged = contents();
    damaged[offset] ^= mask;
    Outcome outcome;
    const std::string problem =
        CheckErrorOrCorrectData(table_, damaged, &outcome);
    log.Add(Where(offset), problem, outcome);
  }
  EXPECT_TRUE(log.Clean());
  ExpectEveryOutcome(log);
}

TEST_P(TableCorruptionTest, TruncatedAtEveryLengthFailsOrReadsCorrectly) {
  ProblemLog log;
  for (size_t length = 0; length < contents().size(); ++length) {
    const std::string truncated = contents().substr(0, length);
    Outcome outcome;
    const std::string problem =
        CheckErrorOrCorrectData(table_, truncated, &outcome);
    log.Add(absl::StrCat("length ", length), problem, outcome);
  }
  EXPECT_TRUE(log.Clean());
  // Without its last bytes a table has no footer: nothing opens.
  EXPECT_EQ(log.outcomes(Outcome::kOpenFailed),
            static_cast<int>(contents().size()));
}

TEST_P(TableCorruptionTest, FileSizeSmallerThanTheFileFailsToOpen) {
  // The size argument, not the file's length, bounds the table.
  for (uint64_t size : {uint64_t{0}, uint64_t{1}, uint64_t{kFooterSize - 1},
                        uint64_t{kFooterSize}, contents().size() - 1}) {
    auto opened = Table::Open(table_.options,
                              NewMemoryRandomAccessFile(contents()), size);
    EXPECT_TRUE(absl::IsDataLoss(opened.status()))
        << size << ": " << opened.status();
  }
}

TEST_P(TableCorruptionTest, EveryByteInvertedGivesAnErrorOrCorrectData) {
  ExpectEveryByteXoredGivesAnErrorOrCorrectData('\xff');
}

TEST_P(TableCorruptionTest, EveryLowBitFlippedGivesAnErrorOrCorrectData) {
  ExpectEveryByteXoredGivesAnErrorOrCorrectData('\x01');
}

TEST_P(TableCorruptionTest, DamageToADataBlockIsAChecksumFailure) {
  const Handle block = layout().data_blocks[3];
  std::string damaged = contents();
  damaged[block.offset + 1] ^= 0x20;
  auto opened = Table::Open(table_.options, NewMemoryRandomAccessFile(damaged),
                            damaged.size());
  ASSERT_TRUE(opened.ok()) << opened.status();
  // A key of block 3: its first key is just past block 2's separator.
  const std::string key_in_block =
      DecodeBlock(BlockAt(contents(), block)).front().first;
  absl::StatusOr<std::string> value =
      (*opened)->Get(ReadOptions(), key_in_block);
  EXPECT_TRUE(absl::IsDataLoss(value.status())) << value.status();
  EXPECT_EQ((*opened)->GetStats().checksum_failures, 1u);
  absl::StatusOr<std::string> elsewhere =
      (*opened)->Get(ReadOptions(), table_.entries[0].first);
  ASSERT_TRUE(elsewhere.ok()) << elsewhere.status();
  EXPECT_EQ(*elsewhere, table_.entries[0].second);
}

TEST_P(TableCorruptionTest, EveryByteFlippedWithChecksumsOffNeverCrashes) {
  ReadOptions unchecked;
  unchecked.verify_checksums = false;
  ProblemLog log;
  for (Handle block : layout().data_blocks) {
    for (uint64_t offset = block.offset;
         offset < block.offset + block.size + kTrailerSize; ++offset) {
      // One flip per byte, all bits or the low one in turn.
      std::string damaged = contents();
      damaged[offset] ^= offset % 2 == 0 ? '\xff' : '\x01';
      log.Add(Where(offset), CheckNoCrash(table_, damaged, unchecked));
    }
  }
  EXPECT_TRUE(log.Clean());
}

TEST_P(TableCorruptionTest,
       EveryByteFlippedUnderARepairedChecksumNeverCrashes) {
  // The checksum is made to match the damage, so the parsers of every block
  // kind (data, index, metaindex, filter) see the damaged bytes themselves.
  std::vector<Handle> blocks = layout().data_blocks;
  blocks.push_back(layout().filter);
  blocks.push_back(layout().metaindex);
  blocks.push_back(layout().index);
  ProblemLog log;
  for (Handle block : blocks) {
    for (uint64_t offset = block.offset; offset < block.offset + block.size;
         ++offset) {
      // One flip per byte: all bits, the low one or the high one in turn.
      const char masks[] = {'\xff', '\x01', '\x80'};
      std::string damaged = contents();
      damaged[offset] ^= masks[offset % 3];
      RepairChecksum(&damaged, block);
      log.Add(Where(offset), CheckNoCrash(table_, damaged, ReadOptions()));
    }
  }
  EXPECT_TRUE(log.Clean());
}

// ---------------------------------------------------------------------------
// The footer.

TEST_P(TableCorruptionTest, BadMagicIsDataLoss) {
  std::string damaged = contents();
  damaged[damaged.size() - 1] ^= 0x10;
  auto opened = Table::Open(table_.options, NewMemoryRandomAccessFile(damaged),
                            damaged.size());
  EXPECT_TRUE(absl::IsDataLoss(opened.status())) << opened.status();
}

TEST_P(TableCorruptionTest, RocksDBMagicIsUnsupportedNotDamage) {
  std::string damaged = contents();
  damaged.resize(damaged.size() - 8);
  PutFixed64(&damaged, 0x88e241b785f4cff7ull);
  auto opened = Table::Open(table_.options, NewMemoryRandomAccessFile(damaged),
                            damaged.size());
  EXPECT_TRUE(absl::IsUnimplemented(opened.status())) << opened.status();
}

// Handles that do not describe a block before the footer of a file of
// `file_size` bytes. `good` is the handle they replace: some keep its offset
// and claim a bad size. For data blocks (`data_block`), a handle's offset
// also picks the filter consulted before the read, so offsets other than
// `good`'s are far past any filter (which then answers "maybe"): the read
// must happen and fail, whatever the order of the checks.
std::vector<std::pair<std::string, Handle>> BadHandles(uint64_t file_size,
                                                       Handle good,
                                                       bool data_block) {
  const uint64_t footer_start = file_size - kFooterSize;
  std::vector<std::pair<std::string, Handle>> handles = {
      {"past the end", {uint64_t{1} << 20, 10}},
      {"far past the end", {uint64_t{1} << 40, 10}},
      {"larger than the file", {good.offset, uint64_t{1} << 20}},
      {"huge size", {good.offset, uint64_t{1} << 40}},
      {"offset + size overflows", {~uint64_t{0} - 8, 16}},
      {"size overflows with the trailer", {good.offset, ~uint64_t{0} - 2}},
      {"trailer inside the footer",
       {good.offset, footer_start - good.offset - 2}},
      {"overlapping the footer",
       {good.offset, footer_start - good.offset + 10}},
      {"ending at the end of the file",
       {good.offset, file_size - good.offset - kTrailerSize}},
  };
  if (!data_block) {
    handles.push_back({"just past the end", {file_size, 10}});
    handles.push_back({"inside the footer", {footer_start + 2, 20}});
  }
  return handles;
}

TEST_P(TableCorruptionTest, IndexHandleOutsideTheFileIsDataLoss) {
  for (const auto& [what, handle] :
       BadHandles(contents().size(), layout().index, false)) {
    SCOPED_TRACE(what);
    std::string damaged =
        contents().substr(0, contents().size() - kFooterSize) +
        EncodeFooter(layout().metaindex, handle);
    auto opened = Table::Open(
        table_.options, NewMemoryRandomAccessFile(damaged), damaged.size());
    EXPECT_TRUE(absl::IsDataLoss(opened.status())) << opened.status();
  }
}

TEST_P(TableCorruptionTest, MetaindexHandleOutsideTheFileIsDataLoss) {
  for (const auto& [what, handle] :
       BadHandles(contents().size(), layout().metaindex, false)) {
    SCOPED_TRACE(what);
    std::string damaged =
        contents().substr(0, contents().size() - kFooterSize) +
        EncodeFooter(handle, layout().index);
    auto opened = Table::Open(
        table_.options, NewMemoryRandomAccessFile(damaged), damaged.size());
    EXPECT_TRUE(absl::IsDataLoss(opened.status())) << opened.status();
  }
}

TEST_P(TableCorruptionTest, MalformedFooterHandlesAreDataLoss) {
  std::string footer(kFooterSize - 8, '\xff');  // varints that never end
  PutFixed64(&footer, 0xdb4775248b80fb57ull);
  const std::string damaged =
      contents().substr(0, contents().size() - kFooterSize) + footer;
  auto opened = Table::Open(table_.options, NewMemoryRandomAccessFile(damaged),
                            damaged.size());
  EXPECT_TRUE(absl::IsDataLoss(opened.status())) << opened.status();
}

// ---------------------------------------------------------------------------
// Data block handles in a (checksum-valid) index.

TEST_P(TableCorruptionTest, RebuildingTheTailUnchangedGivesTheSameTable) {
  // Checks this file's own encoders, on which the tests below rely.
  const std::string filter = BlockAt(contents(), layout().filter);
  const std::string rebuilt =
      RebuildTail(contents(), layout(), filter, layout().index_entries,
                  table_.options.block_restart_interval);
  if (!GetParam()) {
    EXPECT_EQ(rebuilt, contents());
  }
  EXPECT_EQ(CheckErrorOrCorrectData(table_, rebuilt), "");
}

TEST_P(TableCorruptionTest, DataBlockHandleOutsideTheFileIsAnError) {
  const size_t victim = 4;
  const Handle good = layout().data_blocks[victim];
  const std::vector<KeyValue> victim_entries =
      DecodeBlock(BlockAt(contents(), good));
  const std::string filter = BlockAt(contents(), layout().filter);
  const size_t variants = BadHandles(contents().size(), good, true).size();
  for (size_t v = 0; v < variants; ++v) {
    // The rebuilt index changes the file's size a little; handles defined
    // against the end of the file are recomputed until the size settles.
    std::string damaged = contents();
    std::pair<std::string, Handle> bad;
    for (int pass = 0; pass < 3; ++pass) {
      bad = BadHandles(damaged.size(), good, true)[v];
      std::vector<KeyValue> index = layout().index_entries;
      index[victim].second.clear();
      PutHandle(&index[victim].second, bad.second);
      damaged = RebuildTail(contents(), layout(), filter, index,
                            table_.options.block_restart_interval);
    }
    SCOPED_TRACE(bad.first);
    ASSERT_EQ(bad.second.offset,
              BadHandles(damaged.size(), good, true)[v].second.offset);
    ASSERT_EQ(bad.second.size,
              BadHandles(damaged.size(), good, true)[v].second.size);
    auto opened = Table::Open(
        table_.options, NewMemoryRandomAccessFile(damaged), damaged.size());
    if (!opened.ok()) {
      EXPECT_TRUE(absl::IsDataLoss(opened.status())) << opened.status();
      continue;
    }
    EXPECT_EQ(CheckErrorOrCorrectData(table_, damaged), "");
    ReadOptions unchecked;
    unchecked.verify_checksums = false;
    EXPECT_EQ(CheckNoCrash(table_, damaged, unchecked), "");
    for (const ReadOptions& read_options : {ReadOptions(), unchecked}) {
      for (const KeyValue& entry : victim_entries) {
        absl::StatusOr<std::string> value =
            (*opened)->Get(read_options, entry.first);
        EXPECT_TRUE(absl::IsDataLoss(value.status()))
            << entry.first
            << " (verify_checksums=" << read_options.verify_checksums
            << "): " << value.status();
      }
    }
  }
}

// ---------------------------------------------------------------------------
// Hand-made damage inside one data block, under a valid checksum. Only for
// the uncompressed table, where block bytes can be edited in place.

class DataBlockDamageTest : public testing::Test {
 protected:
  void SetUp() override {
    table_ = SmallTable(/*snappy=*/false);
    block_ = table_.layout.data_blocks[victim_];
    block_entries_ = DecodeBlock(BlockAt(table_.contents, block_));
    ASSERT_GE(block_entries_.size(), 5u);
    restarts_ =
        DecodeFixed32(table_.contents.data() + block_.offset + block_.size - 4);
    ASSERT_GE(restarts_, 2u);
  }

  // The file with `edit` applied to the victim block's bytes and its
  // checksum repaired.
  template <typename Edit>
  std::string Damaged(Edit edit) const {
    std::string damaged = table_.contents;
    char* block = damaged.data() + block_.offset;
    edit(block);
    RepairChecksum(&damaged, block_);
    return damaged;
  }

  // Offset (within the block) of entry `i`.
  size_t EntryOffset(size_t i) const {
    std::string_view rest(table_.contents.data() + block_.offset, block_.size);
    const std::string_view start = rest;
    for (size_t e = 0; e < i; ++e) {
      uint32_t shared, unshared, value_length;
      GetVarint32(&rest, &shared);
      GetVarint32(&rest, &unshared);
      GetVarint32(&rest, &value_length);
      rest.remove_prefix(unshared + value_length);
    }
    return rest.data() - start.data();
  }

  size_t restart_array_offset() const {
    return block_.size - 4 - 4 * restarts_;
  }

  // Gets of the victim block's keys return the value or DataLoss, every
  // other check of the table holds, and nothing crashes unchecked.
  void ExpectErrorOrCorrect(const std::string& damaged) {
    EXPECT_EQ(CheckErrorOrCorrectData(table_, damaged), "");
    ReadOptions unchecked;
    unchecked.verify_checksums = false;
    EXPECT_EQ(CheckNoCrash(table_, damaged, unchecked), "");
  }

  // As above, and at least one of the block's keys is reported as DataLoss.
  void ExpectDataLossInBlock(const std::string& damaged) {
    ExpectErrorOrCorrect(damaged);
    auto opened = Table::Open(
        table_.options, NewMemoryRandomAccessFile(damaged), damaged.size());
    ASSERT_TRUE(opened.ok()) << opened.status();
    int data_loss = 0;
    for (const KeyValue& entry : block_entries_) {
      data_loss +=
          absl::IsDataLoss((*opened)->Get(ReadOptions(), entry.first).status());
    }
    EXPECT_GT(data_loss, 0);
  }

  const size_t victim_ = 5;
  TableUnderTest table_;
  Handle block_;
  std::vector<KeyValue> block_entries_;
  uint32_t restarts_ = 0;
};

TEST_F(DataBlockDamageTest, ZeroRestartPointsIsAnError) {
  ExpectDataLossInBlock(
      Damaged([&](char* block) { EncodeFixed32(block + block_.size - 4, 0); }));
}

TEST_F(DataBlockDamageTest, RestartCountLargerThanTheBlockIsAnError) {
  for (uint32_t count :
       {restarts_ + 1, uint32_t(block_.size / 4), uint32_t(block_.size / 4 + 1),
        0x40000000u, 0xffffffffu}) {
    SCOPED_TRACE(count);
    ExpectDataLossInBlock(Damaged(
        [&](char* block) { EncodeFixed32(block + block_.size - 4, count); }));
  }
}

TEST_F(DataBlockDamageTest, RestartOffsetOutsideTheEntriesIsAnError) {
  const size_t array = restart_array_offset();
  for (uint32_t bad : {uint32_t(array), uint32_t(array + 2),
                       uint32_t(block_.size), 0xfffffff0u}) {
    for (uint32_t which : {0u, 1u, restarts_ - 1}) {
      SCOPED_TRACE(absl::StrCat("restart ", which, " = ", bad));
      ExpectErrorOrCorrect(Damaged(
          [&](char* block) { EncodeFixed32(block + array + 4 * which, bad); }));
    }
  }
  // Every restart point out of range: no key of the block can be found.
  ExpectDataLossInBlock(Damaged([&](char* block) {
    for (uint32_t i = 0; i < restarts_; ++i) {
      EncodeFixed32(block + array + 4 * i, 0xfffffff0u);
    }
  }));
}

TEST_F(DataBlockDamageTest, RestartOffsetsOutOfOrderNeverCrash) {
  const size_t array = restart_array_offset();
  std::string damaged = Damaged([&](char* block) {
    for (uint32_t i = 0; i < restarts_; ++i) {
      EncodeFixed32(block + array + 4 * i,
                    DecodeFixed32(block + array + 4 * (restarts_ - 1 - i)));
    }
  });
  EXPECT_EQ(CheckNoCrash(table_, damaged, ReadOptions()), "");
}

TEST_F(DataBlockDamageTest, SharedPrefixLongerThanThePreviousKeyIsAnError) {
  // Entry 1 shares a prefix with entry 0 (restart interval 4); entry 0, at a
  // restart point, has no previous key at all. The single-byte varint keeps
  // the block's layout.
  for (size_t entry : {size_t{0}, size_t{1}, size_t{2}}) {
    for (unsigned char shared : {17, 100, 127}) {
      SCOPED_TRACE(absl::StrCat("entry ", entry, " shared ", int{shared}));
      ExpectDataLossInBlock(Damaged([&](char* block) {
        block[EntryOffset(entry)] = static_cast<char>(shared);
      }));
    }
  }
}

TEST_F(DataBlockDamageTest, NonZeroSharedAtARestartPointIsNeverAWrongValue) {
  // Entry 4 starts the second restart run: its shared length must be 0. A
  // lookup that starts its scan there cannot rebuild the key; walking into it
  // from entry 3 may (the format does not forbid reading it that way), so
  // only lookups are held to "value or DataLoss".
  const std::string damaged =
      Damaged([&](char* block) { block[EntryOffset(4)] = 3; });
  EXPECT_EQ(CheckNoCrash(table_, damaged, ReadOptions()), "");
  auto opened = Table::Open(table_.options, NewMemoryRandomAccessFile(damaged),
                            damaged.size());
  ASSERT_TRUE(opened.ok()) << opened.status();
  for (const KeyValue& entry : block_entries_) {
    absl::StatusOr<std::string> value =
        (*opened)->Get(ReadOptions(), entry.first);
    if (value.ok()) {
      EXPECT_EQ(*value, entry.second) << entry.first;
    } else {
      EXPECT_TRUE(absl::IsDataLoss(value.status()))
          << entry.first << ": " << value.status();
    }
  }
}

TEST_F(DataBlockDamageTest, EntryLengthsPastTheEntriesAreAnError) {
  const size_t last = block_entries_.size() - 1;
  for (int field : {1, 2}) {  // unshared length, value length
    for (unsigned char length : {100, 127}) {
      SCOPED_TRACE(absl::StrCat("field ", field, " = ", int{length}));
      ExpectDataLossInBlock(Damaged([&](char* block) {
        block[EntryOffset(last) + field] = static_cast<char>(length);
      }));
    }
  }
  // A varint that runs into the restart array and never ends.
  ExpectErrorOrCorrect(Damaged([&](char* block) {
    std::fill(block + EntryOffset(last), block + block_.size - 4, '\xff');
  }));
}

TEST_F(DataBlockDamageTest, UnknownCompressionTypeIsDataLoss) {
  for (char type : {'\x02', '\x07', '\xff'}) {
    std::string damaged = table_.contents;
    damaged[block_.offset + block_.size] = type;
    RepairChecksum(&damaged, block_);
    ExpectDataLossInBlock(damaged);
  }
}

// A Snappy block whose header claims `claimed` uncompressed bytes, in place
// of the victim block (same size, valid checksum).
std::string WithSnappyClaim(const TableUnderTest& table, Handle block,
                            uint32_t claimed) {
  std::string damaged = table.contents;
  std::string contents;
  PutVarint32(&contents, claimed);
  // A literal tag for the rest, so that the stream parses as far as it can.
  while (contents.size() < block.size) contents.push_back('\x00');
  contents.resize(block.size);
  damaged.replace(block.offset, block.size, contents);
  damaged[block.offset + block.size] = 1;
  RepairChecksum(&damaged, block);
  return damaged;
}

// In builds without a sanitizer, caps the address space while it lives, so
// that an allocation sized from a damaged length throws instead of taking
// the machine's memory (a std::bad_alloc escaping the API fails the test).
class ScopedAddressSpaceCap {
 public:
  ScopedAddressSpaceCap() {
#if !defined(BLOOMTABLE_TEST_SHADOW_MEMORY)
    if (getrlimit(RLIMIT_AS, &saved_) != 0) return;
    long pages = 0;
    if (FILE* statm = std::fopen("/proc/self/statm", "r")) {
      if (std::fscanf(statm, "%ld", &pages) != 1) pages = 0;
      std::fclose(statm);
    }
    if (pages <= 0) return;
    // Room for the test itself, far below a 4 GiB claim.
    const rlim_t cap = static_cast<rlim_t>(pages) * sysconf(_SC_PAGESIZE) +
                       (rlim_t{512} << 20);
    if (saved_.rlim_cur != RLIM_INFINITY && saved_.rlim_cur < cap) return;
    rlimit limited = saved_;
    limited.rlim_cur = cap;
    active_ = setrlimit(RLIMIT_AS, &limited) == 0;
#endif
  }
  ~ScopedAddressSpaceCap() {
    if (active_) setrlimit(RLIMIT_AS, &saved_);
  }

 private:
  rlimit saved_{};
  bool active_ = false;
};

TEST_F(DataBlockDamageTest, HugeSnappyLengthIsDataLossWithoutAllocating) {
  ScopedAddressSpaceCap cap;
  // Past any cap (4 GiB, 1 GiB, 100 MiB), and under the cap but more than
  // the block holds.
  for (uint32_t claimed : {0xffffffffu, 1u << 30, 100u << 20, 1u << 20}) {
    SCOPED_TRACE(claimed);
    ExpectDataLossInBlock(WithSnappyClaim(table_, block_, claimed));
  }
}

// ---------------------------------------------------------------------------
// Filter blocks: damage must degrade to "maybe", never to a false "absent".

class FilterDamageTest : public testing::TestWithParam<bool> {
 protected:
  void SetUp() override { table_ = SmallTable(/*snappy=*/GetParam()); }

  std::string WithFilter(const std::string& filter) const {
    return RebuildTail(table_.contents, table_.layout, filter,
                       table_.layout.index_entries,
                       table_.options.block_restart_interval);
  }

  std::string original_filter() const {
    return BlockAt(table_.contents, table_.layout.filter);
  }

  // Every present key is found with its value; the table opens.
  void ExpectEveryKeyFound(const std::string& damaged) {
    auto opened = Table::Open(
        table_.options, NewMemoryRandomAccessFile(damaged), damaged.size());
    ASSERT_TRUE(opened.ok()) << opened.status();
    for (const KeyValue& entry : table_.entries) {
      absl::StatusOr<std::string> value =
          (*opened)->Get(ReadOptions(), entry.first);
      ASSERT_TRUE(value.ok()) << entry.first << ": " << value.status();
      EXPECT_EQ(*value, entry.second);
    }
    EXPECT_EQ(CheckErrorOrCorrectData(table_, damaged), "");
  }

  TableUnderTest table_;
};

INSTANTIATE_TEST_SUITE_P(Compression, FilterDamageTest, testing::Bool(),
                         [](const testing::TestParamInfo<bool>& info) {
                           return info.param ? "Snappy" : "Uncompressed";
                         });

TEST_P(FilterDamageTest, FilterWithABadChecksumIsNotUsed) {
  std::string damaged = table_.contents;
  damaged[table_.layout.filter.offset + 3] ^= 0x40;
  ExpectEveryKeyFound(damaged);
  auto opened = Table::Open(table_.options, NewMemoryRandomAccessFile(damaged),
                            damaged.size());
  ASSERT_TRUE(opened.ok());
  EXPECT_FALSE((*opened)->filter_info().in_use);
  EXPECT_FALSE((*opened)->filter_info().unused_reason.empty());
  EXPECT_EQ((*opened)->filter_info().metaindex_key, kFilterMetaKey);
  EXPECT_GE((*opened)->GetStats().checksum_failures, 1u);
}

// The original filter block with every filter's bits cleared (each keeps
// its probe count): well-formed, and "absent" for every key.
std::string FilterWithEveryBitCleared(std::string filter) {
  const size_t array_offset = DecodeFixed32(filter.data() + filter.size() - 5);
  const size_t num_filters = (filter.size() - 5 - array_offset) / 4;
  for (size_t i = 0; i < num_filters; ++i) {
    const size_t start = DecodeFixed32(filter.data() + array_offset + 4 * i);
    const size_t limit =
        DecodeFixed32(filter.data() + array_offset + 4 * i + 4);
    for (size_t byte = start; byte + 1 < limit; ++byte) filter[byte] = 0;
  }
  return filter;
}

TEST_P(FilterDamageTest,
       AFilterSayingAbsentIsCaughtByItsChecksumEvenUnverified) {
  // The damaged bits in place, under the original (now wrong) checksum.
  const std::string cleared = FilterWithEveryBitCleared(original_filter());
  std::string damaged = table_.contents;
  damaged.replace(table_.layout.filter.offset, cleared.size(), cleared);
  ExpectEveryKeyFound(damaged);
  auto opened = Table::Open(table_.options, NewMemoryRandomAccessFile(damaged),
                            damaged.size());
  ASSERT_TRUE(opened.ok()) << opened.status();
  EXPECT_FALSE((*opened)->filter_info().in_use);
  // verify_checksums = false is about data blocks: the filter was checked
  // at Open all the same.
  ReadOptions unverified;
  unverified.verify_checksums = false;
  for (const KeyValue& entry : table_.entries) {
    absl::StatusOr<std::string> value = (*opened)->Get(unverified, entry.first);
    ASSERT_TRUE(value.ok()) << entry.first << ": " << value.status();
  }
}

TEST_P(FilterDamageTest, TheGuaranteeRestsOnTheChecksum) {
  // The same bits under a matching checksum: nothing in a well-formed filter
  // tells it from one of other keys, and it is trusted. This is the limit
  // filter_policy.h states; the test keeps the statement honest.
  const std::string rewritten =
      WithFilter(FilterWithEveryBitCleared(original_filter()));
  auto opened = Table::Open(
      table_.options, NewMemoryRandomAccessFile(rewritten), rewritten.size());
  ASSERT_TRUE(opened.ok()) << opened.status();
  EXPECT_TRUE((*opened)->filter_info().in_use);
  size_t said_absent = 0;
  for (const KeyValue& entry : table_.entries) {
    if (absl::IsNotFound((*opened)->Get(ReadOptions(), entry.first).status())) {
      ++said_absent;
    }
  }
  EXPECT_EQ(said_absent, table_.entries.size());
}

TEST_P(FilterDamageTest, FilterOfRandomGarbageIsNotTrusted) {
  std::mt19937_64 rng(71);
  for (size_t size : {size_t{100}, original_filter().size(), size_t{5000}}) {
    std::string garbage(size, '\0');
    for (char& c : garbage) c = static_cast<char>(rng());
    // An offset array that starts past the block: no usable structure.
    EncodeFixed32(garbage.data() + size - 5, 0xfffffff0u);
    SCOPED_TRACE(size);
    ExpectEveryKeyFound(WithFilter(garbage));
  }
}

TEST_P(FilterDamageTest, FilterBlockShorterThanItsTrailerIsNotTrusted) {
  for (size_t size = 0; size < 5; ++size) {
    SCOPED_TRACE(size);
    ExpectEveryKeyFound(WithFilter(std::string(size, '\0')));
  }
}

TEST_P(FilterDamageTest, BadBaseLgIsNotTrusted) {
  for (unsigned char base_lg : {0, 31, 32, 64, 255}) {
    SCOPED_TRACE(int{base_lg});
    std::string filter = original_filter();
    filter.back() = static_cast<char>(base_lg);
    ExpectEveryKeyFound(WithFilter(filter));
  }
}

TEST_P(FilterDamageTest, OffsetArrayPastTheBlockIsNotTrusted) {
  const std::string original = original_filter();
  for (uint32_t array_offset : {uint32_t(original.size() - 4),
                                uint32_t(original.size()), 0xffffffffu}) {
    SCOPED_TRACE(array_offset);
    std::string filter = original;
    EncodeFixed32(filter.data() + filter.size() - 5, array_offset);
    ExpectEveryKeyFound(WithFilter(filter));
  }
}

TEST_P(FilterDamageTest, FilterOffsetsOutOfRangeAreNotTrusted) {
  // Each filter's offsets pushed past the offset array (where LevelDB would
  // see an empty filter and answer "absent"), or made to decrease.
  const std::string original = original_filter();
  const uint32_t array_offset =
      DecodeFixed32(original.data() + original.size() - 5);
  const size_t filters = (original.size() - 5 - array_offset) / 4;
  ASSERT_GT(filters, 1u);
  for (uint32_t bad : {0xffffffffu, array_offset + 1, array_offset + 100}) {
    SCOPED_TRACE(bad);
    std::string filter = original;
    for (size_t i = 0; i < filters; ++i) {
      EncodeFixed32(filter.data() + array_offset + 4 * i, bad);
    }
    ExpectEveryKeyFound(WithFilter(filter));
  }
  // Decreasing offsets inside the filter data; the last filter, whose limit
  // is the array itself, starts past it.
  std::string decreasing = original;
  for (size_t i = 0; i + 1 < filters; ++i) {
    EncodeFixed32(decreasing.data() + array_offset + 4 * i,
                  static_cast<uint32_t>(array_offset - i));
  }
  EncodeFixed32(decreasing.data() + array_offset + 4 * (filters - 1),
                array_offset + 1);
  ExpectEveryKeyFound(WithFilter(decreasing));
}

TEST_P(FilterDamageTest, FilterOfAnotherPolicyNameIsNotUsed) {
  // The metaindex names a policy the reader was not given.
  const std::string filter = original_filter();
  std::string rebuilt = table_.contents.substr(0, table_.layout.filter.offset);
  const Handle filter_handle{rebuilt.size(), filter.size()};
  rebuilt += filter + Trailer(filter, 0);
  std::string encoded;
  PutHandle(&encoded, filter_handle);
  const std::string metaindex =
      EncodeBlock({{"filter.some.OtherFilter", encoded}}, 16);
  const Handle metaindex_handle{rebuilt.size(), metaindex.size()};
  rebuilt += metaindex + Trailer(metaindex, 0);
  const std::string index = EncodeBlock(table_.layout.index_entries, 1);
  const Handle index_handle{rebuilt.size(), index.size()};
  rebuilt += index + Trailer(index, 0);
  rebuilt += EncodeFooter(metaindex_handle, index_handle);

  auto opened = Table::Open(table_.options, NewMemoryRandomAccessFile(rebuilt),
                            rebuilt.size());
  ASSERT_TRUE(opened.ok()) << opened.status();
  EXPECT_FALSE((*opened)->filter_info().in_use);
  ExpectEveryKeyFound(rebuilt);
}

}  // namespace
}  // namespace bloomtable
