// Whether this run replays an order (PILGRIM_REPLAY): read by the generated
// wrappers of the matching functions before they call MPI, so kept apart
// from the cursor (replay_cursor.h) and the trace reading (replay_script.h),
// whose headers the wrappers need not compile.
#pragma once

namespace pilgrim::rt {

extern bool g_replaying;
inline bool replaying() noexcept { return __builtin_expect(g_replaying, false); }

} // namespace pilgrim::rt
