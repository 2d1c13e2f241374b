#include "strict_outputs.h"

namespace pilgrim::diff {

bool OutputFilter::ignored(const Call &call, int param) const {
  return !strict_ && environment_.environmental(call, param);
}

bool OutputFilter::unordered(const Call &call, int param) const {
  return !strict_ && environment_.unordered(call, param);
}

bool OutputFilter::same_error(int64_t a, int64_t b) const {
  // ERROR_SPECIFIC_INDEX_MASK | ERROR_SPECIFIC_SEQ_MASK
  constexpr int64_t kRingEntry = 0x3FF80000;
  return !strict_ && mpich_ && a != 0 && b != 0 && (a & ~kRingEntry) == (b & ~kRingEntry);
}

} // namespace pilgrim::diff
