// The bloomtable tool's subcommands. Each takes a checked command line (its
// flags already set, its argument count checked), writes its output to
// standard output and its diagnostics to standard error, and returns an exit
// status (exit_status.h). Argument values (keys, numbers, names) are checked
// by the subcommand and are usage errors when bad.

#ifndef BLOOMTABLE_TOOLS_COMMANDS_H_
#define BLOOMTABLE_TOOLS_COMMANDS_H_

#include "tools/cli.h"

namespace bloomtable {
namespace tool {

int RunDump(const CommandLine& command_line);
int RunVerify(const CommandLine& command_line);
int RunGet(const CommandLine& command_line);
int RunScan(const CommandLine& command_line);
int RunBuild(const CommandLine& command_line);
int RunStats(const CommandLine& command_line);
int RunIndex(const CommandLine& command_line);

}  // namespace tool
}  // namespace bloomtable

#endif  // BLOOMTABLE_TOOLS_COMMANDS_H_
