// CallGate, the closing machinery of the Python package's tables and
// databases (python/src/call_gate.h), without Python: a close that starts
// while a call is in progress must refuse new calls at once and free the
// object only after that call has left. The first tests hold a call open,
// run Close on another thread, see (through the WaitingForCalls hook) that
// Close is blocked on the call and has freed nothing, then release the call:
// deterministic, no timing. The last runs many threads through calls while
// one closes, for ThreadSanitizer.

#include "python/src/call_gate.h"

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

#include "gtest/gtest.h"

namespace bloomtable {
namespace python {
namespace {

// A gate over a pretend object; records when Close waits and when it frees.
class RecordingGate final : public CallGate {
 public:
  RecordingGate() : CallGate("thing") {}

  // Blocks until Close is waiting for calls or has freed.
  void AwaitWaitingOrFreed() {
    std::unique_lock<std::mutex> lock(mu_);
    changed_.wait(lock, [this] { return waits_ > 0 || freed_; });
  }
  int waits() {
    std::lock_guard<std::mutex> lock(mu_);
    return waits_;
  }
  bool freed() {
    std::lock_guard<std::mutex> lock(mu_);
    return freed_;
  }
  int frees() const { return frees_.load(); }
  // The object: a test's pretend call reads it; Free destroys it.
  std::atomic<bool> object_alive{true};

 protected:
  void Free() override {
    object_alive.store(false);
    ++frees_;
    std::lock_guard<std::mutex> lock(mu_);
    freed_ = true;
    changed_.notify_all();
  }
  void WaitingForCalls(int calls_in_progress) override {
    EXPECT_GT(calls_in_progress, 0);
    std::lock_guard<std::mutex> lock(mu_);
    ++waits_;
    changed_.notify_all();
  }

 private:
  std::mutex mu_;
  std::condition_variable changed_;
  int waits_ = 0;
  bool freed_ = false;
  std::atomic<int> frees_{0};
};

class RecordingIterator final : public RegisteredIterator {
 public:
  explicit RecordingIterator(RecordingGate* gate) : gate_(gate) {}
  void DropIterator() override {
    ++drops;
    // The object must still be there while its iterators are dropped.
    alive_when_dropped = gate_->object_alive.load();
  }
  int drops = 0;
  bool alive_when_dropped = false;

 private:
  RecordingGate* const gate_;
};

TEST(CallGate, CloseWithNoCallFreesAtOnce) {
  RecordingGate gate;
  ASSERT_TRUE(gate.Enter());
  gate.Leave();
  gate.Close();
  EXPECT_TRUE(gate.closed());
  EXPECT_TRUE(gate.freed());
  EXPECT_EQ(gate.waits(), 0);
  EXPECT_FALSE(gate.Enter());
  EXPECT_EQ(gate.closed_message(), "thing is closed");
  gate.Close();  // idempotent
  EXPECT_EQ(gate.frees(), 1);
}

TEST(CallGate, CloseWaitsForTheCallInProgress) {
  RecordingGate gate;
  ASSERT_TRUE(gate.Enter());  // a call in progress, held by this thread
  std::thread closer([&gate] { gate.Close(); });
  gate.AwaitWaitingOrFreed();
  // Close is blocked on the call: nothing freed, no new call admitted.
  EXPECT_FALSE(gate.freed());
  EXPECT_EQ(gate.waits(), 1);
  EXPECT_TRUE(gate.object_alive.load());
  EXPECT_TRUE(gate.closed());
  EXPECT_FALSE(gate.Enter());
  // A second close from another thread returns without freeing.
  std::thread second([&gate] { gate.Close(); });
  second.join();
  EXPECT_FALSE(gate.freed());
  // The call ends: Close frees, once.
  gate.Leave();
  closer.join();
  EXPECT_TRUE(gate.freed());
  EXPECT_FALSE(gate.object_alive.load());
  EXPECT_EQ(gate.frees(), 1);
}

TEST(CallGate, CloseWaitsForEveryCall) {
  RecordingGate gate;
  ASSERT_TRUE(gate.Enter());
  ASSERT_TRUE(gate.Enter());
  std::thread closer([&gate] { gate.Close(); });
  gate.AwaitWaitingOrFreed();
  EXPECT_FALSE(gate.freed());
  gate.Leave();
  // One call is still in progress: nothing may be freed yet.
  EXPECT_FALSE(gate.freed());
  EXPECT_TRUE(gate.object_alive.load());
  gate.Leave();
  closer.join();
  EXPECT_TRUE(gate.freed());
}

TEST(CallGate, IteratorsAreDroppedAfterTheCallsLeaveAndBeforeTheFree) {
  RecordingGate gate;
  RecordingIterator kept(&gate);
  RecordingIterator gone(&gate);
  gate.Register(&kept);
  gate.Register(&gone);
  gate.Unregister(&gone);  // an iterator destroyed before close
  EXPECT_EQ(gone.drops, 1);
  ASSERT_TRUE(gate.Enter());
  std::thread closer([&gate] { gate.Close(); });
  gate.AwaitWaitingOrFreed();
  EXPECT_EQ(kept.drops, 0);
  gate.Leave();
  closer.join();
  EXPECT_EQ(kept.drops, 1);
  EXPECT_TRUE(kept.alive_when_dropped);
  EXPECT_EQ(gone.drops, 1);
  // Unregistering after the close does not drop it again.
  gate.Unregister(&kept);
  EXPECT_EQ(kept.drops, 1);
}

TEST(CallGate, ManyThreadsNeverSeeTheObjectFreedInsideACall) {
  RecordingGate gate;
  std::atomic<bool> go{false};
  std::atomic<int> inside_after_free{0};
  std::atomic<int> calls{0};
  std::vector<std::thread> callers;
  for (int t = 0; t < 4; ++t) {
    callers.emplace_back([&] {
      while (!go.load()) std::this_thread::yield();
      while (gate.Enter()) {
        if (!gate.object_alive.load()) ++inside_after_free;
        ++calls;
        std::this_thread::yield();
        if (!gate.object_alive.load()) ++inside_after_free;
        gate.Leave();
      }
    });
  }
  go.store(true);
  while (calls.load() < 1000) std::this_thread::yield();
  gate.Close();
  for (std::thread& caller : callers) caller.join();
  EXPECT_EQ(inside_after_free.load(), 0);
  EXPECT_EQ(gate.frees(), 1);
  EXPECT_FALSE(gate.Enter());
}

}  // namespace
}  // namespace python
}  // namespace bloomtable
