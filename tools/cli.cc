#include "tools/cli.h"

#include <cstdio>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/flags/commandlineflag.h"
#include "absl/flags/reflection.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "bloomtable/version.h"
#include "tools/exit_status.h"
#include "tools/subcommands.h"
#include "tools/tool_errors.h"
#include "util/string_util.h"

namespace bloomtable {
namespace tool {
namespace {

int RunHelp(const std::vector<std::string>& args) {
  if (args.empty()) {
    PrintToolHelp();
    return kExitSuccess;
  }
  if (args.size() > 1) {
    return ReportUsageError("", "help takes at most one subcommand");
  }
  const Subcommand* subcommand = FindSubcommand(args[0]);
  if (subcommand == nullptr) {
    return ReportUsageError("",
                            absl::StrCat("unknown subcommand '", args[0], "'"));
  }
  PrintSubcommandHelp(*subcommand);
  return kExitSuccess;
}

// Parses the arguments after the subcommand name, setting the flags it
// accepts. Returns kExitSuccess, or prints a usage error and returns
// kExitUsage. `*wants_help` is set for --help.
int ParseArguments(const Subcommand& subcommand, int argc, char** argv,
                   int first, std::vector<std::string>* args,
                   std::set<std::string>* given_flags, bool* wants_help) {
  const std::string_view command = subcommand.name;
  bool flags_ended = false;
  for (int i = first; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (flags_ended || arg.empty() || arg == "-" || arg[0] != '-') {
      args->emplace_back(arg);
      continue;
    }
    if (arg == "--") {
      flags_ended = true;
      continue;
    }
    // -name, --name, -name=value, --name=value.
    std::string_view body = arg.substr(arg[1] == '-' ? 2 : 1);
    std::string_view name = body;
    std::string_view value;
    bool has_value = false;
    const size_t equals = body.find('=');
    if (equals != std::string_view::npos) {
      name = body.substr(0, equals);
      value = body.substr(equals + 1);
      has_value = true;
    }
    if (name == "help" || name == "h") {
      *wants_help = true;
      return kExitSuccess;
    }
    // --noNAME turns a boolean flag off.
    bool negated = false;
    if (!IsToolFlag(name) && StartsWith(name, "no") &&
        IsToolFlag(name.substr(2))) {
      const absl::CommandLineFlag* flag =
          absl::FindCommandLineFlag(ToAbsl(name.substr(2)));
      if (flag != nullptr && flag->IsOfType<bool>()) {
        negated = true;
        name = name.substr(2);
      }
    }
    if (!IsToolFlag(name)) {
      return ReportUsageError(command,
                              absl::StrCat("unknown flag '", ToAbsl(arg), "'"));
    }
    if (!subcommand.Accepts(name)) {
      return ReportUsageError(
          command, absl::StrCat("--", ToAbsl(name), " does not apply to '",
                                ToAbsl(command), "'"));
    }
    absl::CommandLineFlag* flag = absl::FindCommandLineFlag(ToAbsl(name));
    if (flag == nullptr) {  // a name in the table without a definition
      return ReportUsageError(command,
                              absl::StrCat("unknown flag '", ToAbsl(arg), "'"));
    }
    std::string flag_value;
    if (negated) {
      if (has_value) {
        return ReportUsageError(
            command, absl::StrCat("--no", ToAbsl(name), " takes no value"));
      }
      flag_value = "false";
    } else if (flag->IsOfType<bool>()) {
      flag_value = has_value ? std::string(value) : "true";
    } else if (has_value) {
      flag_value = std::string(value);
    } else if (i + 1 < argc) {
      flag_value = argv[++i];
    } else {
      return ReportUsageError(
          command, absl::StrCat("--", ToAbsl(name), " needs a value"));
    }
    std::string error;
    if (!flag->ParseFrom(flag_value, &error)) {
      return ReportUsageError(
          command, absl::StrCat("bad value '", flag_value, "' for --",
                                ToAbsl(name), ": ", error));
    }
    given_flags->insert(std::string(name));
  }
  if (args->size() < subcommand.min_args ||
      args->size() > subcommand.max_args) {
    return ReportUsageError(
        command,
        absl::StrCat("'", ToAbsl(command), "' takes ",
                     ToAbsl(subcommand.arguments), ", got ", args->size(),
                     " argument", args->size() == 1 ? "" : "s"));
  }
  return kExitSuccess;
}

int FinishOutput(int status) {
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
    absl::FPrintF(stderr, "bloomtable: error writing standard output\n");
    return kExitIoError;
  }
  return status;
}

// Sets every flag of the tool back to its default.
void ResetToolFlags() {
  for (const Subcommand& subcommand : Subcommands()) {
    for (std::string_view name : subcommand.flags) {
      absl::CommandLineFlag* flag = absl::FindCommandLineFlag(ToAbsl(name));
      std::string error;
      // A default always parses.
      if (flag != nullptr) (void)flag->ParseFrom(flag->DefaultValue(), &error);
    }
  }
}

int Dispatch(int argc, char** argv, const FileOpener& open_file) {
  ResetToolFlags();
  if (argc < 2) return ReportUsageError("", "missing subcommand");
  const std::string_view first = argv[1];
  if (first == "help" || first == "--help" || first == "-help" ||
      first == "-h") {
    std::vector<std::string> args(argv + 2, argv + argc);
    return RunHelp(args);
  }
  if (first == "--version" || first == "-version") {
    if (argc > 2) return ReportUsageError("", "--version takes no arguments");
    absl::PrintF("bloomtable %s\n", BLOOMTABLE_VERSION_STRING);
    return kExitSuccess;
  }
  if (!first.empty() && first[0] == '-') {
    return ReportUsageError(
        "", absl::StrCat("expected a subcommand before flags, got '",
                         ToAbsl(first), "'"));
  }
  const Subcommand* subcommand = FindSubcommand(first);
  if (subcommand == nullptr) {
    return ReportUsageError(
        "", absl::StrCat("unknown subcommand '", ToAbsl(first), "'"));
  }
  std::vector<std::string> args;
  std::set<std::string> given_flags;
  bool wants_help = false;
  const int parse_status = ParseArguments(*subcommand, argc, argv, 2, &args,
                                          &given_flags, &wants_help);
  if (parse_status != kExitSuccess) return parse_status;
  if (wants_help) {
    PrintSubcommandHelp(*subcommand);
    return kExitSuccess;
  }
  return subcommand->run(
      CommandLine(std::move(args), std::move(given_flags), open_file));
}

}  // namespace

int RunTool(int argc, char** argv) {
  return RunTool(argc, argv, OpenRandomAccessFile);
}

int RunTool(int argc, char** argv, const FileOpener& open_file) {
  return FinishOutput(Dispatch(argc, argv, open_file));
}

}  // namespace tool
}  // namespace bloomtable
