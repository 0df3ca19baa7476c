// Shared pieces of the bloomtable tool's human and JSON output: how keys,
// values, block handles and compression types are shown.
//
// In JSON, a byte string (key or value) is an object
//   {"text": <escaped form, as scan prints it>, "hex": <lowercase hex>}
// and an internal key adds "user_key", "user_key_hex", "sequence" and "type"
// ("put" or "del"; "malformed" if the key does not parse).

#ifndef BLOOMTABLE_TOOLS_OUTPUT_FORMAT_H_
#define BLOOMTABLE_TOOLS_OUTPUT_FORMAT_H_

#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "nlohmann/json.hpp"
#include "table/format.h"

namespace bloomtable {
namespace tool {

// The codec's name (block_compression.h: "none", "snappy", "zlib", "raw
// deflate", "zstd", ...), or "unknown (N)" for trailer type N.
std::string CompressionName(BlockCodec codec, unsigned char type);

// A key for aligned text: 'escaped', or for internal keys
// 'escaped user key' @ sequence : put|del.
std::string DisplayKey(std::string_view key, bool internal_keys);

nlohmann::json BytesJson(std::string_view bytes);
nlohmann::json KeyJson(std::string_view key, bool internal_keys);
nlohmann::json HandleJson(const BlockHandle& handle);

// The `footer` field of --json output: {offset, metaindex_handle,
// index_handle, padding_is_zero}.
nlohmann::json FooterJson(const Footer& footer, uint64_t offset,
                          bool padding_is_zero);

// The `error` field of --json output about the file at `path`:
// {"offset": N, "message": ...}, the offset only for damage placed in one
// block or the footer, the message without the file's name.
nlohmann::json ErrorJson(std::string_view path, const absl::Status& status);

// The document --json prints when nothing of the file could be read:
// {"file": PATH, "error": ErrorJson(...)}.
nlohmann::json FileErrorJson(std::string_view path, const absl::Status& status);

// How a subcommand prints: aligned text, one JSON document (--json), or JSON
// Lines (--jsonl): one object per line, each with a "kind" field (or, for
// scan, one object per entry), printed as it is read so that memory stays
// bounded by one record whatever the file's size.
enum class OutputFormat { kText, kJson, kJsonLines };

// Reads --json and --jsonl into `*format`; both at once is a usage error
// (reported; returns false).
bool ReadOutputFormat(std::string_view subcommand, OutputFormat* format);

// Writes `object` to standard output on one line, with "kind": `kind` added
// unless `kind` is empty. Invalid UTF-8 is replaced, as by PrintJson.
void PrintJsonLine(std::string_view kind, nlohmann::json object);

// Writes `document` to standard output, indented, with a final newline.
// Invalid UTF-8 in a string (a file path) is replaced, never an error.
void PrintJson(const nlohmann::json& document);

}  // namespace tool
}  // namespace bloomtable

#endif  // BLOOMTABLE_TOOLS_OUTPUT_FORMAT_H_
