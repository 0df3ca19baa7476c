#include "tools/size_distribution.h"

#include <algorithm>
#include <cmath>

namespace bloomtable {
namespace tool {

double SizeDistribution::mean() const {
  return sizes_.empty()
             ? 0
             : static_cast<double>(total_) / static_cast<double>(sizes_.size());
}

uint32_t SizeDistribution::Percentile(double percent) {
  if (sizes_.empty()) return 0;
  if (!sorted_) {
    std::sort(sizes_.begin(), sizes_.end());
    sorted_ = true;
  }
  const double rank =
      std::ceil(percent / 100 * static_cast<double>(sizes_.size()));
  size_t index = rank < 1 ? 0 : static_cast<size_t>(rank) - 1;
  if (index >= sizes_.size()) index = sizes_.size() - 1;
  return sizes_[index];
}

}  // namespace tool
}  // namespace bloomtable
