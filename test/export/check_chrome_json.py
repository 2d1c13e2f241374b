#!/usr/bin/env python3
"""Checks a trace-event JSON file (pilgrim-export --chrome) the way the
Perfetto UI and chrome://tracing will read it, with the standard library only
(no Perfetto can run here):

  - the file is valid JSON: an object with a "traceEvents" array (or a bare
    array), every event an object with a known "ph" and the fields it needs;
  - strict nesting per track (pid, tid): complete ("X") slices and B/E pairs
    never overlap partially (Perfetto moves such slices to an overflow track);
    every E closes a B on its own track;
  - flows ("s"/"t"/"f"): every start has exactly one end and every end
    exactly one start, keyed by (cat, name, id), and each lies inside a slice
    of its own track (the slice it binds to);
  - async slices ("b"/"e"): begin and end in pairs per (pid, cat, name, id),
    each end no earlier than its begin.

Times are compared in integer nanoseconds (ts and dur are microseconds).

usage: check_chrome_json.py FILE [--expect-flows] [--expect-async] [--list-flows]
                            [--window=FROM:TO]
Prints one summary line and exits 0, or the first errors (one line each) and
exits 1. --expect-flows / --expect-async: also an error when the file has no
flow / no async slice. --list-flows: first, one line per flow, sorted:
"Rank 0 MPI_Send (call 5) -> Rank 1 MPI_Recv (call 4)" (the process names
and the slices the two ends lie in, with their args' "call").
--window=FROM:TO (seconds): also an error for a slice that does not overlap
the window (what pilgrim-export --time promises).
"""
import bisect
import json
import sys
from collections import defaultdict

MAX_ERRORS = 20


def reject_constant(name):
    # NaN and Infinity are Python's extension, not JSON.
    raise ValueError('%s is not JSON' % name)


def ns(value):
    return int(round(float(value) * 1000))


def main(argv):
    args = [a for a in argv[1:] if not a.startswith('--')]
    flags = {a for a in argv[1:] if a.startswith('--') and not a.startswith('--window=')}
    window = None
    unknown = flags - {'--expect-flows', '--expect-async', '--list-flows'}
    for a in argv[1:]:
        if a.startswith('--window='):
            try:
                window = [int(round(float(x) * 1e9)) for x in a[len('--window='):].split(':')]
            except ValueError:
                window = []
            if len(window) != 2:
                unknown.add(a)
    if len(args) != 1 or unknown:
        print('usage: check_chrome_json.py FILE [--expect-flows] [--expect-async] '
              '[--list-flows] [--window=FROM:TO]', file=sys.stderr)
        return 2
    path = args[0]
    errors = []

    def error(text):
        errors.append(text)

    try:
        with open(path, 'rb') as f:
            raw = f.read()
        doc = json.loads(raw.decode('utf-8'), parse_constant=reject_constant)
    except (OSError, UnicodeDecodeError, ValueError) as e:
        print('check_chrome_json: %s: not valid JSON: %s' % (path, e))
        return 1
    if isinstance(doc, dict):
        events = doc.get('traceEvents')
        metadata = doc.get('metadata', {})
    else:
        events, metadata = doc, {}
    if not isinstance(events, list):
        print('check_chrome_json: %s: no "traceEvents" array' % path)
        return 1

    slices = defaultdict(list)  # (pid, tid) -> [(start, end, name)]
    open_b = defaultdict(list)  # B/E per track, in file order after sorting
    be_events = defaultdict(list)
    flow_points = []            # (kind, key, pid, tid, ts)
    async_events = defaultdict(list)  # key -> [(ts, ph)]
    names = {'process_name': 0, 'thread_name': 0}
    process_names = {}
    needs = {
        'X': ('name', 'pid', 'tid', 'ts', 'dur'),
        'B': ('name', 'pid', 'tid', 'ts'),
        'E': ('pid', 'tid', 'ts'),
        's': ('name', 'cat', 'id', 'pid', 'tid', 'ts'),
        't': ('name', 'cat', 'id', 'pid', 'tid', 'ts'),
        'f': ('name', 'cat', 'id', 'pid', 'tid', 'ts'),
        'b': ('name', 'cat', 'pid', 'ts'),
        'e': ('name', 'cat', 'pid', 'ts'),
        'n': ('name', 'cat', 'pid', 'ts'),
        'M': ('name', 'pid', 'args'),
        'i': ('name', 'pid', 'ts'),
        'I': ('name', 'pid', 'ts'),
        'C': ('name', 'pid', 'ts', 'args'),
    }
    for k, ev in enumerate(events):
        if not isinstance(ev, dict):
            error('event %d is not an object' % k)
            continue
        ph = ev.get('ph')
        if ph not in needs:
            error('event %d: unknown phase %r' % (k, ph))
            continue
        missing = [f for f in needs[ph] if f not in ev]
        if missing:
            error('event %d (%s): missing %s' % (k, ph, ', '.join(missing)))
            continue
        for f in ('ts', 'dur'):
            if f in ev and not isinstance(ev[f], (int, float)):
                error('event %d (%s): %s is not a number' % (k, ph, f))
        if 'args' in ev and not isinstance(ev['args'], dict):
            error('event %d (%s): args is not an object' % (k, ph))
        if ph == 'M':
            if ev['name'] in names:
                names[ev['name']] += 1
                if not isinstance(ev['args'].get('name'), str):
                    error('event %d: %s without a name' % (k, ev['name']))
                elif ev['name'] == 'process_name':
                    process_names[ev['pid']] = ev['args']['name']
            continue
        track = (ev['pid'], ev.get('tid'))
        if ph == 'X':
            if ev['dur'] < 0:
                error('event %d: %s has a negative duration' % (k, ev['name']))
            start = ns(ev['ts'])
            call = ev.get('args', {}).get('call') if isinstance(ev.get('args'), dict) else None
            if window and not (start + ns(ev['dur']) >= window[0] and start <= window[1]):
                error('%s at %.3f us lies outside the window' % (ev['name'], start / 1000))
            slices[track].append((start, start + ns(ev['dur']), ev['name'], call))
        elif ph in 'BE':
            be_events[track].append((ns(ev['ts']), k, ph, ev.get('name')))
        elif ph in 'stf':
            key = (ev['cat'], ev['name'], str(ev['id']))
            flow_points.append((ph, key, track, ns(ev['ts']), ev.get('bp')))
        elif ph in 'be':
            ident = ev.get('id2', ev.get('id'))
            if ident is None:
                error('event %d (%s): async event without id or id2' % (k, ph))
                continue
            key = (ev['pid'], ev['cat'], ev['name'], json.dumps(ident, sort_keys=True))
            async_events[key].append((ns(ev['ts']), 0 if ph == 'b' else 1, k))

    # B/E pairs become slices of their track.
    for track, evs in be_events.items():
        evs.sort()
        stack = []
        for ts, k, ph, name in evs:
            if ph == 'B':
                stack.append((ts, name))
            elif not stack:
                error('track pid %s tid %s: E (event %d) without a B' % (track[0], track[1], k))
            else:
                start, bname = stack.pop()
                slices[track].append((start, ts, bname, None))
        for start, name in stack:
            error('track pid %s tid %s: B %s at %.3f us never ends' %
                  (track[0], track[1], name, start / 1000))

    # Strict nesting per track: sorted by start, longest first, a slice must
    # end inside every slice it starts in.
    nslices = 0
    for track, items in slices.items():
        items.sort(key=lambda s: (s[0], -s[1]))
        nslices += len(items)
        stack = []
        for start, end, name, _ in items:
            while stack and stack[-1][1] <= start:
                stack.pop()
            if stack and end > stack[-1][1]:
                error('track pid %s tid %s: %s [%.3f, %.3f] us overlaps %s [%.3f, %.3f] us '
                      'without nesting' % (track[0], track[1], name, start / 1000, end / 1000,
                                           stack[-1][2], stack[-1][0] / 1000,
                                           stack[-1][1] / 1000))
            stack.append((start, end, name))

    # Flows: one start and one end per key, each inside a slice of its track.
    starts, ends = defaultdict(int), defaultdict(int)
    where = defaultdict(dict)  # key -> {'s': text, 'f': text}
    by_start = {t: ([s[0] for s in items], items) for t, items in slices.items()}
    for ph, key, track, ts, bp in flow_points:
        if ph == 's':
            starts[key] += 1
        elif ph == 'f':
            ends[key] += 1
        firsts, items = by_start.get(track, ([], []))
        at = bisect.bisect_right(firsts, ts) - 1
        while at >= 0 and not items[at][0] <= ts <= items[at][1]:
            at -= 1
        if at < 0:
            error('flow %s %s at %.3f us on pid %s tid %s lies in no slice of its track' %
                  (ph, key[2], ts / 1000, track[0], track[1]))
        else:
            item = items[at]
            text = '%s %s%s' % (process_names.get(track[0], 'pid %s' % track[0]), item[2],
                                '' if item[3] is None else ' (call %s)' % item[3])
            where[key][ph] = ((track[0], item[3] if isinstance(item[3], int) else -1, item[0]),
                              text)
    for key in sorted(set(starts) | set(ends)):
        if starts[key] != 1 or ends[key] != 1:
            error('flow id %s (cat %s, name %s): %d start(s), %d end(s); expected one each' %
                  (key[2], key[0], key[1], starts[key], ends[key]))
    nflows = sum(1 for k in starts if starts[k] == 1 and ends[k] == 1)

    # Async slices: b/e pairs per key, ends no earlier than begins.
    nasync = 0
    for key, evs in async_events.items():
        evs.sort()
        depth = 0
        for ts, kind, k in evs:
            depth += 1 if kind == 0 else -1
            if depth < 0:
                error('async %s id %s on pid %s: end (event %d) without a begin' %
                      (key[2], key[3], key[0], k))
                depth = 0
            elif kind == 0:
                nasync += 1
        if depth > 0:
            error('async %s id %s on pid %s: %d begin(s) without an end' %
                  (key[2], key[3], key[0], depth))

    if '--expect-flows' in flags and nflows == 0:
        error('no flow (message arrow) in the file')
    if '--expect-async' in flags and nasync == 0:
        error('no async slice (request lifetime) in the file')

    if '--list-flows' in flags:
        pairs = sorted((w['s'][0], w['f'][0], w['s'][1], w['f'][1]) for w in where.values()
                       if 's' in w and 'f' in w)
        for pair in pairs:
            print('flow: %s -> %s' % (pair[2], pair[3]))

    if errors:
        for e in errors[:MAX_ERRORS]:
            print('check_chrome_json: %s: %s' % (path, e))
        print('check_chrome_json: FAILED: %d error(s)' % len(errors))
        return 1
    times = metadata.get('times', '') if isinstance(metadata, dict) else ''
    print('check_chrome_json: OK: %d events, %d slices on %d tracks, %d flows, '
          '%d async slices, %d process names, %d thread names' %
          (len(events), nslices, len(slices), nflows, nasync, names['process_name'],
           names['thread_name']))
    if times:
        print('check_chrome_json: times: %s' % times)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
