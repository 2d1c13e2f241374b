// The fixed part of every generated proxy: includes and the helpers the
// generated calls use (untraced PMPI queries, buffers, statuses, time).
#pragma once

namespace pilgrim::proxygen {

// Includes and helpers, before the generated declarations.
extern const char *const kProxyPrelude;

} // namespace pilgrim::proxygen
