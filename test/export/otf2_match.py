#!/usr/bin/python3
"""Matches every send of an OTF2 archive with its receive, with python3-otf2.

    otf2_match.py [--causal] ARCHIVE/traces.otf2

Sends are MpiSend and MpiIsend events, receives MpiRecv and MpiIrecv. A
message's key is (sender location, receiver location, communicator, tag);
ranks in events are ranks in the event's communicator (for an
intercommunicator, in the other group), turned into locations through the
communicator's group. On each key the k-th send matches the k-th receive
(MPI's non-overtaking order), and both must give the same length. With
--causal every receive must also be no earlier than its send (what the
exporter's clamp promises under lossy timing).

Prints one line "otf2_match: N messages matched" and exits 0, or one line per
problem and exits 1.
"""
import sys
from collections import defaultdict

import otf2

# python3-otf2 3.0.2 cannot read an InterComm definition: its fields are
# Comm's (name, group, parent, flags) followed by its own (groupA, groupB,
# parent, flags), so the reader's arguments land in the wrong fields
# ("KeyError: CommFlag.NONE"). Keep the name and its own fields.
def _fix_inter_comm_fields():
    inter, comm = otf2.definitions.InterComm, otf2.definitions.Comm
    names = [f.name for f in inter._fields]
    if names.count('parent') > 1:
        inherited = len(comm._fields)
        inter._fields = inter._fields[:1] + inter._fields[inherited:]


_fix_inter_comm_fields()


def peer_location(comm, own, rank):
    """The location of rank `rank` of `comm` as seen from location `own`."""
    if isinstance(comm, otf2.definitions.InterComm):
        a, b = list(comm.groupA.members), list(comm.groupB.members)
        other = b if own in a else a
        return other[rank] if rank < len(other) else None
    members = list(comm.group.members)
    return members[rank] if rank < len(members) else None


def main(argv):
    causal = '--causal' in argv
    paths = [a for a in argv if a != '--causal']
    if len(paths) != 1:
        print('usage: otf2_match.py [--causal] ARCHIVE/traces.otf2', file=sys.stderr)
        return 2
    sends = defaultdict(list)  # key -> [(time, length)]
    recvs = defaultdict(list)
    problems = []
    with otf2.reader.open(paths[0]) as trace:
        for loc, ev in trace.events:
            send = isinstance(ev, (otf2.events.MpiSend, otf2.events.MpiIsend))
            if not send and not isinstance(ev, (otf2.events.MpiRecv, otf2.events.MpiIrecv)):
                continue
            peer_rank = ev.receiver if send else ev.sender
            peer = peer_location(ev.communicator, loc, peer_rank)
            if peer is None:
                problems.append('%s: %s rank %d outside %s' % (loc.group.name, 'send to' if send else 'receive from', peer_rank, ev.communicator.name))
                continue
            # Ranks, not threads: a message between threads is between their
            # processes (location groups).
            key = (loc.group, peer.group) if send else (peer.group, loc.group)
            (sends if send else recvs)[key + (ev.communicator, ev.msg_tag)].append((ev.time, ev.msg_length))
    matched = 0
    for key in sorted(set(sends) | set(recvs), key=lambda k: (k[0]._ref, k[1]._ref, k[2]._ref, k[3])):
        frm, to, comm, tag = key
        s, r = sends.get(key, []), recvs.get(key, [])
        where = '%s -> %s, %s, tag %d' % (frm.name, to.name, comm.name, tag)
        if len(s) != len(r):
            problems.append('%s: %d sends, %d receives' % (where, len(s), len(r)))
        for k, ((ts, ls), (tr, lr)) in enumerate(zip(s, r)):
            matched += 1
            if ls != lr:
                problems.append('%s: message %d sent %d bytes, received %d' % (where, k, ls, lr))
            if causal and tr < ts:
                problems.append('%s: message %d received %d ns before it was sent' % (where, k, ts - tr))
    for p in problems:
        print('otf2_match: ' + p)
    if problems:
        return 1
    print('otf2_match: %d messages matched' % matched)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
