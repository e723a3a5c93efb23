# litmus dataset generator, rewrites (`litmus dataset rewrite`) (see
# dataset.py): where dead code, comments, renames and reordered functions
# may go in a Python program; ds_base.Rewriter draws and splices them.
# Pure Python, standard library only, no I/O; embedded in litmus like
# mutgen.py.
# SPDX-License-Identifier: MIT

import ast

# match statements came in 3.10: under 3.9 no node is one of these.
_MATCH = getattr(ast, "Match", ())
_MATCH_CAPTURES = tuple(getattr(ast, n) for n in ("MatchAs", "MatchStar")
                        if hasattr(ast, n))
_MATCH_MAPPING = getattr(ast, "MatchMapping", ())

from ds_common import *  # noqa: F401,F403
from ds_base import (Cand, Rewriter as _Rewriter, comment_texts,  # noqa: F401
                     vocab_lists, RENAME_POOL, DEAD_NAMES, DEAD_STRINGS,
                     COMMENTS_GENERIC, COMMENTS_BY_KIND)

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


def _validate_vocab(vocab):
    """Checks a user vocabulary; returns (names, comments, dead) lists,
    dead entries already dedented and wrapped as needed."""
    names, comments, dead = vocab_lists(vocab)
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
    texts = comment_texts(comments, ('#',))
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


class Rewriter(_Rewriter):
    """Semantic-preserving rewrites of one program (see the module
    docstring).  Analyses the source once; variant() is cheap."""

    _NONE = {'v': 'no function-local variable that can be renamed',
             'r': 'no pair of top-level functions that can be swapped'}
    _templates = DEAD_TEMPLATES
    _strings = DEAD_STRINGS

    def __init__(self, source, vocab=None, rename_params=True):
        vnames, vcomments, vdead = _validate_vocab(vocab)
        self.source = source
        self._bom, source = _split_bom(source)
        a = _Src(source)
        self._set_lines(a.n, list(a.lines[:a.n]), a.tail,
                        '\r' if '\r\n' in source else '')
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
        self._set_slots(slots)

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
            cand = Cand(name, fn.name, anchor,
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
        self._pairs = {None: pairs}
        for qq in (1, 2, 3, 4):
            self._pairs[qq] = self._pairs_in(pairs, qq)
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
        self._make_names(vnames, vcomments,
                         self._idents | BUILTIN_NAMES | SOFT_KEYWORDS
                         | set(keyword.kwlist))
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

    # variants --------------------------------------------------------
    def _comment(self, rng, slot):
        indent, _, kind = slot
        return [indent + '# ' + self._comment_text(rng, kind) + self._cr]

    def _reorder(self, rng, q, strength, perm, events):
        self._swap_some(rng, self._pairs[q], strength, perm, events)

    def _ranges(self, perm):
        """The original line ranges in output order."""
        if perm is None:
            return ((1, self._n),)
        blocks = self._blocks
        ranges = []
        for s, e, bid in self._segs:
            if bid is None:
                ranges.append((s, e))
            else:
                b = blocks[perm[bid]]
                ranges.append((b[0], b[1]))
        return ranges


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
