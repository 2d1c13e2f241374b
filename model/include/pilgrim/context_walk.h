// Visiting one rank's calls with the context that applies at each
// (creation_tracker.h), for readers that report per CST entry rather than
// per call (pilgrim-dump --grammar, pilgrim-stats): a CST entry can be made
// under several meanings of the ids it names, so they must look at its
// uses, but not necessarily at every call.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "pilgrim/call_context.h"
#include "pilgrim/creation_tracker.h"
#include "pilgrim/grammar_model.h"
#include "pilgrim/signature_decoder.h"

namespace pilgrim {

// visit(terminal, times, ctx): `times` calls of CST entry `terminal`, each
// made in context `ctx`. Walks the expansion of rule `root` in order,
// applying each call to `tracker`; a repetition whose iteration changed
// nothing in the tracker (no communicator created, no answer changed) is
// not walked again: its remaining iterations are visited once, with their
// number folded into `times`. The visits thus cover every call exactly
// once, and their cost follows the rank's distinct states, not its number
// of calls. Throws TraceError on a cyclic grammar; invalid references and
// terminals are skipped.
void walk_in_context(
    const Grammar &rules, uint64_t root, const std::vector<DecodedCall> &calls,
    CreationTracker &tracker,
    const std::function<void(uint64_t terminal, uint64_t times, const CallContext &ctx)> &visit);

} // namespace pilgrim
