#!/usr/bin/env python3
"""No #include reaches up: the layering of docs/ARCHITECTURE.md ("Layers"), checked.

Every C and C++ source of the tree (.h .hpp .inc .c .cc .cpp) lives in a room
(a top-level folder, or a sub-folder named in ROOMS) that stands on a floor.
A file may include headers of its own room and of rooms on lower floors,
never of a room on its own floor or above. Each #include "..." (and
#include <pilgrim/...>) is resolved against the tree: beside the including
file first, else the tree's one file whose path ends with the included name
(its own room's first; a name that several other rooms hold is a problem);
names the tree does not hold (system, LLVM, generated headers) are not ours
and are skipped.

  check_layers.py [--root DIR]

One line per wrong-way include (FILE:LINE: ...) and exit status 1, or one
line of verdict and exit status 0. A folder with sources that has no floor in
ROOMS is a problem too: a new part is placed in the layering when it is made.
"""
import argparse
import os
import re
import subprocess
import sys

# Ground floor first. Rooms on one floor do not include each other. A
# sub-folder named here is a room of its own; the rest of a top-level folder
# is one room. Keep docs/ARCHITECTURE.md ("Layers") saying the same.
FLOORS = [
    ('ground', ['bytes', 'settings', 'cli', 'include']),
    ('grammar', ['grammar']),
    # Per-call times and the receive order's compact form (CDC): codecs on
    # the trace's bytes, which neither includes the other.
    ('timing and order', ['timing', 'order']),
    ('model', ['model']),
    # The wrapper generator stands below the runtime, whose wrappers it
    # writes at build time; it includes only the ground floor.
    ('analyses and generator', ['analyses', 'generator']),
    ('runtime and reader', ['runtime', 'reader']),
    ('tools, proxygen and plugin', ['tools', 'proxygen', 'plugin']),
    ('bench and tests', ['bench', 'test']),
]
# The runtime's rooms (runtime/README.md), on floors of their own inside the
# runtime's floor, ground first: the parts the hub (runtime/ itself: Call and
# the Recorder) stands on, the hub, and the parts that stand on the hub.
RUNTIME_FLOORS = [
    ('runtime ground', ['runtime/common', 'runtime/signatures', 'runtime/clock', 'runtime/replay']),
    ('runtime memory and merge', ['runtime/memory', 'runtime/merge']),
    ('runtime handles and sites', ['runtime/handles', 'runtime/sites']),
    ('runtime hub', ['runtime']),
    ('runtime facts, Fortran and preload', ['runtime/facts', 'runtime/fortran', 'runtime/preload']),
]
ROOMS = {room: floor for floor, (_, rooms) in enumerate(FLOORS) for room in rooms}
RUNTIME_ROOMS = {room: floor for floor, (_, rooms) in enumerate(RUNTIME_FLOORS) for room in rooms}
ROOMS.update({room: ROOMS['runtime'] for room in RUNTIME_ROOMS})


def floor_name(room, other):
    """A room's floor as the check says it beside `other`: the runtime's own
    floor when both are the runtime's rooms, else the global one."""
    if room in RUNTIME_ROOMS and other in RUNTIME_ROOMS:
        return 'runtime floor %d' % RUNTIME_ROOMS[room]
    return 'floor %d' % ROOMS[room]


def below(to, room):
    """Whether `room` may include `to`: `to` stands on a lower floor (inside
    the runtime, on a lower floor of the runtime's own)."""
    if to in RUNTIME_ROOMS and room in RUNTIME_ROOMS:
        return RUNTIME_ROOMS[to] < RUNTIME_ROOMS[room]
    return ROOMS[to] < ROOMS[room]

SOURCE = re.compile(r'\.(h|hpp|inc|c|cc|cpp)$')
INCLUDE = re.compile(r'^\s*#\s*include\s*(?:"([^"]+)"|<(pilgrim/[^>]+)>)')
# Folders that hold no sources of the project's parts.
NOT_PARTS = {'docs', 'scripts', 'cmake', 'build', 'shared'}


def room_of(path):
    """The room of a path relative to the root: its longest prefix in ROOMS."""
    parts = path.split('/')
    for n in range(len(parts) - 1, 0, -1):
        prefix = '/'.join(parts[:n])
        if prefix in ROOMS:
            return prefix
    return None


def ignored_tops(root):
    """Top folders git ignores (build/, demo-output/): outputs, not parts."""
    try:
        out = subprocess.run(['git', '-C', root, 'ls-files', '--others', '--ignored',
                              '--exclude-standard', '--directory'],
                             capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return set()  # not a git checkout: every folder counts
    return {line.rstrip('/') for line in out.splitlines() if line.count('/') <= 1}


def sources(root):
    ignored = ignored_tops(root)
    for top in sorted(os.listdir(root)):
        top_path = os.path.join(root, top)
        if (top.startswith('.') or top in NOT_PARTS or top in ignored or
                not os.path.isdir(top_path)):
            continue
        for directory, dirs, files in os.walk(top_path):
            # A build tree inside the source tree is not a part.
            dirs[:] = sorted(d for d in dirs if not d.startswith('.') and
                             not os.path.exists(os.path.join(directory, d, 'CMakeCache.txt')))
            for name in sorted(files):
                if SOURCE.search(name):
                    yield os.path.relpath(os.path.join(directory, name), root).replace(os.sep, '/')


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--root', default=os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'),
                        help='the source tree (default: the one this script is in)')
    args = parser.parse_args()
    root = os.path.abspath(args.root)

    files = list(sources(root))
    by_suffix = {}
    for f in files:
        parts = f.split('/')
        for n in range(len(parts)):
            by_suffix.setdefault('/'.join(parts[n:]), []).append(f)
    known = set(files)

    problems = []
    unplaced = sorted({f.split('/')[0] for f in files if room_of(f) is None})
    for top in unplaced:
        problems.append('%s/: holds sources but has no floor in the layering (FLOORS in test/layers/check_layers.py)'
                        % top)
    for room in sorted({'/'.join(f.split('/')[:2]) for f in files
                        if f.startswith('runtime/') and f.count('/') >= 2 and room_of(f) == 'runtime'}):
        problems.append('%s/: a room of the runtime with no floor (RUNTIME_FLOORS in test/layers/check_layers.py)'
                        % room)
    includes = 0
    for f in files:
        room = room_of(f)
        if room is None:
            continue
        with open(os.path.join(root, f), encoding='utf-8', errors='replace') as text:
            for number, line in enumerate(text, 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                name = m.group(1) or m.group(2)
                beside = os.path.normpath(os.path.join(os.path.dirname(f), name)).replace(os.sep, '/')
                if beside in known:
                    target = beside
                else:
                    candidates = by_suffix.get(name, [])
                    if not candidates:
                        continue
                    own = [c for c in candidates if room_of(c) == room]
                    rooms = sorted({str(room_of(c)) for c in candidates})
                    if not own and len(rooms) > 1:
                        problems.append('%s:%d: #include "%s" names files of %d rooms (%s): include it by a longer path'
                                        % (f, number, name, len(rooms), ', '.join(rooms)))
                        continue
                    target = (own or candidates)[0]
                includes += 1
                to = room_of(target)
                if to is None or to == room:
                    continue
                if not below(to, room):
                    problems.append('%s:%d: #include "%s" is %s: %s (%s) may not include %s (%s)'
                                    % (f, number, name, target, room, floor_name(room, to), to, floor_name(to, room)))
    for p in problems:
        print(p)
    if problems:
        return 1
    print('check_layers: OK (%d files, %d includes of the tree, %d floors, the runtime\'s on %d of its own)'
          % (len(files), includes, len(FLOORS), len(RUNTIME_FLOORS)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
