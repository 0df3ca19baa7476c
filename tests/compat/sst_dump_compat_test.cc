// RocksDB's sst_dump (package rocksdb-tools) reads our tables: RocksDB 7.8
// opens LevelDB-format tables ("block-based(old version)"), verifies their
// checksums and, since it parses every key as an internal key (user key +
// 8-byte sequence/type tag), prints internal-key tables entry by entry. It
// ignores LevelDB's "filter." blocks.
//
// sst_dump exits 0 even for a corrupt file, so these tests read what it
// prints, and keep a corrupted copy as a negative control beside every
// positive check.

#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "bloomtable/file.h"
#include "bloomtable/filter_policy.h"
#include "bloomtable/options.h"
#include "gtest/gtest.h"
#include "tests/compat/leveldb_files.h"
#include "tests/temp_dir.h"
#include "util/coding.h"

namespace bloomtable {
namespace compat_test {
namespace {

constexpr char kSstDump[] = "/usr/bin/sst_dump";

struct CommandResult {
  int exit_status;
  std::string output;  // stdout and stderr together
};

CommandResult RunCommand(const std::string& command) {
  CommandResult result{-1, ""};
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return result;
  char buffer[4096];
  size_t n;
  while ((n = fread(buffer, 1, sizeof(buffer), pipe)) > 0) {
    result.output.append(buffer, n);
  }
  const int status = pclose(pipe);
  result.exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

class SstDumpTest : public testing::Test {
 protected:
  void SetUp() override {
    // A missing tool is a failure, not a skip: the set-up script installs it.
    ASSERT_EQ(access(kSstDump, X_OK), 0)
        << kSstDump << " is missing: install rocksdb-tools";
  }

  // Writes `contents` as <dir>/<name>.sst (sst_dump wants that extension).
  std::string WriteSst(const std::string& name, const std::string& contents) {
    const std::string path = absl::StrCat(dir_, "/", name, ".sst");
    auto file = NewWritableFile(path);
    EXPECT_TRUE(file.ok()) << file.status();
    if (!file.ok()) return path;
    EXPECT_TRUE((*file)->Append(contents).ok());
    EXPECT_TRUE((*file)->Close().ok());
    return path;
  }

  CommandResult Verify(const std::string& path) {
    return RunCommand(absl::StrCat(kSstDump, " --file=", path,
                                   " --command=verify --verify_checksum"));
  }

  const TempDir temp_dir_;
  const std::string dir_ = temp_dir_.path();
};

// What sst_dump 7.8 prints: "The file is ok" after a clean verify; on damage
// "<file> is corrupted: Corruption: ..." or "<file> is not a valid SST file".
bool VerifiedSound(const CommandResult& result) {
  return result.exit_status == 0 &&
         result.output.find("The file is ok") != std::string::npos &&
         result.output.find("orrupt") == std::string::npos &&
         result.output.find("not a valid SST file") == std::string::npos;
}

bool ReportedCorrupt(const CommandResult& result) {
  return result.output.find("The file is ok") == std::string::npos &&
         (result.output.find("orrupt") != std::string::npos ||
          result.output.find("not a valid SST file") != std::string::npos);
}

std::string InternalKey(const std::string& user_key, uint64_t sequence,
                        int type) {
  std::string key = user_key;
  PutFixed64(&key, (sequence << 8) | static_cast<uint64_t>(type));
  return key;
}

// Fixed-length user keys, unique, each with one tag: as plain keys these
// sort exactly as internal keys do. Every fifth entry is a deletion (type 0,
// empty value). Values are binary, some empty.
std::vector<KeyValue> InternalKeyEntries(uint64_t seed, int count,
                                         bool printable) {
  std::mt19937_64 rng(seed);
  std::set<std::string> user_keys;
  while (static_cast<int>(user_keys.size()) < count) {
    if (printable) {
      user_keys.insert(absl::StrFormat("user%08d", rng() % 100000000));
    } else {
      std::string key(10, '\0');
      for (char& c : key) c = static_cast<char>(rng() & 0xff);
      user_keys.insert(key);
    }
  }
  std::vector<KeyValue> entries;
  int i = 0;
  for (const std::string& user_key : user_keys) {
    const bool deletion = i % 5 == 4;
    std::string value;
    if (!deletion) {
      value.resize(rng() % 80);
      for (char& c : value) {
        c = printable ? static_cast<char>('a' + rng() % 26)
                      : static_cast<char>(rng() & 0xff);
      }
    }
    entries.emplace_back(InternalKey(user_key, 1 + rng() % (uint64_t{1} << 40),
                                     deletion ? 0 : 1),
                         value);
    ++i;
  }
  return entries;
}

std::string Corrupted(std::string contents, size_t offset) {
  contents[offset] ^= 0x01;
  return contents;
}

TEST_F(SstDumpTest, VerifyAcceptsOurTablesAndRejectsCorruptedCopies) {
  const std::vector<KeyValue> entries = InternalKeyEntries(61, 2000, false);
  for (bool snappy : {false, true}) {
    for (int bloom_bits : {0, 10}) {
      SCOPED_TRACE(absl::StrCat("snappy=", snappy, " bloom_bits=", bloom_bits));
      Options options;
      options.compression =
          snappy ? CompressionType::kSnappy : CompressionType::kNone;
      if (bloom_bits > 0) {
        options.filter_policy = NewLevelDBBloomFilterPolicy(bloom_bits);
      }
      const std::string contents = BuildWithBloomtable(options, entries);
      ASSERT_GT(contents.size(), 4096u);
      const std::string name = absl::StrCat("table_", snappy, "_", bloom_bits);

      CommandResult sound = Verify(WriteSst(name, contents));
      EXPECT_TRUE(VerifiedSound(sound)) << sound.output;
      EXPECT_NE(sound.output.find("block-based(old version)"),
                std::string::npos)
          << sound.output;

      // Negative controls: a flipped bit in the first data block, and in the
      // magic number.
      CommandResult bad_block =
          Verify(WriteSst(name + "_bad_block", Corrupted(contents, 20)));
      EXPECT_TRUE(ReportedCorrupt(bad_block)) << bad_block.output;
      CommandResult bad_magic = Verify(WriteSst(
          name + "_bad_magic", Corrupted(contents, contents.size() - 1)));
      EXPECT_TRUE(ReportedCorrupt(bad_magic)) << bad_magic.output;
    }
  }
}

TEST_F(SstDumpTest, VerifyAcceptsATableOfPlainShortKeys) {
  // Keys shorter than a tag: verify reads blocks, not keys.
  std::vector<KeyValue> entries;
  for (int i = 0; i < 3000; ++i) {
    entries.emplace_back(absl::StrFormat("%05d", i), absl::StrCat("v", i));
  }
  Options options;
  options.filter_policy = NewLevelDBBloomFilterPolicy(10);
  const std::string contents = BuildWithBloomtable(options, entries);
  CommandResult sound = Verify(WriteSst("plain", contents));
  EXPECT_TRUE(VerifiedSound(sound)) << sound.output;
  CommandResult bad = Verify(WriteSst("plain_bad", Corrupted(contents, 100)));
  EXPECT_TRUE(ReportedCorrupt(bad)) << bad.output;
}

struct ScannedEntry {
  std::string user_key;
  uint64_t sequence;
  int type;
  std::string value;

  bool operator==(const ScannedEntry& other) const {
    return user_key == other.user_key && sequence == other.sequence &&
           type == other.type && value == other.value;
  }
};

std::ostream& operator<<(std::ostream& os, const ScannedEntry& entry) {
  return os << "'" << absl::CHexEscape(entry.user_key)
            << "' seq:" << entry.sequence << ", type:" << entry.type << " => "
            << absl::CHexEscape(entry.value);
}

std::vector<ScannedEntry> Expected(const std::vector<KeyValue>& entries) {
  std::vector<ScannedEntry> expected;
  for (const KeyValue& entry : entries) {
    const std::string& key = entry.first;
    const uint64_t tag = DecodeFixed64(key.data() + key.size() - 8);
    expected.push_back({key.substr(0, key.size() - 8), tag >> 8,
                        static_cast<int>(tag & 0xff), entry.second});
  }
  return expected;
}

// The entry lines of `sst_dump --command=scan`: "'KEY' seq:N, type:T => VALUE",
// with KEY and VALUE in upper-case hex when `hex`. Other lines (headers,
// "from [] to []") are skipped.
std::vector<ScannedEntry> ParseScan(const std::string& output, bool hex) {
  const std::regex entry_line(R"(^'(.*)' seq:(\d+), type:(\d+) => (.*)$)");
  std::vector<ScannedEntry> entries;
  size_t start = 0;
  while (start < output.size()) {
    size_t end = output.find('\n', start);
    if (end == std::string::npos) end = output.size();
    const std::string line = output.substr(start, end - start);
    start = end + 1;
    std::smatch match;
    if (!std::regex_match(line, match, entry_line)) continue;
    ScannedEntry entry{match[1].str(), std::stoull(match[2].str()),
                       std::stoi(match[3].str()), match[4].str()};
    if (hex) {
      entry.user_key = absl::HexStringToBytes(entry.user_key);
      entry.value = absl::HexStringToBytes(entry.value);
    }
    entries.push_back(entry);
  }
  return entries;
}

TEST_F(SstDumpTest, HexScanPrintsExactlyTheEntriesOfAnInternalKeyTable) {
  const std::vector<KeyValue> entries = InternalKeyEntries(62, 1500, false);
  for (bool snappy : {false, true}) {
    SCOPED_TRACE(absl::StrCat("snappy=", snappy));
    Options options;
    options.block_size = 1024;
    options.compression =
        snappy ? CompressionType::kSnappy : CompressionType::kNone;
    options.filter_policy = NewLevelDBBloomFilterPolicy(10);
    const std::string path = WriteSst(absl::StrCat("scan_", snappy),
                                      BuildWithBloomtable(options, entries));
    CommandResult scan = RunCommand(absl::StrCat(
        kSstDump, " --file=", path, " --command=scan --output_hex"));
    EXPECT_EQ(scan.exit_status, 0) << scan.output;
    const std::vector<ScannedEntry> scanned = ParseScan(scan.output, true);
    ASSERT_EQ(scanned.size(), entries.size()) << scan.output.substr(0, 2000);
    EXPECT_EQ(scanned, Expected(entries));
  }
}

TEST_F(SstDumpTest, PlainScanPrintsPrintableEntriesAsTheyAre) {
  const std::vector<KeyValue> entries = InternalKeyEntries(63, 500, true);
  Options options;
  options.block_size = 512;
  const std::string path =
      WriteSst("printable", BuildWithBloomtable(options, entries));
  CommandResult scan =
      RunCommand(absl::StrCat(kSstDump, " --file=", path, " --command=scan"));
  EXPECT_EQ(scan.exit_status, 0) << scan.output;
  EXPECT_EQ(ParseScan(scan.output, false), Expected(entries));
}

}  // namespace
}  // namespace compat_test
}  // namespace bloomtable
