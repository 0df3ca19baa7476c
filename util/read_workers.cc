#include "util/read_workers.h"

#include <algorithm>
#include <utility>

namespace bloomtable {

ReadWorkers::ReadWorkers(size_t threads) : threads_(threads) {}

ReadWorkers::~ReadWorkers() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  work_.notify_all();
  for (std::thread& worker : workers_) worker.join();
}

bool ReadWorkers::TakeJob(Batch** batch, size_t* job) {
  while (!queue_.empty() && queue_.front()->next == queue_.front()->count) {
    queue_.pop_front();
  }
  if (queue_.empty()) return false;
  *batch = queue_.front();
  *job = (*batch)->next++;
  return true;
}

void ReadWorkers::WorkerLoop() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (true) {
    Batch* batch = nullptr;
    size_t job = 0;
    if (!TakeJob(&batch, &job)) {
      if (stopping_) return;
      work_.wait(lock);
      continue;
    }
    lock.unlock();
    batch->job(job);
    lock.lock();
    if (--batch->remaining == 0) done_.notify_all();
  }
}

void ReadWorkers::RunAll(size_t count, absl::FunctionRef<void(size_t)> job) {
  if (threads_ == 0 || count < 2) {
    for (size_t j = 0; j < count; ++j) job(j);
    return;
  }
  Batch batch{job, count};
  batch.remaining = count;
  std::unique_lock<std::mutex> lock(mutex_);
  if (workers_.empty()) {
    for (size_t t = 0; t < threads_; ++t) {
      workers_.emplace_back([this] { WorkerLoop(); });
    }
  }
  queue_.push_back(&batch);
  work_.notify_all();
  // The caller takes jobs of its own batch until none is left to take.
  while (batch.next < batch.count) {
    const size_t j = batch.next++;
    lock.unlock();
    job(j);
    lock.lock();
    --batch.remaining;
  }
  done_.wait(lock, [&batch] { return batch.remaining == 0; });
  // Exhausted: no worker takes a job of it again; it leaves the queue here
  // if no TakeJob dropped it yet.
  queue_.erase(std::remove(queue_.begin(), queue_.end(), &batch), queue_.end());
}

}  // namespace bloomtable
