// How the bloomtable tool reports errors: one line on standard error that
// names the file and the problem, and the matching exit status.

#ifndef BLOOMTABLE_TOOLS_TOOL_ERRORS_H_
#define BLOOMTABLE_TOOLS_TOOL_ERRORS_H_

#include <string>
#include <string_view>

#include "absl/status/status.h"

namespace bloomtable {
namespace tool {

// kExitDamaged for damaged bytes or bad input (DataLoss, InvalidArgument),
// kExitUnsupported for a valid table this build cannot read (Unimplemented,
// and ResourceExhausted: a block past Options::max_uncompressed_block_size),
// else kExitIoError.
int ExitStatusFor(const absl::Status& status);

// "PATH: message", naming the file once even when the message already
// starts with it (file-system errors do).
std::string DescribeFileError(std::string_view path,
                              const absl::Status& status);

// What went wrong with the file at `path`, without its name: for damage
// placed in one block or the footer (table/corruption.h) the reason after
// "corrupt at offset N: ", else the message after "PATH: ".
std::string DescribeProblem(std::string_view path, const absl::Status& status);

// Prints "bloomtable: PATH: message" to standard error and returns
// ExitStatusFor(status).
int ReportFileError(std::string_view path, const absl::Status& status);

// Prints "bloomtable: MESSAGE" and where to find the usage of `subcommand`
// (empty: of the tool) to standard error; returns kExitUsage.
int ReportUsageError(std::string_view subcommand, std::string_view message);

}  // namespace tool
}  // namespace bloomtable

#endif  // BLOOMTABLE_TOOLS_TOOL_ERRORS_H_
