#include "strict_outputs.h"

namespace pilgrim::diff {

bool OutputFilter::ignored(const DecodedCall &call, int param) const {
  return !strict_ && environment_.environmental(call, param);
}

} // namespace pilgrim::diff
