// hist:EPS,K, the paper's HIST mode, per group (signature) and per stream
// (gaps, durations), on the closed loop's symbols (closed_loop.h, bins of
// ratio 1 + eps).
//
// Each (group, stream) starts in a learning phase: its first M = 100 values
// are written as symbols. Their 2^K most frequent symbols (ties: the smaller
// symbol first; symbol-less exact values excluded) make its table. After
// that a value costs K + 1 bits when its symbol is in the table: a flag bit
// 0 and the K-bit index; otherwise a flag bit 1 and the symbol (an escape).
// Every W = 100 coded values the table is relearned from the symbols of
// those W values if more than 25 of them escaped: a phase change costs at
// most one window of escapes, and a stable distribution keeps its table.
// Everything restarts with each chunk.
//   chunk := svarint(first_start) zstd(varint(ncoded) varint(nhits)
//            varint(nsymbols) varint(nexact) flags index-bits symbols exact)
//   flags:   ncoded bits, LSB first, padded to a byte
//   index:   nhits K-bit indices, LSB first, padded to a byte
//   symbols: nsymbols varint(zigzag(symbol) + 1), 0 = the next exact value
//   exact:   nexact svarint
// All in call order, gap before duration.
#include "closed_loop.h"

#include <algorithm>
#include <unordered_map>

namespace pilgrim::timing::detail {

namespace {

constexpr size_t kLearn = 100;        // M
constexpr size_t kWindow = 100;       // W
constexpr size_t kRelearn = 25;       // escapes in a window that trigger relearning
constexpr int64_t kExact = INT64_MIN; // "symbol" of an exact value

struct State {
  std::vector<int64_t> recent; // learning samples, then the current window's symbols
  std::vector<int64_t> table;
  size_t escapes = 0;
  bool learned = false;

  void build() {
    std::vector<int64_t> s;
    for (int64_t v : recent)
      if (v != kExact)
        s.push_back(v);
    std::sort(s.begin(), s.end());
    std::vector<std::pair<size_t, int64_t>> counts; // (count, symbol)
    for (size_t i = 0; i < s.size();) {
      size_t j = i;
      while (j < s.size() && s[j] == s[i])
        ++j;
      counts.push_back({j - i, s[i]});
      i = j;
    }
    std::stable_sort(counts.begin(), counts.end(),
                     [](const auto &a, const auto &b) { return a.first > b.first; });
    table.clear();
    for (const auto &c : counts)
      if (table.size() < table_cap)
        table.push_back(c.second);
    recent.clear();
    escapes = 0;
    learned = true;
  }
  // After one coded value: relearn at the end of a window with too many escapes.
  void after_coded(int64_t sym, bool escaped) {
    recent.push_back(sym);
    escapes += escaped;
    if (recent.size() == kWindow) {
      if (escapes > kRelearn)
        build();
      recent.clear();
      escapes = 0;
    }
  }
  size_t table_cap = 0;
};

class States {
public:
  explicit States(int bits) : cap_(size_t{1} << bits) {}
  State &of(uint32_t group, int stream) {
    const uint64_t key = (uint64_t{group} << 1) | static_cast<uint64_t>(stream);
    auto [it, fresh] = index_.try_emplace(key, states_.size());
    if (fresh) {
      states_.emplace_back();
      states_.back().table_cap = cap_;
      states_.back().recent.reserve(kLearn);
    }
    return states_[it->second];
  }

private:
  size_t cap_;
  std::unordered_map<uint64_t, size_t> index_;
  std::vector<State> states_;
};

class BitWriter {
public:
  void put(uint64_t v, int bits) {
    for (int i = 0; i < bits; ++i) {
      if (used_ == 0)
        bytes_.push_back(0);
      bytes_.back() = static_cast<char>(bytes_.back() | (((v >> i) & 1) << used_));
      used_ = (used_ + 1) & 7;
    }
  }
  const std::string &bytes() const { return bytes_; }

private:
  std::string bytes_;
  int used_ = 0;
};

class BitReader {
public:
  BitReader(std::string_view bytes, ByteReader &errors) : bytes_(bytes), errors_(errors) {}
  uint64_t get(int bits) {
    uint64_t v = 0;
    for (int i = 0; i < bits; ++i, ++pos_) {
      if (pos_ / 8 >= bytes_.size())
        errors_.fail("hist bit stream is truncated");
      v |= static_cast<uint64_t>((static_cast<uint8_t>(bytes_[pos_ / 8]) >> (pos_ % 8)) & 1) << i;
    }
    return v;
  }

private:
  std::string_view bytes_;
  ByteReader &errors_;
  size_t pos_ = 0;
};

} // namespace

void encode_hist(int bits, const Bounds &bounds, const ChunkView &calls, ByteWriter &w) {
  BinsByGroup bins(bounds, false);
  States states(bits);
  BitWriter flags, index;
  std::string symbols;
  ByteWriter sym_out(symbols);
  std::vector<int64_t> exact;
  uint64_t ncoded = 0, nhits = 0, nsymbols = 0;
  closed_loop_encode(calls, [&](int stream, size_t i, int64_t v) {
    const Bins &b = bins.of(calls.group[i]);
    int64_t sym = 0, r = v;
    if (!(b.symbol_of(v, sym) && b.value_of(sym, r))) {
      sym = kExact;
      r = v;
    }
    State &st = states.of(calls.group[i], stream);
    bool escaped = true;
    if (st.learned) {
      ++ncoded;
      const auto hit =
          sym == kExact ? st.table.end() : std::find(st.table.begin(), st.table.end(), sym);
      escaped = hit == st.table.end();
      flags.put(escaped, 1);
      if (!escaped) {
        index.put(static_cast<uint64_t>(hit - st.table.begin()), bits);
        ++nhits;
      }
    }
    if (escaped) {
      ++nsymbols;
      sym_out.varint(sym == kExact ? 0 : zigzag_encode(sym) + 1);
      if (sym == kExact)
        exact.push_back(v);
    }
    if (!st.learned) {
      st.recent.push_back(sym);
      if (st.recent.size() == kLearn)
        st.build();
    } else {
      st.after_coded(sym, escaped);
    }
    return r;
  });
  std::string raw;
  ByteWriter b(raw);
  b.varint(ncoded);
  b.varint(nhits);
  b.varint(nsymbols);
  b.varint(exact.size());
  b.bytes(flags.bytes());
  b.bytes(index.bytes());
  b.bytes(symbols);
  for (int64_t v : exact)
    b.svarint(v);
  w.svarint(calls.n ? calls.start[0] : 0);
  put_zstd(w, raw);
}

void decode_hist(ByteReader &r, int bits, const Bounds &bounds, size_t n, const uint32_t *group,
                 int64_t *start, int64_t *end) {
  if (bits < 1 || bits > 16)
    r.fail("hist K " + std::to_string(bits) + " out of range");
  const int64_t first = r.svarint();
  const std::string raw = get_zstd(r, 64 + 2 * n * 3 * kMaxVarintBytes, "hist block");
  ByteReader b(raw);
  const uint64_t values = n ? 2 * n - 1 : 0;
  const uint64_t ncoded = b.varint_max(values, "hist coded value count");
  const uint64_t nhits = b.varint_max(ncoded, "hist table hit count");
  const uint64_t nsymbols = b.varint_max(values, "hist symbol count");
  const uint64_t nexact = b.varint_max(nsymbols, "hist exact value count");
  BitReader flags(b.bytes(static_cast<size_t>((ncoded + 7) / 8)), b);
  BitReader index(b.bytes(static_cast<size_t>((nhits * static_cast<uint64_t>(bits) + 7) / 8)), b);
  BinsByGroup bins(bounds, false);
  States states(bits);
  std::vector<int64_t> exact;
  // Symbols are read as they come; exact values follow all symbols, so the
  // symbol bytes are skipped first to find them.
  const size_t symbols_at = b.offset();
  for (uint64_t k = 0; k < nsymbols; ++k)
    (void)b.varint();
  exact.resize(static_cast<size_t>(nexact));
  for (int64_t &v : exact)
    v = b.svarint();
  if (!b.at_end())
    b.fail("hist block has trailing bytes");
  ByteReader sym_in(std::string_view(raw).substr(symbols_at));
  uint64_t coded = 0, hits = 0, syms = 0;
  size_t next_exact = 0;
  closed_loop_decode(n, first, start, end, [&](int stream, size_t i) -> int64_t {
    State &st = states.of(group[i], stream);
    bool escaped = true;
    int64_t sym = 0;
    if (st.learned) {
      if (coded++ == ncoded)
        b.fail("hist block lacks coded values");
      escaped = flags.get(1) != 0;
      if (!escaped) {
        if (hits++ == nhits)
          b.fail("hist block lacks table indices");
        const uint64_t at = index.get(bits);
        if (at >= st.table.size())
          b.fail("hist table index out of range");
        sym = st.table[static_cast<size_t>(at)];
      }
    }
    int64_t v = 0;
    if (escaped) {
      if (syms++ == nsymbols)
        b.fail("hist block lacks symbols");
      const uint64_t code = sym_in.varint();
      if (code == 0) {
        if (next_exact >= exact.size())
          b.fail("hist block lacks exact values");
        sym = kExact;
        v = exact[next_exact++];
      } else {
        sym = zigzag_decode(code - 1);
      }
    }
    if (sym != kExact && !bins.of(group[i]).value_of(sym, v))
      b.fail("hist symbol out of range");
    if (!st.learned) {
      st.recent.push_back(sym);
      if (st.recent.size() == kLearn)
        st.build();
    } else {
      st.after_coded(sym, escaped);
    }
    return v;
  });
  if (coded != ncoded || hits != nhits || syms != nsymbols || next_exact != exact.size())
    b.fail("hist block holds more values than the chunk's calls");
}

} // namespace pilgrim::timing::detail
