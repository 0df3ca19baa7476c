// Conversions between db_bench's types and an engine's: LevelDB and RocksDB
// name their slice, status and iterator types alike, with the same members,
// and bloomtable's iterators have them too (with std::string_view and
// absl::Status), so one template serves all three.
//
// PeerIterator<Iterator> is an EngineIterator over an engine's iterator,
// which it owns; PeerSeekReader<Iterator> an EngineReader whose point lookup
// is a Seek on such an iterator and a key compare (the peers' table-level
// lookup). Like the iterator, neither is safe for concurrent use.

#ifndef BLOOMTABLE_DB_BENCH_PEER_ITERATOR_H_
#define BLOOMTABLE_DB_BENCH_PEER_ITERATOR_H_

#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "absl/status/status.h"
#include "db_bench/engine.h"

namespace bloomtable {
namespace db_bench {

template <typename Slice>
Slice ToPeerSlice(std::string_view s) {
  return Slice(s.data(), s.size());
}

template <typename Slice>
std::string_view FromPeerSlice(const Slice& s) {
  return std::string_view(s.data(), s.size());
}

// The peer's NotFound, Corruption and InvalidArgument map to absl's codes of
// the same meaning (Corruption is DataLoss); anything else is Unknown, with
// the peer's message kept.
inline absl::Status FromPeerStatus(const absl::Status& status) {
  return status;
}

template <typename Status>
absl::Status FromPeerStatus(const Status& status) {
  if (status.ok()) return absl::OkStatus();
  if (status.IsNotFound()) return absl::NotFoundError(status.ToString());
  if (status.IsCorruption()) return absl::DataLossError(status.ToString());
  if (status.IsInvalidArgument()) {
    return absl::InvalidArgumentError(status.ToString());
  }
  return absl::UnknownError(status.ToString());
}

template <typename Iterator>
class PeerIterator final : public EngineIterator {
 public:
  // `keep_alive`, if given, is held until the iterator is gone (what the
  // peer's iterator reads through its options, such as bounds).
  explicit PeerIterator(std::unique_ptr<Iterator> iter,
                        std::shared_ptr<const void> keep_alive = nullptr)
      : keep_alive_(std::move(keep_alive)), iter_(std::move(iter)) {}

  void SeekToFirst() override { iter_->SeekToFirst(); }
  void Seek(std::string_view target) override {
    iter_->Seek(ToPeerSlice<decltype(iter_->key())>(target));
  }
  void Next() override { iter_->Next(); }
  bool Valid() const override { return iter_->Valid(); }
  std::string_view key() const override { return FromPeerSlice(iter_->key()); }
  std::string_view value() const override {
    return FromPeerSlice(iter_->value());
  }
  absl::Status status() const override {
    return FromPeerStatus(iter_->status());
  }

 private:
  // Declared first: destroyed after the iterator that may read it.
  const std::shared_ptr<const void> keep_alive_;
  const std::unique_ptr<Iterator> iter_;
};

template <typename Iterator>
class PeerSeekReader final : public EngineReader {
 public:
  explicit PeerSeekReader(std::unique_ptr<Iterator> iter)
      : iter_(std::move(iter)) {}

  absl::Status Get(std::string_view key, std::string* value) override {
    iter_->Seek(ToPeerSlice<decltype(iter_->key())>(key));
    if (iter_->Valid() && FromPeerSlice(iter_->key()) == key) {
      value->assign(iter_->value().data(), iter_->value().size());
      return absl::OkStatus();
    }
    if (!iter_->status().ok()) return FromPeerStatus(iter_->status());
    return absl::NotFoundError("");
  }

 private:
  const std::unique_ptr<Iterator> iter_;
};

// An EngineReader over a peer's own table lookup (`Lookup::Get(read_options,
// key, value)`), which must outlive it.
template <typename Lookup, typename ReadOptions>
class PeerLookupReader final : public EngineReader {
 public:
  PeerLookupReader(const Lookup* lookup, const ReadOptions& read_options)
      : lookup_(lookup), read_options_(read_options) {}
  absl::Status Get(std::string_view key, std::string* value) override {
    return lookup_->Get(read_options_, key, value);
  }

 private:
  const Lookup* const lookup_;
  const ReadOptions read_options_;
};

}  // namespace db_bench
}  // namespace bloomtable

#endif  // BLOOMTABLE_DB_BENCH_PEER_ITERATOR_H_
