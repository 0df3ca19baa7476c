// The read-only memory-mapped RandomAccessFile (include/bloomtable/file.h,
// OpenMmapRandomAccessFile, which documents the SIGBUS risk).

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <string>
#include <utility>

#include "bloomtable/file.h"
#include "util/file_errors.h"
#include "util/posix_file.h"
#include "util/posix_open.h"

namespace bloomtable {
namespace {

// Owns the mapping of [base, base + size); an empty file has no mapping
// (mmap refuses length 0) and reads as empty.
class MmapRandomAccessFile final : public RandomAccessFile {
 public:
  MmapRandomAccessFile(std::string name, const char* base, size_t size)
      : name_(std::move(name)), base_(base), size_(size) {}
  ~MmapRandomAccessFile() override {
    if (base_ != nullptr) ::munmap(const_cast<char*>(base_), size_);
  }

  absl::Status Read(uint64_t offset, size_t n, std::string_view* result,
                    char* /*scratch*/) const override {
    if (offset >= size_) {
      *result = std::string_view();
      return absl::OkStatus();
    }
    const size_t available = size_ - static_cast<size_t>(offset);
    *result = std::string_view(base_ + offset, n < available ? n : available);
    return absl::OkStatus();
  }

  // Advises the kernel of the pages ahead. The advice may fail (an old
  // kernel, a range past the end): reads work either way.
  bool WillNeed(uint64_t offset, size_t n) const override {
    if (offset >= size_ || n == 0) return true;
    const size_t end = std::min<uint64_t>(size_, offset + n);
    const size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
    const size_t start = static_cast<size_t>(offset) / page * page;
    ::madvise(const_cast<char*>(base_) + start, end - start, MADV_WILLNEED);
    return true;
  }

  const std::string& name() const override { return name_; }

 private:
  const std::string name_;
  const char* const base_;
  const size_t size_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<RandomAccessFile>> MapOpenedFile(
    const std::string& path, const OpenedFile& opened) {
  const size_t size = static_cast<size_t>(opened.size);
  const char* base = nullptr;
  if (size > 0) {
    void* mapped = ::mmap(nullptr, size, PROT_READ, MAP_SHARED, opened.fd, 0);
    if (mapped == MAP_FAILED) {
      const int error_number = errno;
      ::close(opened.fd);
      return FileError(path, "mmap", error_number);
    }
    base = static_cast<const char*>(mapped);
  }
  // The mapping keeps the file's pages; the descriptor is no longer needed.
  ::close(opened.fd);
  return std::unique_ptr<RandomAccessFile>(
      std::make_unique<MmapRandomAccessFile>(path, base, size));
}

absl::StatusOr<std::unique_ptr<RandomAccessFile>> OpenMmapRandomAccessFile(
    const std::string& path) {
  absl::StatusOr<OpenedFile> opened = OpenForReading(path);
  if (!opened.ok()) return opened.status();
  return MapOpenedFile(path, *opened);
}

}  // namespace bloomtable
