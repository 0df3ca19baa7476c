// The log reader on arbitrary bytes, and what reads its records: the
// entries must cover the file exactly, in order, with totals that add up;
// every record's payload is decoded as a write batch and as a version edit;
// ReadManifest and IdentifyLogContents read the same bytes. Salvage's
// reading (repairs, resynchronisation) keeps the same promises.
//
// Inputs are at most 16 KiB (the CI's -max_len), half a 32 KiB block. So
// that fragments cross a block boundary, an input whose first byte has its
// high bit set is placed after a valid record that fills the first block up
// to (first byte & 0x7f) * 4 bytes before its end.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "bloomtable/db_files.h"
#include "bloomtable/db_version.h"
#include "bloomtable/file.h"
#include "bloomtable/log_reader.h"
#include "bloomtable/version_edit.h"
#include "bloomtable/write_batch.h"
#include "db/log_format.h"
#include "db/log_writer.h"

namespace bloomtable {
namespace {

std::string MakeFile(const uint8_t* data, size_t size) {
  std::string input(reinterpret_cast<const char*>(data), size);
  if (input.empty() || (static_cast<unsigned char>(input[0]) & 0x80) == 0) {
    return input;
  }
  const size_t left = (static_cast<unsigned char>(input[0]) & 0x7f) * 4;
  StringWritableFile file;
  LogWriter writer(&file);
  if (!writer
           .AddRecord(
               std::string(log::kBlockSize - log::kHeaderSize - left, 'f'))
           .ok()) {
    __builtin_trap();
  }
  return file.contents() + input.substr(1);
}

void CheckEntries(const std::string& bytes, bool verify_checksums,
                  bool salvage = false) {
  std::unique_ptr<RandomAccessFile> file = NewMemoryRandomAccessFile(bytes);
  LogReader::Options options;
  options.verify_checksums = verify_checksums;
  options.salvage = salvage;
  LogReader reader(file.get(), bytes.size(), options);
  LogEntry entry;
  uint64_t covered = 0;
  while (reader.Next(&entry)) {
    if (entry.offset != covered || entry.length == 0) __builtin_trap();
    covered += entry.length;
    if (entry.kind != LogEntry::Kind::kRecord) continue;
    if (entry.fragments < 1 ||
        entry.payload.size() + log::kHeaderSize > entry.length) {
      __builtin_trap();
    }
    (void)DecodeWriteBatch(entry.payload);
    VersionEdit edit;
    if (edit.DecodeFrom(entry.payload).ok()) {
      // What decodes re-encodes to bytes that decode to the same edit.
      std::string encoded;
      edit.EncodeTo(&encoded);
      VersionEdit again;
      if (!again.DecodeFrom(encoded).ok()) __builtin_trap();
      std::string reencoded;
      again.EncodeTo(&reencoded);
      if (reencoded != encoded) __builtin_trap();
    }
  }
  if (!reader.status().ok() || covered != bytes.size()) __builtin_trap();
  const LogAccounting& totals = reader.accounting();
  if (totals.record_bytes + totals.padding_bytes + totals.damaged_bytes +
          totals.unread_bytes !=
      bytes.size()) {
    __builtin_trap();
  }
}

}  // namespace
}  // namespace bloomtable

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace bloomtable;
  const std::string bytes = MakeFile(data, size);
  CheckEntries(bytes, /*verify_checksums=*/true);
  CheckEntries(bytes, /*verify_checksums=*/false);
  CheckEntries(bytes, /*verify_checksums=*/true, /*salvage=*/true);
  std::unique_ptr<RandomAccessFile> file = NewMemoryRandomAccessFile(bytes);
  if (!IdentifyLogContents(*file, bytes.size()).ok()) __builtin_trap();
  absl::StatusOr<ManifestContents> manifest = ReadManifest(*file, bytes.size());
  if (!manifest.ok() && !absl::IsUnimplemented(manifest.status())) {
    __builtin_trap();
  }
  return 0;
}
