// Which receive got which send: the one matcher of point-to-point messages
// that pilgrim-check, pilgrim-export (Chrome flow arrows, OTF2's receive
// clamp under lossy timing) and the reader library's users share
// (docs/CHECK.md, "Matching semantics", states the rules it implements).
//
// Built on libpilgrim-reader (tools/matching, library pilgrim_matching):
// it walks every rank's calls in order (CallCursor /
// RankCalls) and follows each request from the call that created it to the
// call that completed it. Rules, in short (CHECK.md is the reference):
//  - Channels: (communicator instance, sender, receiver), ranks in
//    MPI_COMM_WORLD. MPI's non-overtaking order holds per channel: a receive
//    matches the earliest unmatched send of its channel whose tag it accepts,
//    receives taken in the order they were posted.
//  - A receive with MPI_ANY_SOURCE is matched on the channel of the sender
//    its completing status recorded (never from the wildcard argument); when
//    the status was ignored and no source was kept, the receive is reported
//    as unmatchable (a finding), not guessed.
//  - MPI_ANY_TAG accepts any tag; a probe matches nothing (it only reads);
//    MPI_Mprobe/MPI_Improbe take the message and MPI_Mrecv/MPI_Imrecv
//    receive it; a request passed to MPI_Cancel matches nothing once
//    completed, unless MPI_Test_cancelled on that completion's status says
//    false; a persistent request sends or receives once per MPI_Start;
//    MPI_PROC_NULL peers are no message.
//  - Intercommunicators: peers are ranks of the remote group.
//  - MPI_Request_free of an active request: its operation completes unseen
//    (send_complete / recv_complete is the free).
//  - Sizes: the send's bytes (count x datatype size) against the receive
//    buffer's capacity; an unknown size (datatype without a layout) is not
//    an error.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace pilgrim {

namespace reader {
class TraceFile;
} // namespace reader

// Communicator keys (MatchedMessage::comm): an index into
// TraceFile::communicators(), or one of these.
constexpr uint64_t kCommWorld = UINT64_MAX;
constexpr uint64_t kCommSelf = UINT64_MAX - 1;
constexpr uint64_t kCommUnknown = UINT64_MAX - 2; // never in a MatchedMessage

// A call: its rank (in MPI_COMM_WORLD) and its position in that rank's call
// sequence, from 0, as pilgrim-dump and CallCursor::position() number them.
struct CallPlace {
  uint32_t rank = 0;
  uint64_t index = 0;
  bool operator==(const CallPlace &o) const { return rank == o.rank && index == o.index; }
};

// One point-to-point message, matched.
struct MatchedMessage {
  CallPlace send;          // the call that started the send (MPI_Send, MPI_Isend, MPI_Start, ...)
  CallPlace send_complete; // the call that completed it (= send for a blocking send)
  CallPlace recv;          // the call that posted the receive (MPI_Recv, MPI_Irecv, MPI_Mrecv, ...)
  CallPlace recv_complete; // the call that completed it (= recv for a blocking receive)
  uint64_t comm = 0;       // the communicator: an index into TraceFile::communicators(),
                           // or kCommWorld / kCommSelf
  int64_t tag = 0;         // the send's tag
  int64_t bytes = -1;      // the send's size in bytes; -1 unknown
};

// What the matcher (or a check built on it) found wrong, or worth a word.
struct MatchFinding {
  enum class Severity { Error, Warning };
  Severity severity = Severity::Error;
  CallPlace where;
  // One line, without rank and index (the printer adds them):
  // "MPI_Send to rank 1 (tag 7, MPI_COMM_WORLD) has no matching receive".
  std::string what;
};

struct MatchOptions {
  // Also report what is not matching proper: requests never completed,
  // collectives whose ranks disagree, handles never freed (pilgrim-check).
  bool full_check = true;
};

struct MatchResult {
  // Messages in no particular order; sort as needed.
  std::vector<MatchedMessage> messages;
  // In (rank, index) order.
  std::vector<MatchFinding> findings;
  bool has_errors() const;
};

// Matches every point-to-point message of `trace`. Memory is linear in the
// messages in flight per channel plus the messages returned; time linear in
// the calls. Throws pilgrim::TraceError for a trace it cannot walk.
MatchResult match_messages(const reader::TraceFile &trace, const MatchOptions &options = {});

} // namespace pilgrim
