#include "order_diff.h"

#include "pilgrim/count_text.h"
#include "pilgrim/match_events.h"
#include "pilgrim/rank_calls.h"

#include <algorithm>

namespace pilgrim::diff {

namespace {

bool same_event(const MatchEvent &x, const MatchEvent &y) {
  return x.function == y.function && x.flag == y.flag && x.source == y.source &&
         x.tag == y.tag && x.indices == y.indices && x.undefined == y.undefined;
}

std::string event_text(const char *which, const MatchEvent *e) {
  if (!e)
    return std::string(which) + " has no more";
  return std::string(which) + "'s call " + std::to_string(e->call) + " " + e->function + " " +
         describe_match(*e);
}

} // namespace

OrderResult diff_orders(const Trace &a, const Trace &b) {
  OrderResult r;
  if (a.nranks() != b.nranks()) {
    r.same = false;
    r.text = "the traces have " + count_text(a.nranks(), "rank") + " and " +
             count_text(b.nranks(), "rank");
    return r;
  }
  const std::vector<DecodedCall> cst_a = decode_cst(a), cst_b = decode_cst(b);
  uint32_t parted = 0;
  for (uint32_t rank = 0; rank < a.nranks(); ++rank) {
    const std::vector<MatchEvent> x = match_events(a, cst_a, rank);
    const std::vector<MatchEvent> y = match_events(b, cst_b, rank);
    r.events += x.size();
    const size_t n = std::max(x.size(), y.size());
    for (size_t k = 0; k < n; ++k) {
      const MatchEvent *ex = k < x.size() ? &x[k] : nullptr;
      const MatchEvent *ey = k < y.size() ? &y[k] : nullptr;
      if (ex && ey && same_event(*ex, *ey))
        continue;
      ++parted;
      r.text += "rank " + std::to_string(rank) + ", matching event " + std::to_string(k) + ": " +
                event_text("A", ex) + "; " + event_text("B", ey) + "\n";
      break;
    }
  }
  r.same = parted == 0;
  if (!r.same)
    r.text += "orders part on " + std::to_string(parted) + " of " +
              count_text(a.nranks(), "rank");
  return r;
}

} // namespace pilgrim::diff
