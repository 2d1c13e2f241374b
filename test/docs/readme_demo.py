#!/usr/bin/env python3
"""Checks README.md's quick start against a run of the demo's program.

README's blocks between '<!-- demo:NAME -->' and '<!-- /demo -->' quote
scripts/demo.sh's output (scripts/readme_from_demo.py). The figures in them
that do not depend on the machine must be the build's own: the calls and
ranks the tracer says it wrote, pilgrim-dump's call lines, pilgrim-stats's
calls and bytes per function, the matrix, pilgrim-check's verdict and
pilgrim-diff's. Times and sizes are not compared (they depend on the
machine and the run).

  readme_demo.py README RUN_DIR
RUN_DIR holds trace.err (the traced run's stderr) and dump.txt, stats.txt,
matrix.txt, check.txt, diff.txt (each tool's output on that trace).
"""
import re
import sys

WROTE = re.compile(r'pilgrim: wrote ([0-9,]+) calls of ([0-9,]+) ranks')


def blocks(readme):
    text = open(readme, encoding='utf-8').read()
    out = {}
    for m in re.finditer(r'<!-- demo:([a-z]+) -->\n```\n(.*?)```\n<!-- /demo -->', text, re.S):
        out[m.group(1)] = [l for l in m.group(2).splitlines() if not l.startswith('$ ')]
    return out


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip())
        return 2
    readme, run = sys.argv[1], sys.argv[2]
    read = lambda name: open('%s/%s' % (run, name), encoding='utf-8').read().splitlines()
    b = blocks(readme)
    problems = []
    want = {'trace', 'dump', 'stats', 'matrix', 'check', 'proxy', 'diff', 'export'}
    for name in sorted(want - set(b)):
        problems.append('no demo:%s block' % name)
    ran = [m.groups() for l in read('trace.err') for m in [WROTE.search(l)] if m]
    for name in ('trace', 'proxy'):
        said = [m.groups() for l in b.get(name, []) for m in [WROTE.search(l)] if m]
        if not said or not ran or said[-1] != ran[0]:
            problems.append('demo:%s says %s, the run wrote %s' % (name, said, ran))
    dump = read('dump.txt')
    for line in b.get('dump', []):
        if line not in dump:
            problems.append('demo:dump: not in pilgrim-dump\'s output: %s' % line)
    stats = {}  # the first table: calls and bytes per function
    for l in read('stats.txt'):
        if l and not l.startswith('#'):
            stats.setdefault(l.split()[0], l.split()[1:3])
    for line in b.get('stats', []):
        if line.startswith('#'):
            continue
        f = line.split()
        if stats.get(f[0]) != f[1:3]:
            problems.append('demo:stats: %s has calls and bytes %s, the run %s'
                            % (f[0], f[1:3], stats.get(f[0])))
    for name, file in (('matrix', 'matrix.txt'), ('check', 'check.txt'), ('diff', 'diff.txt')):
        lines = read(file)
        for line in b.get(name, []):
            if line not in lines:
                problems.append('demo:%s: not in the tool\'s output: %s' % (name, line))
    for p in problems:
        print('readme_demo: ' + p)
    print('readme_demo: %s (%d blocks)' % ('FAIL' if problems else 'OK', len(b)))
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
