#include "table/two_level_iterator.h"

#include <optional>
#include <string_view>

namespace bloomtable {

DataBlockReader::~DataBlockReader() = default;

namespace {

class TwoLevelIterator final : public Iterator {
 public:
  TwoLevelIterator(const Comparator* comparator, const Block* index_block,
                   const DataBlockReader* reader,
                   const ReadOptions& read_options)
      : comparator_(comparator),
        reader_(reader),
        read_options_(read_options),
        index_iter_(comparator, index_block) {}

  ~TwoLevelIterator() override { ClearDataBlock(); }

  bool Valid() const override {
    return data_iter_.has_value() && data_iter_->Valid();
  }

  void SeekToFirst() override {
    status_ = absl::OkStatus();
    index_iter_.SeekToFirst();
    InitDataBlock();
    if (data_iter_) data_iter_->SeekToFirst();
    SkipEmptyDataBlocksForward();
  }

  void SeekToLast() override {
    status_ = absl::OkStatus();
    index_iter_.SeekToLast();
    InitDataBlock();
    if (data_iter_) data_iter_->SeekToLast();
    SkipEmptyDataBlocksBackward();
  }

  void Seek(std::string_view target) override {
    status_ = absl::OkStatus();
    index_iter_.Seek(target);
    InitDataBlock();
    if (data_iter_) data_iter_->Seek(target);
    SkipEmptyDataBlocksForward();
  }

  void Next() override {
    data_iter_->Next();
    SkipEmptyDataBlocksForward();
  }

  void Prev() override {
    data_iter_->Prev();
    SkipEmptyDataBlocksBackward();
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
        reader_->ReadDataBlock(read_options_, handle);
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

  void SkipEmptyDataBlocksForward() {
    while (!Valid()) {
      if (StopAtError() || !index_iter_.Valid()) return ClearDataBlock();
      index_iter_.Next();
      InitDataBlock();
      if (data_iter_) data_iter_->SeekToFirst();
    }
  }

  void SkipEmptyDataBlocksBackward() {
    while (!Valid()) {
      if (StopAtError() || !index_iter_.Valid()) return ClearDataBlock();
      index_iter_.Prev();
      InitDataBlock();
      if (data_iter_) data_iter_->SeekToLast();
    }
  }

  const Comparator* const comparator_;
  const DataBlockReader* const reader_;
  const ReadOptions read_options_;
  BlockIter index_iter_;
  std::shared_ptr<const Block> data_block_;
  BlockHandle data_block_handle_;  // where data_block_ was read
  // Declared after data_block_: destroyed before the block it reads.
  std::optional<BlockIter> data_iter_;
  absl::Status status_;
};

}  // namespace

std::unique_ptr<Iterator> NewTwoLevelIterator(const Comparator* comparator,
                                              const Block* index_block,
                                              const DataBlockReader* reader,
                                              const ReadOptions& read_options) {
  return std::make_unique<TwoLevelIterator>(comparator, index_block, reader,
                                            read_options);
}

}  // namespace bloomtable
