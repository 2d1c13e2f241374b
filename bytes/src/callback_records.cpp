#include "pilgrim/callback_records.h"

namespace pilgrim {
bool callback_record_kind(uint16_t function_id, CallbackRecordKind &kind) {
  switch (function_id) {
  case kCommCopyRecord:
    kind = {true, HandleKind::Comm};
    return true;
  case kCommDeleteRecord:
    kind = {false, HandleKind::Comm};
    return true;
  case kTypeCopyRecord:
    kind = {true, HandleKind::Datatype};
    return true;
  case kTypeDeleteRecord:
    kind = {false, HandleKind::Datatype};
    return true;
  case kWinCopyRecord:
    kind = {true, HandleKind::Win};
    return true;
  case kWinDeleteRecord:
    kind = {false, HandleKind::Win};
    return true;
  default:
    return false;
  }
}

} // namespace pilgrim
