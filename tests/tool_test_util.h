// Helpers for the tests of the bloomtable tool: run the built binary (its
// path is the compile definition BLOOMTABLE_TOOL_PATH) and capture its exit
// status and output; a temporary directory; and data-driven golden files
// that hold each command beside its expected output.
//
// Golden file format (tests/testdata/tool/*.golden):
//
//   # a comment
//   $ bloomtable scan {tmp}/small.tbl --limit 2
//   <expected standard output, line by line>
//   [stderr]
//   <expected standard error>
//   [exit 0]
//
// "{tmp}" stands for the test's temporary directory and "{testdata}" for
// tests/testdata/tool, both in commands and in output. Arguments are split on
// spaces; '...' quotes one argument (possibly empty). Cases run in order, in
// one temporary directory. With BLOOMTABLE_REGENERATE_GOLDEN=1 in the
// environment, the files are rewritten with the actual output (review the
// diff).
//
// Test-only code; not thread-safe.

#ifndef BLOOMTABLE_TESTS_TOOL_TEST_UTIL_H_
#define BLOOMTABLE_TESTS_TOOL_TEST_UTIL_H_

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "tests/temp_dir.h"
#include "util/coding.h"
#include "util/crc32c.h"
#include "util/string_util.h"

namespace bloomtable {
namespace tool_test {

#ifdef BLOOMTABLE_TOOL_PATH
inline constexpr char kToolPath[] = BLOOMTABLE_TOOL_PATH;
inline constexpr char kTestdataDir[] = BLOOMTABLE_TOOL_TESTDATA_DIR;
inline constexpr bool kToolBuilt = true;
#else
inline constexpr char kToolPath[] = "";
inline constexpr char kTestdataDir[] = "";
inline constexpr bool kToolBuilt = false;
#endif

// Fails the calling test when the tool was not built. The tool's tests are
// built only with the tool (tests/CMakeLists.txt), so this never fires in a
// tree configured by CMake; it keeps a test from passing without its tool.
#define BLOOMTABLE_REQUIRE_TOOL()                         \
  do {                                                    \
    if (!::bloomtable::tool_test::kToolBuilt) {           \
      GTEST_FAIL() << "the bloomtable tool is not built"; \
    }                                                     \
  } while (0)

struct ToolResult {
  int exit_status = -1;  // -1 if the tool died of a signal
  int signal = 0;
  std::string out;
  std::string err;
};

inline std::ostream& operator<<(std::ostream& os, const ToolResult& result) {
  return os << "exit " << result.exit_status << " signal " << result.signal
            << "\n--- stdout ---\n"
            << result.out << "--- stderr ---\n"
            << result.err;
}

inline std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream contents;
  contents << in.rdbuf();
  return contents.str();
}

inline void WriteFile(const std::string& path, const std::string& contents) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(contents.data(), static_cast<std::streamsize>(contents.size()));
  ASSERT_TRUE(out.good()) << "cannot write " << path;
}

// Runs the tool with `args` (not including the program name), feeding
// `stdin_data` on its standard input.
inline ToolResult RunTool(const std::vector<std::string>& args,
                          const std::string& stdin_data = "") {
  ToolResult result;
  TempDir io_dir;
  const std::string stdin_path = io_dir.File("stdin");
  WriteFile(stdin_path, stdin_data);
  int out_pipe[2];
  int err_pipe[2];
  if (::pipe(out_pipe) != 0 || ::pipe(err_pipe) != 0) {
    ADD_FAILURE() << "pipe failed";
    return result;
  }
  std::vector<char*> argv;
  std::string program = kToolPath;
  argv.push_back(program.data());
  std::vector<std::string> arg_copies = args;
  for (std::string& arg : arg_copies) argv.push_back(arg.data());
  argv.push_back(nullptr);

  // posix_spawn rather than fork: forking a sanitizer-built test process
  // copies its large shadow mappings, which costs far more than the run.
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, stdin_path.c_str(), O_RDONLY,
                                   0);
  posix_spawn_file_actions_adddup2(&actions, out_pipe[1], 1);
  posix_spawn_file_actions_adddup2(&actions, err_pipe[1], 2);
  posix_spawn_file_actions_addclose(&actions, out_pipe[0]);
  posix_spawn_file_actions_addclose(&actions, err_pipe[0]);
  posix_spawn_file_actions_addclose(&actions, out_pipe[1]);
  posix_spawn_file_actions_addclose(&actions, err_pipe[1]);
  pid_t pid = 0;
  const int spawned =
      ::posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) {
    ADD_FAILURE() << "cannot run " << kToolPath << ": error " << spawned;
    ::close(out_pipe[0]);
    ::close(out_pipe[1]);
    ::close(err_pipe[0]);
    ::close(err_pipe[1]);
    return result;
  }
  ::close(out_pipe[1]);
  ::close(err_pipe[1]);
  // Drain both pipes until the child closes them, so neither can fill up.
  pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
  std::string* sinks[2] = {&result.out, &result.err};
  int open_fds = 2;
  char buffer[65536];
  while (open_fds > 0) {
    if (::poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      const ssize_t got = ::read(fds[i].fd, buffer, sizeof(buffer));
      if (got > 0) {
        sinks[i]->append(buffer, static_cast<size_t>(got));
      } else if (got == 0 || errno != EINTR) {
        ::close(fds[i].fd);
        fds[i].fd = -1;
        --open_fds;
      }
    }
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status)) {
    result.exit_status = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    result.signal = WTERMSIG(status);
  }
  return result;
}

// True if the tool's standard error shows a sanitizer report.
inline bool HasSanitizerReport(const ToolResult& result) {
  return result.err.find("Sanitizer") != std::string::npos ||
         result.err.find("runtime error:") != std::string::npos;
}

// Splits a golden command line: spaces separate arguments; '...' quotes.
inline std::vector<std::string> SplitCommand(const std::string& line) {
  std::vector<std::string> args;
  std::string current;
  bool in_arg = false;
  bool quoted = false;
  for (char c : line) {
    if (quoted) {
      if (c == '\'') {
        quoted = false;
      } else {
        current.push_back(c);
      }
    } else if (c == '\'') {
      quoted = true;
      in_arg = true;
    } else if (c == ' ') {
      if (in_arg) args.push_back(current);
      current.clear();
      in_arg = false;
    } else {
      current.push_back(c);
      in_arg = true;
    }
  }
  if (in_arg) args.push_back(current);
  return args;
}

struct GoldenCase {
  std::vector<std::string> comments;  // the lines before the command
  std::string command;                // after "$ bloomtable "
  std::string out;
  std::string err;
  int exit_status = 0;
};

// Parses a golden file; returns false (with a failure) if it is malformed.
inline bool ParseGolden(const std::string& text, std::vector<GoldenCase>* cases,
                        std::vector<std::string>* trailing_comments) {
  constexpr std::string_view kPrompt = "$ bloomtable ";
  enum { kBetween, kOut, kErr } state = kBetween;
  GoldenCase current;
  std::vector<std::string> lines = absl::StrSplit(text, '\n');
  if (!lines.empty() && lines.back().empty()) lines.pop_back();
  for (const std::string& line : lines) {
    if (state == kBetween) {
      if (StartsWith(line, kPrompt) || line == "$ bloomtable") {
        current.command = line.substr(std::min(line.size(), kPrompt.size()));
        state = kOut;
      } else {
        current.comments.push_back(line);
      }
      continue;
    }
    if (StartsWith(line, "[exit ") && line.back() == ']') {
      current.exit_status = std::atoi(line.c_str() + 6);
      cases->push_back(std::move(current));
      current = GoldenCase();
      state = kBetween;
    } else if (line == "[stderr]" && state == kOut) {
      state = kErr;
    } else {
      absl::StrAppend(state == kOut ? &current.out : &current.err, line, "\n");
    }
  }
  if (state != kBetween) {
    ADD_FAILURE() << "golden file ends inside a case: " << current.command;
    return false;
  }
  *trailing_comments = std::move(current.comments);
  return true;
}

inline std::string FormatGolden(const std::vector<GoldenCase>& cases,
                                const std::vector<std::string>& trailing) {
  std::string text;
  for (const GoldenCase& c : cases) {
    for (const std::string& comment : c.comments)
      absl::StrAppend(&text, comment, "\n");
    absl::StrAppend(&text, "$ bloomtable", c.command.empty() ? "" : " ",
                    c.command, "\n", c.out);
    if (!c.err.empty()) absl::StrAppend(&text, "[stderr]\n", c.err);
    absl::StrAppend(&text, "[exit ", c.exit_status, "]\n");
  }
  for (const std::string& comment : trailing)
    absl::StrAppend(&text, comment, "\n");
  return text;
}

// Output as it is recorded: the temporary and testdata directories replaced
// by their placeholders, and a missing final newline made visible.
inline std::string NormalizeOutput(std::string output, const TempDir& dir) {
  output = absl::StrReplaceAll(
      output,
      {{dir.path(), "{tmp}"}, {std::string(kTestdataDir), "{testdata}"}});
  if (!output.empty() && output.back() != '\n')
    output += "\n[no newline at end]\n";
  return output;
}

inline bool RegeneratingGolden() {
  const char* value = std::getenv("BLOOMTABLE_REGENERATE_GOLDEN");
  return value != nullptr && std::string(value) == "1";
}

// Runs every case of tests/testdata/tool/`name` in `dir` and compares (or,
// when regenerating, records) the output.
inline void RunGoldenFile(const std::string& name, const TempDir& dir) {
  const std::string path = absl::StrCat(kTestdataDir, "/", name);
  const std::string text = ReadFile(path);
  ASSERT_FALSE(text.empty()) << "missing or empty golden file " << path;
  std::vector<GoldenCase> cases;
  std::vector<std::string> trailing;
  ASSERT_TRUE(ParseGolden(text, &cases, &trailing));
  const bool regenerate = RegeneratingGolden();
  for (GoldenCase& c : cases) {
    const std::string command = absl::StrReplaceAll(
        c.command, {{"{tmp}", dir.path()}, {"{testdata}", kTestdataDir}});
    const ToolResult result = RunTool(SplitCommand(command));
    const std::string out = NormalizeOutput(result.out, dir);
    const std::string err = NormalizeOutput(result.err, dir);
    if (regenerate) {
      c.out = out;
      c.err = err;
      c.exit_status = result.exit_status;
      continue;
    }
    EXPECT_EQ(out, c.out) << name << ": standard output of: " << c.command;
    EXPECT_EQ(err, c.err) << name << ": standard error of: " << c.command;
    EXPECT_EQ(result.exit_status, c.exit_status)
        << name << ": exit status of: " << c.command;
  }
  if (regenerate) {
    WriteFile(path, FormatGolden(cases, trailing));
    std::cerr << "regenerated " << path << "\n";
  }
}

// The exit statuses of the tool's contract (README, "Exit status").
inline constexpr int kSuccess = 0;
inline constexpr int kKeyNotFound = 1;
inline constexpr int kUsage = 2;
inline constexpr int kDamaged = 3;
inline constexpr int kIoError = 4;
inline constexpr int kUnsupported = 5;

// 0x20-0x7e except backslash as is, backslash doubled, the rest \xNN.
inline std::string Escape(const std::string& bytes) {
  std::string out;
  for (unsigned char c : bytes) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c >= 0x20 && c <= 0x7e) {
      out += static_cast<char>(c);
    } else {
      static const char kHex[] = "0123456789abcdef";
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

inline std::string Hex(const std::string& bytes) {
  return absl::BytesToHexString(bytes);
}

inline std::string RandomBytes(std::mt19937* rng, size_t max_length) {
  std::uniform_int_distribution<size_t> length(0, max_length);
  std::uniform_int_distribution<int> byte(0, 255);
  std::string bytes(length(*rng), '\0');
  for (char& c : bytes) c = static_cast<char>(byte(*rng));
  return bytes;
}

// Keys and values that exercise every escape: tab, newline, CR, backslash,
// NUL, 0xff, high bytes, printable text, an empty value.
inline std::string NumberedInput(int count, int first = 0) {
  std::string text;
  for (int i = first; i < first + count; ++i) {
    absl::StrAppend(&text, absl::StrFormat("key%03d\tvalue%03d\n", i, i));
  }
  return text;
}

// Replaces the contents of the block at [offset, offset + contents.size())
// and its trailer's type byte, with a correct checksum: damage that only
// the tool's structural checks can find.
inline void RewriteBlock(std::string* file, uint64_t offset,
                         std::string_view contents, unsigned char type) {
  std::string covered(contents);
  covered.push_back(static_cast<char>(type));
  std::string trailer(1, static_cast<char>(type));
  PutFixed32(&trailer, crc32c::Mask(crc32c::Value(covered)));
  file->replace(offset, contents.size(), contents.data(), contents.size());
  file->replace(offset + contents.size(), trailer.size(), trailer);
}

// A test with its own temporary directory, skipped when the tool is not
// built.
class ToolTest : public ::testing::Test {
 protected:
  void SetUp() override { BLOOMTABLE_REQUIRE_TOOL(); }

  // Builds dir_/name from `input` (tsv) with `flags`; asserts success.
  std::string Build(const std::string& name, const std::string& input,
                    std::vector<std::string> flags = {}) {
    const std::string input_path = dir_.File(name + ".input");
    WriteFile(input_path, input);
    const std::string table = dir_.File(name);
    std::vector<std::string> args = {"build", table, "--input", input_path};
    args.insert(args.end(), flags.begin(), flags.end());
    const ToolResult result = RunTool(args);
    EXPECT_EQ(result.exit_status, kSuccess) << result;
    return table;
  }

  TempDir dir_;
};

}  // namespace tool_test
}  // namespace bloomtable

#endif  // BLOOMTABLE_TESTS_TOOL_TEST_UTIL_H_
