// The database view's merge of sorted sources: its order (ties go to the
// earlier source), direction changes, deferred sources positioned only when
// their lower bound reaches the front, and a step that costs a constant
// number of comparisons while one source holds a long run, whatever the
// number of sources.

#include "db/merging_iterator.h"

#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_format.h"
#include "gtest/gtest.h"
#include "table/internal_key.h"
#include "util/string_util.h"

namespace bloomtable {
namespace {

using KV = std::pair<std::string, std::string>;

std::string IKey(std::string_view user_key, uint64_t sequence) {
  std::string key;
  AppendInternalKey(&key, user_key, sequence, ValueType::kValue);
  return key;
}

// Bytewise order that counts its calls.
class CountingComparator final : public Comparator {
 public:
  int Compare(std::string_view a, std::string_view b) const override {
    ++calls;
    return BytewiseCompare(a, b);
  }
  std::string_view Name() const override { return "test.Counting"; }
  void FindShortestSeparator(std::string*, std::string_view) const override {}
  void FindShortSuccessor(std::string*) const override {}
  mutable uint64_t calls = 0;
};

// Sorted entries in memory. With `defers`, Seek and SeekToFirst leave it
// deferred, showing `bound` (a lower bound of its keys) until Position.
class VectorSource final : public MergeSource {
 public:
  VectorSource(const InternalKeyComparator* comparator, std::vector<KV> entries,
               bool defers, int* positioned)
      : comparator_(comparator),
        entries_(std::move(entries)),
        defers_(defers),
        positioned_(positioned) {}

  bool Valid() const override { return deferred_ || at_ < entries_.size(); }
  bool deferred() const override { return deferred_; }
  void Position() override {
    deferred_ = false;
    ++*positioned_;
    SeekNow(target_);
  }
  void SeekToFirst() override { Seek(std::string_view()); }
  void SeekToLast() override {
    deferred_ = false;
    at_ = entries_.empty() ? 0 : entries_.size() - 1;
  }
  void Seek(std::string_view target) override {
    target_.assign(target.data(), target.size());
    if (defers_ && !entries_.empty() &&
        (target.empty() ||
         comparator_->Compare(target, entries_.front().first) < 0)) {
      deferred_ = true;
      return;
    }
    deferred_ = false;
    SeekNow(target_);
  }
  void Next() override { ++at_; }
  void Prev() override { at_ = at_ == 0 ? entries_.size() : at_ - 1; }
  std::string_view key() const override {
    return deferred_ ? entries_.front().first : entries_[at_].first;
  }
  std::string_view value() const override { return entries_[at_].second; }
  absl::Status status() const override { return absl::OkStatus(); }

 private:
  void SeekNow(std::string_view target) {
    at_ = 0;
    while (at_ < entries_.size() && !target.empty() &&
           comparator_->Compare(entries_[at_].first, target) < 0) {
      ++at_;
    }
  }

  const InternalKeyComparator* const comparator_;
  const std::vector<KV> entries_;
  const bool defers_;
  int* const positioned_;
  size_t at_ = 0;
  bool deferred_ = false;
  std::string target_;
};

class MergingIteratorTest : public testing::Test {
 protected:
  std::unique_ptr<Iterator> Merge(const std::vector<std::vector<KV>>& sources,
                                  bool defer) {
    std::vector<std::unique_ptr<MergeSource>> children;
    for (const std::vector<KV>& entries : sources) {
      children.push_back(std::make_unique<VectorSource>(&comparator_, entries,
                                                        defer, &positioned_));
    }
    return NewMergingIterator(&comparator_, std::move(children));
  }

  CountingComparator user_;
  InternalKeyComparator comparator_{&user_};
  int positioned_ = 0;
};

std::vector<KV> Scan(Iterator* it) {
  std::vector<KV> out;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    out.emplace_back(std::string(it->key()), std::string(it->value()));
  }
  return out;
}

TEST_F(MergingIteratorTest, AStepCostsTheSameWhateverTheNumberOfSources) {
  // Source 0 holds a long run; seven others each hold one key after it.
  std::vector<std::vector<KV>> sources(8);
  for (int i = 0; i < 1000; ++i) {
    sources[0].emplace_back(IKey(absl::StrFormat("a%05d", i), 1), "v");
  }
  for (int s = 1; s < 8; ++s) {
    sources[s].emplace_back(IKey(absl::StrFormat("z%d", s), 1), "w");
  }
  std::unique_ptr<Iterator> it = Merge(sources, /*defer=*/false);
  it->SeekToFirst();
  user_.calls = 0;
  int steps = 0;
  for (; it->Valid(); it->Next()) ++steps;
  EXPECT_EQ(steps, 1007);
  // One comparison with the heap's front per step of the run (a scan of
  // every source per step would take seven).
  EXPECT_LE(user_.calls, 1100u);
}

TEST_F(MergingIteratorTest, AStepToAnotherSourceCostsAFewComparisons) {
  // Eight sources interleaved key by key: every step hands over to another
  // source, as a scan over overlapping level-0 tables does.
  std::vector<std::vector<KV>> sources(8);
  for (int i = 0; i < 8000; ++i) {
    sources[i % 8].emplace_back(IKey(absl::StrFormat("k%05d", i), 1), "v");
  }
  std::unique_ptr<Iterator> it = Merge(sources, /*defer=*/false);
  it->SeekToFirst();
  user_.calls = 0;
  int steps = 0;
  std::string last;
  for (; it->Valid(); it->Next()) {
    ASSERT_LT(last, std::string(it->key())) << steps;
    last = std::string(it->key());
    ++steps;
  }
  EXPECT_EQ(steps, 8000);
  // Per step: one comparison with the heap's front, then the moved source
  // goes into the seven-source heap and its front comes out (a few more,
  // about five in all); not a comparison with every source.
  EXPECT_LE(user_.calls, 6u * 8000);
}

TEST_F(MergingIteratorTest, EqualUserKeysComeOutNewestSourceFirst) {
  std::vector<std::vector<KV>> sources = {
      {{IKey("b", 9), "new"}},
      {{IKey("a", 1), "a"}, {IKey("b", 9), "old"}},
  };
  for (bool defer : {false, true}) {
    std::unique_ptr<Iterator> it = Merge(sources, defer);
    std::vector<KV> expected = {
        {IKey("a", 1), "a"}, {IKey("b", 9), "new"}, {IKey("b", 9), "old"}};
    EXPECT_EQ(Scan(it.get()), expected) << defer;
  }
}

TEST_F(MergingIteratorTest, DeferredSourcesArePositionedOnlyWhenReached) {
  std::vector<std::vector<KV>> sources(4);
  for (int s = 0; s < 4; ++s) {
    for (int i = 0; i < 10; ++i) {
      sources[s].emplace_back(IKey(absl::StrFormat("k%d-%02d", s, i), 1), "v");
    }
  }
  std::unique_ptr<Iterator> it = Merge(sources, /*defer=*/true);
  it->Seek(IKey("k1-05", kMaxSequenceNumber));
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(it->key(), IKey("k1-05", 1));
  // Sources 2 and 3 start past the target: not positioned yet.
  EXPECT_EQ(positioned_, 0);
  for (int i = 0; i < 5; ++i) it->Next();
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(it->key(), IKey("k2-00", 1));
  EXPECT_EQ(positioned_, 1);
}

TEST_F(MergingIteratorTest, MatchesAMapUnderRandomSeeksAndDirectionChanges) {
  std::mt19937 rng(7);
  std::map<std::string, std::string,
           std::function<bool(const std::string&, const std::string&)>>
      model([this](const std::string& a, const std::string& b) {
        return comparator_.Compare(a, b) < 0;
      });
  std::vector<std::vector<KV>> sources(5);
  for (int s = 0; s < 5; ++s) {
    std::map<std::string, std::string> entries;
    const int base = static_cast<int>(rng() % 400);
    for (int i = 0; i < 60; ++i) {
      const std::string key =
          IKey(absl::StrFormat("k%04d", base + static_cast<int>(rng() % 200)),
               static_cast<uint64_t>(s + 1));
      entries[key] = absl::StrFormat("%d", s);
    }
    std::vector<KV> sorted(entries.begin(), entries.end());
    std::sort(sorted.begin(), sorted.end(), [this](const KV& a, const KV& b) {
      return comparator_.Compare(a.first, b.first) < 0;
    });
    for (const KV& kv : sorted) model.insert(kv);
    sources[s] = std::move(sorted);
  }
  for (bool defer : {false, true}) {
    std::unique_ptr<Iterator> it = Merge(sources, defer);
    for (int round = 0; round < 200; ++round) {
      const std::string target =
          IKey(absl::StrFormat("k%04d", static_cast<int>(rng() % 650)), 100);
      it->Seek(target);
      auto m = model.lower_bound(target);
      for (int step = 0; step < 12; ++step) {
        ASSERT_EQ(it->Valid(), m != model.end()) << defer << " " << round;
        if (m == model.end()) break;
        ASSERT_EQ(it->key(), m->first);
        ASSERT_EQ(it->value(), m->second);
        if (rng() % 3 == 0) {
          it->Prev();
          if (m == model.begin()) {
            m = model.end();
          } else {
            --m;
          }
        } else {
          it->Next();
          ++m;
        }
      }
      EXPECT_TRUE(it->status().ok());
    }
  }
}

}  // namespace
}  // namespace bloomtable
