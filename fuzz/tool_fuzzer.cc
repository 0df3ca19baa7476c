// The bloomtable tool's verify and dump paths, in process, on arbitrary bytes
// written to a temporary file: `verify` and `dump --blocks --keys` on the
// bytes as given, then, with every block checksum rewritten to match
// (fix_checksums.h) so that mutated blocks reach the parsers, `verify` with
// and without --internal_keys and `dump` in text and JSON. Damage must give
// exit status 3 (or 0 for bytes that happen to be a sound table), never a
// crash, a hang or a read out of bounds. Standard output goes to /dev/null.

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz/fix_checksums.h"
#include "tools/cli.h"

namespace {

std::string* temp_path = nullptr;

int Run(std::vector<std::string> args) {
  std::vector<char*> argv;
  for (std::string& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);
  return bloomtable::tool::RunTool(static_cast<int>(args.size()), argv.data());
}

void ExpectSoundOrDamaged(int status) {
  // 0: a sound table; 3: damage found; 5: a table this build does not read
  // (a mutated type byte can name one, e.g. RocksDB's Xpress). Usage (2) and
  // I/O (4) errors mean the tool mistook damage for something else.
  if (status != 0 && status != 3 && status != 5) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  // The tool prints reports: keep them off the fuzzer's output.
  if (std::freopen("/dev/null", "w", stdout) == nullptr) std::abort();
  const char* dir = std::getenv("TMPDIR");
  std::string pattern = std::string(dir != nullptr ? dir : "/tmp") +
                        "/bloomtable_tool_fuzzer_XXXXXX";
  const int fd = ::mkstemp(pattern.data());
  if (fd < 0) std::abort();
  ::close(fd);
  temp_path = new std::string(pattern);
  std::atexit([] { ::unlink(temp_path->c_str()); });
  return 0;
}

namespace {

void WriteTempFile(std::string_view bytes) {
  const int fd = ::open(temp_path->c_str(), O_WRONLY | O_TRUNC);
  if (fd < 0) std::abort();
  size_t written = 0;
  while (written < bytes.size()) {
    const ssize_t n =
        ::write(fd, bytes.data() + written, bytes.size() - written);
    if (n <= 0) std::abort();
    written += static_cast<size_t>(n);
  }
  ::close(fd);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // Every flag is given on every call: flags are process-wide, so a value
  // left by the previous call must not leak into this one.
  const std::string& path = *temp_path;
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  WriteTempFile(bytes);
  ExpectSoundOrDamaged(
      Run({"bloomtable", "verify", "--internal_keys=false", path}));
  ExpectSoundOrDamaged(
      Run({"bloomtable", "dump", "--blocks=true", "--keys=true", "--json=false",
           "--internal_keys=false", path}));

  WriteTempFile(bloomtable::fuzz_internal::WithChecksumsFixed(bytes));
  ExpectSoundOrDamaged(
      Run({"bloomtable", "verify", "--internal_keys=false", path}));
  ExpectSoundOrDamaged(
      Run({"bloomtable", "verify", "--internal_keys=true", path}));
  ExpectSoundOrDamaged(
      Run({"bloomtable", "dump", "--blocks=true", "--keys=true", "--json=false",
           "--internal_keys=false", path}));
  ExpectSoundOrDamaged(
      Run({"bloomtable", "dump", "--blocks=true", "--keys=true", "--json=true",
           "--internal_keys=true", path}));
  return 0;
}
