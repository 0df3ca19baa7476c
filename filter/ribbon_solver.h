// Solves the linear system of a standard Ribbon filter (ribbon_format.h):
// one equation per key, "the parities of the key's 128 coefficient bits
// against the solution's columns at slots start .. start+127 equal the key's
// fingerprint bits", over GF(2).
//
// Add() does Gaussian elimination on the fly ("banding"): an equation is
// stored at its first slot if that slot is free; otherwise it is XORed with
// the equation stored there and moves on to its new lowest coefficient bit.
// The stored equations stay in echelon form (each slot's equation has its
// lowest bit there), so WriteSolution() solves for the slots from the last
// to the first by back-substitution. Adding keys in about increasing start
// order keeps the work inside a few cache lines.
//
// Usage: (Reset (Add | AddAll)* [WriteSolution])*. Not thread-safe; one
// solver per build.

#ifndef BLOOMTABLE_FILTER_RIBBON_SOLVER_H_
#define BLOOMTABLE_FILTER_RIBBON_SOLVER_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "filter/ribbon_format.h"

namespace bloomtable {

class RibbonSolver {
 public:
  RibbonSolver() = default;
  RibbonSolver(const RibbonSolver&) = delete;
  RibbonSolver& operator=(const RibbonSolver&) = delete;

  // Forgets every equation and sizes the system for `num_slots` slots.
  // REQUIRES: num_slots is a multiple of 64 and at least 128.
  void Reset(uint64_t num_slots);

  // Adds one equation. Returns false if it contradicts the equations added
  // so far: its coefficients are a combination of theirs but its
  // fingerprint is not (the build must then start again with other hashes).
  // A repeated equation (a duplicate key) is redundant, not a contradiction.
  // REQUIRES: row.start + 127 < num_slots, bit 0 of row.coeff_lo set.
  bool Add(const RibbonRow& row);

  // Adds the equations of the keys with these hashes (RibbonRowOf with
  // `num_starts`), which should be about in start order. Equivalent to Add()
  // for each, in an order of its own: it works on two halves of the array
  // at once, so that the processor overlaps their dependency chains. Returns
  // false if some equation contradicts the others.
  bool AddAll(const uint64_t* hashes, size_t n, uint64_t num_starts);

  // Writes the solution, shape.NumWords() fixed64 words in the layout of
  // ribbon_format.h, to `out`. Slots no equation determines get 0.
  // REQUIRES: shape.NumSlots() == num_slots of Reset.
  void WriteSolution(const RibbonShape& shape, char* out) const;

 private:
  struct Lane;
  bool Step(Lane* lane);

  // Two words per slot: coefficients for slots i .. i+63, then i+64 ..
  // i+127. A stored equation has bit 0 set, so a zero low word means "free".
  std::vector<uint64_t> coefficients_;
  std::vector<uint32_t> fingerprints_;
};

}  // namespace bloomtable

#endif  // BLOOMTABLE_FILTER_RIBBON_SOLVER_H_
