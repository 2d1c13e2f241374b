// The Address role's encoders (docs/FORMAT.md §8.3, Address): absolute
// addresses as (memory id, offset), and the regions attached to dynamic
// windows that target displacements are resolved against.
#include "call.h"

#include "memory/dynamic_windows.h"
#include "signatures/generated_function_table.h"
#include "pilgrim/signature_encoding.h"
#include "recorder.h"

namespace pilgrim::rt {

void Call::address(int64_t v) {
  uint32_t id = 0;
  uint64_t offset = 0;
  const AddressAnchors &anchors = Recorder::get().addresses.anchors();
  const uint64_t u = static_cast<uint64_t>(v);
  if ((u == new_anchor_ && anchors.find_below(u, AddressAnchors::kLayoutWindow, id, offset)) ||
      anchors.find(u, id, offset)) {
    buf().put_varint(sig::address_id(id));
    buf().put_zigzag(static_cast<int64_t>(offset));
    return;
  }
  buf().put_varint(sig::kAddressValue);
  buf().put_zigzag(v);
}

// In a dynamic window the displacement is an address of the target: a
// placeholder until MPI_Finalize knows the target's regions.
void Call::target_disp(int64_t v, MPI_Win win, int target_rank) {
  DynamicWindows &d = dynamic_windows();
  if (target_rank >= 0 && d.is_dynamic(win)) {
    const int world = d.world_rank(win, target_rank);
    if (world >= 0) {
      buf().put_varint(sig::kAddressPending);
      buf().put_zigzag(static_cast<int64_t>(d.placeholder(world, v)));
      return;
    }
  }
  buf().put_varint(sig::kAddressValue);
  buf().put_zigzag(v);
}

void Call::buffer(const void *p, int64_t bytes) {
  static const FunctionInfo *const attach = generated_function("MPI_Win_attach");
  const uint64_t code = buffer_code(p);
  buf().put_varint(code);
  if (attach && fid_ == attach->id && code >= sig::kBufferFirstId)
    dynamic_windows().note_attach(p, bytes, static_cast<uint32_t>(code - sig::kBufferFirstId));
}

} // namespace pilgrim::rt
