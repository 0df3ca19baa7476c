// Writing a file so that a crash leaves either the old state or the whole new
// file at its path, never a part of it.

#ifndef BLOOMTABLE_INCLUDE_BLOOMTABLE_DURABLE_FILE_H_
#define BLOOMTABLE_INCLUDE_BLOOMTABLE_DURABLE_FILE_H_

#include <functional>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "bloomtable/file.h"

namespace bloomtable {

// Calls `write` with a new temporary file beside `path` (same directory, a
// name that starts with `path` and ends in ".tmp", made unique with a random
// part and created exclusively, so that two threads or processes writing the
// same path at once never share one), then syncs and closes it, renames it to
// `path` (replacing what was there) and syncs the directory, so that the
// rename itself is durable.
//
// What holds on an error:
//   - If `write`, the sync, the close or the rename fails, the temporary file
//     is removed, `path` is left as it was, and the first error is returned.
//   - If only the final directory sync fails, `path` already holds the whole
//     new file (synced before the rename) and readers see it; the error is
//     returned because the rename may not survive a crash (after one, `path`
//     holds either the old state or the whole new file).
// A process killed midway leaves at most a temporary file behind, never a
// partial file at `path`. When two writers race, `path` ends up holding one
// of the two files, whole.
//
// Typical use, writing a table:
//
//   absl::Status status = WriteFileDurably(path, [&](WritableFile* file) {
//     TableBuilder builder(options, file);
//     for (...) {
//       absl::Status s = builder.Add(key, value);
//       if (!s.ok()) { builder.Abandon(); return s; }
//     }
//     return builder.Finish();
//   });
absl::Status WriteFileDurably(
    const std::string& path,
    const std::function<absl::Status(WritableFile* file)>& write);

// The same, in steps, for a writer that cannot be one callback (one fed
// entry by entry from elsewhere): Create makes the temporary file beside
// `path`, file() is written, Commit syncs, closes, renames and syncs the
// directory with WriteFileDurably's guarantees. Destroying a DurableFile
// that was not committed (or calling Abandon) removes the temporary file
// and leaves `path` as it was. Single-threaded, as a WritableFile.
class DurableFile {
 public:
  static absl::StatusOr<std::unique_ptr<DurableFile>> Create(
      const std::string& path);
  DurableFile(const DurableFile&) = delete;
  DurableFile& operator=(const DurableFile&) = delete;
  ~DurableFile();

  // The temporary file. REQUIRES: neither Commit nor Abandon was called.
  WritableFile* file() const { return file_.get(); }
  // After an error the temporary file is gone, as after Abandon.
  absl::Status Commit();
  void Abandon();

 private:
  DurableFile(std::string path, std::unique_ptr<WritableFile> file);

  const std::string path_;
  std::unique_ptr<WritableFile> file_;
};

}  // namespace bloomtable

#endif  // BLOOMTABLE_INCLUDE_BLOOMTABLE_DURABLE_FILE_H_
