// The bloomtable tool's command line: subcommands, which flags each accepts,
// help text, and the dispatch from argv to a subcommand.
//
// The command line is checked before any flag is set: an unknown subcommand,
// an unknown flag, a flag that does not apply to the subcommand, a missing or
// malformed flag value and a wrong number of arguments are usage errors (exit
// status 2), never Abseil's own exit. Flags may come before, between or after
// the arguments; `--` ends the flags, so that later arguments starting with
// `-` (keys) are taken as they are. A lone `-` is an argument.
//
// RunTool may run many command lines in one process (the tool fuzzer, tests):
// each run starts from every flag's default, whatever an earlier run set.
// One run at a time: the flags are the process's.

#ifndef BLOOMTABLE_TOOLS_CLI_H_
#define BLOOMTABLE_TOOLS_CLI_H_

#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tools/table_file.h"

namespace bloomtable {
namespace tool {

// A checked command line for one subcommand: its arguments, with its flags
// already set.
class CommandLine {
 public:
  CommandLine(std::vector<std::string> args, std::set<std::string> given_flags,
              FileOpener open_file)
      : args_(std::move(args)),
        given_flags_(std::move(given_flags)),
        open_file_(std::move(open_file)) {}

  const std::vector<std::string>& args() const { return args_; }
  // How the subcommand opens table files for reading.
  const FileOpener& open_file() const { return open_file_; }
  // Whether the flag `name` appeared on the command line (as opposed to
  // keeping its default).
  bool FlagGiven(std::string_view name) const {
    return given_flags_.count(std::string(name)) != 0;
  }

 private:
  std::vector<std::string> args_;
  std::set<std::string> given_flags_;
  FileOpener open_file_;
};

// Runs the tool on `argv` and returns its exit status (exit_status.h).
int RunTool(int argc, char** argv);

// The same, reading table files through `open_file` (tests wrap the files
// to inject errors).
int RunTool(int argc, char** argv, const FileOpener& open_file);

}  // namespace tool
}  // namespace bloomtable

#endif  // BLOOMTABLE_TOOLS_CLI_H_
