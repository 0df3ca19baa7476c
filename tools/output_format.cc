#include "tools/output_format.h"

#include <cstdio>
#include <optional>

#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "table/corruption.h"
#include "table/internal_key.h"
#include "tools/cli_flags.h"
#include "tools/escaping.h"
#include "tools/tool_errors.h"

namespace bloomtable {
namespace tool {

std::string CompressionName(BlockCodec codec, unsigned char type) {
  if (codec == BlockCodec::kUnknown)
    return absl::StrCat("unknown (", type, ")");
  return std::string(BlockCodecName(codec));
}

std::string DisplayKey(std::string_view key, bool internal_keys) {
  if (!internal_keys) return absl::StrCat("'", EscapeBytes(key), "'");
  ParsedInternalKey parsed;
  if (!ParseInternalKey(key, &parsed)) {
    return absl::StrCat("'", EscapeBytes(key), "' (malformed internal key)");
  }
  return absl::StrCat("'", EscapeBytes(parsed.user_key), "' @ ",
                      parsed.sequence, " : ",
                      parsed.type == ValueType::kValue ? "put" : "del");
}

nlohmann::json BytesJson(std::string_view bytes) {
  return nlohmann::json{{"text", EscapeBytes(bytes)},
                        {"hex", HexEncode(bytes)}};
}

nlohmann::json KeyJson(std::string_view key, bool internal_keys) {
  nlohmann::json json = BytesJson(key);
  if (!internal_keys) return json;
  ParsedInternalKey parsed;
  if (!ParseInternalKey(key, &parsed)) {
    json["type"] = "malformed";
    return json;
  }
  json["user_key"] = EscapeBytes(parsed.user_key);
  json["user_key_hex"] = HexEncode(parsed.user_key);
  json["sequence"] = parsed.sequence;
  json["type"] = parsed.type == ValueType::kValue ? "put" : "del";
  return json;
}

nlohmann::json HandleJson(const BlockHandle& handle) {
  return nlohmann::json{{"offset", handle.offset()}, {"size", handle.size()}};
}

void PrintJson(const nlohmann::json& document) {
  // Every string the tool puts in a document is escaped ASCII except file
  // paths, which are the user's bytes: invalid UTF-8 there is replaced
  // (U+FFFD) rather than thrown.
  const std::string text =
      document.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::fputc('\n', stdout);
}

bool ReadOutputFormat(std::string_view subcommand, OutputFormat* format) {
  const bool json = absl::GetFlag(FLAGS_json);
  const bool lines = absl::GetFlag(FLAGS_jsonl);
  if (json && lines) {
    ReportUsageError(subcommand, "--json and --jsonl exclude each other");
    return false;
  }
  *format = json    ? OutputFormat::kJson
            : lines ? OutputFormat::kJsonLines
                    : OutputFormat::kText;
  return true;
}

void PrintJsonLine(std::string_view kind, nlohmann::json object) {
  if (!kind.empty()) object["kind"] = std::string(kind);
  std::string text =
      object.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  text.push_back('\n');
  std::fwrite(text.data(), 1, text.size(), stdout);
}

nlohmann::json FooterJson(const Footer& footer, uint64_t offset,
                          bool padding_is_zero) {
  return nlohmann::json{
      {"offset", offset},
      {"metaindex_handle", HandleJson(footer.metaindex_handle())},
      {"index_handle", HandleJson(footer.index_handle())},
      {"padding_is_zero", padding_is_zero}};
}

nlohmann::json ErrorJson(std::string_view path, const absl::Status& status) {
  nlohmann::json error;
  const std::optional<uint64_t> offset = CorruptionOffset(status);
  if (offset.has_value()) error["offset"] = *offset;
  error["message"] = DescribeProblem(path, status);
  return error;
}

nlohmann::json FileErrorJson(std::string_view path,
                             const absl::Status& status) {
  return nlohmann::json{{"file", std::string(path)},
                        {"error", ErrorJson(path, status)}};
}

}  // namespace tool
}  // namespace bloomtable
