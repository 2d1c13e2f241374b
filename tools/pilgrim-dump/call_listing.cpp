#include "call_listing.h"

#include "pilgrim/call_formatter.h"
#include "pilgrim/grammar_walker.h"
#include "pilgrim/signature_decoder.h"
#include "pilgrim/trace_error.h"

namespace pilgrim::dump {

std::vector<std::string> format_cst(const Trace &trace, uint32_t rank) {
  const RankTrace &rt = trace.ranks.at(rank);
  CallContext ctx;
  ctx.world_rank = rank;
  ctx.comms = &rt.comms;
  const std::vector<WindowRank> windows = window_ranks(trace, rt.cst, ctx);
  ctx.windows = &windows;
  std::vector<std::string> texts;
  texts.reserve(rt.cst.size());
  for (size_t i = 0; i < rt.cst.size(); ++i) {
    try {
      const DecodedCall call = decode_signature(trace, rt.cst[i].signature);
      std::string s = format_call(call, ctx);
      if (call.thread_id != 0)
        s = "[thread " + std::to_string(call.thread_id) + "] " + s;
      texts.push_back(std::move(s));
    } catch (const TraceError &e) {
      rethrow_with_context("rank " + std::to_string(rank) + " CST entry " + std::to_string(i), e);
    }
  }
  return texts;
}

void print_calls(TextOutput &out, const Trace &trace, uint32_t rank) {
  const std::vector<std::string> texts = format_cst(trace, rank);
  const std::string prefix = "rank " + std::to_string(rank) + " call ";
  GrammarWalker walker(trace.ranks[rank].grammar);
  uint64_t terminal = 0;
  uint64_t n = 0;
  while (walker.next(terminal)) {
    out << prefix << std::to_string(n++) << ": " << texts[terminal] << '\n';
  }
}

} // namespace pilgrim::dump
