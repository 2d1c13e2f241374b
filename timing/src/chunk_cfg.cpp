// cfg:EPS, the paper's CFG mode: the closed loop's symbols (closed_loop.h,
// bins of ratio 1 + eps) of the gaps and of the durations, each sequence
// compressed as a Sequitur grammar (unclustered, as in the paper), then both
// grammars and the exact values in one zstd block.
//   chunk := svarint(first_start) zstd(rules(gaps) rules(durations)
//            varint(nexact) svarint(exact){nexact})
// A grammar's terminal is zigzag(symbol) + 1; terminal 0 stands for the next
// exact value (a value with no symbol within the bound). The grammars are
// built by LeanSequitur (pilgrim/lean_sequitur.h, in grammar/), Sequitur
// specialised for a chunk's noisy symbols.
#include "closed_loop.h"

#include "pilgrim/grammar_checks.h"
#include "pilgrim/lean_sequitur.h"
#include "pilgrim/rule_codec.h"
#include "pilgrim/sequitur.h" // expand_rules

#include <memory>

namespace pilgrim::timing::detail {

namespace {

constexpr uint64_t kMaxTerminal = UINT32_MAX;

} // namespace

void encode_cfg(const Bounds &bounds, const ChunkView &calls, ByteWriter &w) {
  BinsByGroup bins(bounds, false);
  // The closed loop first, then each grammar over its whole stream: one
  // grammar's nodes and digram table in the cache at a time.
  // Terminals go by index into one array sized up front (call i's gap at
  // i, its duration at n + i; slot 0 unused, call 0 has no gap), neither
  // zeroed nor checked for capacity per value.
  const size_t n = calls.n;
  const std::unique_ptr<uint32_t[]> terminals(new uint32_t[2 * n]);
  uint32_t *const out[2] = {terminals.get(), terminals.get() + n};
  std::vector<int64_t> exact;
  // A call's gap and duration share its group, and a loop's calls mostly
  // share one: the bins are looked up when the group changes.
  uint32_t group = n ? calls.group[0] : 0;
  const Bins *group_bins = n ? &bins.of(group) : nullptr;
  // Each value's terminal and reconstruction, memoised by value and bins:
  // a loop's calls repeat a few tick counts, and a hit costs one probe
  // instead of Bins::quantise's sign and range tests and the zigzag.
  struct Memo {
    int64_t v = 0, r = 0;
    const Bins *bins = nullptr; // nullptr: empty
    uint64_t terminal = 0;
  };
  constexpr size_t kMemoBits = 10;
  const std::unique_ptr<Memo[]> memo(new Memo[size_t{1} << kMemoBits]);
  // Inlined: called out of line per value, with a push_back and a group
  // lookup each, the lambda cost a tenth of the encoder's instructions.
  closed_loop_encode(
      calls, [&](int stream, size_t i, int64_t v) __attribute__((always_inline)) {
        if (calls.group[i] != group) {
          group = calls.group[i];
          group_bins = &bins.of(group);
        }
        Memo &m = memo[static_cast<uint64_t>(v) * 0x9E3779B97F4A7C15ull >> (64 - kMemoBits)];
        if (m.v != v || m.bins != group_bins) {
          int64_t sym = 0, r = v;
          uint64_t terminal = 0;
          if (group_bins->quantise(v, sym, r) && zigzag_encode(sym) < kMaxTerminal)
            terminal = zigzag_encode(sym) + 1;
          else
            r = v;
          m = Memo{v, r, group_bins, terminal};
        }
        if (m.terminal == 0)
          exact.push_back(v);
        out[stream][i] = static_cast<uint32_t>(m.terminal);
        return m.r;
      });
  std::string raw;
  ByteWriter b(raw);
  for (int stream : {kGap, kDuration}) {
    LeanSequitur grammar;
    const uint32_t *t = out[stream] + (stream == kGap && n ? 1 : 0);
    for (const uint32_t *e = out[stream] + n; t < e; ++t)
      grammar.append(*t);
    grammar.put(b);
  }
  b.varint(exact.size());
  for (int64_t v : exact)
    b.svarint(v);
  w.svarint(calls.n ? calls.start[0] : 0);
  put_zstd(w, raw);
}

void decode_cfg(ByteReader &r, const Bounds &bounds, size_t n, const uint32_t *group,
                int64_t *start, int64_t *end) {
  const int64_t first = r.svarint();
  // Two grammars of at most n symbols each (one per value) of at most 2
  // varints, plus n exact values.
  const std::string raw = get_zstd(r, 64 + 2 * n * 4 * kMaxVarintBytes, "cfg block");
  ByteReader b(raw);
  std::vector<uint32_t> seq[2];
  for (int s = 0; s < 2; ++s) {
    const size_t want = s == kGap ? (n ? n - 1 : 0) : n;
    Grammar g;
    g.rules = get_rules(b, "cfg grammar rule count");
    validate_grammar(g, size_t{kMaxTerminal} + 1);
    for (size_t k = 1; k < g.rules.size(); ++k)
      if (g.rules[k].empty())
        b.fail("cfg grammar has an empty rule");
    const uint64_t len = expanded_length(g);
    if (len != want)
      b.fail("cfg grammar expands to " + std::to_string(len) + " values, the chunk has " +
             std::to_string(want));
    seq[s] = expand_rules(g.rules);
  }
  const uint64_t nexact = b.count(1, "cfg exact value count");
  std::vector<int64_t> exact(nexact);
  for (int64_t &v : exact)
    v = b.svarint();
  if (!b.at_end())
    b.fail("cfg block has trailing bytes");
  BinsByGroup bins(bounds, false);
  size_t next_exact = 0, at[2] = {0, 0};
  closed_loop_decode(n, first, start, end, [&](int stream, size_t i) -> int64_t {
    const uint32_t t = seq[stream][at[stream]++];
    if (t == 0) {
      if (next_exact >= exact.size())
        b.fail("cfg block lacks exact values");
      return exact[next_exact++];
    }
    int64_t v = 0;
    if (!bins.of(group[i]).value_of(zigzag_decode(t - 1), v))
      b.fail("cfg symbol out of range");
    return v;
  });
  if (next_exact != exact.size())
    b.fail("cfg block has unused exact values");
}

} // namespace pilgrim::timing::detail
