#!/usr/bin/python3
"""Cross-check Pilgrim's annotation sidecars against the MPI Forum's API data.

usage: check_annotations.py ANNOTATIONS_DIR MPI_API_JSON

ANNOTATIONS_DIR is generator/annotations (every *.yaml in it is read);
MPI_API_JSON is the normalized MPI 5.0 API (mpi_api.json: a "functions" list,
each function with "params" carrying the standard's kind, direction, length,
root_only, ...). The sidecar schema is docs/ANNOTATIONS.md.

Checks, per sidecar entry and per standard function:
  * the sidecars are well formed: known fields and roles, ids unique, no
    function or key given twice, references name parameters of the same
    function (and of a fitting role), length expressions parse;
  * every standard function has an entry; an entry the standard lacks must be
    one of the known legacy functions (EXTRA_FUNCTIONS);
  * parameter count, order and names match the standard;
  * directions match the standard's C direction ("direction", not
    "lis_direction": the LIS binding calls e.g. the comm of
    MPI_Comm_set_attr or the fh of MPI_File_read "inout" because the object
    changes, while the handle itself is passed by value);
  * the standard's kind maps to a compatible role (and handle kind);
  * handle actions: out handles are created, inout handles of the freeing
    calls are freed, everything else is used;
  * wherever the standard gives an array (a length, or '*'), the sidecar has a
    len, equal to the standard's expression when it gives one, and to the
    table EXPECTED_LEN for the lengths the standard leaves open;
  * buffers, strings and arrays the standard marks root-only have root.

Intentional differences are listed, each with its reason, in the tables
below. Prints one line per problem and "checked N functions, M problems";
exits 1 when there are problems, 2 on bad usage. Needs python3 and PyYAML
(Debian: python3-yaml). Not used by the build.
"""

import glob
import json
import os
import re
import sys

import yaml

# ---------------------------------------------------------------- schema

ROLES = {'value', 'rank', 'tag', 'handle', 'buffer', 'status', 'string', 'callback', 'offset',
         'pointer', 'string_array', 'argv_array', 'opaque', 'double', 'varargs', 'address'}
SHORTHAND_ROLES = {'value', 'tag', 'offset', 'double', 'string', 'callback', 'pointer', 'opaque',
                   'varargs', 'address'}
HANDLE_KINDS = {'comm', 'group', 'datatype', 'op', 'info', 'errhandler', 'file', 'win', 'request',
                'message', 'session', 'keyval'}
DIRECTIONS = {'in', 'out', 'inout'}
ACTIONS = {'use', 'create', 'free'}
PARAM_FIELDS = {'role', 'dir', 'len', 'kind', 'action', 'comm', 'relative', 'count', 'datatype',
                'bytes', 'root', 'nullterm', 'index', 'flag', 'target', 'record', 'layout',
                'fortran_choice', 'fortran_int', 'fortran_local'}
ENTRY_FIELDS = {'id', 'params', 'note'}
LEN_FUNCTIONS = {'peers': 1, 'comm_size': 1, 'indegree': 1, 'outdegree': 1, 'group_size': 1,
                 'sum': 2, 'nullterm': 1, 'cart_dim': 1}

# ---------------------------------------------------------------- standard kinds -> roles

KIND_HANDLE = {'COMMUNICATOR': 'comm', 'GROUP': 'group', 'DATATYPE': 'datatype',
               'OPERATION': 'op', 'INFO': 'info', 'ERRHANDLER': 'errhandler', 'FILE': 'file',
               'WINDOW': 'win', 'REQUEST': 'request', 'MESSAGE': 'message', 'SESSION': 'session',
               'KEYVAL': 'keyval'}
KIND_ROLE = {
    'RANK': 'rank', 'RANK_NNI': 'rank',
    'TAG': 'tag',
    'BUFFER': 'buffer',
    'LOGICAL_VOID': 'buffer',            # MPI_Abi_*_fortran_booleans: logical_size bytes
    'STATUS': 'status',
    'STRING': 'string',
    'STRING_ARRAY': 'string_array',
    'STRING_2DARRAY': 'argv_array',
    'FUNCTION': 'callback', 'POLYFUNCTION': 'callback', 'EVENT_CB_FUNCTION': 'callback',
    'EVENT_DROP_CB_FUNCTION': 'callback', 'EVENT_FREE_CB_FUNCTION': 'callback',
    'OFFSET': 'offset',
    'EXTRA_STATE': 'pointer', 'EXTRA_STATE2': 'pointer',
    'ATTRIBUTE_VAL': 'pointer', 'ATTRIBUTE_VAL_10': 'pointer',
    'LOCATION_SMALL': 'pointer',         # MPI_Aint_add/diff: an address held in an MPI_Aint
    # A window's target displacement: in a dynamic window, an address in the target
    'RMA_DISPLACEMENT_NNI': 'address',
    'C_BUFFER': 'pointer', 'C_BUFFER2': 'pointer',  # baseptr / buffer_addr: a void** in disguise
    'TOOL_MPI_OBJ': 'pointer',           # the address of an MPI handle, or NULL
    'ARGUMENT_COUNT': 'opaque', 'ARGUMENT_LIST': 'opaque',  # the command line is in the trace header
    'F90_STATUS': 'opaque', 'F08_STATUS': 'opaque',          # Fortran status storage
    # MPI_T handles are pointers to library structs: no Pilgrim handle kind
    'CVAR': 'opaque', 'PVAR': 'opaque', 'PVAR_SESSION': 'opaque', 'EVENT_REGISTRATION': 'opaque',
    'EVENT_INSTANCE': 'opaque', 'TOOLS_ENUM': 'opaque',
    # C enum types; the generator's value role takes integer types only
    'CALLBACK_SAFETY': 'opaque', 'SOURCE_ORDERING': 'opaque',
    'VARARGS': 'varargs',
}
INTEGER_C_TYPES = {'int', 'MPI_Aint', 'MPI_Count', 'MPI_Fint'}  # other kinds of these types: value

# ---------------------------------------------------------------- intentional exceptions
# Keys are (base function name, parameter); large-count "_c" variants share them.

# The sidecar uses this role instead of the one its kind maps to.
ROLE_EXCEPTIONS = {
    ('MPI_Get_address', 'location'): ('pointer', 'the address is the result: no data is read'),
    ('MPI_Get_address', 'address'): ('address', 'an address, recorded as the memory it lies in plus an offset'),
    ('MPI_Type_create_hindexed', 'array_of_displacements'): ('address', 'absolute addresses with MPI_BOTTOM'),
    ('MPI_Type_create_hindexed_block', 'array_of_displacements'): ('address', 'absolute addresses with MPI_BOTTOM'),
    ('MPI_Type_create_struct', 'array_of_displacements'): ('address', 'absolute addresses with MPI_BOTTOM'),
    ('MPI_Type_create_resized', 'lb'): ('address', 'an absolute lower bound with MPI_BOTTOM'),
    ('MPI_Type_get_extent', 'lb'): ('address', 'the lower bound of a type over absolute addresses'),
    ('MPI_Type_get_extent_x', 'lb'): ('address', 'the lower bound of a type over absolute addresses'),
    ('MPI_Type_get_true_extent', 'true_lb'): ('address', 'the lower bound of a type over absolute addresses'),
    ('MPI_Type_get_true_extent_x', 'true_lb'): ('address', 'the lower bound of a type over absolute addresses'),
    ('MPI_Type_get_contents', 'array_of_addresses'): ('address', 'the displacements a type was built with'),
    ('MPI_Free_mem', 'base'): ('pointer', 'the address MPI_Alloc_mem returned in baseptr (a pointer)'),
    ('MPI_T_event_copy', 'buffer'): ('buffer', 'a plain destination buffer, not a void** like baseptr'),
    ('MPI_T_event_read', 'buffer'): ('buffer', 'a plain destination buffer, not a void** like baseptr'),
    ('MPI_Type_create_darray', 'rank'): ('value', 'a rank in an abstract grid of size processes; the call has no communicator'),
    ('MPI_Status_get_source', 'source'): ('value', 'the call has no communicator to relate the rank to'),
    ('MPI_Status_set_source', 'source'): ('value', 'the call has no communicator to relate the rank to'),
}

# The sidecar uses this direction instead of the standard's C direction.
DIR_EXCEPTIONS = {
    ('MPI_Info_create_env', 'argc'): ('in', 'an int passed by value: the data says inout'),
    ('MPI_Info_create_env', 'argv'): ('in', 'char *argv[] is only read'),
    ('MPI_Precv_init', 'buf'): ('out', 'the receive buffer (the data says in; MPI_Recv_init has out)'),
    ('MPI_Pcontrol', '...'): ('in', 'the varargs are not recorded'),
}

# Sidecar parameter names that differ from the standard's.
NAME_ALIASES = {
    ('MPI_Pcontrol', '...'): 'varargs',
}

# Out handles that return an existing object: action use, not create.
OUT_HANDLE_USE = {
    ('MPI_Comm_get_parent', 'parent'): 'the parent intercommunicator exists already (or is MPI_COMM_NULL)',
    ('MPI_Type_match_size', 'datatype'): 'returns a predefined datatype',
    ('MPI_Type_create_f90_complex', 'newtype'): 'returns a predefined-like datatype that is never freed',
    ('MPI_Type_create_f90_integer', 'newtype'): 'returns a predefined-like datatype that is never freed',
    ('MPI_Type_create_f90_real', 'newtype'): 'returns a predefined-like datatype that is never freed',
    ('MPI_Type_get_value_index', 'pair_type'): 'returns a predefined datatype',
    ('MPI_T_cvar_get_info', 'datatype'): 'returns a predefined datatype',
    ('MPI_T_pvar_get_info', 'datatype'): 'returns a predefined datatype',
    ('MPI_T_event_get_info', 'array_of_datatypes'): 'returns predefined datatypes',
}

# Calls whose inout handle MPI releases (sets to the null handle): action free.
FREE_CALLS = {
    'MPI_Comm_free', 'MPI_Comm_disconnect', 'MPI_Group_free', 'MPI_Type_free', 'MPI_Op_free',
    'MPI_Info_free', 'MPI_Errhandler_free', 'MPI_File_close', 'MPI_Win_free', 'MPI_Request_free',
    'MPI_Session_finalize', 'MPI_Comm_free_keyval', 'MPI_Type_free_keyval',
    'MPI_Win_free_keyval', 'MPI_Keyval_free',
    'MPI_Mrecv', 'MPI_Imrecv',  # the matched message is consumed: MPI sets it to MPI_MESSAGE_NULL
}

# Lengths the standard leaves open ('*'), and the one it gives as a 2-D shape.
EXPECTED_LEN = {
    ('MPI_Waitall', 'array_of_statuses'): 'count',
    ('MPI_Testall', 'array_of_statuses'): 'count',
    ('MPI_Request_get_status_all', 'array_of_statuses'): 'count',
    ('MPI_Waitsome', 'array_of_indices'): 'outcount',
    ('MPI_Waitsome', 'array_of_statuses'): 'outcount',
    ('MPI_Testsome', 'array_of_indices'): 'outcount',
    ('MPI_Testsome', 'array_of_statuses'): 'outcount',
    ('MPI_Request_get_status_some', 'array_of_indices'): 'outcount',
    ('MPI_Request_get_status_some', 'array_of_statuses'): 'outcount',
    ('MPI_Graph_create', 'edges'): 'index[nnodes-1]',
    ('MPI_Graph_map', 'edges'): 'index[nnodes-1]',
    ('MPI_Dist_graph_create', 'destinations'): 'sum(degrees,n)',
    ('MPI_Dist_graph_create', 'weights'): 'sum(degrees,n)',
    ('MPI_Dist_graph_create_adjacent', 'sourceweights'): 'indegree',
    ('MPI_Dist_graph_create_adjacent', 'destweights'): 'outdegree',
    ('MPI_Dist_graph_neighbors', 'sourceweights'): 'maxindegree',
    ('MPI_Dist_graph_neighbors', 'destweights'): 'maxoutdegree',
    ('MPI_Cart_rank', 'coords'): 'cart_dim(comm)',
    ('MPI_Cart_sub', 'remain_dims'): 'cart_dim(comm)',
    ('MPI_Group_range_incl', 'ranges'): 'n',
    ('MPI_Group_range_excl', 'ranges'): 'n',
    ('MPI_Comm_spawn', 'argv'): 'nullterm(argv)',
    ('MPI_Comm_spawn_multiple', 'array_of_commands'): 'count',
    # maxprocs is significant only at the root: recorded there (see ROOT_EXTRA)
    ('MPI_Comm_spawn', 'array_of_errcodes'): 'maxprocs',
    ('MPI_Comm_spawn_multiple', 'array_of_errcodes'): 'sum(array_of_maxprocs,count)',
}


def _coll(base):
    """The blocking, nonblocking and persistent names of a collective."""
    return ['MPI_' + base, 'MPI_I' + base[0].lower() + base[1:], 'MPI_' + base + '_init']


for _f in _coll('Allgatherv'):
    for _p in ('recvcounts', 'displs'):
        EXPECTED_LEN[(_f, _p)] = 'peers(comm)'
for _f in _coll('Alltoallv') + _coll('Alltoallw'):
    for _p in ('sendcounts', 'sdispls', 'recvcounts', 'rdispls', 'sendtypes', 'recvtypes'):
        EXPECTED_LEN[(_f, _p)] = 'peers(comm)'
for _f in _coll('Gatherv'):
    for _p in ('recvcounts', 'displs'):
        EXPECTED_LEN[(_f, _p)] = 'peers(comm)'
for _f in _coll('Scatterv'):
    for _p in ('sendcounts', 'displs'):
        EXPECTED_LEN[(_f, _p)] = 'peers(comm)'
for _f in _coll('Reduce_scatter'):
    EXPECTED_LEN[(_f, 'recvcounts')] = 'comm_size(comm)'
for _f in _coll('Neighbor_allgatherv'):
    for _p in ('recvcounts', 'displs'):
        EXPECTED_LEN[(_f, _p)] = 'indegree(comm)'
for _f in _coll('Neighbor_alltoallv') + _coll('Neighbor_alltoallw'):
    for _p in ('sendcounts', 'sdispls', 'sendtypes'):
        EXPECTED_LEN[(_f, _p)] = 'outdegree(comm)'
    for _p in ('recvcounts', 'rdispls', 'recvtypes'):
        EXPECTED_LEN[(_f, _p)] = 'indegree(comm)'

# Root-only parameters the standard marks that carry no root in the sidecar.
ROOT_MISSING = {
    ('MPI_Scatterv_init', 'recvbuf'): 'the data marks it root_only, but recvbuf is significant at '
                                      'every process, as in MPI_Scatterv',
}
# Parameters with root that the standard does not mark root_only.
ROOT_EXTRA = {
    ('MPI_Comm_spawn', 'array_of_errcodes'): 'its length maxprocs is significant only at the root',
    ('MPI_Comm_spawn_multiple', 'array_of_errcodes'): 'its length (array_of_maxprocs) is '
                                                      'significant only at the root',
}

# Sidecar entries for functions the standard no longer lists: MPI-1 functions
# removed in MPI-3.0 that MPICH still declares.
EXTRA_FUNCTIONS = {
    'MPI_Address', 'MPI_Errhandler_create', 'MPI_Errhandler_get', 'MPI_Errhandler_set',
    'MPI_Type_extent', 'MPI_Type_hindexed', 'MPI_Type_hvector', 'MPI_Type_lb',
    'MPI_Type_struct', 'MPI_Type_ub',
}

# ---------------------------------------------------------------- YAML with lines and duplicates


class Mark(str):
    pass


class LineLoader(yaml.SafeLoader):
    duplicates = []

    def construct_mapping(self, node, deep=False):
        seen = {}
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)
            if key in seen:
                LineLoader.duplicates.append((key_node.start_mark.line + 1, key, seen[key]))
            else:
                seen[key] = key_node.start_mark.line + 1
        mapping = super().construct_mapping(node, deep=deep)
        return mapping


def load_entries(path):
    """Returns ({function: entry}, {function: line}, [(line, key, first_line)])."""
    LineLoader.duplicates = []
    with open(path) as f:
        text = f.read()
    data = yaml.load(text, Loader=LineLoader) or {}
    lines = {}
    root = yaml.compose(text, Loader=yaml.SafeLoader)
    if root is not None and isinstance(root, yaml.MappingNode):
        for key_node, _ in root.value:
            lines.setdefault(key_node.value, key_node.start_mark.line + 1)
    return data, lines, list(LineLoader.duplicates)

# ---------------------------------------------------------------- length expressions

TOKEN = re.compile(r'\s*(?:(\d+)|([A-Za-z_]\w*)|(.))')


class LenError(Exception):
    pass


def parse_len(text):
    """Parses a length expression; returns (names, funcs) it uses: names is a list
    of (kind, name) with kind 'value', 'array' or a length function's name."""
    toks = []
    for m in TOKEN.finditer(text):
        if m.group(1):
            toks.append(('int', m.group(1)))
        elif m.group(2):
            toks.append(('name', m.group(2)))
        elif m.group(3).strip():
            toks.append(('op', m.group(3)))
    pos = [0]
    uses = []

    def peek():
        return toks[pos[0]] if pos[0] < len(toks) else ('end', '')

    def take(kind=None, value=None):
        t = peek()
        if kind and t[0] != kind or value and t[1] != value:
            raise LenError('expected %s at %r' % (value or kind, t[1] or 'end'))
        pos[0] += 1
        return t

    def expr():
        term()
        while peek() in (('op', '+'), ('op', '-')):
            take()
            term()

    def term():
        factor()
        while peek() == ('op', '*'):
            take()
            factor()

    def factor():
        t = peek()
        if t[0] == 'int':
            take()
        elif t == ('op', '('):
            take()
            expr()
            take('op', ')')
        elif t[0] == 'name':
            take()
            nxt = peek()
            if nxt == ('op', '['):
                take()
                uses.append(('array', t[1]))
                expr()
                take('op', ']')
            elif nxt == ('op', '('):
                if t[1] not in LEN_FUNCTIONS:
                    raise LenError('unknown length function %r' % t[1])
                take()
                arg = take('name')[1]
                uses.append((t[1], arg))
                nargs = 1
                if peek() == ('op', ','):
                    take()
                    expr()
                    nargs = 2
                take('op', ')')
                if nargs != LEN_FUNCTIONS[t[1]]:
                    raise LenError('%s takes %d argument(s)' % (t[1], LEN_FUNCTIONS[t[1]]))
            else:
                uses.append(('value', t[1]))
        else:
            raise LenError('unexpected %r' % (t[1] or 'end'))

    expr()
    if pos[0] != len(toks):
        raise LenError('unexpected %r' % peek()[1])
    return uses


def norm_len(text):
    return re.sub(r'\s+', '', str(text))

# ---------------------------------------------------------------- the checks


class Checker:
    def __init__(self):
        self.problems = []

    def problem(self, where, msg):
        self.problems.append('%s: %s' % (where, msg))

    # -- sidecar structure ------------------------------------------------
    def check_entry(self, where, fname, entry):
        """Validates one entry; returns {param: normalized spec} (ordered) or None."""
        if not isinstance(entry, dict):
            self.problem(where, '%s: entry must be a mapping' % fname)
            return None
        for k in entry:
            if k not in ENTRY_FIELDS:
                self.problem(where, '%s: unknown field %r' % (fname, k))
        fid = entry.get('id')
        if not isinstance(fid, int) or isinstance(fid, bool) or not 1 <= fid < 0x8000:
            self.problem(where, '%s: id must be an integer in [1, 32767]' % fname)
        if 'params' not in entry:
            self.problem(where, '%s: missing params' % fname)
            return None
        raw = entry['params'] or {}
        if not isinstance(raw, dict):
            self.problem(where, '%s: params must be a mapping' % fname)
            return None
        params = {}
        for pname, spec in raw.items():
            if isinstance(spec, str):
                if spec not in SHORTHAND_ROLES:
                    self.problem(where, '%s(%s): %r is not a shorthand role' % (fname, pname, spec))
                    continue
                spec = {'role': spec}
            if not isinstance(spec, dict):
                self.problem(where, '%s(%s): expected a role or a mapping' % (fname, pname))
                continue
            spec = dict(spec)
            for k in spec:
                if k not in PARAM_FIELDS:
                    self.problem(where, '%s(%s): unknown field %r' % (fname, pname, k))
            role = spec.get('role')
            if role not in ROLES:
                self.problem(where, '%s(%s): bad role %r' % (fname, pname, role))
            spec.setdefault('dir', 'in')
            if spec['dir'] not in DIRECTIONS:
                self.problem(where, '%s(%s): bad dir %r' % (fname, pname, spec['dir']))
            if role == 'handle':
                if spec.get('kind') not in HANDLE_KINDS:
                    self.problem(where, '%s(%s): handle needs a kind (got %r)' % (fname, pname, spec.get('kind')))
                spec.setdefault('action', 'use')
                if spec['action'] not in ACTIONS:
                    self.problem(where, '%s(%s): bad action %r' % (fname, pname, spec['action']))
            else:
                for k in ('kind', 'action'):
                    if k in spec:
                        self.problem(where, '%s(%s): %r is only for handles' % (fname, pname, k))
            only = {'comm': 'rank', 'relative': 'rank', 'count': 'buffer', 'datatype': 'buffer',
                    'index': 'status', 'target': 'address', 'record': 'callback'}
            for k, r in only.items():
                if k in spec and role != r:
                    self.problem(where, '%s(%s): %r is only for role %s' % (fname, pname, k, r))
            # bytes: a buffer's size, or the size of memory MPI returns in an out pointer
            if 'bytes' in spec and role != 'buffer' and not (role == 'pointer' and
                                                             spec.get('dir') == 'out'):
                self.problem(where, '%s(%s): bytes is only for buffers and out pointers' % (fname, pname))
            # A flag says whether MPI wrote an out value (a status, or what
            # MPI_Info_get / MPI_Comm_get_attr / MPI_Improbe return).
            if 'flag' in spec and (spec.get('dir', 'in') == 'in' or
                                   role not in ('status', 'value', 'handle', 'pointer', 'string')):
                self.problem(where, '%s(%s): flag is only for out statuses, values, handles, '
                             'pointers and strings' % (fname, pname))
            if role == 'rank' and 'comm' not in spec:
                self.problem(where, '%s(%s): a rank needs comm' % (fname, pname))
            if 'layout' in spec and (role != 'handle' or spec.get('kind') != 'datatype'):
                self.problem(where, '%s(%s): layout is only for datatype handles' % (fname, pname))
            if 'fortran_choice' in spec and (role != 'pointer' or spec.get('dir', 'in') != 'in'):
                self.problem(where, '%s(%s): fortran_choice is only for pointers the call reads'
                             % (fname, pname))
            if 'fortran_int' in spec and role != 'pointer':
                self.problem(where, '%s(%s): fortran_int is only for pointers' % (fname, pname))
            if 'fortran_local' in spec and (role != 'pointer' or spec.get('dir', 'in') != 'out'):
                self.problem(where, '%s(%s): fortran_local is only for pointers the call writes'
                             % (fname, pname))
            for k in ('relative', 'nullterm', 'record', 'layout', 'fortran_choice', 'fortran_int',
                      'fortran_local'):
                if k in spec and not isinstance(spec[k], bool):
                    self.problem(where, '%s(%s): %s must be true or false' % (fname, pname, k))
            if 'datatype' in spec and 'count' not in spec:
                self.problem(where, '%s(%s): datatype needs count' % (fname, pname))
            if 'bytes' in spec and ('count' in spec or 'datatype' in spec):
                self.problem(where, '%s(%s): bytes excludes count and datatype' % (fname, pname))
            params[pname] = spec
        # references
        for pname, spec in params.items():
            def ref(field, roles=None, kinds=None):
                if field not in spec:
                    return
                target = spec[field]
                if target not in params:
                    self.problem(where, '%s(%s): %s %r is not a parameter' % (fname, pname, field, target))
                    return
                t = params[target]
                if roles and t.get('role') not in roles:
                    self.problem(where, '%s(%s): %s %r has role %s' % (fname, pname, field, target, t.get('role')))
                elif kinds and t.get('kind') not in kinds:
                    self.problem(where, '%s(%s): %s %r is a %s handle' % (fname, pname, field, target, t.get('kind')))
            # RMA ranks are ranks in the window's group: comm may name the window
            ref('comm', {'handle'}, {'comm', 'group', 'win'})
            ref('count', {'value'})
            ref('bytes', {'value'})
            ref('datatype', {'handle'}, {'datatype'})
            ref('root', {'rank'})
            ref('index', {'value'})
            ref('flag', {'value'})
            ref('target', {'rank'})
            if 'len' in spec:
                try:
                    uses = parse_len(str(spec['len']))
                except LenError as e:
                    self.problem(where, '%s(%s): bad len %r: %s' % (fname, pname, spec['len'], e))
                    uses = []
                for kind, name in uses:
                    if name not in params:
                        self.problem(where, '%s(%s): len refers to %r, not a parameter' % (fname, pname, name))
                        continue
                    t = params[name]
                    if kind in ('peers', 'comm_size', 'indegree', 'outdegree', 'cart_dim'):
                        ok = t.get('role') == 'handle' and t.get('kind') == 'comm'
                    elif kind == 'group_size':
                        ok = t.get('role') == 'handle' and t.get('kind') == 'group'
                    elif kind in ('sum', 'array'):
                        ok = 'len' in t
                    elif kind == 'nullterm':
                        ok = name == pname and spec.get('nullterm') is True
                    else:
                        ok = t.get('role') == 'value'
                    if not ok:
                        self.problem(where, '%s(%s): len uses %r in a way its annotation does not allow' % (fname, pname, name))
            if spec.get('nullterm') is True and not re.fullmatch(r'nullterm\(%s\)' % re.escape(pname), norm_len(spec.get('len', ''))):
                self.problem(where, '%s(%s): nullterm needs len: nullterm(%s)' % (fname, pname, pname))
            if spec.get('role') == 'handle':
                a, d = spec.get('action'), spec['dir']
                if a == 'create' and d != 'out':
                    self.problem(where, '%s(%s): a created handle must be out' % (fname, pname))
                if a == 'free' and d != 'inout':
                    self.problem(where, '%s(%s): a freed handle must be inout' % (fname, pname))
        return params

    # -- against the standard ----------------------------------------------
    def check_against(self, where, fname, params, std):
        base = std['base_name']
        sparams = std['params']
        names = list(params)
        if len(names) != len(sparams):
            self.problem(where, '%s: %d parameters, the standard has %d' % (fname, len(names), len(sparams)))
            return
        for pname, sp in zip(names, sparams):
            key = (base, sp['name'])
            want_name = NAME_ALIASES.get(key, sp['name'])
            at = '%s(%s)' % (fname, pname)
            if pname != want_name:
                self.problem(where, '%s: the standard names this parameter %r' % (at, want_name))
                continue
            spec = params[pname]
            role = spec.get('role')
            kind = sp['kind']
            # role
            if key in ROLE_EXCEPTIONS:
                want_role, want_kind = ROLE_EXCEPTIONS[key][0], None
            elif kind in KIND_HANDLE:
                want_role, want_kind = 'handle', KIND_HANDLE[kind]
            elif kind in KIND_ROLE:
                want_role, want_kind = KIND_ROLE[kind], None
            else:
                ctype = STD_KINDS.get(kind, {}).get('c_type')
                if ctype in INTEGER_C_TYPES:
                    want_role, want_kind = 'value', None
                else:
                    self.problem(where, '%s: no role known for the standard kind %s' % (at, kind))
                    continue
            if role != want_role:
                self.problem(where, '%s: role %s, but the standard kind %s means %s' % (at, role, kind, want_role))
            elif want_kind and spec.get('kind') != want_kind:
                self.problem(where, '%s: handle kind %s, the standard kind %s means %s' % (at, spec.get('kind'), kind, want_kind))
            # direction
            want_dir = DIR_EXCEPTIONS.get(key, (sp['direction'],))[0]
            if spec['dir'] != want_dir:
                self.problem(where, '%s: dir %s, the standard says %s' % (at, spec['dir'], sp['direction']))
            # handle action
            if role == 'handle':
                action = spec.get('action', 'use')
                if spec['dir'] == 'out':
                    want = 'use' if key in OUT_HANDLE_USE else 'create'
                elif spec['dir'] == 'inout':
                    want = 'free' if base in FREE_CALLS else 'use'
                else:
                    want = 'use'
                if action != want:
                    self.problem(where, '%s: action %s, expected %s' % (at, action, want))
            # length ('*' also for the arrays the data gives no length at all,
            # e.g. argv of MPI_Comm_spawn: 'char *[]', length null)
            length = sp['length']
            if length is None and '[' in sp['c_type']:
                length = '*'
            has_len = 'len' in spec
            if role in ('string', 'opaque'):
                # a string is NUL-terminated (the standard's length is the
                # capacity, e.g. MPI_MAX_OBJECT_NAME); opaque is not read
                if has_len:
                    self.problem(where, '%s: len on a %s parameter' % (at, role))
            elif length is None:
                if has_len:
                    self.problem(where, '%s: len %r, but the standard has no array here' % (at, spec['len']))
            else:
                if isinstance(length, list):
                    # int x[][3]: the length counts rows (kFlagMatrix3)
                    expected = str(length[0])
                elif length == '*':
                    expected = EXPECTED_LEN.get(key)
                else:
                    expected = EXPECTED_LEN.get(key, length)
                if not has_len:
                    self.problem(where, '%s: the standard gives an array (length %s) but there is no len' % (at, length))
                elif expected is None:
                    self.problem(where, '%s: len %r: the standard leaves it open and EXPECTED_LEN has no entry' % (at, spec['len']))
                elif norm_len(spec['len']) != norm_len(expected):
                    self.problem(where, '%s: len %r, expected %r' % (at, spec['len'], expected))
            # root-only
            significant = sp['root_only'] and (kind in ('BUFFER', 'STRING', 'STRING_ARRAY', 'STRING_2DARRAY') or length is not None)
            if key in ROOT_MISSING:
                significant = False
            if key in ROOT_EXTRA:
                significant = True
            if significant and spec.get('root') != 'root':
                self.problem(where, '%s: the standard marks it root-only: needs root: root' % at)
            if not significant and 'root' in spec:
                self.problem(where, '%s: root given, but the standard does not mark it root-only' % at)


STD_KINDS = {}


def main(argv):
    if len(argv) != 3:
        sys.stderr.write('usage: %s ANNOTATIONS_DIR MPI_API_JSON\n' % os.path.basename(argv[0]))
        return 2
    ann_dir, api_json = argv[1], argv[2]
    with open(api_json) as f:
        api = json.load(f)
    STD_KINDS.update(api.get('kinds', {}))
    std = {fn['name']: fn for fn in api['functions']}

    chk = Checker()
    files = sorted(glob.glob(os.path.join(ann_dir, '*.yaml')))
    if not files:
        chk.problem(ann_dir, 'no *.yaml files')
    entries = {}   # name -> (where, params)
    ids = {}       # id -> (where, name)
    for path in files:
        rel = os.path.relpath(path)
        try:
            data, lines, dups = load_entries(path)
        except yaml.YAMLError as e:
            chk.problem(rel, 'bad YAML: %s' % str(e).replace('\n', ' '))
            continue
        for line, key, first in dups:
            chk.problem('%s:%d' % (rel, line), '%r given twice (first at line %d)' % (key, first))
        if not isinstance(data, dict):
            chk.problem(rel, 'expected a mapping from function names to entries')
            continue
        for fname, entry in data.items():
            where = '%s:%d' % (rel, lines.get(fname, 0))
            if isinstance(entry, dict) and 'kind' in entry:
                continue  # a record that is not an MPI call (records.yaml): no standard entry
            if not isinstance(fname, str) or not fname.startswith('MPI_'):
                chk.problem(where, '%r is not an MPI function name' % (fname,))
                continue
            if fname in entries:
                chk.problem(where, '%s: annotated twice (also at %s)' % (fname, entries[fname][0]))
                continue
            params = chk.check_entry(where, fname, entry)
            if isinstance(entry, dict) and isinstance(entry.get('id'), int):
                fid = entry['id']
                if fid in ids:
                    chk.problem(where, '%s: id %d is already used by %s (%s)' % (fname, fid, ids[fid][1], ids[fid][0]))
                else:
                    ids[fid] = (where, fname)
            entries[fname] = (where, params)

    for fname in sorted(std):
        if fname not in entries:
            chk.problem(fname, 'no sidecar entry (the standard declares it)')
    for fname, (where, params) in sorted(entries.items()):
        if fname not in std:
            if fname not in EXTRA_FUNCTIONS:
                chk.problem(where, '%s: not in the standard and not a known legacy function' % fname)
            continue
        if params is not None:
            chk.check_against(where, fname, params, std[fname])
    for name in sorted(EXTRA_FUNCTIONS - set(entries)):
        chk.problem(name, 'no sidecar entry (legacy function MPICH declares)')

    for line in chk.problems:
        print(line)
    checked = len(set(std) | set(entries))
    print('checked %d functions, %d problems' % (checked, len(chk.problems)))
    return 1 if chk.problems else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
