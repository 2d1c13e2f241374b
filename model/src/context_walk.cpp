#include "pilgrim/context_walk.h"

#include "pilgrim/grammar_walker.h"
#include "pilgrim/saturating.h"

namespace pilgrim {

namespace {

struct Frame {
  uint64_t rule;
  size_t pos = 0;
  uint64_t done = 0;                   // iterations of the symbol at pos started
  uint64_t times = 1;                  // how many times each call of this frame counts
  uint64_t version = 0, creations = 0; // the tracker when the last iteration started
};

} // namespace

void walk_in_context(const Grammar &rules, uint64_t root, const std::vector<DecodedCall> &calls,
                     CreationTracker &tracker,
                     const std::function<void(uint64_t, uint64_t, const CallContext &)> &visit) {
  if (root >= rules.rules.size())
    return;
  const std::vector<uint64_t> lengths = rule_lengths(rules, root);
  std::vector<Frame> stack;
  stack.push_back(Frame{root});
  while (!stack.empty()) {
    Frame &f = stack.back();
    const std::vector<GrammarSymbol> &body = rules.rules[f.rule];
    if (f.pos >= body.size()) {
      stack.pop_back();
      continue;
    }
    const GrammarSymbol &s = body[f.pos];
    if (is_terminal(s)) {
      const auto t = static_cast<uint64_t>(s.value);
      if (t < calls.size()) {
        visit(t, sat_mul(f.times, s.exp), tracker.context());
        tracker.apply(calls[t], s.exp);
      }
      ++f.pos;
      continue;
    }
    const uint64_t r = rule_index(s);
    if (r >= rules.rules.size() || lengths[r] == 0) {
      ++f.pos;
      continue;
    }
    Frame child{r};
    child.times = f.times;
    if (f.done > 0) {
      const bool unchanged = tracker.version() == f.version && tracker.creations() == f.creations;
      if (f.done >= s.exp) {
        ++f.pos;
        f.done = 0;
        continue;
      }
      if (unchanged) {
        // The last iteration started and ended in the same state: so do the
        // rest, one walk stands for all of them.
        child.times = sat_mul(f.times, s.exp - f.done);
        f.done = s.exp;
        stack.push_back(child);
        continue;
      }
    }
    f.version = tracker.version();
    f.creations = tracker.creations();
    ++f.done;
    stack.push_back(child);
  }
}

} // namespace pilgrim
