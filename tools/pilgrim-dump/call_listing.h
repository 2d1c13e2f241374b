// The default pilgrim-dump output: every call of a rank, in order.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "pilgrim/creation_tracker.h"
#include "pilgrim/signature_decoder.h"
#include "pilgrim/trace_model.h"
#include "text_output.h"

namespace pilgrim::dump {

// One call as pilgrim-dump prints it: "[thread T] " (other threads than the
// main one) and the call's text in context `ctx`.
std::string call_text(const DecodedCall &call, const CallContext &ctx);

// The call texts of one rank, in the order of its walk: each call is shown
// in the context that applies at its position (relative ranks from the
// rank's rank in the communicator the call's ids name then). A CST entry's
// text is kept while that context does not change, so a loop costs one
// formatting per entry.
class RankCallTexts {
public:
  RankCallTexts(const Trace &trace, const std::vector<DecodedCall> &calls, uint32_t rank);
  // The text of the next call of the walk, CST entry `terminal`; the call
  // then takes effect (the ids it creates get their new meaning).
  const std::string &next(uint64_t terminal);

private:
  const std::vector<DecodedCall> &calls_;
  CreationTracker tracker_;
  std::vector<std::string> texts_;
  std::vector<uint64_t> made_in_; // tracker version + 1 texts_[t] was made in; 0: none
};

// "rank R call N: TEXT" per call of the rank's expansion.
void print_calls(TextOutput &out, const Trace &trace, const std::vector<DecodedCall> &calls,
                 uint32_t rank);

} // namespace pilgrim::dump
