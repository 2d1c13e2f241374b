#!/usr/bin/env python3
"""Fills README.md's quick-start blocks with the demo's real output.

Each block of README.md between '<!-- demo:NAME -->' and '<!-- /demo -->'
becomes the commands and first lines of output that scripts/demo.sh wrote to
OUTPUT_DIR/NN-NAME.txt: what a user types and reads, not typed by hand. A
command whose output is longer than the block shows gets '| head -N'.

  scripts/readme_from_demo.py [OUTPUT_DIR]    (default demo-output/)
"""
import glob
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Output lines shown per command, by block, and the header lines left out
# (pilgrim-dump's and pilgrim-stats's "# name: value" block).
SHOWN = {'dump': 5, 'stats': 8, 'matrix': 5}
DEFAULT_SHOWN = 6
HEADER = r"^# [^:]*: "
SKIP_HEADER = {'dump', 'stats'}


def commands(path):
    """[(command, [output lines])] of one demo file."""
    out = []
    for line in open(path, encoding='utf-8').read().splitlines():
        if line.startswith('$ '):
            out.append((line[2:], []))
        elif out:
            out[-1][1].append(line)
    return out


def block(name, path):
    limit = SHOWN.get(name, DEFAULT_SHOWN)
    lines = []
    for cmd, output in commands(path):
        cmd = cmd.replace(ROOT + '/', '')
        if name in SKIP_HEADER:
            output = [o for o in output if not re.match(HEADER, o)]
            cmd += " | grep -v '%s'" % HEADER
        if len(output) > limit:
            cmd += ' | head -%d' % limit
            output = output[:limit]
        lines.append('$ ' + cmd)
        lines.extend(o.replace(ROOT + '/', '') for o in output)
    return '```\n' + '\n'.join(lines) + '\n```\n'


def main():
    if len(sys.argv) > 1 and sys.argv[1] in ('-h', '--help'):
        print(__doc__.strip())
        return 0
    out_dir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, 'demo-output')
    readme = os.path.join(ROOT, 'README.md')
    text = open(readme, encoding='utf-8').read()
    missing = []

    def fill(m):
        name = m.group(1)
        files = glob.glob(os.path.join(out_dir, '[0-9][0-9]-%s.txt' % name))
        if not files:
            missing.append(name)
            return m.group(0)
        return '<!-- demo:%s -->\n%s<!-- /demo -->' % (name, block(name, files[0]))

    text = re.sub(r'<!-- demo:([a-z]+) -->\n.*?<!-- /demo -->', fill, text, flags=re.S)
    if missing:
        print('readme_from_demo: no demo output for %s in %s' % (', '.join(missing), out_dir),
              file=sys.stderr)
        return 1
    open(readme, 'w', encoding='utf-8').write(text)
    print('readme_from_demo: README.md quotes %s' % out_dir)
    return 0


if __name__ == '__main__':
    sys.exit(main())
