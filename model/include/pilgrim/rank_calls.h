// The walk over one rank's calls: the expansion of its grammar, in call
// order, each call decoded and resolved at its position (what its
// communicator, window and request ids mean there, docs/FORMAT.md §7.7).
// dump's listing, diff, and the reader library's iteration are this walk.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "pilgrim/creation_tracker.h"
#include "pilgrim/decoded_call.h"
#include "pilgrim/file_name_decoder.h"
#include "pilgrim/grammar_walker.h"
#include "pilgrim/trace_model.h"

namespace pilgrim {

// Every CST entry of `trace` decoded against its function table, in CST
// order (so terminal t is element t). Throws TraceError naming the entry
// that does not decode.
std::vector<DecodedCall> decode_cst(const Trace &trace);

class RankCalls {
public:
  // `trace` and `cst` (decode_cst(trace)) must outlive the walk. Throws
  // TraceError when `rank` is out of range or its grammar is cyclic.
  RankCalls(const Trace &trace, const std::vector<DecodedCall> &cst, uint32_t rank);

  // Moves to the next call; false after the last. The call before takes
  // effect (its creations give ids their new meaning) first.
  bool advance();
  // The current call's CST entry, position (from 0) and stored codes.
  uint64_t terminal() const { return terminal_; }
  uint64_t index() const { return index_ - 1; }
  const DecodedCall &coded() const { return cst_[terminal_]; }
  // The current call resolved at its position, a posix record's file names
  // decoded (file_name_decoder.h). Resolved once per CST entry
  // for as long as no creation changes what ids mean, so a loop costs one
  // resolution per distinct call, not per iteration. Valid until advance().
  const Call &call();
  // What ids mean at the current call changes only when this number does:
  // what a consumer derives from call() without pointing into it (its text,
  // say) can be kept per CST entry for as long as it stays the same, without
  // resolving the call again.
  // A posix record's names (file_name_decoder.h) differ from call to call
  // of one CST entry: each decoded name changes the number too.
  uint64_t meaning_version() const { return tracker_.version() + names_decoded_; }
  // What ids mean at the current call.
  CallContext context() const { return tracker_.context(); }

private:
  RankView view_;
  GrammarWalker walker_;
  const std::vector<DecodedCall> &cst_;
  CreationTracker tracker_;
  std::vector<Call> resolved_;
  // When resolved_[t] was made: the tracker's (version + 1, creations); a
  // creation can move the grids a resolved call points to, even where no
  // answer changes. {0, 0}: never.
  std::vector<std::pair<uint64_t, uint64_t>> resolved_in_;
  // The file names of the posix records walked so far, and the current one's.
  FileNameDecoder names_decoder_;
  std::vector<std::string> names_;
  uint64_t names_decoded_ = 0; // posix records with names walked so far
  uint64_t terminal_ = 0;
  uint64_t index_ = 0;
  bool started_ = false;
};

} // namespace pilgrim
