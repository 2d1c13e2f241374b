#include "slow_calls.h"

namespace pilgrim::rt {

// Before MPI_Init nothing is recorded but MPI_Init itself (begin_slow_).
std::atomic<uint8_t> g_slow_calls{kSlowNotRecording};

} // namespace pilgrim::rt
