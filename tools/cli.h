// The bloomtable tool's command line: subcommands, which flags each accepts,
// help text, and the dispatch from argv to a subcommand.
//
// The command line is checked before any flag is set: an unknown subcommand,
// an unknown flag, a flag that does not apply to the subcommand, a missing or
// malformed flag value and a wrong number of arguments are usage errors (exit
// status 2), never Abseil's own exit. Flags may come before, between or after
// the arguments; `--` ends the flags, so that later arguments starting with
// `-` (keys) are taken as they are. A lone `-` is an argument.

#ifndef BLOOMTABLE_TOOLS_CLI_H_
#define BLOOMTABLE_TOOLS_CLI_H_

#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace bloomtable {
namespace tool {

// A checked command line for one subcommand: its arguments, with its flags
// already set.
class CommandLine {
 public:
  CommandLine(std::vector<std::string> args, std::set<std::string> given_flags)
      : args_(std::move(args)), given_flags_(std::move(given_flags)) {}

  const std::vector<std::string>& args() const { return args_; }
  // Whether the flag `name` appeared on the command line (as opposed to
  // keeping its default).
  bool FlagGiven(std::string_view name) const {
    return given_flags_.count(std::string(name)) != 0;
  }

 private:
  std::vector<std::string> args_;
  std::set<std::string> given_flags_;
};

// Runs the tool on `argv` and returns its exit status (exit_status.h).
int RunTool(int argc, char** argv);

}  // namespace tool
}  // namespace bloomtable

#endif  // BLOOMTABLE_TOOLS_CLI_H_
