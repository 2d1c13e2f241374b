#include "chrome_requests.h"

#include <algorithm>

#include "pilgrim/call_formatter.h"

namespace pilgrim::exporter {

void RequestLifetimes::close(uint64_t code, RequestLifetime::End how, uint64_t index,
                             const Span &raw, const Span &placed,
                             std::vector<RequestLifetime> &done) {
  const auto it = live_.find(code);
  if (it == live_.end() || !it->second.active)
    return;
  RequestLifetime life = it->second.life;
  life.end_call = index;
  life.end = placed;
  life.end_raw = raw;
  life.how = how;
  done.push_back(std::move(life));
  if (it->second.persistent && how == RequestLifetime::End::Completed)
    it->second.active = false;
  else
    live_.erase(it);
}

void RequestLifetimes::call(const Call &call, uint64_t index, const Span &raw, const Span &placed,
                            std::vector<RequestLifetime> &done) {
  request_events(call, events_);
  if (events_.empty())
    return;
  for (const auto &c : events_.completed)
    close(c.first, RequestLifetime::End::Completed, index, raw, placed, done);
  for (uint64_t code : events_.freed)
    close(code, RequestLifetime::End::Freed, index, raw, placed, done);
  for (uint64_t code : events_.freed)
    live_.erase(code);
  auto open = [&](uint64_t code, Live &l) {
    l.active = true;
    l.life.name = call.name() ? call.name() : "request";
    l.life.request = format_handle(HandleKind::Request, code);
    l.life.thread = call.thread;
    l.life.begin_call = index;
    l.life.begin = placed;
    l.life.begin_raw = raw;
  };
  for (uint64_t code : events_.created) {
    // A request created again while the old one is active: the old one was
    // never completed (the application lost it).
    close(code, RequestLifetime::End::Never, index, raw, placed, done);
    Live &l = live_[code];
    l = Live{};
    l.persistent = events_.persistent;
    if (!events_.persistent)
      open(code, l);
  }
  for (uint64_t code : events_.started) {
    const auto it = live_.find(code);
    if (it != live_.end() && !it->second.active)
      open(code, it->second);
  }
}

void RequestLifetimes::finish(uint64_t index, const Span &raw, const Span &placed,
                              std::vector<RequestLifetime> &done) {
  // In the order they began, whatever the map's order.
  std::vector<std::pair<uint64_t, uint64_t>> open; // (begin call, code)
  for (const auto &l : live_)
    if (l.second.active)
      open.push_back({l.second.life.begin_call, l.first});
  std::sort(open.begin(), open.end());
  for (const auto &o : open)
    close(o.second, RequestLifetime::End::Never, index, raw, placed, done);
  live_.clear();
}

} // namespace pilgrim::exporter
