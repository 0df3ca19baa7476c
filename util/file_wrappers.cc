// Random-access file wrappers for benchmarks: counting and delaying reads.

#include <thread>
#include <utility>

#include "bloomtable/file.h"

namespace bloomtable {
namespace {

class CountingRandomAccessFile final : public RandomAccessFile {
 public:
  CountingRandomAccessFile(std::unique_ptr<RandomAccessFile> base,
                           std::shared_ptr<FileReadCounters> counters)
      : base_(std::move(base)), counters_(std::move(counters)) {}

  absl::Status Read(uint64_t offset, size_t n, std::string_view* result,
                    char* scratch) const override {
    absl::Status status = base_->Read(offset, n, result, scratch);
    counters_->reads.fetch_add(1, std::memory_order_relaxed);
    counters_->bytes.fetch_add(result->size(), std::memory_order_relaxed);
    return status;
  }

  MultiReadPath MultiRead(ReadRequest* requests, size_t count) const override {
    const MultiReadPath path = base_->MultiRead(requests, count);
    uint64_t bytes = 0;
    for (size_t i = 0; i < count; ++i) bytes += requests[i].result.size();
    counters_->reads.fetch_add(count, std::memory_order_relaxed);
    counters_->bytes.fetch_add(bytes, std::memory_order_relaxed);
    return path;
  }

  // A hint, not a read: not counted.
  bool WillNeed(uint64_t offset, size_t n) const override {
    return base_->WillNeed(offset, n);
  }

  const std::string& name() const override { return base_->name(); }

 private:
  const std::unique_ptr<RandomAccessFile> base_;
  const std::shared_ptr<FileReadCounters> counters_;
};

class DelayedRandomAccessFile final : public RandomAccessFile {
 public:
  DelayedRandomAccessFile(std::unique_ptr<RandomAccessFile> base,
                          std::chrono::microseconds latency)
      : base_(std::move(base)), latency_(latency) {}

  absl::Status Read(uint64_t offset, size_t n, std::string_view* result,
                    char* scratch) const override {
    if (latency_.count() > 0) std::this_thread::sleep_for(latency_);
    return base_->Read(offset, n, result, scratch);
  }

  MultiReadPath MultiRead(ReadRequest* requests, size_t count) const override {
    if (latency_.count() > 0 && count > 0) {
      std::this_thread::sleep_for(latency_);
    }
    return base_->MultiRead(requests, count);
  }

  // A hint, not a read: not delayed.
  bool WillNeed(uint64_t offset, size_t n) const override {
    return base_->WillNeed(offset, n);
  }

  const std::string& name() const override { return base_->name(); }

 private:
  const std::unique_ptr<RandomAccessFile> base_;
  const std::chrono::microseconds latency_;
};

}  // namespace

std::unique_ptr<RandomAccessFile> NewCountingRandomAccessFile(
    std::unique_ptr<RandomAccessFile> base,
    std::shared_ptr<FileReadCounters> counters) {
  return std::make_unique<CountingRandomAccessFile>(std::move(base),
                                                    std::move(counters));
}

std::unique_ptr<RandomAccessFile> NewDelayedRandomAccessFile(
    std::unique_ptr<RandomAccessFile> base, std::chrono::microseconds latency) {
  return std::make_unique<DelayedRandomAccessFile>(std::move(base), latency);
}

}  // namespace bloomtable
