#include "pilgrim/reader.h"

#include <string>
#include <utility>

#include "pilgrim/context_walk.h"
#include "pilgrim/creation_tracker.h"
#include "pilgrim/grammar_checks.h"
#include "pilgrim/rank_calls.h"
#include "pilgrim/trace_reader.h"

namespace pilgrim::reader {

const char *library_version() { return PILGRIM_READER_VERSION; }

// What an opened trace holds. It stays where it was made (TraceFile owns it
// through a pointer), so the views into it (function rows, decoded calls)
// stay valid when the TraceFile moves.
namespace {

// The CST decoded; an entry that does not decode is an error naming the file.
std::vector<DecodedCall> decoded(const Trace &trace, const std::string &name) {
  try {
    return decode_cst(trace);
  } catch (const TraceError &e) {
    rethrow_with_context(name, e);
  }
}

} // namespace

struct TraceFile::Data {
  Trace trace;
  std::vector<DecodedCall> coded;              // decode_cst(trace)
  std::vector<Call> cst_calls;                 // coded, resolved without a rank's context
  std::vector<const FunctionInfo *> functions; // the trace's own rows

  Data(Trace t, const std::string &name) : trace(std::move(t)), coded(decoded(trace, name)) {
    const CallContext no_rank{-1, trace.header.version};
    cst_calls.reserve(coded.size());
    for (const DecodedCall &c : coded)
      cst_calls.push_back(resolve_call(c, no_rank));
    functions.reserve(trace.functions.size());
    for (const OwnedFunction &f : trace.functions)
      functions.push_back(&f.info());
  }
};

TraceFile::TraceFile(const std::string &path)
    : data_(std::make_unique<Data>(read_trace(path), path)) {}

TraceFile::TraceFile(std::unique_ptr<Data> data) : data_(std::move(data)) {}

TraceFile TraceFile::from_memory(std::string_view bytes, const std::string &name) {
  return TraceFile(std::make_unique<Data>(read_trace_from_memory(bytes, name), name));
}

TraceFile::TraceFile(TraceFile &&) noexcept = default;
TraceFile &TraceFile::operator=(TraceFile &&) noexcept = default;
TraceFile::~TraceFile() = default;

const TraceHeader &TraceFile::header() const { return data_->trace.header; }
uint32_t TraceFile::nranks() const { return data_->trace.nranks(); }

const std::vector<const FunctionInfo *> &TraceFile::functions() const { return data_->functions; }

const FunctionInfo *TraceFile::function(uint16_t id) const { return data_->trace.function(id); }

bool TraceFile::has_call_times() const { return pilgrim::has_call_times(data_->trace); }

std::vector<CallTime> TraceFile::call_times(uint32_t rank) const {
  std::vector<CallTime> out;
  std::string error;
  if (!read_call_times(data_->trace, rank, out, error))
    throw TraceError(error);
  return out;
}

void TraceFile::call_ticks(uint32_t rank, std::vector<int64_t> &start,
                           std::vector<int64_t> &end) const {
  std::string error;
  if (!read_call_ticks(data_->trace, rank, start, end, error))
    throw TraceError(error);
}

double TraceFile::seconds_per_tick(uint32_t rank) const {
  (void)data_->trace.rank(rank); // throws when out of range
  return pilgrim::seconds_per_tick(data_->trace, rank);
}

uint64_t TraceFile::call_times_bytes(uint32_t rank) const {
  (void)data_->trace.rank(rank);
  const auto it = data_->trace.rank_timing.find(rank);
  return it == data_->trace.rank_timing.end() ? 0 : it->second.size();
}

const std::vector<CommInfo> &TraceFile::comm_table(uint32_t rank) const {
  return *data_->trace.rank(rank).comms;
}

std::vector<CommInstance> TraceFile::communicators() const {
  return communicator_instances(data_->trace.merged);
}

bool TraceFile::membership_recorded() const {
  return pilgrim::membership_recorded(data_->trace.header.version);
}

void TraceFile::visit_calls(
    uint32_t rank,
    const std::function<void(uint64_t entry, const Call &call, uint64_t times)> &visit) const {
  const RankView v = data_->trace.rank(rank);
  CreationTracker tracker = CreationTracker::for_rank(data_->trace, rank, data_->coded);
  walk_in_context(*v.rules, v.root, data_->coded, tracker,
                  [&](uint64_t t, uint64_t times, const CallContext &ctx) {
                    const Call call = resolve_call(data_->coded[t], ctx);
                    visit(t, call, times);
                  });
}

CallCursor TraceFile::calls(uint32_t rank) const {
  return CallCursor(std::make_unique<RankCalls>(data_->trace, data_->coded, rank), rank);
}

uint64_t TraceFile::cst_size() const { return data_->coded.size(); }

const CstEntry &TraceFile::cst_entry(uint64_t entry) const {
  if (entry >= cst_size())
    throw TraceError("CST entry " + std::to_string(entry) + " out of range (the trace has " +
                     std::to_string(cst_size()) + ")");
  return data_->trace.merged.cst[entry];
}

const std::vector<CallSite> &TraceFile::sites() const { return data_->trace.merged.sites; }

const CallSite *TraceFile::cst_site(uint64_t entry) const {
  cst_entry(entry); // the range check
  return call_site(data_->trace, entry);
}

const Call &TraceFile::cst_call(uint64_t entry) const {
  cst_entry(entry); // the range check
  return data_->cst_calls[entry];
}

void TraceFile::visit_cst(
    const std::function<void(uint64_t, const CstEntry &, const Call &)> &visit) const {
  for (uint64_t t = 0; t < cst_size(); ++t)
    visit(t, data_->trace.merged.cst[t], data_->cst_calls[t]);
}

const std::vector<std::vector<GrammarSymbol>> &TraceFile::rules() const {
  return data_->trace.merged.rules.rules;
}

uint32_t TraceFile::grammar_count() const {
  return static_cast<uint32_t>(data_->trace.merged.roots.size());
}

uint64_t TraceFile::grammar_start_rule(uint32_t grammar) const {
  if (grammar >= grammar_count())
    throw TraceError("grammar " + std::to_string(grammar) + " out of range (the trace has " +
                     std::to_string(grammar_count()) + ")");
  return data_->trace.merged.roots[grammar];
}

const std::vector<RankRange> &TraceFile::grammar_ranks() const {
  return data_->trace.merged.rank_map;
}

uint32_t TraceFile::grammar_of(uint32_t rank) const { return data_->trace.rank(rank).grammar; }
uint64_t TraceFile::start_rule(uint32_t rank) const { return data_->trace.rank(rank).root; }

std::vector<uint64_t> TraceFile::rule_lengths() const {
  return pilgrim::rule_lengths(data_->trace.merged.rules);
}

std::vector<std::pair<uint64_t, uint64_t>> TraceFile::entry_counts(uint32_t grammar) const {
  return terminal_counts(data_->trace.merged.rules, grammar_start_rule(grammar));
}

CallCursor::CallCursor(std::unique_ptr<RankCalls> walk, uint32_t rank)
    : walk_(std::move(walk)), rank_(rank) {}
CallCursor::CallCursor(CallCursor &&) noexcept = default;
CallCursor &CallCursor::operator=(CallCursor &&) noexcept = default;
CallCursor::~CallCursor() = default;

bool CallCursor::next() { return walk_->advance(); }
const Call &CallCursor::call() { return walk_->call(); }
uint64_t CallCursor::position() const { return walk_->index(); }
uint64_t CallCursor::entry() const { return walk_->terminal(); }

} // namespace pilgrim::reader
