#!/usr/bin/env python3
"""The parts and their dependencies, from the build: docs/images/architecture.{dot,svg}.

  scripts/architecture_diagram.py [--mpi openmpi|mpich] [--scratch DIR]
      configures the tree in a scratch build (tests off, a few seconds; your
      own build directories are not touched) with `cmake --graphviz`, keeps
      Pilgrim's own targets (libraries, libpilgrim.so, the tools, the
      generator, the plugin; not tests, benchmarks or outside libraries),
      boxes them by floor (each target's folder from CMake's file API, its
      floor from test/layers/check_layers.py), writes docs/images/architecture.dot and renders it with Graphviz's
      `dot -Tsvg` (Debian's graphviz) to docs/images/architecture.svg.
  scripts/architecture_diagram.py --check [...]
      changes nothing: one line and exit status 1 where the committed .dot
      is not what the build gives, or the committed .svg does not draw the
      committed .dot (its nodes and arrows, not its bytes); else one line of
      verdict. test/layers/architecture_diagram.test runs it.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
DOT = os.path.join('docs', 'images', 'architecture.dot')
SVG = os.path.join('docs', 'images', 'architecture.svg')

# Pilgrim's own targets are named pilgrim, pilgrim-* or pilgrim_*; these
# are tests' (test/plugin's site shim, test/fuzz's instrumented copy).
OWN = re.compile(r'^pilgrim([-_].*)?$')
NOT_PARTS = re.compile(r'(_shim|_fuzz)$')
NODE = re.compile(r'^\s*"(node\d+)" \[ label = "([^"]*)", shape = (\w+) \];')
EDGE = re.compile(r'^\s*"(node\d+)" -> "(node\d+)"(?: \[ style = (\w+) \])?')
STYLE = {'dashed': 'interface', 'dotted': 'private'}


def graphviz(scratch, mpi):
    """cmake --graphviz of a fresh configure of the tree, tests off, and each
    target's source folder (CMake's file API, codemodel)."""
    build = os.path.join(scratch, 'build')
    dot = os.path.join(scratch, 'graph', 'deps.dot')
    os.makedirs(os.path.dirname(dot), exist_ok=True)
    query = os.path.join(build, '.cmake', 'api', 'v1', 'query', 'codemodel-v2')
    os.makedirs(os.path.dirname(query), exist_ok=True)
    open(query, 'w').close()
    command = ['cmake', '-S', ROOT, '-B', build, '-DPILGRIM_BUILD_TESTS=OFF', '--graphviz=' + dot]
    if shutil.which('ninja'):
        command += ['-G', 'Ninja']
    if mpi:
        command.append('-DPILGRIM_MPI=' + mpi)
    run = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if run.returncode != 0:
        sys.stdout.write(run.stdout[-4000:])
        sys.exit('architecture_diagram: configuring the tree failed (cmake exit %d)' % run.returncode)
    reply = os.path.join(build, '.cmake', 'api', 'v1', 'reply')
    index = json.load(open(os.path.join(reply, max(f for f in os.listdir(reply) if f.startswith('index-')))))
    codemodel = next(o for o in index['objects'] if o['kind'] == 'codemodel')
    model = json.load(open(os.path.join(reply, codemodel['jsonFile'])))['configurations'][0]
    folders = {t['name']: model['directories'][t['directoryIndex']]['source'] for t in model['targets']}
    with open(dot) as f:
        return f.read(), folders


def own_graph(text):
    """(nodes {name: shape}, edges {(from, to): kind}) among Pilgrim's parts."""
    names, shapes, edges = {}, {}, {}
    in_legend = False
    for line in text.splitlines():
        if 'subgraph clusterLegend' in line:
            in_legend = True
        elif in_legend and line.strip() == '}':
            in_legend = False
            continue
        if in_legend:
            continue
        m = NODE.match(line)
        if m:
            name = m.group(2).split('\\n')[0]
            if OWN.match(name) and not NOT_PARTS.search(name):
                names[m.group(1)] = name
                shapes[name] = m.group(3)
            continue
        m = EDGE.match(line)
        if m and m.group(1) in names and m.group(2) in names:
            edges[(names[m.group(1)], names[m.group(2)])] = STYLE.get(m.group(3), 'public')
    return shapes, edges


def floors_of(shapes, folders):
    """Each part's floor, from its folder and the layering's table
    (test/layers/check_layers.py, FLOORS)."""
    sys.dont_write_bytecode = True  # no __pycache__ in the source tree
    sys.path.insert(0, os.path.join(ROOT, 'test', 'layers'))
    import check_layers
    floors = {}
    for name in shapes:
        room = check_layers.room_of(folders.get(name, '.') + '/CMakeLists.txt')
        if room is None:
            sys.exit('architecture_diagram: %s is built in %s/, which has no floor (test/layers/check_layers.py)'
                     % (name, folders.get(name)))
        floors[name] = check_layers.ROOMS[room]
    return floors, [name for name, _ in check_layers.FLOORS]


def dot_text(shapes, edges, floors, floor_names):
    """The canonical .dot: sorted, one node or arrow a line; a box per floor
    of the layering, the ground floor at the bottom."""
    out = ['// Pilgrim\'s parts and their link dependencies, generated by',
           '// scripts/architecture_diagram.py from `cmake --graphviz`: do not edit.',
           '// An arrow runs from a part to a part it links: solid public,',
           '// dashed interface, dotted private.',
           'digraph "Pilgrim" {',
           '  graph [ rankdir = TB, nodesep = 0.25, ranksep = 0.45, fontname = "Helvetica" ];',
           '  node [ fontname = "Helvetica", fontsize = 11, style = filled, fillcolor = "#f4f4f4" ];',
           '  edge [ color = "#555555", arrowsize = 0.6 ];']
    for floor in sorted(set(floors.values())):
        out.append('  subgraph "cluster_floor%d" {' % floor)
        out.append('    label = "floor %d: %s"; labeljust = l; color = "#bbbbbb"; fontsize = 10;'
                   % (floor, floor_names[floor]))
        for name in sorted(n for n in shapes if floors[n] == floor):
            label = 'libpilgrim.so' if name == 'pilgrim' else name
            out.append('    "%s" [ label = "%s", shape = %s ];' % (name, label, shapes[name]))
        out.append('  }')
    for (a, b) in sorted(edges):
        style = {'public': '', 'interface': ' [ style = dashed ]', 'private': ' [ style = dotted ]'}[edges[(a, b)]]
        out.append('  "%s" -> "%s"%s;' % (a, b, style))
    out.append('}')
    return '\n'.join(out) + '\n'


def svg_drawing(path):
    """The node and arrow titles Graphviz writes into an SVG."""
    with open(path) as f:
        text = f.read()
    titles = re.findall(r'<g id="(node|edge)\d+" class="\w+">\s*<title>([^<]*)</title>', text)
    unescape = lambda s: s.replace('&#45;', '-').replace('&gt;', '>').replace('&lt;', '<').replace('&amp;', '&')
    nodes = {unescape(t) for kind, t in titles if kind == 'node'}
    edges = {tuple(unescape(t).split('->')) for kind, t in titles if kind == 'edge'}
    return nodes, edges


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--check', action='store_true', help='compare, change nothing')
    parser.add_argument('--mpi', help='openmpi or mpich (-DPILGRIM_MPI; default: what CMake finds)')
    parser.add_argument('--scratch', help='scratch directory for the configure (default: a temporary one)')
    parser.add_argument('--dot', default=os.path.join(ROOT, DOT), help='the .dot to write or check (default: %s)' % DOT)
    parser.add_argument('--svg', default=os.path.join(ROOT, SVG), help='the .svg to write or check (default: %s)' % SVG)
    args = parser.parse_args()

    scratch = args.scratch or tempfile.mkdtemp(prefix='pilgrim-diagram-')
    try:
        dot, folders = graphviz(scratch, args.mpi)
    finally:
        if not args.scratch:
            shutil.rmtree(scratch, ignore_errors=True)
    shapes, edges = own_graph(dot)
    text = dot_text(shapes, edges, *floors_of(shapes, folders))
    dot_path, svg_path = args.dot, args.svg
    shown = lambda path: os.path.relpath(path, ROOT) if os.path.abspath(path).startswith(ROOT + os.sep) else path

    if args.check:
        committed = open(dot_path).read() if os.path.exists(dot_path) else ''
        if committed != text:
            old = set(l.strip() for l in committed.splitlines())
            new = set(l.strip() for l in text.splitlines())
            changes = ['+' + l for l in sorted(new - old)] + ['-' + l for l in sorted(old - new)]
            print('%s is not the build\'s graph (%s): run scripts/architecture_diagram.py'
                  % (shown(dot_path), '; '.join(changes[:4]) + ('; ...' if len(changes) > 4 else '')))
            return 1
        nodes, arrows = svg_drawing(svg_path) if os.path.exists(svg_path) else (set(), set())
        if nodes != set(shapes) or arrows != set(edges):
            print('%s does not draw %s: run scripts/architecture_diagram.py' % (shown(svg_path), shown(dot_path)))
            return 1
        print('architecture_diagram: OK (%d parts, %d arrows)' % (len(shapes), len(edges)))
        return 0

    with open(dot_path, 'w') as f:
        f.write(text)
    if not shutil.which('dot'):
        sys.exit('architecture_diagram: wrote %s; rendering needs Graphviz\'s dot (apt-get install graphviz)' % shown(dot_path))
    subprocess.run(['dot', '-Tsvg', '-o', svg_path, dot_path], check=True)
    print('architecture_diagram: wrote %s and %s (%d parts, %d arrows)' % (shown(dot_path), shown(svg_path), len(shapes), len(edges)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
