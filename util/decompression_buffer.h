// DecompressionBuffer: where a streaming decompressor writes a block's
// output, so that the output ends up in one allocation of exactly its size
// and nothing held while it is produced passes that size (plus a fixed
// scratch): no length a block claims, and no growth of a buffer, makes a
// read hold more than the output itself, and the output never more than a
// limit fixed when the buffer is made.
//
// It works in at most two passes over the same input. The first writes
// into a scratch buffer (a guess of the output's size, at most the limit +
// 1), counting; when the output fits there, it is copied into its exact
// allocation and one pass was enough (the usual case). When it does not
// fit, the scratch is reused round and round only to count, and a second
// pass, with a fresh decoder, writes into an allocation of exactly the
// counted size, the scratch freed first. Either pass stops as soon as the
// output passes what it may hold. So a read holds at most the output and
// the scratch while the output is small, and only the output once it is
// larger than the scratch.
//
// A decoder's protocol: write at most available() bytes at end() (never 0),
// then Advance() by what it wrote; a false Advance() means the output has
// passed what this pass may hold, and the decoder returns at once (with any
// status: the caller looks at passed_limit()). At the end of its stream it
// returns OK. The caller runs a fresh decoder over the same input for each
// pass, calling FinishPass() after each that returned OK, until it says
// kDone (then Release()), or a pass fails:
//
//   (decode, FinishPass() == kAgain)* decode, FinishPass() == kDone, Release
//
// Not thread-safe.

#ifndef BLOOMTABLE_UTIL_DECOMPRESSION_BUFFER_H_
#define BLOOMTABLE_UTIL_DECOMPRESSION_BUFFER_H_

#include <cstddef>
#include <memory>

namespace bloomtable {

class DecompressionBuffer {
 public:
  // `limit`: the most bytes the output may hold. `scratch_size`: the first
  // pass's buffer (at least 1; clamped to limit + 1): an output of up to
  // that many bytes is decoded once.
  DecompressionBuffer(size_t limit, size_t scratch_size);

  // end() may point into the object itself: neither copied nor moved.
  DecompressionBuffer(const DecompressionBuffer&) = delete;
  DecompressionBuffer& operator=(const DecompressionBuffer&) = delete;

  // Where the decoder writes next, and how much room there is (at least 1).
  char* end() { return room_; }
  size_t available() const { return room_size_; }
  // Records that the decoder wrote `n` (<= available()) bytes at end().
  // False when the output has passed what this pass may hold: the limit in
  // the first pass, the first pass's size in the second.
  bool Advance(size_t n);

  // Output bytes produced in this pass.
  size_t size() const { return produced_; }
  size_t limit() const { return limit_; }
  // Whether a decoder was stopped by Advance returning false: in the first
  // pass, the output holds more than limit() bytes.
  bool passed_limit() const { return passed_; }
  // Whether this is the second pass.
  bool second_pass() const { return exact_ != nullptr; }

  enum PassResult {
    kDone,   // the output is held: Release() it
    kAgain,  // run the decoder again, over the same input
    kWrong,  // the second pass ended with fewer bytes than the first
  };
  // Called when the decoder returned OK (its stream ended).
  PassResult FinishPass();

  // The output, in an allocation of exactly its size. REQUIRES: FinishPass()
  // returned kDone.
  std::unique_ptr<char[]> Release();

 private:
  void SetRoom();

  const size_t limit_;
  std::unique_ptr<char[]> scratch_;  // the first pass's
  size_t scratch_size_ = 0;
  size_t scratch_fill_ = 0;  // bytes of the scratch written since reuse
  bool scratch_reused_ = false;
  std::unique_ptr<char[]> exact_;  // the second pass's, or the result
  size_t exact_size_ = 0;
  size_t produced_ = 0;
  bool passed_ = false;
  char spill_ = 0;  // room past the exact allocation, to see a longer output
  char* room_ = nullptr;
  size_t room_size_ = 0;
};

}  // namespace bloomtable

#endif  // BLOOMTABLE_UTIL_DECOMPRESSION_BUFFER_H_
