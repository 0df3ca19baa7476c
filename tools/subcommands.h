// The bloomtable tool's subcommands: their arguments, the flags each accepts
// and their help text. The table is the one place that says which flag
// applies to which subcommand.

#ifndef BLOOMTABLE_TOOLS_SUBCOMMANDS_H_
#define BLOOMTABLE_TOOLS_SUBCOMMANDS_H_

#include <cstddef>
#include <string_view>
#include <vector>

#include "tools/cli.h"

namespace bloomtable {
namespace tool {

struct Subcommand {
  std::string_view name;
  std::string_view arguments;  // as shown in the usage line
  std::string_view summary;    // one line, for `bloomtable help`
  std::string_view details;    // for `bloomtable help NAME`
  size_t min_args;
  size_t max_args;
  std::vector<std::string_view> flags;  // the flags it accepts, in help order
  int (*run)(const CommandLine&);

  bool Accepts(std::string_view flag) const;
};

// Every subcommand, in help order. The vector lives for the whole program.
const std::vector<Subcommand>& Subcommands();

// The subcommand called `name`, or null.
const Subcommand* FindSubcommand(std::string_view name);

// Whether any subcommand accepts the flag `name`. Only these flags exist on
// the tool's command line (not Abseil's own, such as --flagfile).
bool IsToolFlag(std::string_view name);

// `bloomtable help`: the subcommands, the flag rules and the exit statuses.
void PrintToolHelp();

// `bloomtable help NAME`: usage line, description, and every flag with its
// default and help text.
void PrintSubcommandHelp(const Subcommand& subcommand);

}  // namespace tool
}  // namespace bloomtable

#endif  // BLOOMTABLE_TOOLS_SUBCOMMANDS_H_
