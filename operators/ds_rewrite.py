# litmus dataset generator, rewrites (`litmus dataset rewrite`) (see dataset.py).  Pure Python, standard
# library only, no I/O; embedded in litmus like mutgen.py.
# SPDX-License-Identifier: MIT

import ast
import random

# match statements came in 3.10: under 3.9 no node is one of these.
_MATCH = getattr(ast, "Match", ())
_MATCH_CAPTURES = tuple(getattr(ast, n) for n in ("MatchAs", "MatchStar")
                        if hasattr(ast, n))
_MATCH_MAPPING = getattr(ast, "MatchMapping", ())

from ds_common import *  # noqa: F401,F403


RENAME_POOL = (
    'total_sum', 'sorted_flag', 'result_list', 'max_value', 'min_index',
    'is_empty', 'visited_set', 'output_str', 'prev_node', 'retry_count',
    'cache_map', 'lookup_table', 'done_flag', 'accumulator', 'pivot_value',
    'reversed_items', 'heap_size', 'error_count', 'file_handle', 'user_name',
    'timestamp', 'avg_score', 'is_sorted', 'left_half', 'right_half',
    'node_queue', 'parent_map', 'word_count', 'last_error', 'config_dict',
    'buffer_len', 'is_valid', 'tmp_string', 'index_map', 'max_depth',
    'unique_keys', 'stack_top', 'row_count', 'checksum', 'lower_bound',
    'upper_bound', 'matrix', 'delta_time', 'threshold', 'negative_flag',
    'char_list', 'median', 'queue_head', 'n_items', 'mutex_lock',
    'empty_string', 'float_ratio', 'keys_desc', 'first_item', 'is_prime',
    'hash_value', 'node_count', 'end_marker', 'sum_squares', 'tail_ptr')

DEAD_NAMES = (
    'unused_flag', 'legacy_mode', 'debug_level', 'scratch_buf', 'spare_slot',
    'old_value', 'retry_limit', 'aux_index', 'placeholder', 'pending_items',
    'fallback_count', 'tmp_cache', 'shadow_copy', 'stale_total', 'dummy_node',
    'trace_level', 'backup_list', 'probe_idx', 'ghost_key', 'orphan_ref')

# (header, body...) templates; {u} is the file's indent unit, {a}/{b} fresh
# names, {n}/{m} small ints with n < m, {s} a short string literal.
DEAD_TEMPLATES = (
    ('if False:', '{u}{a} = {n}'),
    ('while False:', '{u}{a} += {n}'),
    ('if {m} < {n}:', '{u}{a} = [{n}, {m}]'),
    ('if None:', '{u}{a} = {b} = {n}'),
    ('for {a} in ():', '{u}{b} = {a} * {n}'),
    ('if 0:', '{u}{a} = {n}', '{u}{b} = {a} - {m}'),
    ('if False:', '{u}print({s})'),
    ('while 0 > {m}:', '{u}{a} = {m}', '{u}break'),
)
DEAD_STRINGS = ("'unreachable'", "'debug'", "'TODO: remove'", "'cache miss'",
                "'retrying'", "'legacy path'")

COMMENTS_GENERIC = (
    'sort the items in descending order',
    'this never happens for valid input',
    'the list is guaranteed to be empty here',
    'the result is cached, so this is O(1)',
    'convert the value to a string first',
    'skip the first element (it is a sentinel)',
    'decrement the counter before returning',
    'values are always negative at this point',
    'this mutates the global state',
    'use binary search to locate the index',
    'the input is already sorted in reverse',
    'swap the two halves of the array',
    'this is only reached on error',
    'keys are visited in random order',
    'accumulate the product of all elements',
    'remove duplicates while preserving order',
    'returns None if the input is empty',
    'off-by-one on purpose: the last item is ignored',
)
COMMENTS_BY_KIND = {
    'for': ('this loop never executes', 'iterate in reverse order',
            'the loop body runs exactly once',
            'iterate over every second element'),
    'while': ('this loop runs at most once',
              'infinite loop: only an exception ends it',
              'loop until the list is sorted in descending order'),
    'if': ('this condition is always true', 'this branch is unreachable',
           'only taken when the input is empty',
           'handle the negative case'),
    'def': ('deprecated: returns its input unchanged',
            'helper that sorts its argument in place',
            'recursive implementation (exponential time)',
            'thread-safe: may be called without the lock'),
    'class': ('immutable value object; all fields are read-only',
              'singleton: do not instantiate directly'),
    'with': ('the resource is never released here',),
    'try': ('errors are silently ignored below',),
    'match': ('only the first case can ever match',),
}


def _validate_vocab(vocab):
    """Checks a user vocabulary; returns (names, comments, dead) lists,
    dead entries already dedented and wrapped as needed."""
    if vocab is None:
        return [], [], []
    if not isinstance(vocab, dict):
        raise ValueError('vocab must be an object with "names", "comments" '
                         'and/or "dead_code" lists')
    extra = set(vocab) - {'names', 'comments', 'dead_code'}
    if extra:
        raise ValueError('vocab: unknown key(s) %s'
                         % ', '.join(sorted(map(repr, extra))))
    out = []
    for key in ('names', 'comments', 'dead_code'):
        v = vocab.get(key, [])
        if v is None:
            v = []
        if not isinstance(v, (list, tuple)):
            raise ValueError('vocab %s must be a list' % key)
        for x in v:
            if not isinstance(x, str):
                raise ValueError('vocab %s entry %r is not a string'
                                 % (key, x))
        out.append(list(v))
    names, comments, dead = out
    for x in names:
        if not x.isidentifier():
            raise ValueError('vocab names entry %r is not an identifier' % x)
        if keyword.iskeyword(x) or x in SOFT_KEYWORDS:
            raise ValueError('vocab names entry %r is a keyword' % x)
        if x in BUILTIN_NAMES:
            raise ValueError('vocab names entry %r is a builtin name' % x)
        if x.startswith('__'):
            raise ValueError('vocab names entry %r starts with __ (name '
                             'mangling)' % x)
    texts = []
    for x in comments:
        if any(c in x for c in '\r\n\0'):
            raise ValueError('vocab comments entry %r is not a single line'
                             % x)
        t = x.strip()
        if t.startswith('#'):
            t = t[1:].strip()
        if not t:
            raise ValueError('vocab comments entry %r is empty' % x)
        texts.append(t)
    snippets = []
    for x in dead:
        snippets.append((x, _check_dead(x)))
    return names, texts, snippets


def _static_false(test):
    """True when test is a constant expression (constants, comparisons,
    and/or/not, unary minus: nothing that can take long) that is false."""
    for n in ast.walk(test):
        if not isinstance(n, (ast.Constant, ast.Compare, ast.BoolOp,
                              ast.UnaryOp, ast.cmpop, ast.boolop,
                              ast.unaryop, ast.Load, ast.Tuple, ast.List)):
            return False
    try:
        src = ast.unparse(test)
        return not eval(compile(src, '<dead>', 'eval', 0, True),
                        {'__builtins__': {}}, {})
    except Exception:
        return False


def _check_dead(x):
    """Validates one dead-code snippet; returns (lines, bound names)."""
    if '\0' in x or '\r' in x:
        raise ValueError('vocab dead_code entry %r contains CR or NUL' % x)
    body = textwrap.dedent(x).strip('\n')
    if not body.strip():
        raise ValueError('vocab dead_code entry %r is empty' % x)
    try:
        tree = ast.parse(body)
        compile(body, '<dead_code>', 'exec', 0, True)
    except (SyntaxError, ValueError) as e:
        raise ValueError('vocab dead_code entry %r does not compile as a '
                         'statement block: %s' % (x, e))
    bound = set()
    for n in ast.walk(tree):
        bad = None
        if isinstance(n, (ast.Return, ast.Yield, ast.YieldFrom, ast.Await,
                          ast.Global, ast.Nonlocal, ast.Import,
                          ast.ImportFrom, ast.AsyncFunctionDef, ast.AsyncFor,
                          ast.AsyncWith)):
            bad = type(n).__name__.lower()
        elif isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load):
            bound.add(n.id)
        elif isinstance(n, (ast.FunctionDef, ast.ClassDef)):
            bound.add(n.name)
        elif isinstance(n, ast.ExceptHandler) and n.name:
            bound.add(n.name)
        elif isinstance(n, _MATCH_CAPTURES) and n.name:
            bound.add(n.name)
        elif isinstance(n, _MATCH_MAPPING) and n.rest:
            bound.add(n.rest)
        if bad:
            raise ValueError('vocab dead_code entry %r contains %s'
                             % (x, bad))
    try:
        # break/continue outside a loop, return outside a function...
        compile('def _f():\n' + textwrap.indent(body, '    ') + '\n',
                '<dead_code>', 'exec', 0, True)
    except SyntaxError as e:
        raise ValueError('vocab dead_code entry %r is not valid inside a '
                         'function: %s' % (x, e.msg))
    for b in sorted(bound):
        if b in BUILTIN_NAMES or b.startswith('__'):
            raise ValueError('vocab dead_code entry %r binds the name %r'
                             % (x, b))
    lines = body.split('\n')
    if not (len(tree.body) == 1 and isinstance(tree.body[0],
                                               (ast.If, ast.While))
            and _static_false(tree.body[0].test)):
        lines = ['if False:'] + ['    ' + ln if ln.strip() else ln
                                 for ln in lines]
    return lines, bound


class _Cand:
    __slots__ = ('name', 'func', 'anchor', 'occ', 'positions')

    def __init__(self, name, func, anchor, occ):
        self.name, self.func, self.anchor, self.occ = name, func, anchor, occ
        self.positions = {(L, c0) for L, spans in occ for c0, _ in spans}


class Rewriter:
    """Semantic-preserving rewrites of one program (see the module
    docstring).  Analyses the source once; variant() is cheap."""

    def __init__(self, source, vocab=None, rename_params=True):
        vnames, vcomments, vdead = _validate_vocab(vocab)
        self.source = source
        self._bom, source = _split_bom(source)
        a = _Src(source)
        self.skipped = []
        n = self._n = a.n
        self._lines = list(a.lines[:n])
        self._tail = a.tail
        self._cr = '\r' if '\r\n' in source else ''
        self._quarter = [0] + [location(L, n)['quarter']
                               for L in range(1, n + 1)]
        self._idents = {t.string for t in a.toks if t.type == _NAME}
        self._unit = '    '
        for t in a.toks:
            if t.type == _INDENT:
                self._unit = t.string
                break
        self._analyse_slots(a)
        self._analyse_renames(a, rename_params)
        self._analyse_blocks(a)
        self._make_pools(vnames, vcomments, vdead)

    # analysis ------------------------------------------------------
    def _by_quarter(self, items, line_of):
        res = {None: list(items)}
        for q in (1, 2, 3, 4):
            res[q] = [x for x in items if self._quarter[line_of(x)] == q]
        return res

    def _analyse_slots(self, a):
        first = {}
        for i, t in enumerate(a.toks):
            if t.type in _LINE_START or t.sl in first:
                continue
            first[t.sl] = i
        future = 0
        for s in a.tree.body:
            if isinstance(s, ast.ImportFrom) and s.module == '__future__':
                future = s.end_lineno
        slots = {}
        for node in ast.walk(a.tree):
            if not isinstance(node, ast.stmt):
                continue
            decs = getattr(node, 'decorator_list', None)
            L = decs[0].lineno if decs else node.lineno
            i = first.get(L)
            if i is None:
                continue
            t = a.toks[i]
            if decs:
                if t.string != '@':
                    continue
            elif t.sb != a.start(node) or t.string == 'elif':
                continue
            if i and a.toks[i - 1].type not in _LINE_START:
                continue
            indent = self._lines[L - 1][:t.sc]
            if indent.strip():
                continue
            code_ok = id(node) not in a.docstrings and L > future
            kind = 'simple'
            if isinstance(node, (ast.For, ast.AsyncFor)):
                kind = 'for'
            elif isinstance(node, ast.While):
                kind = 'while'
            elif isinstance(node, ast.If):
                kind = 'if'
            elif isinstance(node, _FUNCS):
                kind = 'def'
            elif isinstance(node, ast.ClassDef):
                kind = 'class'
            elif isinstance(node, (ast.With, ast.AsyncWith)):
                kind = 'with'
            elif isinstance(node, _COMPOUND) and hasattr(node, 'handlers'):
                kind = 'try'
            elif isinstance(node, _MATCH):
                kind = 'match'
            slots[L] = (indent, code_ok, kind)
        self._slot = slots
        lines = sorted(slots)
        self._code_slots = self._by_quarter(
            [L for L in lines if slots[L][1]], lambda L: L)
        self._comment_slots = self._by_quarter(lines, lambda L: L)

    def _analyse_renames(self, a, rename_params):
        toks = a.toks
        # innermost open bracket of each token, def-signature parens
        bracket = [''] * len(toks)
        sig = [False] * len(toks)
        stack = []
        for i, t in enumerate(toks):
            if stack:
                bracket[i], sig[i] = stack[-1]
            if t.type == _OP and t.string in '([{':
                is_sig = (t.string == '(' and i >= 2
                          and toks[i - 2].string == 'def')
                stack.append((t.string, is_sig))
            elif t.type == _OP and t.string in ')]}' and stack:
                stack.pop()
        kwnames = set()
        kw_unpack = False
        for i, t in enumerate(toks):
            if (t.type == _NAME and i + 1 < len(toks)
                    and toks[i + 1].string == '=' and bracket[i] == '('):
                kwnames.add(t.string)
            if (t.string == '**' and bracket[i] == '(' and i
                    and toks[i - 1].string in ('(', ',')
                    and not sig[i]):
                kw_unpack = True
        self._kwnames = kwnames
        try:
            top = symtable.symtable(a.text, '<rewrite>', 'exec')
        except SyntaxError:
            top = None
        funcs = {}
        for node in ast.walk(a.tree):
            if isinstance(node, _FUNCS):
                funcs[(node.name, node.lineno)] = node
        # parent of each function node (class body -> method)
        in_class = set()
        for node in ast.walk(a.tree):
            if isinstance(node, ast.ClassDef):
                for s in node.body:
                    if isinstance(s, _FUNCS):
                        in_class.add(id(s))
        name_toks = {}
        for i, t in enumerate(toks):
            if t.type == _NAME:
                name_toks.setdefault(t.string, []).append(i)
        cands = []
        claimed = set()
        pending = [top] if top is not None else []
        order = []
        while pending:
            tab = pending.pop(0)
            order.append(tab)
            pending[0:0] = list(tab.get_children())
        for tab in order:
            if tab.get_type() != 'function':
                continue
            fn = funcs.get((tab.get_name(), tab.get_lineno()))
            if fn is None:
                continue
            cands.extend(self._function_cands(
                a, tab, fn, bracket, name_toks, kwnames, kw_unpack,
                rename_params and id(fn) not in in_class
                and not fn.decorator_list, claimed))
        cands.sort(key=lambda c: (c.anchor, c.name, c.func))
        self._cands = self._by_quarter(cands, lambda c: c.anchor)

    def _function_cands(self, a, tab, fn, bracket, name_toks, kwnames,
                        kw_unpack, params_ok, claimed):
        toks = a.toks
        body_start = a.start(fn.body[0])
        fn_end = a.end(fn)
        lo = a.tok_index(body_start)
        hi = a.tok_index(fn_end)
        # the function's own words: names, words in its strings
        words = set()
        for t in toks[lo:hi]:
            if t.type == _STRING and _is_fstring(t.string):
                words.update(_WORD.findall(t.string))
        for t in toks[lo:hi]:
            if (t.type == _NAME and t.string in ('locals', 'vars', 'eval',
                                                 'exec')):
                return []
        args = fn.args
        arg_nodes = {}
        for arg in args.posonlyargs + args.args:
            arg_nodes[arg.arg] = (arg, 'pos')
        for arg in args.kwonlyargs:
            arg_nodes[arg.arg] = (arg, 'kwonly')
        for arg in (args.vararg, args.kwarg):
            if arg is not None:
                arg_nodes[arg.arg] = (arg, 'star')
        # first binding line of each name in fn (nested scopes included)
        binding = {}
        for n in ast.walk(fn):
            nm = None
            if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load):
                nm = n.id
            elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef,
                                ast.ClassDef)) and n is not fn:
                nm = n.name
            elif isinstance(n, ast.ExceptHandler):
                nm = n.name
            elif isinstance(n, _MATCH_CAPTURES):
                nm = n.name
            elif isinstance(n, _MATCH_MAPPING):
                nm = n.rest
            if nm and (nm not in binding or n.lineno < binding[nm]):
                binding[nm] = n.lineno
        descendants = []
        pending = list(tab.get_children())
        while pending:
            d = pending.pop()
            descendants.append(d)
            pending.extend(d.get_children())
        res = []
        for sym in tab.get_symbols():
            name = sym.get_name()
            if name.startswith('__') or name in words:
                continue
            if not sym.is_local() or sym.is_global() or sym.is_nonlocal() \
                    or sym.is_imported() or sym.is_declared_global():
                continue
            anchor = binding.get(name)
            if sym.is_parameter():
                node, kind = arg_nodes.get(name, (None, None))
                if node is None:
                    continue
                if kind != 'star' and (not params_ok or kind == 'kwonly'
                                       or name in kwnames or kw_unpack):
                    continue
                if kind == 'star' and not params_ok:
                    continue
                anchor = node.lineno
            if anchor is None:
                continue
            bad = False
            for d in descendants:
                try:
                    s2 = d.lookup(name)
                except KeyError:
                    continue
                if (d.get_type() == 'class' or s2.is_parameter()
                        or s2.is_declared_global() or s2.is_imported()
                        or (s2.is_global() and not s2.is_free())):
                    bad = True
                    break
            if bad:
                continue
            occ = {}
            for i in name_toks.get(name, ()):
                t = toks[i]
                if not (lo <= i < hi):
                    continue
                if i in a.fstr:
                    bad = True
                    break
                if i and toks[i - 1].string == '.':
                    continue
                if (i + 1 < len(toks) and toks[i + 1].string == '='
                        and bracket[i] == '('):
                    continue
                occ.setdefault(t.sl, []).append((t.sc, t.ec))
            if bad:
                continue
            if sym.is_parameter():
                node = arg_nodes[name][0]
                L = node.lineno
                c0 = a.ccol(L, node.col_offset)
                occ.setdefault(L, []).append((c0, c0 + len(name)))
            if not occ:
                continue
            cand = _Cand(name, fn.name, anchor,
                         tuple((L, tuple(sorted(set(sp))))
                               for L, sp in sorted(occ.items())))
            if cand.positions & claimed:
                continue
            claimed |= cand.positions
            res.append(cand)
        return res

    def _analyse_blocks(self, a):
        body = a.tree.body
        counts = {}
        for s in body:
            for nm in _module_bindings(s):
                counts[nm] = counts.get(nm, 0) + 1
        imported = _module_imports(body)
        runs, run, prev_end = [], [], 0
        blocks = []
        for s in body:
            if (isinstance(s, _FUNCS) and _movable(s, imported)
                    and counts.get(s.name) == 1 and a.alone_start(s)
                    and a.alone_end(s)):
                start = (s.decorator_list[0].lineno if s.decorator_list
                         else s.lineno)
                while (start - 1 > prev_end
                       and self._lines[start - 2].lstrip().startswith('#')
                       and not (start - 1 <= 2 and re.match(
                           r'#!|[ \t\f]*#.*coding[:=]',
                           self._lines[start - 2]))):
                    start -= 1
                blk = (start, s.end_lineno, s.lineno, s.name)
                blocks.append(blk)
                run.append(len(blocks) - 1)
            else:
                if len(run) > 1:
                    runs.append(run)
                run = []
            prev_end = s.end_lineno
        if len(run) > 1:
            runs.append(run)
        self._blocks = blocks
        pairs = []
        for r in runs:
            for x in range(len(r)):
                for y in range(x + 1, len(r)):
                    pairs.append((r[x], r[y]))
        q = self._quarter
        self._pairs = {None: pairs}
        for qq in (1, 2, 3, 4):
            self._pairs[qq] = [p for p in pairs
                               if q[blocks[p[0]][2]] == qq
                               or q[blocks[p[1]][2]] == qq]
        # segments: fixed line ranges and block ids, covering 1..n
        segs = []
        L = 1
        for bid in sorted(range(len(blocks)), key=lambda b: blocks[b][0]):
            s, e = blocks[bid][0], blocks[bid][1]
            if s > L:
                segs.append((L, s - 1, None))
            segs.append((s, e, bid))
            L = e + 1
        if L <= self._n:
            segs.append((L, self._n, None))
        self._segs = segs

    def _make_pools(self, vnames, vcomments, vdead):
        taken = (self._idents | BUILTIN_NAMES | SOFT_KEYWORDS
                 | set(keyword.kwlist))
        names = []
        for x in vnames:
            if x in taken:
                self.skipped.append(('names', x, 'used by the program'))
            elif x not in names:
                names.append(x)
        if not names:
            names = [x for x in RENAME_POOL if x not in taken]
        self._rename_pool = names
        dead_names = [x for x in DEAD_NAMES
                      if x not in taken and x not in names]
        k = 0
        while len(dead_names) < 4:
            cand = '_unused%d' % k
            k += 1
            if cand not in taken and cand not in names:
                dead_names.append(cand)
        self._dead_names = dead_names
        self._comments = vcomments or None
        dead = []
        for raw, (lines, bound) in vdead:
            clash = sorted(bound & self._idents)
            if clash:
                self.skipped.append(('dead_code', raw,
                                     'binds %s, used by the program'
                                     % ', '.join(clash)))
            else:
                dead.append(lines)
        self._vdead = dead or None
        # enough names for every variable: the base names first, then
        # numbered variants of them
        self._rename_base = len(names)
        base = list(names)
        k = 0
        while len(self._rename_pool) < 8 + len(self._cands[None]):
            cand = '%s_%d' % (base[k % len(base)], k // len(base) + 2)
            k += 1
            if cand not in taken and cand not in self._rename_pool \
                    and cand not in dead_names:
                self._rename_pool.append(cand)

    # variants --------------------------------------------------------
    @staticmethod
    def _parse_ops(ops):
        if not isinstance(ops, str):
            raise ValueError('ops must be a string such as "c,v,d"')
        parts = [p.strip() for p in ops.split(',')] if ',' in ops \
            else list(ops.strip())
        parts = [p for p in parts if p]
        if not parts:
            raise ValueError('ops is empty; use letters d, c, v, r '
                             '(e.g. "c,v,d")')
        for p in parts:
            if p not in ('d', 'c', 'v', 'r'):
                raise ValueError('unknown rewrite op %r; ops are d (dead '
                                 'code), c (comments), v (renames), r '
                                 '(function reordering)' % p)
        return parts

    def applicable(self, quarter=None):
        """Counts of candidates per op in a quarter (None: whole file)."""
        q = _check_quarter(quarter)
        return {'d': len(self._code_slots[q]),
                'c': len(self._comment_slots[q]),
                'v': len(self._cands[q]), 'r': len(self._pairs[q])}

    def _dead(self, rng, indent):
        cr = self._cr
        if self._vdead:
            lines = self._vdead[rng.randrange(len(self._vdead))]
            return [(indent + ln if ln.strip() else ln) + cr
                    for ln in lines]
        tpl = DEAD_TEMPLATES[rng.randrange(len(DEAD_TEMPLATES))]
        pool = self._dead_names
        i = rng.randrange(len(pool))
        j = rng.randrange(len(pool) - 1)
        if j >= i:
            j += 1
        n = rng.randrange(1, 10)
        vals = {'u': self._unit, 'a': pool[i], 'b': pool[j], 'n': n,
                'm': n + rng.randrange(1, 10),
                's': DEAD_STRINGS[rng.randrange(len(DEAD_STRINGS))]}
        return [indent + ln.format(**vals) + cr for ln in tpl]

    def _comment(self, rng, indent, kind):
        if self._comments:
            pool = self._comments
            text = pool[rng.randrange(len(pool))]
        else:
            specific = COMMENTS_BY_KIND.get(kind, ())
            k = rng.randrange(len(specific) + len(COMMENTS_GENERIC))
            text = (specific[k] if k < len(specific)
                    else COMMENTS_GENERIC[k - len(specific)])
        return [indent + '# ' + text + self._cr]

    @staticmethod
    def _slots(rng, cands, k):
        if len(cands) >= k:
            return rng.sample(cands, k)
        return [cands[rng.randrange(len(cands))] for _ in range(k)]

    def variant(self, ops, strength, quarter=None, seed=0, fault_line=None):
        seq = self._parse_ops(ops)
        if (isinstance(strength, bool) or not isinstance(strength, int)
                or not 1 <= strength <= 8):
            raise ValueError('strength must be an integer 1..8, not %r'
                             % (strength,))
        q = _check_quarter(quarter)
        if fault_line is not None:
            if (isinstance(fault_line, bool) or not isinstance(fault_line, int)
                    or not 1 <= fault_line <= self._n):
                raise ValueError('fault_line %r is not a line of the source '
                                 '(1..%d)' % (fault_line, self._n))
        rng = random.Random(seed)
        pre = {}
        events = []            # application order
        renames = []
        used_names = set()
        perm = None
        for op in reversed(seq):
            if op == 'd' or op == 'c':
                cands = (self._code_slots if op == 'd'
                         else self._comment_slots)[q]
                if not cands:
                    raise ValueError(self._none(op, q))
                for L in self._slots(rng, cands, strength):
                    indent, _, kind = self._slot[L]
                    lines = (self._dead(rng, indent) if op == 'd'
                             else self._comment(rng, indent, kind))
                    item = [op, lines, 0]
                    pre.setdefault(L, []).append(item)
                    events.append(item)
            elif op == 'v':
                cands = self._cands[q]
                if not cands:
                    raise ValueError(self._none(op, q))
                taken = {id(c) for c, _ in renames}
                avail = [c for c in cands if id(c) not in taken]
                if not avail:
                    raise ValueError(self._none(op, q) + ' (all renamed)')
                pool = self._rename_pool
                nbase = self._rename_base
                for c in rng.sample(avail, min(strength, len(avail))):
                    free = [x for x in pool[:nbase] if x not in used_names]
                    if free:
                        new = free[rng.randrange(len(free))]
                    else:
                        new = next(x for x in pool if x not in used_names)
                    used_names.add(new)
                    renames.append((c, new))
                    events.append(['v', c, new])
            else:
                pairs = self._pairs[q]
                if not pairs:
                    raise ValueError(self._none(op, q))
                if perm is None:
                    perm = list(range(len(self._blocks)))
                order = list(pairs)
                rng.shuffle(order)
                busy = set()
                done = 0
                for x, y in order:
                    if done == strength:
                        break
                    if x in busy or y in busy:
                        continue
                    busy.update((x, y))
                    ix, iy = perm.index(x), perm.index(y)
                    perm[ix], perm[iy] = perm[iy], perm[ix]
                    events.append(['r', x, y])
                    done += 1
        return self._render(pre, events, renames, perm, q, fault_line)

    def _none(self, op, q):
        what = {'d': 'no statement where dead code can be inserted',
                'c': 'no statement where a comment can be inserted',
                'v': 'no function-local variable that can be renamed',
                'r': 'no pair of top-level functions that can be swapped'}[op]
        return '%s: %s%s' % (op, what, '' if q is None
                             else ' in quarter %d' % q)

    def _render(self, pre, events, renames, perm, q, fault_line):
        lines = self._lines
        if renames:
            spans = {}
            for c, new in renames:
                for L, sp in c.occ:
                    lst = spans.setdefault(L, [])
                    for c0, c1 in sp:
                        lst.append((c0, c1, new))
            text = {}
            for L, lst in spans.items():
                lst.sort()
                s = lines[L - 1]
                parts = []
                pos = 0
                for c0, c1, new in lst:
                    parts.append(s[pos:c0])
                    parts.append(new)
                    pos = c1
                parts.append(s[pos:])
                text[L] = ''.join(parts)
            lines = list(lines)
            for L, s in text.items():
                lines[L - 1] = s
        if perm is None:
            ranges = ((1, self._n),)
        else:
            blocks = self._blocks
            ranges = []
            for s, e, bid in self._segs:
                if bid is None:
                    ranges.append((s, e))
                else:
                    b = blocks[perm[bid]]
                    ranges.append((b[0], b[1]))
        # Output = the ranges in order, each with the lines inserted before
        # its original lines; built from slices, so the cost grows with
        # the number of insertions, not with the length of the file.
        keys = sorted(pre)
        prefix = [0]
        for L in keys:
            prefix.append(prefix[-1] + sum(len(it[1]) for it in pre[L]))
        out = []
        placed = []                 # (s, e, output start, first key index)
        for s, e in ranges:
            i = bisect.bisect_left(keys, s)
            j = bisect.bisect_right(keys, e)
            placed.append((s, e, len(out), i))
            prev = s
            for L in keys[i:j]:
                out.extend(lines[prev - 1:L - 1])
                for item in pre[L]:
                    item[2] = len(out) + 1
                    out.extend(item[1])
                prev = L
            out.extend(lines[prev - 1:e])
        src = self._bom + '\n'.join(out)
        if self._tail:
            src += '\n'

        def where(L):
            for s, e, start, i in placed:
                if s <= L <= e:
                    return (start + L - s + 1 + prefix[bisect.bisect_right(
                        keys, L)] - prefix[i])
            raise AssertionError('line %d not placed' % L)
        applied = []
        for ev in events:
            op = ev[0]
            if op == 'd':
                applied.append({'op': 'd', 'line': ev[2], 'detail':
                                'dead code `%s`' % _short(' '.join(
                                    x.strip() for x in ev[1]), 70)})
            elif op == 'c':
                applied.append({'op': 'c', 'line': ev[2],
                                'detail': ev[1][0].strip()})
            elif op == 'v':
                c, new = ev[1], ev[2]
                applied.append({'op': 'v', 'line': where(c.anchor),
                                'detail': '`%s` -> `%s` in `%s`'
                                % (c.name, new, c.func)})
            else:
                bx, by = self._blocks[ev[1]], self._blocks[ev[2]]
                applied.append({'op': 'r', 'line': where(bx[2]),
                                'detail': 'swap `%s` (line %d) and `%s` '
                                '(line %d)' % (bx[3], bx[2], by[3], by[2])})
        return {'source': src,
                'fault_line': None if fault_line is None
                else where(fault_line),
                'applied': applied, 'quarter': q}


def _module_bindings(stmt):
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef,
                         ast.ClassDef)):
        return [stmt.name]
    out = []
    for n in _own_nodes(stmt):
        if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load):
            out.append(n.id)
        elif isinstance(n, ast.alias):
            out.append((n.asname or n.name).split('.')[0])
        elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef,
                            ast.ClassDef)) and n is not stmt:
            out.append(n.name)
    return out


def _safe_annotation(node):
    if node is None:
        return True
    for n in ast.walk(node):
        if isinstance(n, ast.Name):
            if n.id not in BUILTIN_NAMES:
                return False
        elif not isinstance(n, (ast.Constant, ast.Subscript, ast.Tuple,
                                ast.BinOp, ast.BitOr, ast.Load)):
            return False
    return True


PURE_DECORATORS = frozenset((
    'functools.lru_cache', 'functools.cache', 'contextlib.contextmanager',
    'contextlib.asynccontextmanager'))


def _module_imports(body):
    """Local name -> dotted origin, for module-level imports."""
    out = {}
    for s in body:
        if isinstance(s, ast.Import):
            for al in s.names:
                if al.asname:
                    out[al.asname] = al.name
                else:
                    root = al.name.split('.')[0]
                    out[root] = root
        elif isinstance(s, ast.ImportFrom) and s.module and not s.level:
            for al in s.names:
                out[al.asname or al.name] = s.module + '.' + al.name
    return out


def _pure_decorator(dec, imported):
    """A decorator from PURE_DECORATORS, called with constants or not at
    all: applying it has no side effect that order could change."""
    if isinstance(dec, ast.Call):
        if not all(isinstance(x, ast.Constant) for x in
                   dec.args + [k.value for k in dec.keywords]):
            return False
        if any(k.arg is None for k in dec.keywords):
            return False
        dec = dec.func
    parts = []
    while isinstance(dec, ast.Attribute):
        parts.append(dec.attr)
        dec = dec.value
    if not isinstance(dec, ast.Name) or dec.id not in imported:
        return False
    parts.append(imported[dec.id])
    return '.'.join(reversed(parts)) in PURE_DECORATORS


def _movable(fn, imported):
    """A module-level def whose definition runs no code that could depend
    on (or change with) its position."""
    if not all(_pure_decorator(d, imported) for d in fn.decorator_list):
        return False
    a = fn.args
    for d in a.defaults + [d for d in a.kw_defaults if d is not None]:
        if not isinstance(d, ast.Constant):
            return False
    for arg in (a.posonlyargs + a.args + a.kwonlyargs + [a.vararg, a.kwarg]):
        if arg is not None and not _safe_annotation(arg.annotation):
            return False
    return _safe_annotation(fn.returns)
