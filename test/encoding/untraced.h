// While an Untraced lives, the MPI calls this thread makes are not traced:
// the runtime takes them for calls the MPI library makes internally. The
// encoding round-trip test makes its handles this way, so that the trace
// holds exactly the calls it drives.
#pragma once

#include "call_inline.h" // rt::thread_state()

namespace pilgrim::enctest {

struct Untraced {
  Untraced() { ++rt::thread_state().depth; }
  ~Untraced() { --rt::thread_state().depth; }
  Untraced(const Untraced &) = delete;
  Untraced &operator=(const Untraced &) = delete;
};

} // namespace pilgrim::enctest
