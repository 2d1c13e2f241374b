#!/usr/bin/env python3
"""Checks the settings table (pilgrim-config --names) against the sources.

Every PILGRIM_* environment variable that a part of Pilgrim reads (getenv in
C and C++, ${PILGRIM_...} in shell scripts, os.environ in Python and the lit
configuration) must be in the table, and every name in the table must be read
somewhere: the table and the code cannot drift. With --docs FILE, the
settings table in FILE (between '<!-- settings:begin -->' and
'<!-- settings:end -->') must be pilgrim-config --markdown's output.

  settings_read.py SOURCE_DIR PILGRIM_CONFIG [--also SCRIPT...] [--docs FILE [--write]]
"""
import argparse
import os
import re
import subprocess
import sys

C_READ = re.compile(r'(?:getenv|parse_choice)\(\s*"(PILGRIM_[A-Z0-9_]+)"')
SH_READ = re.compile(r'\$\{?(PILGRIM_[A-Z0-9_]+)')
PY_READ = re.compile(r'environ(?:\.get)?[\[(]\s*[\'"](PILGRIM_[A-Z0-9_]+)')
SKIP_DIRS = {'build', '.git', 'node_modules', 'corpus', 'fixtures'}
SCRIPTS_WITHOUT_SUFFIX = {'run'}


def reads(root):
    found = {}
    for top, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d not in SKIP_DIRS and not d.startswith('build')]
        for name in files:
            path = os.path.join(top, name)
            ext = os.path.splitext(name)[1]
            if ext in ('.c', '.cc', '.cpp', '.h', '.inc', '.in', '.f90'):
                pattern = C_READ
            elif ext == '.sh' or name in SCRIPTS_WITHOUT_SUFFIX:
                pattern = SH_READ
            elif ext in ('.py', '.cfg'):
                pattern = PY_READ
            else:
                continue
            try:
                text = open(path, encoding='utf-8', errors='replace').read()
            except OSError:
                continue
            for m in pattern.finditer(text):
                found.setdefault(m.group(1), os.path.relpath(path, root))
    return found


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('source_dir')
    ap.add_argument('pilgrim_config')
    ap.add_argument('--also', nargs='*', default=[],
                    help='generated shell scripts to scan too (pilgrim-cc, made from a template)')
    ap.add_argument('--docs', help='a Markdown file holding the generated settings table')
    ap.add_argument('--write', action='store_true',
                    help='with --docs: write pilgrim-config --markdown into that file\'s table')
    a = ap.parse_args()
    names = subprocess.run([a.pilgrim_config, '--names'], check=True, capture_output=True,
                           text=True).stdout.split()
    found = reads(a.source_dir)
    for path in a.also:
        for m in SH_READ.finditer(open(path, encoding='utf-8', errors='replace').read()):
            found.setdefault(m.group(1), path)
    problems = []
    for var, where in sorted(found.items()):
        if var not in names:
            problems.append('%s is read in %s but is not in the settings table' % (var, where))
    for var in names:
        if var not in found:
            problems.append('%s is in the settings table but nothing reads it' % var)
    if a.docs:
        text = open(a.docs, encoding='utf-8').read()
        m = re.search(r'<!-- settings:begin -->\n(.*?)<!-- settings:end -->', text, re.S)
        want = subprocess.run([a.pilgrim_config, '--markdown'], check=True, capture_output=True,
                              text=True).stdout
        if not m:
            problems.append('%s has no <!-- settings:begin --> ... <!-- settings:end --> block'
                            % a.docs)
        elif a.write:
            text = text[:m.start(1)] + want + text[m.end(1):]
            open(a.docs, 'w', encoding='utf-8').write(text)
        elif m.group(1).strip() != want.strip():
            problems.append('%s: the settings table is not pilgrim-config --markdown\'s (run '
                            'test/settings/settings_read.py SOURCE_DIR PILGRIM_CONFIG --docs %s '
                            '--write)' % (a.docs, a.docs))
    for p in problems:
        print('settings: ' + p)
    print('settings: %d variables read, %d in the table, %d problems'
          % (len(found), len(names), len(problems)))
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
