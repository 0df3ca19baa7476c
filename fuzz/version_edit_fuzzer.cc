// The version-edit decoder on arbitrary bytes: no crash, errors are DataLoss
// or Unimplemented (RocksDB's tags), and a decoded edit re-encodes to bytes
// that decode to an edit with the same encoding. A second pass reads the
// bytes as a MANIFEST whose single record they are.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "bloomtable/db_version.h"
#include "bloomtable/file.h"
#include "bloomtable/version_edit.h"
#include "db/log_writer.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace bloomtable;
  const std::string_view record(reinterpret_cast<const char*>(data), size);
  VersionEdit edit;
  const absl::Status status = edit.DecodeFrom(record);
  if (!status.ok() && !absl::IsDataLoss(status) &&
      !absl::IsUnimplemented(status)) {
    __builtin_trap();
  }
  if (status.ok()) {
    std::string encoded;
    edit.EncodeTo(&encoded);
    VersionEdit again;
    if (!again.DecodeFrom(encoded).ok()) __builtin_trap();
    std::string reencoded;
    again.EncodeTo(&reencoded);
    if (reencoded != encoded) __builtin_trap();
  }

  StringWritableFile file;
  LogWriter writer(&file);
  if (!writer.AddRecord(record).ok()) __builtin_trap();
  std::unique_ptr<RandomAccessFile> manifest =
      NewMemoryRandomAccessFile(file.contents());
  absl::StatusOr<ManifestContents> contents =
      ReadManifest(*manifest, file.contents().size());
  if (contents.ok() != !absl::IsUnimplemented(status)) __builtin_trap();
  if (contents.ok() && contents->edits.size() != (status.ok() ? 1u : 0u)) {
    __builtin_trap();
  }
  return 0;
}
