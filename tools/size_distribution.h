// SizeDistribution summarises a list of sizes (key or value lengths): count,
// total, min, max, mean and percentiles. Keeps every size (four bytes each);
// single-threaded.

#ifndef BLOOMTABLE_TOOLS_SIZE_DISTRIBUTION_H_
#define BLOOMTABLE_TOOLS_SIZE_DISTRIBUTION_H_

#include <cstdint>
#include <vector>

namespace bloomtable {
namespace tool {

class SizeDistribution {
 public:
  void Add(uint32_t size) {
    sizes_.push_back(size);
    total_ += size;
    sorted_ = false;
  }

  uint64_t count() const { return sizes_.size(); }
  uint64_t total() const { return total_; }
  double mean() const;
  // The smallest size with at least `percent`% of sizes at or below it
  // (nearest rank); 0 when empty. min is Percentile(0), max Percentile(100).
  // Sorts on first use after an Add.
  uint32_t Percentile(double percent);

 private:
  std::vector<uint32_t> sizes_;
  uint64_t total_ = 0;
  bool sorted_ = true;
};

}  // namespace tool
}  // namespace bloomtable

#endif  // BLOOMTABLE_TOOLS_SIZE_DISTRIBUTION_H_
