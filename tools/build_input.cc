#include "tools/build_input.h"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "bloomtable/file.h"
#include "tools/escaping.h"
#include "util/string_util.h"

namespace bloomtable {
namespace tool {
namespace {

absl::StatusOr<std::string> DecodeField(std::string_view field,
                                        InputFormat format) {
  return format == InputFormat::kHex ? HexDecode(field) : UnescapeBytes(field);
}

absl::Status LineError(size_t line, std::string_view what) {
  return absl::InvalidArgumentError(
      absl::StrCat("line ", line, ": ", ToAbsl(what)));
}

// Calls `parse` with each line of `text` (its final "\r" dropped) and its
// 1-based number until `parse` fails.
absl::Status ForEachLine(
    std::string_view text,
    const std::function<absl::Status(std::string_view line, size_t number)>&
        parse) {
  size_t line_number = 0;
  size_t start = 0;
  while (start < text.size()) {
    ++line_number;
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    start = end + 1;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    absl::Status status = parse(line, line_number);
    if (!status.ok()) return status;
  }
  return absl::OkStatus();
}

absl::StatusOr<std::string> ReadStandardInput() {
  std::string text;
  char buffer[64 * 1024];
  size_t got;
  while ((got = std::fread(buffer, 1, sizeof(buffer), stdin)) > 0) {
    text.append(buffer, got);
  }
  if (std::ferror(stdin)) {
    return absl::UnavailableError("standard input: read failed");
  }
  return text;
}

}  // namespace

absl::StatusOr<std::string> ReadInputText(const std::string& path) {
  return path == kStandardInput ? ReadStandardInput() : ReadFileToString(path);
}

std::string InputName(const std::string& path) {
  return path == kStandardInput ? "standard input" : path;
}

absl::StatusOr<std::vector<InputEntry>> ParseInput(std::string_view text,
                                                   InputFormat format) {
  std::vector<InputEntry> entries;
  absl::Status status = ForEachLine(
      text, [&](std::string_view line, size_t line_number) -> absl::Status {
        const size_t tab = line.find('\t');
        if (tab == std::string_view::npos) {
          return LineError(line_number, "no tab between key and value");
        }
        if (line.find('\t', tab + 1) != std::string_view::npos) {
          return LineError(line_number,
                           "more than one tab (write a tab inside a key or "
                           "value as \\x09)");
        }
        absl::StatusOr<std::string> key =
            DecodeField(line.substr(0, tab), format);
        if (!key.ok()) {
          return LineError(line_number,
                           absl::StrCat("key: ", key.status().message()));
        }
        absl::StatusOr<std::string> value =
            DecodeField(line.substr(tab + 1), format);
        if (!value.ok()) {
          return LineError(line_number,
                           absl::StrCat("value: ", value.status().message()));
        }
        entries.push_back(
            InputEntry{*std::move(key), *std::move(value), line_number});
        return absl::OkStatus();
      });
  if (!status.ok()) return status;
  return entries;
}

absl::StatusOr<std::vector<std::string>> ParseKeyLines(std::string_view text,
                                                       InputFormat format) {
  std::vector<std::string> keys;
  absl::Status status = ForEachLine(
      text, [&](std::string_view line, size_t line_number) -> absl::Status {
        absl::StatusOr<std::string> key = DecodeField(line, format);
        if (!key.ok()) {
          return LineError(line_number,
                           absl::StrCat("key: ", key.status().message()));
        }
        keys.push_back(*std::move(key));
        return absl::OkStatus();
      });
  if (!status.ok()) return status;
  return keys;
}

absl::Status SortInput(const Comparator* comparator,
                       std::vector<InputEntry>* entries) {
  // Stable, so that of two equal keys the earlier line comes first and the
  // error names them in input order.
  std::stable_sort(entries->begin(), entries->end(),
                   [comparator](const InputEntry& a, const InputEntry& b) {
                     return comparator->Compare(a.key, b.key) < 0;
                   });
  for (size_t i = 1; i < entries->size(); ++i) {
    const InputEntry& previous = (*entries)[i - 1];
    const InputEntry& current = (*entries)[i];
    if (comparator->Compare(previous.key, current.key) == 0) {
      return LineError(current.line,
                       absl::StrCat("duplicate key '", EscapeBytes(current.key),
                                    "' (first on line ", previous.line, ")"));
    }
  }
  return absl::OkStatus();
}

}  // namespace tool
}  // namespace bloomtable
