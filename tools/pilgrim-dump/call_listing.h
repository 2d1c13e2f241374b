// The default pilgrim-dump output: every call of a rank, in order.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "pilgrim/rank_context.h"
#include "pilgrim/signature_decoder.h"
#include "pilgrim/trace_model.h"
#include "text_output.h"

namespace pilgrim::dump {

// Every entry of the (merged) CST decoded once. Throws TraceError
// "CST entry I: ..." on an undecodable signature.
std::vector<DecodedCall> decode_cst(const Trace &trace);

// The call texts of one rank (relative ranks shown from that rank), made
// when first asked for: a rank costs what it uses, not the whole CST.
class RankCallTexts {
public:
  RankCallTexts(const Trace &trace, const std::vector<DecodedCall> &calls, uint32_t rank);
  const std::string &text(uint64_t terminal);

private:
  const std::vector<DecodedCall> &calls_;
  RankContext context_;
  std::vector<std::string> texts_;
  std::vector<bool> done_;
};

// "rank R call N: TEXT" per call of the rank's expansion.
void print_calls(TextOutput &out, const Trace &trace, const std::vector<DecodedCall> &calls,
                 uint32_t rank);

} // namespace pilgrim::dump
