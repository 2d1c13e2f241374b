#include "pilgrim/trace_model.h"
#include "pilgrim/count_text.h"

#include <algorithm>
#include <unordered_map>

#include "pilgrim/trace_error.h"

namespace pilgrim {

OwnedFunction::OwnedFunction() { rebuild_view(); }

OwnedFunction::OwnedFunction(const FunctionInfo &info)
    : id_(info.id), name_(info.name ? info.name : "") {
  params_.reserve(info.nparams);
  for (uint8_t i = 0; i < info.nparams; ++i) {
    const ParamInfo &p = info.params[i];
    OwnedParam o;
    o.name = p.name ? p.name : "";
    o.c_type = p.c_type ? p.c_type : "";
    o.base = p.base;
    o.role = p.role;
    o.dir = p.dir;
    o.handle_kind = p.handle_kind;
    o.action = p.action;
    o.flags = p.flags;
    o.ref = p.ref;
    o.ref2 = p.ref2;
    o.ref3 = p.ref3;
    if (p.len)
      o.len.assign(p.len, p.len + p.len_size);
    o.has_len_text = p.len_text != nullptr;
    if (p.len_text)
      o.len_text = p.len_text;
    params_.push_back(std::move(o));
  }
  rebuild_view();
}

OwnedFunction::OwnedFunction(uint16_t id, std::string name, std::vector<OwnedParam> params)
    : id_(id), name_(std::move(name)), params_(std::move(params)) {
  if (params_.size() > 255)
    params_.resize(255);
  for (OwnedParam &p : params_)
    if (p.len.size() > 255)
      p.len.resize(255);
  rebuild_view();
}

OwnedFunction::OwnedFunction(const OwnedFunction &other)
    : id_(other.id_), name_(other.name_), params_(other.params_) {
  rebuild_view();
}

OwnedFunction::OwnedFunction(OwnedFunction &&other) noexcept
    : id_(other.id_), name_(std::move(other.name_)), params_(std::move(other.params_)) {
  rebuild_view();
  other.rebuild_view();
}

OwnedFunction &OwnedFunction::operator=(const OwnedFunction &other) {
  if (this != &other) {
    id_ = other.id_;
    name_ = other.name_;
    params_ = other.params_;
    rebuild_view();
  }
  return *this;
}

OwnedFunction &OwnedFunction::operator=(OwnedFunction &&other) noexcept {
  if (this != &other) {
    id_ = other.id_;
    name_ = std::move(other.name_);
    params_ = std::move(other.params_);
    rebuild_view();
    other.rebuild_view();
  }
  return *this;
}

void OwnedFunction::rebuild_view() {
  param_views_.clear();
  param_views_.reserve(params_.size());
  for (const OwnedParam &p : params_) {
    ParamInfo v{};
    v.name = p.name.c_str();
    v.c_type = p.c_type.c_str();
    v.base = p.base;
    v.role = p.role;
    v.dir = p.dir;
    v.handle_kind = p.handle_kind;
    v.action = p.action;
    v.flags = p.flags;
    v.ref = p.ref;
    v.ref2 = p.ref2;
    v.ref3 = p.ref3;
    v.len_size = static_cast<uint8_t>(p.len.size());
    v.len = p.len.empty() ? nullptr : p.len.data();
    v.len_text = p.has_len_text ? p.len_text.c_str() : nullptr;
    param_views_.push_back(v);
  }
  info_.id = id_;
  info_.name = name_.c_str();
  info_.nparams = static_cast<uint8_t>(param_views_.size());
  info_.params = param_views_.empty() ? nullptr : param_views_.data();
}

const FunctionInfo *Trace::function(uint16_t id) const {
  // Binary search (exact when sorted, merely inconclusive otherwise), then
  // a linear scan.
  size_t lo = 0, hi = functions.size();
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    const uint16_t v = functions[mid].id();
    if (v == id)
      return &functions[mid].info();
    if (v < id)
      lo = mid + 1;
    else
      hi = mid;
  }
  for (const OwnedFunction &f : functions)
    if (f.id() == id)
      return &f.info();
  return nullptr;
}

uint32_t MergedTrace::grammar_of(uint32_t rank) const {
  auto it = std::upper_bound(rank_map.begin(), rank_map.end(), rank,
                             [](uint32_t r, const RankRange &x) { return r < x.first; });
  if (it == rank_map.begin() || rank - (it - 1)->first >= (it - 1)->count)
    throw TraceError("rank " + std::to_string(rank) + " is not in the rank map");
  return (it - 1)->grammar;
}

const std::vector<CommInfo> &MergedTrace::comms_of(uint32_t rank) const {
  static const std::vector<CommInfo> kNone;
  auto it = std::lower_bound(comms.begin(), comms.end(), rank,
                             [](const RankComms &x, uint32_t r) { return x.rank < r; });
  return it != comms.end() && it->rank == rank ? it->comms : kNone;
}

RankView Trace::rank(uint32_t r) const {
  if (r >= header.nranks)
    throw TraceError("rank " + std::to_string(r) + " out of range (the trace has " +
                     count_text(header.nranks, "rank") + ")");
  RankView v;
  v.rank = r;
  v.grammar = merged.grammar_of(r);
  if (v.grammar >= merged.roots.size())
    throw TraceError("rank " + std::to_string(r) + ": grammar " + std::to_string(v.grammar) +
                     " does not exist");
  v.root = merged.roots[v.grammar];
  v.cst = &merged.cst;
  v.rules = &merged.rules;
  v.comms = &merged.comms_of(r);
  return v;
}

RankTrace Trace::rank_trace(uint32_t r) const {
  const RankView v = rank(r);
  const auto &pool = merged.rules.rules;
  // Rules reachable from the root, and terminals they use.
  std::vector<uint64_t> rules{v.root}, terminals;
  std::unordered_map<uint64_t, uint64_t> rule_id, terminal_id;
  rule_id[v.root] = 0;
  for (size_t k = 0; k < rules.size(); ++k)
    for (const GrammarSymbol &sym : pool.at(rules[k])) {
      if (is_terminal(sym)) {
        if (terminal_id.emplace(static_cast<uint64_t>(sym.value), 0).second)
          terminals.push_back(static_cast<uint64_t>(sym.value));
      } else if (rule_id.emplace(rule_index(sym), 0).second) {
        rules.push_back(rule_index(sym));
      }
    }
  std::sort(rules.begin() + 1, rules.end());
  std::sort(terminals.begin(), terminals.end());
  for (size_t k = 0; k < rules.size(); ++k)
    rule_id[rules[k]] = k;
  RankTrace out;
  for (size_t k = 0; k < terminals.size(); ++k) {
    terminal_id[terminals[k]] = k;
    out.cst.push_back(merged.cst.at(terminals[k]));
  }
  for (uint64_t rule : rules) {
    std::vector<GrammarSymbol> body = pool[rule];
    for (GrammarSymbol &sym : body)
      sym.value = is_terminal(sym)
                      ? static_cast<int64_t>(terminal_id[static_cast<uint64_t>(sym.value)])
                      : rule_symbol_value(rule_id[rule_index(sym)]);
    out.grammar.rules.push_back(std::move(body));
  }
  out.comms = *v.comms;
  return out;
}

MergedTrace merged_from_ranks(std::vector<RankTrace> ranks) {
  MergedTrace m;
  for (uint32_t r = 0; r < ranks.size(); ++r) {
    RankTrace &rt = ranks[r];
    const uint64_t cst_base = m.cst.size(), rule_base = m.rules.rules.size();
    for (CstEntry &e : rt.cst)
      m.cst.push_back(std::move(e));
    if (rt.grammar.rules.empty())
      rt.grammar.rules.emplace_back(); // no calls: an empty start rule
    for (auto &body : rt.grammar.rules) {
      for (GrammarSymbol &s : body)
        s.value = is_terminal(s) ? s.value + static_cast<int64_t>(cst_base)
                                 : rule_symbol_value(rule_index(s) + rule_base);
      m.rules.rules.push_back(std::move(body));
    }
    m.roots.push_back(rule_base);
    m.rank_map.push_back(RankRange{r, 1, r});
    if (!rt.comms.empty())
      m.comms.push_back(RankComms{r, std::move(rt.comms)});
  }
  return m;
}

} // namespace pilgrim
