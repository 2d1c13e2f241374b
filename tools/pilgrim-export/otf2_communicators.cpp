#include "otf2_communicators.h"

#include "message_matching.h"

namespace pilgrim::exporter {

OTF2_CommRef otf2_comm(uint64_t key) {
  if (key == kCommWorld)
    return kOtf2CommWorld;
  if (key == kCommSelf)
    return kOtf2CommSelf;
  if (key == kCommUnknown)
    return OTF2_UNDEFINED_COMM;
  return comm_ref_of_instance(key);
}

} // namespace pilgrim::exporter
