// Writes the proxy's C++ source: one function per rule of the shared rule
// pool used more than once (others inlined), a `for` loop per repetition
// count, `main` dispatching on the rank through the trace's rank map.
#pragma once

#include <string>

#include "pilgrim/trace_model.h"
#include "proxy_options.h"

namespace pilgrim::proxygen {

// The whole proxy source. Throws TraceError for a trace it cannot replay.
std::string write_proxy(const Trace &trace, const ProxyOptions &options);

} // namespace pilgrim::proxygen
