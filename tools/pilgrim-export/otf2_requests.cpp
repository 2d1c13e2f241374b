#include "otf2_requests.h"

namespace pilgrim::exporter {

uint64_t RequestTable::create(uint64_t request, LiveRequest r, uint64_t posted) {
  r.active = !r.persistent;
  r.otf2_id = next_id_++;
  r.posted = posted;
  const uint64_t id = r.otf2_id;
  live_[request] = r;
  return id;
}

LiveRequest *RequestTable::start(uint64_t request, uint64_t posted) {
  LiveRequest *r = find(request);
  if (!r || !r->persistent)
    return nullptr;
  r->active = true;
  r->otf2_id = next_id_++;
  r->posted = posted;
  return r;
}

LiveRequest *RequestTable::find(uint64_t request) {
  const auto it = live_.find(request);
  return it == live_.end() ? nullptr : &it->second;
}

void RequestTable::complete(uint64_t request) {
  const auto it = live_.find(request);
  if (it == live_.end())
    return;
  if (it->second.persistent)
    it->second.active = false;
  else
    live_.erase(it);
}

} // namespace pilgrim::exporter
