// The values a decoded call passed in or got out, by parameter name: the
// small readers match_events.cpp and request_lifecycle.cpp share.
#pragma once

#include "pilgrim/decoded_call.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace pilgrim::call_values {

// The first element passed in (out) as `name`; nullptr when the call has
// no such argument or passed NULL.
inline const CallElement *in_element(const Call &c, const char *name) {
  const CallArg *a = c.arg(name);
  if (!a || !a->has_in || a->in.null || a->in.elements.empty())
    return nullptr;
  return &a->in.elements[0];
}

inline const CallElement *out_element(const Call &c, const char *name) {
  const CallArg *a = c.arg(name);
  if (!a || !a->has_out || a->out.null || a->out.elements.empty())
    return nullptr;
  return &a->out.elements[0];
}

// The output integer `name`, or `absent` unless it is one value.
inline int64_t out_int(const Call &c, const char *name, int64_t absent) {
  const CallArg *a = c.arg(name);
  if (!a || !a->has_out || a->out.null || a->out.elements.size() != 1)
    return absent;
  return a->out.elements[0].integer;
}

inline std::vector<int64_t> out_ints(const Call &c, const char *name) {
  std::vector<int64_t> v;
  const CallArg *a = c.arg(name);
  if (a && a->has_out && !a->out.null)
    for (const CallElement &e : a->out.elements)
      v.push_back(e.integer);
  return v;
}

// The requests passed in, as their stored codes, each with whether it is a
// request at all (false: MPI_REQUEST_NULL; callers keep the positions that
// indices refer to).
inline std::vector<std::pair<uint64_t, bool>> in_codes(const Call &c, const char *name) {
  std::vector<std::pair<uint64_t, bool>> v;
  const CallArg *a = c.arg(name);
  if (a && a->has_in && !a->in.null)
    for (const CallElement &e : a->in.elements)
      v.push_back({e.coded ? e.coded->code : 0, e.coded && !e.handle.null()});
  return v;
}

} // namespace pilgrim::call_values
