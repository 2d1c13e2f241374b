#!/usr/bin/env python3
"""Checks Pilgrim's Markdown documentation against the build.

  check_docs.py [--root DIR] [--format-version N] [--bin-dir DIR] [--max-bytes B]

* README.md is at most --max-bytes bytes (12288);
* every relative link in README.md, docs/**/*.md and every other tracked
  *.md ([text](path), [text](path#anchor), [text](#anchor), <img src=...>)
  names a file that exists, and its #anchor a heading of the target
  (GitHub's slugs: lowercase, punctuation but - and _ dropped, spaces to -);
* with --format-version N (what `pilgrim-dump --version` reports), README
  names "format version N" and no other format version;
* with --bin-dir DIR (the build's bin/), README names every pilgrim-*
  program found there.

Prints one line per problem, then one verdict line; exit status 0 when
there is none, 1 when there are problems, 2 on a usage error.
Python 3 standard library only.
"""
import argparse
import os
import re
import subprocess
import sys

LINK = re.compile(r'!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)')
IMG = re.compile(r'<img\b[^>]*\bsrc\s*=\s*["\']([^"\']+)["\']', re.I)
HTML_ANCHOR = re.compile(r'<a\s+[^>]*\b(?:name|id)\s*=\s*["\']([^"\']+)["\']', re.I)
FENCE = re.compile(r'^\s*(```|~~~)')
VERSION = re.compile(r'format version (\d+)', re.I)


def strip_code(text):
    """The text with fenced blocks and inline code spans blanked out
    (line structure kept, so that line numbers still hold)."""
    out = []
    fence = None
    for line in text.split('\n'):
        m = FENCE.match(line)
        if fence:
            if m and m.group(1) == fence:
                fence = None
            out.append('')
            continue
        if m:
            fence = m.group(1)
            out.append('')
            continue
        out.append(re.sub(r'(`+)(?:(?!\1).)+?\1', lambda c: ' ' * len(c.group(0)), line))
    return '\n'.join(out)


def slug(heading):
    """GitHub's anchor for a heading's text."""
    text = re.sub(r'!?\[([^\]]*)\]\([^)]*\)', r'\1', heading)  # a link: its text
    text = re.sub(r'<[^>]+>', '', text)                           # HTML tags
    text = text.strip().lower()
    text = re.sub(r'[^\w\- ]', '', text)                          # punctuation but - and _
    return text.replace(' ', '-')


def anchors(path, cache={}):
    """Every anchor a Markdown file defines: its headings' slugs (repeats
    numbered -1, -2, ... as GitHub does) and explicit <a name/id>."""
    if path in cache:
        return cache[path]
    found = set()
    seen = {}
    try:
        text = open(path, encoding='utf-8').read()
    except OSError:
        cache[path] = found
        return found
    fence = None
    for line in text.split('\n'):
        m = FENCE.match(line)
        if fence:
            if m and m.group(1) == fence:
                fence = None
            continue
        if m:
            fence = m.group(1)
            continue
        h = re.match(r'^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$', line)
        if h:
            s = slug(h.group(1))
            n = seen.get(s, 0)
            seen[s] = n + 1
            found.add(s if n == 0 else '%s-%d' % (s, n))
        for a in HTML_ANCHOR.findall(line):
            found.add(a)
    cache[path] = found
    return found


def markdown_files(root):
    """README.md, docs/**/*.md and every other *.md git tracks (every *.md
    under root, build folders aside, where git is not at hand)."""
    files = set()
    try:
        listed = subprocess.run(['git', '-C', root, 'ls-files', '-z', '--', '*.md'],
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, check=True)
        files.update(p for p in listed.stdout.decode().split('\0') if p)
    except (OSError, subprocess.CalledProcessError):
        for top, dirs, names in os.walk(root):
            dirs[:] = [d for d in dirs if not d.startswith('.') and not d.startswith('build')]
            files.update(os.path.relpath(os.path.join(top, n), root) for n in names if n.endswith('.md'))
    for top, _, names in os.walk(os.path.join(root, 'docs')):
        files.update(os.path.relpath(os.path.join(top, n), root) for n in names if n.endswith('.md'))
    if os.path.exists(os.path.join(root, 'README.md')):
        files.add('README.md')
    return sorted(f for f in files if os.path.exists(os.path.join(root, f)))


def check_links(root, rel, problems):
    path = os.path.join(root, rel)
    text = strip_code(open(path, encoding='utf-8').read())
    for lineno, line in enumerate(text.split('\n'), 1):
        for target in LINK.findall(line) + IMG.findall(line):
            if re.match(r'^[a-z][a-z0-9+.-]*:', target, re.I) or target.startswith('//'):
                continue  # http:, https:, mailto:, ...: not ours to check
            file_part, _, anchor = target.partition('#')
            file_part = file_part.split('?')[0]
            if file_part:
                dest = os.path.normpath(os.path.join(os.path.dirname(path), file_part))
                if not os.path.exists(dest):
                    problems.append('%s:%d: link to %s: no such file' % (rel, lineno, target))
                    continue
            else:
                dest = path
            if anchor and os.path.isfile(dest) and dest.endswith('.md'):
                if anchor not in anchors(dest):
                    problems.append('%s:%d: link to %s: no heading "#%s" in %s'
                                    % (rel, lineno, target, anchor, os.path.relpath(dest, root)))


def main(argv):
    ap = argparse.ArgumentParser(
        prog='check_docs.py',
        description="Checks README.md and the Markdown pages against the build: README's size, "
                    "relative links and anchors, the format version README names, the tools it names.")
    ap.add_argument('--root', default=os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..')),
                    help='the source tree (default: two folders above this script)')
    ap.add_argument('--format-version', type=int, metavar='N',
                    help='the trace format version the tools report (pilgrim-dump --version)')
    ap.add_argument('--format-version-from', metavar='FILE',
                    help='read N from a file holding "... (trace format version N)", e.g. pilgrim-dump --version\'s output')
    ap.add_argument('--bin-dir', metavar='DIR', help="the build's bin/ folder: README must name each pilgrim-* program in it")
    ap.add_argument('--max-bytes', type=int, default=12288, help='the most bytes README.md may have (default 12288)')
    args = ap.parse_args(argv)

    root = args.root
    readme = os.path.join(root, 'README.md')
    if not os.path.isfile(readme):
        ap.error('%s: no README.md there' % root)
    version = args.format_version
    if args.format_version_from:
        try:
            m = re.search(r'trace format version (\d+)', open(args.format_version_from).read())
        except OSError as e:
            ap.error('%s: %s' % (args.format_version_from, e.strerror))
        if not m:
            ap.error('%s: no "trace format version N" in it' % args.format_version_from)
        version = int(m.group(1))

    problems = []
    size = os.path.getsize(readme)
    if size > args.max_bytes:
        problems.append('README.md: %d bytes, more than %d' % (size, args.max_bytes))

    files = markdown_files(root)
    for rel in files:
        check_links(root, rel, problems)

    text = open(readme, encoding='utf-8').read()
    if version is not None:
        named = set()
        for lineno, line in enumerate(text.split('\n'), 1):
            for v in VERSION.findall(line):
                named.add(int(v))
                if int(v) != version:
                    problems.append('README.md:%d: names format version %s, the tools report %d'
                                    % (lineno, v, version))
        if version not in named:
            problems.append('README.md: names no "format version %d" (the tools report it)' % version)

    tools = []
    if args.bin_dir:
        if not os.path.isdir(args.bin_dir):
            ap.error('%s: not a folder' % args.bin_dir)
        tools = sorted(n for n in os.listdir(args.bin_dir)
                       if n.startswith('pilgrim-') and os.path.isfile(os.path.join(args.bin_dir, n)))
        for tool in tools:
            if not re.search(r'(?<![\w-])%s(?![\w-])' % re.escape(tool), text):
                problems.append('README.md: does not name %s (in %s)' % (tool, args.bin_dir))

    for p in problems:
        print(p)
    what = '%d Markdown files, README.md %d bytes' % (len(files), size)
    if version is not None:
        what += ', format version %d' % version
    if args.bin_dir:
        what += ', %d tools' % len(tools)
    if problems:
        print('check_docs: FAIL: %d problem%s (%s)' % (len(problems), '' if len(problems) == 1 else 's', what))
        return 1
    print('check_docs: OK (%s)' % what)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
