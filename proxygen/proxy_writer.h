// Writes the proxy's C++ source: one function per rule of the shared rule
// pool used more than once (others inlined), a `for` loop per repetition
// count, `main` dispatching on the rank through the trace's rank map.
#pragma once

#include <string>

#include "pilgrim/trace_model.h"
#include "proxy_options.h"

namespace pilgrim::proxygen {

struct ProxySource {
  std::string source;    // the whole proxy
  std::string gaps_file; // --gaps=exact: the companion file (call_gaps.h), else empty
};

// Throws TraceError for a trace it cannot replay.
ProxySource write_proxy(const Trace &trace, const ProxyOptions &options);

} // namespace pilgrim::proxygen
