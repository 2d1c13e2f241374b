// The same run without call sites (bench/sites_cost.sh): what the trace of
// the very calls a trace with sites recorded would have been with
// PILGRIM_SITES=off, so that a program whose calls differ from run to run
// (master_worker serves whichever worker asks first) is compared with
// itself, not with another run.
//
// Each rank's calls are expanded from the trace with sites; a terminal
// becomes its signature alone (the calls of one signature at several sites
// become one terminal, numbered in order of first call, as the runtime
// numbers its CST); the sequence goes through the runtime's Sequitur
// (grammar/, pilgrim/sequitur.h) and each rank's CST, grammar and communicators through
// the cross-rank merge of MPI_Finalize (runtime/merge, up the tree of
// runtime/merge/trace_reduction.cpp), and the result is written by the trace
// writer with the original's header and function table and no site table.
//
// Timing: a rank's entry gets what the runtime's aggregate mode would count,
// n = count durations and n = count - 1 intervals, all of 1 us. The
// MERGED_TIMING section is stored uncompressed and its size depends only on
// those counts (FORMAT.md §7.1), so the file's size is exact; its timing
// values are made up.
//
// On a deterministic program the result must be the size of a real
// PILGRIM_SITES=off run byte for byte but for META's start time; the bench
// script checks that on the stencils before it believes the tool.
//   sites_stripped TRACE OUT  ->  writes OUT, prints "terminals A -> B"
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "merge_state.h"
#include "pilgrim/grammar_walker.h"
#include "pilgrim/trace_reader.h"
#include "pilgrim/trace_writer.h"
#include "pilgrim/sequitur.h"

namespace {

using namespace pilgrim;

// Rank `rank`'s calls as its own CST and grammar, terminals by signature.
RankTrace rank_without_sites(const Trace &t, uint32_t rank) {
  const RankView v = t.rank(rank);
  RankTrace out;
  std::map<std::string_view, uint32_t> local; // signature -> this rank's terminal
  Sequitur grammar;
  GrammarWalker walk(*v.rules, v.root);
  uint64_t terminal = 0;
  while (walk.next(terminal)) {
    const CstEntry &e = v.cst->at(terminal);
    auto [it, added] = local.emplace(e.signature, static_cast<uint32_t>(out.cst.size()));
    if (added) {
      CstEntry mine;
      mine.signature = e.signature;
      out.cst.push_back(std::move(mine));
    }
    ++out.cst[it->second].count;
    grammar.append(it->second);
  }
  // What the runtime counts per terminal when it reads a clock (timing mode
  // not none): every call's duration, the interval before every call but
  // the first. The values: of any merged entry of the signature with some.
  // (The section's size depends on n alone; one sample's values serve.)
  const TimingStats sample{1, 1e-6, 0, 1e-6, 1e-6};
  const bool timed = t.header.timing_mode != 0;
  for (CstEntry &e : out.cst) {
    if (!timed)
      continue;
    e.duration = sample;
    e.duration.n = e.count;
    if (e.count > 1) {
      e.interval = sample;
      e.interval.n = e.count - 1;
    }
  }
  out.grammar.rules = grammar.rules();
  out.comms = t.merged.comms_of(rank);
  return out;
}

// Ranks [lo, min(lo + 2^level, P)) merged as MPI_Finalize merges them
// (trace_reduction.cpp: in round k, rank lo + 2^k sends to lo).
MergeState reduce(const Trace &t, uint32_t lo, int level) {
  if (level == 0)
    return MergeState::of_rank(lo, rank_without_sites(t, lo));
  MergeState s = reduce(t, lo, level - 1);
  const uint64_t half = uint64_t{1} << (level - 1);
  if (lo + half < t.nranks())
    s.absorb(MergeState::parse(reduce(t, static_cast<uint32_t>(lo + half), level - 1).serialize()));
  return s;
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: sites_stripped TRACE OUT\n");
    return 2;
  }
  try {
    const Trace t = read_trace(argv[1]);
    int levels = 0;
    while ((uint64_t{1} << levels) < t.nranks())
      ++levels;
    MergedTrace merged = reduce(t, 0, levels).finish();
    std::vector<const FunctionInfo *> functions;
    for (const OwnedFunction &f : t.functions)
      functions.push_back(&f.info());
    write_merged_trace(argv[2], t.header, functions, merged);
    std::printf("terminals %zu -> %zu\n", t.merged.cst.size(), merged.cst.size());
  } catch (const std::exception &e) {
    std::fprintf(stderr, "sites_stripped: %s\n", e.what());
    return 1;
  }
  return 0;
}
