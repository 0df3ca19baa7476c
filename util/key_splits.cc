#include "util/key_splits.h"

#include <algorithm>

namespace bloomtable {

void KeySplitter::Add(std::string_view key, uint64_t bytes) {
  points_.push_back(Point{keys_.size(), key.size(), bytes});
  keys_.append(key);
  total_bytes_ += bytes;
}

std::vector<std::string> KeySplitter::Cut(size_t parts,
                                          const Comparator& comparator) {
  std::vector<std::string> cuts;
  if (parts <= 1 || total_bytes_ == 0 || points_.empty()) return cuts;
  auto key_of = [this](const Point& point) {
    return std::string_view(keys_.data() + point.key_begin, point.key_size);
  };
  std::stable_sort(points_.begin(), points_.end(),
                   [&](const Point& a, const Point& b) {
                     return comparator.Compare(key_of(a), key_of(b)) < 0;
                   });
  // Cut i (1 <= i < parts) goes where the running total of bytes crosses
  // i / parts of the whole: at the point before or after the crossing,
  // whichever total is nearer. A point's bytes lie at or before its key, so
  // the total up to a point counts the bytes before a cut at its key.
  const double total = static_cast<double>(total_bytes_);
  size_t next_cut = 1;
  uint64_t before = 0;  // bytes of the points before points_[j]
  for (size_t j = 0; j < points_.size() && next_cut < parts; ++j) {
    const uint64_t through = before + points_[j].bytes;
    while (next_cut < parts &&
           static_cast<double>(through) >=
               total * static_cast<double>(next_cut) / parts) {
      const double target = total * static_cast<double>(next_cut) / parts;
      size_t chosen = j;
      if (j > 0 && target - static_cast<double>(before) <
                       static_cast<double>(through) - target) {
        chosen = j - 1;
      }
      const std::string_view key = key_of(points_[chosen]);
      if (cuts.empty() || comparator.Compare(cuts.back(), key) < 0) {
        cuts.emplace_back(key);
      }
      ++next_cut;
    }
    before = through;
  }
  // A cut at the last point's key would leave the range after it (nearly)
  // empty: the bytes of that point lie before it.
  if (!cuts.empty() &&
      comparator.Compare(cuts.back(), key_of(points_.back())) >= 0) {
    cuts.pop_back();
  }
  return cuts;
}

}  // namespace bloomtable
