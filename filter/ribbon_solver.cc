#include "filter/ribbon_solver.h"

#include <cassert>

#include "util/coding.h"

namespace bloomtable {

namespace {

// WriteSolution's work, on the solver's arrays.
BLOOMTABLE_RIBBON_POPCNT_CLONES
void BackSubstitute(const uint64_t* coefficients, const uint32_t* fingerprints,
                    const RibbonShape& shape, char* out) {
  const int max_columns = shape.MaxColumns();
  // For each column, the solution bits of the 128 slots from the current
  // one up: bit t of (low, high) is slot i + t.
  uint64_t window_low[kRibbonMaxColumns] = {};
  uint64_t window_high[kRibbonMaxColumns] = {};
  const uint64_t num_slots = shape.NumSlots();
  char* const tail_region = out + 8 * shape.NumHeadWords();
  for (uint64_t i = num_slots; i-- > 0;) {
    const uint64_t coeff_low = coefficients[2 * i];
    const uint64_t coeff_high = coefficients[2 * i + 1];
    const uint32_t fingerprint = fingerprints[i];
    for (int column = 0; column < max_columns; ++column) {
      // Move the window down one slot; bit 0 (slot i) is unknown, 0 for now.
      window_high[column] =
          (window_high[column] << 1) | (window_low[column] >> 63);
      window_low[column] <<= 1;
      // Equation i: bit 0 of coeff_low is slot i itself (1 when stored), so
      // slot i's value is the fingerprint bit minus the other slots' part.
      // A free slot (no equation) has all-zero coefficients and gets 0.
      const uint64_t others =
          (coeff_low & window_low[column]) ^ (coeff_high & window_high[column]);
      const uint64_t bit =
          ((fingerprint >> column) ^ __builtin_parityll(others)) & 1;
      window_low[column] |= bit;
    }
    if (i % kRibbonBlockSlots == 0) {
      const uint64_t block = i / kRibbonBlockSlots;
      char* head = out + 8 * shape.FirstHeadWordOf(block);
      const int head_columns = shape.HeadColumnsOf(block);
      for (int column = 0; column < head_columns; ++column) {
        EncodeFixed64(head + 8 * column, window_low[column]);
      }
      char* tail = tail_region + 8 * shape.FirstTailWordOf(block);
      const int tail_columns = shape.TailColumnsOf(block);
      for (int column = 0; column < tail_columns; ++column) {
        EncodeFixed64(tail + 8 * column, window_low[head_columns + column]);
      }
    }
  }
}

}  // namespace

void RibbonSolver::Reset(uint64_t num_slots) {
  assert(num_slots % kRibbonBlockSlots == 0 && num_slots >= 128);
  coefficients_.assign(2 * num_slots, 0);
  fingerprints_.assign(num_slots, 0);
}

// One equation being eliminated, and the hashes still to add after it.
struct RibbonSolver::Lane {
  const uint64_t* next;
  const uint64_t* end;
  uint64_t num_starts;
  bool busy;  // holds an equation: the fields below
  uint64_t slot;
  uint64_t low;   // coefficients for slots slot .. slot+63, bit 0 set
  uint64_t high;  // and for slot+64 .. slot+127
  uint32_t fingerprint;

  void Load(const RibbonRow& row) {
    slot = row.start;
    low = row.coeff_lo;
    high = row.coeff_hi;
    fingerprint = row.fingerprint;
    busy = true;
  }
  void LoadNext() {
    if (next == end) {
      busy = false;
    } else {
      Load(RibbonRowOf(*next++, num_starts));
    }
  }
};

// One elimination step: the equation is stored at its first slot if that is
// free; otherwise it is XORed with the equation stored there and shifted to
// its new lowest bit. The highest coefficient bit never moves, so the slot
// stays below the equation's start + 128. When the equation is stored, or
// reduced to nothing (a duplicate), the lane loads the next one.
// Returns false on a contradiction.
inline bool RibbonSolver::Step(Lane* lane) {
  uint64_t* stored = &coefficients_[2 * lane->slot];
  if (stored[0] == 0) {
    stored[0] = lane->low;
    stored[1] = lane->high;
    fingerprints_[lane->slot] = lane->fingerprint;
    lane->LoadNext();
    return true;
  }
  lane->low ^= stored[0];
  lane->high ^= stored[1];
  lane->fingerprint ^= fingerprints_[lane->slot];
  // Both equations had bit 0 set, so `low` has it clear: the shift is at
  // least one slot.
  if (lane->low != 0) {
    const int shift = __builtin_ctzll(lane->low);
    lane->low = (lane->low >> shift) | (lane->high << (64 - shift));
    lane->high >>= shift;
    lane->slot += shift;
  } else if (lane->high != 0) {
    const int shift = __builtin_ctzll(lane->high);
    lane->low = lane->high >> shift;
    lane->high = 0;
    lane->slot += 64 + shift;
  } else {
    if (lane->fingerprint != 0) return false;
    lane->LoadNext();
  }
  return true;
}

bool RibbonSolver::Add(const RibbonRow& row) {
  Lane lane{nullptr, nullptr, 0, false, 0, 0, 0, 0};
  lane.Load(row);
  while (lane.busy) {
    if (!Step(&lane)) return false;
  }
  return true;
}

bool RibbonSolver::AddAll(const uint64_t* hashes, size_t n,
                          uint64_t num_starts) {
  Lane first{hashes, hashes + n / 2, num_starts, false, 0, 0, 0, 0};
  Lane second{hashes + n / 2, hashes + n, num_starts, false, 0, 0, 0, 0};
  first.LoadNext();
  second.LoadNext();
  while (first.busy && second.busy) {
    if (!Step(&first) || !Step(&second)) return false;
  }
  while (first.busy) {
    if (!Step(&first)) return false;
  }
  while (second.busy) {
    if (!Step(&second)) return false;
  }
  return true;
}

void RibbonSolver::WriteSolution(const RibbonShape& shape, char* out) const {
  BackSubstitute(coefficients_.data(), fingerprints_.data(), shape, out);
}

}  // namespace bloomtable
