#include "table/two_level_iterator.h"

#include <optional>
#include <string>
#include <string_view>

namespace bloomtable {

DataBlockReader::~DataBlockReader() = default;

namespace {

class TwoLevelIterator final : public Iterator {
 public:
  TwoLevelIterator(const Comparator* comparator, const Block* index_block,
                   const DataBlockReader* reader,
                   const ReadOptions& read_options, const ScanSetup& setup)
      : comparator_(comparator),
        reader_(reader),
        read_options_(read_options),
        index_iter_(comparator, index_block),
        bounds_(setup, read_options),
        readahead_(read_options.max_readahead_size) {}

  ~TwoLevelIterator() override {
    ClearDataBlock();
    reader_->AddPinnedBytes(-static_cast<int64_t>(readahead_bytes_));
  }

  bool Valid() const override { return !exhausted_ && DataValid(); }

  void SeekToFirst() override {
    Restart();
    if (bounds_.active()) {
      const std::optional<std::string>& lower = bounds_.lower();
      const std::string_view from = lower ? *lower : std::string_view();
      if (!bounds_.BeginForward(lower ? &from : nullptr, nullptr)) {
        return Exhaust();
      }
      if (lower) {
        SeekWithin(bounds_.lower_seek_key());
        return EnforceLimits();
      }
    }
    index_iter_.SeekToFirst();
    InitDataBlock();
    if (data_iter_) data_iter_->SeekToFirst();
    SkipEmptyDataBlocksForward();
    EnforceLimits();
  }

  void SeekToLast() override {
    Restart();
    if (bounds_.active()) {
      if (!bounds_.BeginBackward(nullptr, nullptr)) return Exhaust();
      if (bounds_.upper()) {
        SeekBefore(bounds_.upper_seek_key(), /*inclusive=*/false);
        return EnforceLimits();
      }
    }
    index_iter_.SeekToLast();
    InitDataBlock();
    if (data_iter_) data_iter_->SeekToLast();
    SkipEmptyDataBlocksBackward();
    EnforceLimits();
  }

  void Seek(std::string_view target) override {
    Restart();
    if (bounds_.active()) {
      const std::string_view user_target = bounds_.UserKey(target);
      std::string_view from = user_target;
      if (bounds_.BelowLower(from)) {
        target = bounds_.lower_seek_key();
        from = *bounds_.lower();
      }
      if (!bounds_.BeginForward(&from, &user_target)) return Exhaust();
    }
    SeekWithin(target);
    EnforceLimits();
  }

  void SeekForPrev(std::string_view target) override {
    Restart();
    bool inclusive = true;
    if (bounds_.active()) {
      const std::string_view to = bounds_.UserKey(target);
      if (!bounds_.BeginBackward(&to, &to)) return Exhaust();
      if (bounds_.AtOrAboveUpper(to)) {
        target = bounds_.upper_seek_key();
        inclusive = false;
      }
    }
    SeekBefore(target, inclusive);
    EnforceLimits();
  }

  void Next() override {
    data_iter_->Next();
    SkipEmptyDataBlocksForward();
    EnforceLimits();
  }

  void Prev() override {
    data_iter_->Prev();
    SkipEmptyDataBlocksBackward();
    EnforceLimits();
  }

  std::string_view key() const override { return data_iter_->key(); }
  std::string_view value() const override { return data_iter_->value(); }

  absl::Status status() const override {
    if (!status_.ok()) return status_;
    if (!index_iter_.status().ok()) {
      return reader_->PlaceError(nullptr, index_iter_.status());
    }
    return absl::OkStatus();
  }

 private:
  void ClearDataBlock() {
    data_iter_.reset();
    SetDataBlock(nullptr);
  }

  // Holds `block` as the current data block (releasing the previous one),
  // keeping the reader's count of pinned bytes.
  void SetDataBlock(std::shared_ptr<const Block> block) {
    if (data_block_) {
      reader_->AddPinnedBytes(
          -static_cast<int64_t>(data_block_->contents().size()));
    }
    data_block_ = std::move(block);
    if (data_block_) {
      reader_->AddPinnedBytes(
          static_cast<int64_t>(data_block_->contents().size()));
    }
  }

  // Stops iteration with `status`.
  void Fail(absl::Status status) {
    status_ = std::move(status);
    ClearDataBlock();
  }

  // Points data_iter_ at the block of the current index entry (unpositioned),
  // or clears it if the index iterator is done or the block cannot be read.
  void InitDataBlock() {
    if (!index_iter_.Valid()) {
      ClearDataBlock();
      return;
    }
    std::string_view encoded_handle = index_iter_.value();
    BlockHandle handle;
    absl::Status status = handle.DecodeFrom(&encoded_handle);
    if (!status.ok()) return Fail(reader_->PlaceError(nullptr, status));
    if (data_iter_ && handle.offset() == data_block_handle_.offset()) return;
    absl::StatusOr<std::shared_ptr<const Block>> block =
        reader_->ReadDataBlock(read_options_, handle, &readahead_);
    if (readahead_.buffer_size() != readahead_bytes_) {
      reader_->AddPinnedBytes(static_cast<int64_t>(readahead_.buffer_size()) -
                              static_cast<int64_t>(readahead_bytes_));
      readahead_bytes_ = readahead_.buffer_size();
    }
    if (!block.ok()) return Fail(block.status());
    data_iter_.reset();  // before the block it points into
    SetDataBlock(*std::move(block));
    data_block_handle_ = handle;
    data_iter_.emplace(comparator_, data_block_.get());
  }

  // True when the walk must stop: an error met, or the index exhausted.
  bool StopAtError() {
    if (!status_.ok()) return true;
    if (data_iter_ && !data_iter_->status().ok()) {
      Fail(reader_->PlaceError(&data_block_handle_, data_iter_->status()));
      return true;
    }
    return false;
  }

  bool DataValid() const {
    return data_iter_.has_value() && data_iter_->Valid();
  }

  // Every positioning call starts afresh.
  void Restart() {
    status_ = absl::OkStatus();
    exhausted_ = false;
    readahead_.Restart();
  }

  // Ends the scan at a bound, keeping the current data block for a later
  // Seek into it.
  void Exhaust() { exhausted_ = true; }

  // Positions at the first entry >= target, ignoring bounds.
  void SeekWithin(std::string_view target) {
    index_iter_.Seek(target);
    InitDataBlock();
    if (data_iter_) data_iter_->Seek(target);
    SkipEmptyDataBlocksForward();
  }

  // Positions at the last entry < target (<= target if `inclusive`). Reads
  // the block that would hold target and, only if no entry there qualifies,
  // the blocks before it.
  void SeekBefore(std::string_view target, bool inclusive) {
    index_iter_.Seek(target);
    if (!index_iter_.Valid()) {
      if (!index_iter_.status().ok()) return ClearDataBlock();
      // Every separator, hence every key, is below target.
      index_iter_.SeekToLast();
      InitDataBlock();
      if (data_iter_) data_iter_->SeekToLast();
      return SkipEmptyDataBlocksBackward();
    }
    InitDataBlock();
    if (!data_iter_) return;
    data_iter_->Seek(target);
    if (data_iter_->Valid()) {
      if (!inclusive || comparator_->Compare(data_iter_->key(), target) != 0) {
        data_iter_->Prev();
      }
    } else if (data_iter_->status().ok()) {
      data_iter_->SeekToLast();  // the whole block is below target
    }
    SkipEmptyDataBlocksBackward();
  }

  // After a move: ends the scan at an entry outside its limits. One step
  // past a limit is the usual end; an entry on the other side only appears
  // in a damaged block whose keys are out of order, and is never yielded
  // either.
  void EnforceLimits() {
    if (!bounds_.active() || !Valid()) return;
    if (bounds_.OutsideScan(bounds_.UserKey(data_iter_->key()))) Exhaust();
  }

  void SkipEmptyDataBlocksForward() {
    while (!DataValid()) {
      if (StopAtError() || !index_iter_.Valid()) return ClearDataBlock();
      // The next block's keys are all above this separator: past the limit,
      // it is not read.
      if (bounds_.active() &&
          bounds_.PastForwardLimit(bounds_.UserKey(index_iter_.key()))) {
        return Exhaust();
      }
      index_iter_.Next();
      InitDataBlock();
      if (data_iter_) data_iter_->SeekToFirst();
    }
  }

  void SkipEmptyDataBlocksBackward() {
    while (!DataValid()) {
      if (StopAtError() || !index_iter_.Valid()) return ClearDataBlock();
      index_iter_.Prev();
      // That block's keys are all at most its separator: below the limit,
      // it is not read.
      if (bounds_.active() && index_iter_.Valid() &&
          bounds_.BeforeBackwardLimit(bounds_.UserKey(index_iter_.key()))) {
        return Exhaust();
      }
      InitDataBlock();
      if (data_iter_) data_iter_->SeekToLast();
    }
  }

  const Comparator* const comparator_;
  const DataBlockReader* const reader_;
  const ReadOptions read_options_;
  BlockIter index_iter_;
  IterateBounds bounds_;
  // The scan reached a bound or a filter found it empty: !Valid() although
  // data_iter_ may still hold an entry.
  bool exhausted_ = false;
  std::shared_ptr<const Block> data_block_;
  BlockHandle data_block_handle_;  // where data_block_ was read
  BlockReadahead readahead_;
  // The readahead buffer's bytes, as last told to the reader.
  size_t readahead_bytes_ = 0;
  // Declared after data_block_: destroyed before the block it reads.
  std::optional<BlockIter> data_iter_;
  absl::Status status_;
};

}  // namespace

std::unique_ptr<Iterator> NewTwoLevelIterator(const Comparator* comparator,
                                              const Block* index_block,
                                              const DataBlockReader* reader,
                                              const ReadOptions& read_options,
                                              const ScanSetup& setup) {
  return std::make_unique<TwoLevelIterator>(comparator, index_block, reader,
                                            read_options, setup);
}

}  // namespace bloomtable
