// Tests of the bloomtable command-line tool's contract, run as a separate
// process (tool_test_util.h): golden human output, exit statuses, usage
// errors, help, every kind of wrong file, verify's line format, and get.
// JSON output, build and scan, and damaged tables have their own files.

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>
#include <random>
#include <regex>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "bloomtable/version.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/tool_test_util.h"
#include "util/coding.h"

namespace bloomtable {
namespace tool_test {
namespace {

using ::testing::AllOf;
using ::testing::AnyOf;
using ::testing::HasSubstr;
using ::testing::StartsWith;

// ---------------------------------------------------------------------------
// Golden output.

TEST_F(ToolTest, GoldenHumanOutput) { RunGoldenFile("basic.golden", dir_); }

TEST_F(ToolTest, GoldenUsageErrors) { RunGoldenFile("usage.golden", dir_); }

TEST_F(ToolTest, GoldenWrongFiles) {
  RunGoldenFile("wrong_files.golden", dir_);
}

// ---------------------------------------------------------------------------
// Exit statuses and usage errors.

TEST_F(ToolTest, VersionPrintsTheGeneratedVersion) {
  const ToolResult result = RunTool({"--version"});
  EXPECT_EQ(result.exit_status, kSuccess);
  EXPECT_EQ(result.out,
            absl::StrCat("bloomtable ", BLOOMTABLE_VERSION_STRING, "\n"));
}

TEST_F(ToolTest, NoSubcommandIsAUsageError) {
  const ToolResult result = RunTool({});
  EXPECT_EQ(result.exit_status, kUsage);
  EXPECT_THAT(result.err, HasSubstr("missing subcommand"));
}

TEST_F(ToolTest, UnknownSubcommandIsAUsageError) {
  const ToolResult result = RunTool({"frobnicate", "x"});
  EXPECT_EQ(result.exit_status, kUsage);
  EXPECT_THAT(result.err, HasSubstr("unknown subcommand 'frobnicate'"));
}

TEST_F(ToolTest, UnknownFlagIsAUsageErrorNotAbseilsExitOne) {
  const std::string table = Build("t", NumberedInput(3));
  for (const std::string flag :
       {"--bogus", "--bogus=1", "-bogus", "--helpfull", "--flagfile=/dev/null",
        "--fromenv=x", "--nobogus"}) {
    const ToolResult result = RunTool({"scan", table, flag});
    EXPECT_EQ(result.exit_status, kUsage) << flag << "\n" << result;
    EXPECT_THAT(result.err, HasSubstr("unknown flag")) << flag;
    EXPECT_EQ(result.out, "") << flag;
  }
}

TEST_F(ToolTest, FlagOfAnotherSubcommandIsAUsageError) {
  const std::string table = Build("t", NumberedInput(3));
  const std::vector<std::vector<std::string>> commands = {
      {"dump", table, "--hex"},
      {"verify", table, "--json"},
      {"get", table, "key001", "--reverse"},
      {"scan", table, "--key_file", "-"},
      {"stats", table, "--blocks"},
      {"build", dir_.File("x"), "--input", "-", "--internal_keys"},
      {"get", table, "key001", "--nohex", "--limit=3"},
  };
  for (const std::vector<std::string>& args : commands) {
    const ToolResult result = RunTool(args);
    EXPECT_EQ(result.exit_status, kUsage) << args[0] << "\n" << result;
    EXPECT_THAT(result.err, HasSubstr("does not apply to '" + args[0] + "'"));
  }
}

TEST_F(ToolTest, WrongArgumentCountIsAUsageError) {
  const std::string table = Build("t", NumberedInput(3));
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"dump"},
                                             {"dump", table, table},
                                             {"get", table},
                                             {"get", table, "a", "b"},
                                             {"scan"},
                                             {"verify"},
                                             {"build"},
                                             {"stats", table, "extra"}}) {
    const ToolResult result = RunTool(args);
    EXPECT_EQ(result.exit_status, kUsage) << args[0] << "\n" << result;
  }
}

TEST_F(ToolTest, BadFlagValuesAreUsageErrors) {
  const std::string table = Build("t", NumberedInput(3));
  const std::string input = dir_.File("t.input");
  const std::string out = dir_.File("out");
  const std::vector<std::vector<std::string>> commands = {
      {"scan", table, "--limit"},
      {"scan", table, "--limit", "many"},
      {"scan", table, "--limit=-2"},
      {"scan", table, "--hex", "--from", "xyz"},
      {"get", table, "abc", "--hex"},
      {"get", table, "--hex=maybe", "6b"},
      {"build", out},
      {"build", out, "--input", input, "--input_format", "csv"},
      {"build", out, "--input", input, "--block_size", "0"},
      {"build", out, "--input", input, "--block_restart_interval", "0"},
      {"build", out, "--input", input, "--compression", "lz4"},
      {"build", out, "--input", input, "--filter", "cuckoo"},
      {"build", out, "--input", input, "--filter_layout", "sideways"},
      {"build", out, "--input", input, "--bits_per_key", "-1"},
      {"build", out, "--input", input, "--bits_per_key", "nan"},
      {"build", out, "--input", input, "--filter", "none", "--bits_per_key",
       "8"},
  };
  for (const std::vector<std::string>& args : commands) {
    const ToolResult result = RunTool(args);
    EXPECT_EQ(result.exit_status, kUsage) << absl::StrJoin(args, " ") << "\n"
                                          << result;
    EXPECT_THAT(result.err, StartsWith("bloomtable: "));
  }
  EXPECT_FALSE(std::filesystem::exists(out));
}

TEST_F(ToolTest, LevelDBBloomTakesWholeBitsPerKeyOnly) {
  const std::string input = dir_.File("in");
  WriteFile(input, NumberedInput(5));
  const ToolResult result = RunTool(
      {"build", dir_.File("out"), "--input", input, "--bits_per_key", "9.5"});
  EXPECT_EQ(result.exit_status, kUsage);
  EXPECT_THAT(result.err, HasSubstr("whole bits per key"));
  EXPECT_EQ(RunTool({"build", dir_.File("out"), "--input", input,
                     "--bits_per_key", "9.0"})
                .exit_status,
            kSuccess);
}

TEST_F(ToolTest, HelpExplainsEveryFlagOfASubcommand) {
  const std::map<std::string, std::vector<std::string>> flags = {
      {"dump", {"--blocks", "--keys", "--json", "--internal_keys"}},
      {"verify", {"--internal_keys"}},
      {"get", {"--hex", "--internal_keys"}},
      {"scan",
       {"--from", "--to", "--limit", "--hex", "--reverse", "--internal_keys"}},
      {"build",
       {"--input", "--input_format", "--block_size", "--block_restart_interval",
        "--compression", "--filter", "--bits_per_key", "--filter_layout"}},
      {"stats", {"--json", "--internal_keys"}},
  };
  const ToolResult overview = RunTool({"help"});
  EXPECT_EQ(overview.exit_status, kSuccess);
  for (const auto& [subcommand, names] : flags) {
    EXPECT_THAT(overview.out, HasSubstr("  " + subcommand + " "));
    for (const std::vector<std::string>& args :
         std::vector<std::vector<std::string>>{{"help", subcommand},
                                               {subcommand, "--help"}}) {
      const ToolResult result = RunTool(args);
      EXPECT_EQ(result.exit_status, kSuccess) << result;
      for (const std::string& name : names) {
        EXPECT_THAT(result.out, HasSubstr("\n  " + name + " (default: "))
            << subcommand << " " << name;
      }
    }
  }
  EXPECT_EQ(RunTool({"help", "nosuch"}).exit_status, kUsage);
}

// ---------------------------------------------------------------------------
// Files that are not (sound) tables.

TEST_F(ToolTest, MissingFileIsAnIOErrorNamingTheFile) {
  const std::string missing = dir_.File("no-such-table");
  for (const std::string subcommand : {"dump", "scan", "stats"}) {
    const ToolResult result = RunTool({subcommand, missing});
    EXPECT_EQ(result.exit_status, kIoError) << subcommand;
    EXPECT_THAT(result.err, AllOf(StartsWith("bloomtable: " + missing + ": "),
                                  HasSubstr("No such file")));
  }
  EXPECT_EQ(RunTool({"get", missing, "k"}).exit_status, kIoError);
  const ToolResult verify = RunTool({"verify", missing});
  EXPECT_EQ(verify.exit_status, kIoError);
  EXPECT_THAT(verify.out, StartsWith(missing + ": ERROR: "));
}

// A directory is taken as a LevelDB database; one that holds none (no
// CURRENT, no MANIFEST-*) is said to be none, with the status of a file
// that is not a table.
TEST_F(ToolTest, DirectoryThatIsNotADatabase) {
  for (const std::string subcommand : {"dump", "scan", "stats"}) {
    const ToolResult result = RunTool({subcommand, dir_.path()});
    EXPECT_EQ(result.exit_status, kDamaged) << subcommand;
    EXPECT_THAT(result.err, HasSubstr("not a LevelDB database"));
  }
  EXPECT_EQ(RunTool({"get", dir_.path(), "k"}).exit_status, kDamaged);
  const ToolResult verify = RunTool({"verify", dir_.path()});
  EXPECT_EQ(verify.exit_status, kDamaged);
  EXPECT_THAT(verify.out, HasSubstr("not a LevelDB database"));
}

TEST_F(ToolTest, EmptyFileIsNotATable) {
  const std::string empty = dir_.File("empty");
  WriteFile(empty, "");
  for (const std::string subcommand : {"dump", "scan", "stats"}) {
    const ToolResult result = RunTool({subcommand, empty});
    EXPECT_EQ(result.exit_status, kDamaged) << subcommand;
    EXPECT_THAT(result.err, HasSubstr("empty file"));
  }
  EXPECT_EQ(RunTool({"get", empty, "k"}).exit_status, kDamaged);
  const ToolResult verify = RunTool({"verify", empty});
  EXPECT_EQ(verify.exit_status, kDamaged);
  EXPECT_EQ(verify.out,
            empty + ": CORRUPT at offset 0: empty file, not a table\n");
}

TEST_F(ToolTest, TextFileIsNotATable) {
  const std::string short_text = dir_.File("short.txt");
  WriteFile(short_text, "hello\n");
  const std::string long_text = dir_.File("long.txt");
  WriteFile(long_text, std::string(200, 'x') + "\n");
  for (const std::string& file : {short_text, long_text}) {
    for (const std::string subcommand : {"dump", "scan", "stats"}) {
      const ToolResult result = RunTool({subcommand, file});
      EXPECT_EQ(result.exit_status, kDamaged) << subcommand;
      EXPECT_THAT(result.err, HasSubstr("not a table"));
    }
  }
  EXPECT_THAT(RunTool({"verify", long_text}).out,
              HasSubstr(": CORRUPT at offset 153: not a table: bad magic"));
}

TEST_F(ToolTest, RocksDBTableGetsItsOwnMessage) {
  // A footer whose magic is RocksDB's block-based table magic, little-endian.
  std::string file(100, '\0');
  const uint64_t magic = 0x88e241b785f4cff7ull;
  for (int i = 0; i < 8; ++i) {
    file[file.size() - 8 + i] = static_cast<char>(magic >> (8 * i));
  }
  const std::string path = dir_.File("rocks.sst");
  WriteFile(path, file);
  const ToolResult result = RunTool({"scan", path});
  EXPECT_EQ(result.exit_status, kUnsupported);
  EXPECT_THAT(result.err, HasSubstr("RocksDB"));
  const ToolResult verify = RunTool({"verify", path});
  EXPECT_EQ(verify.exit_status, kUnsupported);
  EXPECT_THAT(verify.out, HasSubstr(": UNSUPPORTED: a RocksDB block-based"));
}

// A table whose first data block is stored with trailer type `type` (its
// bytes unchanged, the checksum correct).
class BlockTypeTest : public ToolTest {
 protected:
  std::string WithFirstBlockType(unsigned char type, uint64_t* size) {
    const std::string good =
        Build("good", NumberedInput(30), {"--compression", "none"});
    const nlohmann::json json =
        nlohmann::json::parse(RunTool({"dump", good, "--json"}).out);
    *size = json["index"][0]["handle"]["size"];
    std::string bytes = ReadFile(good);
    RewriteBlock(&bytes, 0, bytes.substr(0, *size), type);
    const std::string path = dir_.File("type" + std::to_string(type));
    WriteFile(path, bytes);
    return path;
  }
};

TEST_F(BlockTypeTest, UnknownCompressionTypeIsNamed) {
  uint64_t size = 0;
  const std::string bad = WithFirstBlockType(9, &size);
  const ToolResult verify = RunTool({"verify", bad});
  EXPECT_EQ(verify.exit_status, kDamaged);
  EXPECT_EQ(verify.out,
            absl::StrCat(bad, ": CORRUPT at offset 0: data block (size ", size,
                         "): unknown compression type 9\n"));
  const ToolResult scan = RunTool({"scan", bad});
  EXPECT_EQ(scan.exit_status, kDamaged);
  EXPECT_THAT(scan.err, HasSubstr("unknown compression type 9"));
}

// Type 3 is zstd in forks of Mojang's LevelDB; a type 3 block that is no
// zstd frame comes from a writer this library does not know: unsupported.
TEST_F(BlockTypeTest, UnsupportedCompressionTypeIsExitStatus5) {
  uint64_t size = 0;
  const std::string odd = WithFirstBlockType(3, &size);
  const ToolResult verify = RunTool({"verify", odd});
  EXPECT_EQ(verify.exit_status, kUnsupported);
  EXPECT_THAT(
      verify.out,
      HasSubstr(absl::StrCat(": UNSUPPORTED: data block at offset 0 (size ", size,
                             "): ")));
  EXPECT_THAT(verify.out, HasSubstr("compression type 3 (zstd in forks of "
                                    "Mojang's LevelDB"));
  for (const char* subcommand : {"scan", "dump"}) {
    const ToolResult result = RunTool({subcommand, odd});
    EXPECT_EQ(result.exit_status, kUnsupported) << subcommand;
    EXPECT_THAT(result.err, HasSubstr("compression type 3")) << subcommand;
  }
}

TEST_F(ToolTest, VerifyFindsAFilterThatRejectsItsOwnKeys) {
  const std::string good = Build("good", NumberedInput(30));
  const nlohmann::json json =
      nlohmann::json::parse(RunTool({"dump", good, "--json"}).out);
  ASSERT_EQ(json["filters"].size(), 1u);
  ASSERT_EQ(json["filters"][0]["num_filters"], 1);
  const uint64_t offset = json["filters"][0]["handle"]["offset"];
  const uint64_t size = json["filters"][0]["handle"]["size"];
  std::string bytes = ReadFile(good);
  std::string filter_block = bytes.substr(offset, size);
  // One filter, then the offset array: clear every bit of the filter but
  // keep its last byte (the probe count), so every key reads as absent.
  const uint32_t array_offset =
      DecodeFixed32(filter_block.data() + filter_block.size() - 5);
  ASSERT_GE(array_offset, 2u);
  std::fill(filter_block.begin(), filter_block.begin() + array_offset - 1, 0);
  RewriteBlock(&bytes, offset, filter_block, 0);
  const std::string bad = dir_.File("bad");
  WriteFile(bad, bytes);

  const ToolResult verify = RunTool({"verify", bad});
  EXPECT_EQ(verify.exit_status, kDamaged);
  EXPECT_EQ(verify.out,
            absl::StrCat(bad, ": CORRUPT at offset ", offset,
                         ": filter (leveldb.BuiltinBloomFilter2) answers "
                         "\"absent\" for key 'key000' of data block 0\n"));
  // Readers trust the (well-formed) filter: the key reads as absent.
  EXPECT_EQ(RunTool({"get", bad, "key000"}).exit_status, kKeyNotFound);
  EXPECT_EQ(RunTool({"scan", bad}).exit_status, kSuccess);
}

TEST_F(ToolTest, VerifyDoesNotTakeBigEndianIntegersForInternalKeys) {
  // 8-byte big-endian integers below 2^56 all end in what parses as an
  // internal-key tag (their first byte, the tag's type, is 0), but ascend
  // where a database's sequence numbers descend: no suggestion.
  std::string input;
  for (uint64_t i = 0; i < 300; ++i) {
    std::string key;
    const uint64_t number = i * 1000003;
    for (int byte = 7; byte >= 0; --byte) {
      key.push_back(static_cast<char>(number >> (8 * byte)));
    }
    absl::StrAppend(&input, Hex(key), "\t", Hex("v"), "\n");
  }
  const std::string table = Build("ints", input, {"--input_format", "hex"});
  const ToolResult result = RunTool({"verify", table});
  EXPECT_EQ(result.exit_status, kSuccess) << result;
  EXPECT_EQ(result.out, table + ": OK\n");
  EXPECT_EQ(result.err, "");
}

TEST_F(ToolTest, VerifyReportsEveryFileAndFailsIfAnyIsUnsound) {
  const std::string good = Build("good", NumberedInput(20));
  std::string bytes = ReadFile(good);
  bytes[10] ^= 0x40;  // inside the first data block
  const std::string bad = dir_.File("bad");
  WriteFile(bad, bytes);

  const ToolResult all_good = RunTool({"verify", good, good});
  EXPECT_EQ(all_good.exit_status, kSuccess);
  EXPECT_EQ(all_good.out, good + ": OK\n" + good + ": OK\n");

  const ToolResult one_bad = RunTool({"verify", good, bad});
  EXPECT_EQ(one_bad.exit_status, kDamaged);
  EXPECT_THAT(one_bad.out,
              AllOf(StartsWith(good + ": OK\n" + bad +
                               ": CORRUPT at offset 0: data block (size "),
                    HasSubstr("): checksum mismatch\n")));

  // An unreadable file outranks a damaged one.
  EXPECT_EQ(RunTool({"verify", bad, dir_.File("missing"), good}).exit_status,
            kIoError);
}

TEST_F(ToolTest, VerifyLinesFollowTheContractFormat) {
  const std::string good =
      Build("good", NumberedInput(50), {"--block_size", "128"});
  std::string bytes = ReadFile(good);
  const std::string bad = dir_.File("bad");
  bytes[bytes.size() / 2] ^= 1;
  WriteFile(bad, bytes);
  const ToolResult result = RunTool({"verify", good, bad});
  const std::vector<std::string> lines =
      absl::StrSplit(result.out, '\n', absl::SkipEmpty());
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0], good + ": OK");
  EXPECT_TRUE(std::regex_match(lines[1],
                               std::regex(".*: CORRUPT at offset [0-9]+: .+")))
      << lines[1];
}

TEST_F(ToolTest, DumpOfADamagedBlockPrintsWhatItReadThenFails) {
  const std::string good =
      Build("good", NumberedInput(60), {"--block_size", "128"});
  const ToolResult dump = RunTool({"dump", good, "--json", "--blocks"});
  ASSERT_EQ(dump.exit_status, kSuccess);
  const nlohmann::json json = nlohmann::json::parse(dump.out);
  const uint64_t third_block = json["index"][2]["handle"]["offset"];
  std::string bytes = ReadFile(good);
  bytes[third_block + 3] ^= 0x10;
  const std::string bad = dir_.File("bad");
  WriteFile(bad, bytes);

  const ToolResult result = RunTool({"dump", bad, "--json", "--blocks"});
  EXPECT_EQ(result.exit_status, kDamaged);
  const nlohmann::json partial = nlohmann::json::parse(result.out);
  EXPECT_EQ(partial["data_blocks"].size(), 2u);
  EXPECT_EQ(partial["error"]["offset"], third_block);
  EXPECT_THAT(partial["error"]["message"].get<std::string>(),
              HasSubstr("checksum mismatch"));
  EXPECT_THAT(result.err,
              HasSubstr("corrupt at offset " + std::to_string(third_block)));
}

// ---------------------------------------------------------------------------
// get.

TEST_F(ToolTest, GetPrintsTheValueAndWhatTheFilterSaid) {
  const std::string table = Build("t", NumberedInput(100));
  const ToolResult found = RunTool({"get", table, "key042"});
  EXPECT_EQ(found.exit_status, kSuccess);
  EXPECT_EQ(found.out, "value042\n");
  EXPECT_EQ(found.err, "filter: maybe; 1 data block read\n");

  // Keys inside the table's range: the filter rejects most of them.
  int absent_by_filter = 0;
  for (int i = 0; i < 20; ++i) {
    const ToolResult missing =
        RunTool({"get", table, absl::StrFormat("key%03dx", i)});
    EXPECT_EQ(missing.exit_status, kKeyNotFound);
    EXPECT_EQ(missing.out, "");
    EXPECT_THAT(missing.err, HasSubstr("no such key"));
    if (::bloomtable::StartsWith(missing.err,
                                 "filter: absent (no data block read)\n")) {
      ++absent_by_filter;
    }
  }
  // At about 1% false positives, at most a few of 20 pass the filter.
  EXPECT_GE(absent_by_filter, 15);
}

TEST_F(ToolTest, GetWithoutAFilterSaysSo) {
  const std::string table = Build("t", NumberedInput(10), {"--filter", "none"});
  const ToolResult result = RunTool({"get", table, "key003"});
  EXPECT_EQ(result.out, "value003\n");
  EXPECT_THAT(result.err, StartsWith("filter: not used (the table has none)"));
}

TEST_F(ToolTest, GetHexTakesAndPrintsHex) {
  const std::string key("\x00\x01-\xff", 4);
  const std::string value("v\t\n\x00", 4);
  const std::string table = Build("t", Hex(key) + "\t" + Hex(value) + "\n",
                                  {"--input_format", "hex"});
  const ToolResult result = RunTool({"get", table, "--hex", Hex(key)});
  EXPECT_EQ(result.exit_status, kSuccess) << result;
  EXPECT_EQ(result.out, Hex(value) + "\n");
  EXPECT_EQ(RunTool({"get", table, "--hex", "00"}).exit_status, kKeyNotFound);
  EXPECT_EQ(RunTool({"get", table, Hex(key)}).exit_status, kKeyNotFound);
}

TEST_F(ToolTest, GetKeyFileLooksUpEveryKeyInOrder) {
  // Keys that no command line can hold as they are: a newline, a tab.
  const std::string table =
      Build("t", "a\\x0ab\tnewline\nc\\x09d\ttab\nkey\tplain\n");
  const std::string keys = dir_.File("keys");
  WriteFile(keys, "key\nnope\na\\x0ab\nc\\x09d\r\n");
  const ToolResult result = RunTool({"get", table, "--key_file", keys});
  EXPECT_EQ(result.exit_status, kKeyNotFound) << result;
  EXPECT_EQ(result.out, "found\tplain\nmissing\nfound\tnewline\nfound\ttab\n");
  EXPECT_THAT(result.err, StartsWith("4 keys: 3 found, 1 missing; filter: "));

  WriteFile(keys, "key\na\\x0ab\n");
  const ToolResult all_found = RunTool({"get", table, "--key_file", keys});
  EXPECT_EQ(all_found.exit_status, kSuccess) << all_found;
  EXPECT_EQ(all_found.out, "found\tplain\nfound\tnewline\n");
}

TEST_F(ToolTest, GetKeyFileReadsStandardInputAndHex) {
  const std::string table = Build("t", NumberedInput(20));
  const ToolResult result =
      RunTool({"get", table, "--key_file", "-", "--hex"},
              Hex("key007") + "\n" + Hex("key999") + "\n");
  EXPECT_EQ(result.exit_status, kKeyNotFound) << result;
  EXPECT_EQ(result.out, "found\t" + Hex("value007") + "\nmissing\n");
}

TEST_F(ToolTest, GetKeyFileFindsAKeyTooLongForACommandLine) {
  // Linux refuses a single argument over 128 KiB (MAX_ARG_STRLEN).
  const std::string long_key(300 * 1024, 'k');
  const std::string table =
      Build("t", "a\tfirst\n" + long_key + "\tlong\nz\tlast\n");
  const std::string keys = dir_.File("keys");
  WriteFile(keys, long_key + "\n" + long_key + "x\n");
  const ToolResult result = RunTool({"get", table, "--key_file", keys});
  EXPECT_EQ(result.out, "found\tlong\nmissing\n");
  EXPECT_EQ(result.exit_status, kKeyNotFound);
}

TEST_F(ToolTest, GetKeyFileErrorsNameTheLineAndLookUpNothing) {
  const std::string table = Build("t", NumberedInput(5));
  const std::string keys = dir_.File("keys");
  WriteFile(keys, "key001\nbad\\q\n");
  const ToolResult bad = RunTool({"get", table, "--key_file", keys});
  EXPECT_EQ(bad.exit_status, kDamaged);
  EXPECT_EQ(bad.out, "");
  EXPECT_THAT(bad.err, StartsWith("bloomtable: " + keys + ": line 2: key: "));
  const ToolResult both = RunTool({"get", table, "key001", "--key_file", keys});
  EXPECT_EQ(both.exit_status, kUsage);
  EXPECT_EQ(
      RunTool({"get", table, "--key_file", dir_.File("none")}).exit_status,
      kIoError);
}

TEST_F(ToolTest, DoubleDashEndsFlagsForKeysStartingWithADash) {
  const std::string table =
      Build("t", "-k\tdash\n--json\tlong\n-\tlone\nk\tplain\n");
  EXPECT_EQ(RunTool({"get", table, "--", "-k"}).out, "dash\n");
  EXPECT_EQ(RunTool({"get", "--", table, "--json"}).out, "long\n");
  // A lone "-" is an argument without "--".
  EXPECT_EQ(RunTool({"get", table, "-"}).out, "lone\n");
  // Without "--" the key reads as a flag.
  const ToolResult unknown = RunTool({"get", table, "-k"});
  EXPECT_EQ(unknown.exit_status, kUsage);
  EXPECT_THAT(unknown.err, HasSubstr("unknown flag '-k'"));
  // Flags before "--" still count.
  EXPECT_EQ(RunTool({"get", "--hex", table, "--", Hex("-k")}).out,
            Hex("dash") + "\n");
  EXPECT_EQ(RunTool({"scan", table, "--from", "-k", "--limit", "1"}).out,
            "-k\tdash\n");
}

}  // namespace
}  // namespace tool_test
}  // namespace bloomtable
