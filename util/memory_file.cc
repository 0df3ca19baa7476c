// In-memory implementations of the file interfaces.

#include <string>
#include <utility>

#include "bloomtable/file.h"

namespace bloomtable {
namespace {

class MemoryRandomAccessFile final : public RandomAccessFile {
 public:
  MemoryRandomAccessFile(std::string contents, std::string name)
      : contents_(std::move(contents)), name_(std::move(name)) {}

  absl::Status Read(uint64_t offset, size_t n, std::string_view* result,
                    char* /*scratch*/) const override {
    if (offset >= contents_.size()) {
      *result = std::string_view();
      return absl::OkStatus();
    }
    *result = std::string_view(contents_).substr(offset, n);
    return absl::OkStatus();
  }

  // Reads are views of contents_: nothing to bring in.
  bool WillNeed(uint64_t /*offset*/, size_t /*n*/) const override {
    return true;
  }

  const std::string& name() const override { return name_; }

 private:
  const std::string contents_;
  const std::string name_;
};

}  // namespace

RandomAccessFile::~RandomAccessFile() = default;

MultiReadPath RandomAccessFile::MultiRead(ReadRequest* requests,
                                          size_t count) const {
  for (size_t i = 0; i < count; ++i) {
    ReadRequest& request = requests[i];
    request.status =
        Read(request.offset, request.n, &request.result, request.scratch);
  }
  return MultiReadPath::kPread;
}

bool RandomAccessFile::WillNeed(uint64_t /*offset*/, size_t /*n*/) const {
  return false;
}

WritableFile::~WritableFile() = default;

std::unique_ptr<RandomAccessFile> NewMemoryRandomAccessFile(
    std::string contents, std::string name) {
  return std::make_unique<MemoryRandomAccessFile>(std::move(contents),
                                                  std::move(name));
}

StringWritableFile::StringWritableFile(std::string name)
    : name_(std::move(name)) {}
StringWritableFile::~StringWritableFile() = default;

absl::Status StringWritableFile::Append(std::string_view data) {
  if (closed_) return absl::FailedPreconditionError(name_ + ": file is closed");
  contents_.append(data.data(), data.size());
  return absl::OkStatus();
}

absl::Status StringWritableFile::Flush() { return absl::OkStatus(); }
absl::Status StringWritableFile::Sync() { return absl::OkStatus(); }

absl::Status StringWritableFile::Close() {
  closed_ = true;
  return absl::OkStatus();
}

}  // namespace bloomtable
