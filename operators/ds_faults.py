# litmus dataset generator, faults (`litmus dataset faults`) (see dataset.py).  Pure Python, standard
# library only, no I/O; embedded in litmus like mutgen.py.
# SPDX-License-Identifier: MIT

import ast
import random

from ds_common import *  # noqa: F401,F403


FAULT_BINOP = {ast.Add: '-', ast.Sub: '+', ast.Mult: '/', ast.Div: '*',
               ast.FloorDiv: '*', ast.Mod: '//', ast.Pow: '*',
               ast.LShift: '>>', ast.RShift: '<<', ast.BitAnd: '|',
               ast.BitOr: '&', ast.BitXor: '&'}
FAULT_FLIP = {ast.Eq: '!=', ast.NotEq: '==', ast.Lt: '>', ast.Gt: '<',
              ast.LtE: '>=', ast.GtE: '<='}
FAULT_BOUND = {ast.Lt: '<=', ast.LtE: '<', ast.Gt: '>=', ast.GtE: '>'}
_TIGHT = (ast.Name, ast.Constant, ast.Attribute, ast.Subscript, ast.Call,
          ast.List, ast.Tuple, ast.Dict, ast.Set, ast.ListComp, ast.SetComp,
          ast.DictComp, ast.GeneratorExp)
_ARITH = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod,
          ast.MatMult, ast.Pow)


def _one(node):
    return (isinstance(node, ast.Constant) and type(node.value) is int
            and node.value == 1)


def _numeric_names(tree):
    """Names the file uses as numbers (range/enumerate loop indexes,
    assigned numbers or arithmetic, counted with += / -=, compared with
    < <= > >=, combined with an int): an index made of any other name is
    probably a key, and `d[key - 1]` would be a crash, not an off-by-one."""
    out = set()

    def numberish(v):
        return ((isinstance(v, ast.Constant) and type(v.value) in (int, float))
                or isinstance(v, (ast.BinOp, ast.UnaryOp))
                or (isinstance(v, ast.Call) and isinstance(v.func, ast.Name)
                    and v.func.id in ('len', 'int', 'sum', 'abs', 'min',
                                      'max', 'round', 'ord', 'float')))

    def names(t):
        return [t.id] if isinstance(t, ast.Name) else []

    for node in ast.walk(tree):
        if isinstance(node, (ast.For, ast.comprehension)):
            it = node.iter
            if isinstance(it, ast.Call) and isinstance(it.func, ast.Name):
                if it.func.id == 'range':
                    out.update(names(node.target))
                elif (it.func.id == 'enumerate'
                      and isinstance(node.target, ast.Tuple)
                      and node.target.elts):
                    out.update(names(node.target.elts[0]))
        elif isinstance(node, ast.Assign):
            for t in node.targets:
                if numberish(node.value):
                    out.update(names(t))
                elif (isinstance(t, ast.Tuple)
                      and isinstance(node.value, ast.Tuple)
                      and len(t.elts) == len(node.value.elts)):
                    for x, v in zip(t.elts, node.value.elts):
                        if numberish(v):
                            out.update(names(x))
        elif isinstance(node, ast.AugAssign):
            if isinstance(node.op, (ast.Add, ast.Sub)):
                out.update(names(node.target))
        elif isinstance(node, ast.Compare):
            if any(isinstance(op, (ast.Lt, ast.LtE, ast.Gt, ast.GtE))
                   for op in node.ops):
                for x in [node.left] + node.comparators:
                    out.update(names(x))
        elif isinstance(node, ast.BinOp):
            for x, y in ((node.left, node.right), (node.right, node.left)):
                if isinstance(y, ast.Constant) and type(y.value) is int:
                    out.update(names(x))
    return out


class _Faults:
    def __init__(self, a):
        self.a = a
        self.out = []
        self.seq = 0
        self.numeric = _numeric_names(a.tree)

    def index_like(self, node):
        return not isinstance(node, ast.Name) or node.id in self.numeric

    def add(self, kind, s, e, repl, desc):
        self.seq += 1
        self.out.append((self.a.line_of(s), FAULT_KINDS.index(kind), s,
                         self.seq, kind, e, repl, desc))

    def shift(self, kind, node, delta, what):
        """node -> node +/- 1: `x - 1` -> `x` (delta +1), `x + 1` -> `x`
        (delta -1), k -> k + delta, otherwise `node + 1` / `node - 1`."""
        a = self.a
        if node.lineno != node.end_lineno:
            return
        text = a.seg(node)
        if (isinstance(node, ast.BinOp) and _one(node.right)
                and ((delta > 0 and isinstance(node.op, ast.Sub))
                     or (delta < 0 and isinstance(node.op, ast.Add)))):
            repl = a.seg(node.left)
        elif isinstance(node, ast.Constant) and type(node.value) is int:
            if node.value + delta < 0:
                return
            repl = str(node.value + delta)
        else:
            tight = isinstance(node, _TIGHT) or (
                isinstance(node, ast.UnaryOp)
                and not isinstance(node.op, ast.Not)) or (
                isinstance(node, ast.BinOp) and isinstance(node.op, _ARITH))
            repl = (text if tight else '(%s)' % text) + (
                ' + 1' if delta > 0 else ' - 1')
        self.add('OffByOne', a.start(node), a.end(node), repl,
                 '%s: `%s` -> `%s`' % (what, _short(text, 40),
                                        _short(repl, 40)))

    def run(self):
        a = self.a
        toks = a.toks
        for node, parent in a.nodes:
            # OffByOne ------------------------------------------------
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id == 'range' and not node.keywords
                    and 1 <= len(node.args) <= 3
                    and not any(isinstance(x, ast.Starred)
                                for x in node.args)):
                stop = node.args[0] if len(node.args) == 1 else node.args[1]
                d = -1 if (isinstance(stop, ast.BinOp) and _one(stop.right)
                           and isinstance(stop.op, ast.Add)) else 1
                self.shift('OffByOne', stop, d, 'range stop')
                if len(node.args) >= 2:
                    st = node.args[0]
                    d = -1 if (isinstance(st, ast.BinOp) and _one(st.right)
                               and isinstance(st.op, ast.Add)) else 1
                    self.shift('OffByOne', st, d, 'range start')
            elif isinstance(node, ast.Subscript):
                sl = node.slice
                if isinstance(sl, ast.Slice):
                    for b in (sl.lower, sl.upper):
                        if b is not None and self.index_like(b):
                            d = -1 if (isinstance(b, ast.BinOp)
                                       and _one(b.right)
                                       and isinstance(b.op, ast.Add)) else 1
                            self.shift('OffByOne', b, d, 'slice bound')
                elif isinstance(sl, ast.Constant):
                    if type(sl.value) is int:
                        self.shift('OffByOne', sl, 1, 'index')
                elif (not isinstance(sl, ast.Tuple)
                      and self.index_like(sl)):
                    d = 1 if (isinstance(sl, ast.BinOp) and _one(sl.right)
                              and isinstance(sl.op, ast.Sub)) else -1
                    self.shift('OffByOne', sl, d, 'index')
            elif isinstance(node, (ast.If, ast.While)):
                for sub in ast.walk(node.test):
                    if (isinstance(sub, ast.Compare) and len(sub.ops) == 1
                            and type(sub.ops[0]) in FAULT_BOUND):
                        i = a.op_after(sub.left)
                        t = toks[i]
                        r = FAULT_BOUND[type(sub.ops[0])]
                        self.add('OffByOne', t.sb, t.eb, r,
                                 'bound: `%s` -> `%s` in `%s`' % (
                                     t.string, r, _short(a.seg(sub), 40)))
                # BooleanLogic: negate the condition
                test = node.test
                if (test.lineno == test.end_lineno
                        and not (isinstance(test, ast.UnaryOp)
                                 and isinstance(test.op, ast.Not))):
                    text = a.seg(test)
                    simple = isinstance(test, (ast.Name, ast.Attribute,
                                               ast.Call, ast.Subscript,
                                               ast.Compare, ast.Constant))
                    repl = 'not ' + (text if simple else '(%s)' % text)
                    self.add('BooleanLogic', a.start(test), a.end(test),
                             repl, 'condition negated: `%s` -> `%s`'
                             % (_short(text, 40), _short(repl, 40)))
            if (isinstance(node, ast.BinOp) and _one(node.right)
                    and isinstance(node.op, (ast.Add, ast.Sub))):
                self.shift('OffByOne', node,
                           1 if isinstance(node.op, ast.Sub) else -1,
                           'bound')
            # OperatorSwap ----------------------------------------------
            if isinstance(node, ast.BinOp):
                r = FAULT_BINOP.get(type(node.op))
                if r:
                    t = toks[a.op_after(node.left)]
                    self.add('OperatorSwap', t.sb, t.eb, r,
                             '`%s` -> `%s` in `%s`' % (
                                 t.string, r, _short(a.seg(node), 40)))
            elif isinstance(node, ast.AugAssign):
                r = FAULT_BINOP.get(type(node.op))
                if r:
                    t = toks[a.op_after(node.target)]
                    self.add('OperatorSwap', t.sb, t.eb, r + '=',
                             '`%s` -> `%s=`' % (t.string, r))
            elif isinstance(node, ast.Compare):
                prev = node.left
                for op, right in zip(node.ops, node.comparators):
                    i = a.op_after(prev)
                    prev = right
                    t = toks[i]
                    if type(op) in FAULT_FLIP:
                        r = FAULT_FLIP[type(op)]
                        self.add('OperatorSwap', t.sb, t.eb, r,
                                 '`%s` -> `%s` in `%s`' % (
                                     t.string, r, _short(a.seg(node), 40)))
                    elif isinstance(op, (ast.IsNot, ast.NotIn)):
                        t2 = toks[i + 1]
                        w = 'is' if isinstance(op, ast.IsNot) else 'in'
                        self.add('BooleanLogic', t.sb, t2.eb, w,
                                 '`%s %s` -> `%s`' % (t.string, t2.string, w))
                    elif isinstance(op, (ast.Is, ast.In)):
                        r = t.string + ' not' if isinstance(op, ast.Is) \
                            else 'not in'
                        self.add('BooleanLogic', t.sb, t.eb, r,
                                 '`%s` -> `%s`' % (t.string, r))
            # BooleanLogic ------------------------------------------------
            elif isinstance(node, ast.BoolOp):
                for v in node.values[:-1]:
                    i = a.op_after(v)
                    t = toks[i]
                    r = 'or' if t.string == 'and' else 'and'
                    self.add('BooleanLogic', t.sb, t.eb, r,
                             '`%s` -> `%s`' % (t.string, r))
            elif (isinstance(node, ast.UnaryOp)
                  and isinstance(node.op, ast.Not)):
                i = a.tok_at(a.start(node))
                if i is not None and i + 1 < len(toks):
                    self.add('BooleanLogic', toks[i].sb, toks[i + 1].sb, '',
                             '`not` removed in `%s`' % _short(a.seg(node), 40))
            # MisplacedReturn --------------------------------------------
            if isinstance(node, _FUNCS):
                self.early_returns(node)

    def early_returns(self, fn):
        a = self.a
        params = set()
        args = fn.args
        for arg in (args.posonlyargs + args.args + args.kwonlyargs
                    + [args.vararg, args.kwarg]):
            if arg is not None:
                params.add(arg.arg)
        locals_ = set(params)
        stmts = []          # simple statements of fn, nested defs excluded
        returns_value = False
        pending = list(fn.body)
        while pending:
            s = pending.pop()
            if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef,
                              ast.ClassDef)):
                locals_.add(s.name)
                continue
            for sub in _own_nodes(s):
                if isinstance(sub, ast.Name) and not isinstance(sub.ctx,
                                                                ast.Load):
                    locals_.add(sub.id)
                elif isinstance(sub, ast.Return) and sub.value is not None:
                    returns_value = True
                elif isinstance(sub, (ast.Global, ast.Nonlocal)):
                    locals_.difference_update(sub.names)
            if _is_simple(s):
                stmts.append(s)
            else:
                for field in ('body', 'orelse', 'finalbody'):
                    pending.extend(getattr(s, field, ()) or ())
                for h in getattr(s, 'handlers', ()) or ():
                    pending.extend(h.body)
                for c in getattr(s, 'cases', ()) or ():
                    pending.extend(c.body)
        last = fn.body[-1]
        value = None
        if isinstance(last, ast.Return) and last.value is not None:
            value = last.value
        for s in sorted(stmts, key=lambda s: (s.lineno, s.col_offset)):
            if (s is last or id(s) in a.docstrings or id(s) in a.skip
                    or isinstance(s, (ast.Return, ast.Raise, ast.Pass,
                                      ast.Global, ast.Nonlocal))
                    or (isinstance(s, ast.Expr)
                        and isinstance(s.value, ast.Constant))
                    or not a.alone_start(s)):
                continue
            if not returns_value:
                v = ''
            else:
                v = ' None'
                if value is not None and value.lineno == value.end_lineno:
                    bound = set(params)
                    for t in fn.body:
                        if t.end_lineno >= s.lineno:
                            break
                        if isinstance(t, (ast.Assign, ast.AugAssign,
                                          ast.AnnAssign)):
                            for sub in ast.walk(t):
                                if (isinstance(sub, ast.Name)
                                        and isinstance(sub.ctx, ast.Store)):
                                    bound.add(sub.id)
                    need = {n.id for n in ast.walk(value)
                            if isinstance(n, ast.Name)} & locals_
                    if need <= bound:
                        v = ' ' + a.seg(value)
            pos = a.start(s)
            self.add('MisplacedReturn', pos, pos, 'return%s; ' % v,
                     'early `return%s` before `%s`' % (
                         _short(v, 30), _short(a.seg(s), 40)))


def faults(source):
    """Section 4 single-line faults of source (see the module docstring),
    by line then kind."""
    bom, source = _split_bom(source)
    res = _faults(source)
    if bom:
        for f in res:
            f['source'] = bom + f['source']
            if f['line'] == 1:
                f['original_line'] = bom + f['original_line']
                f['faulty_line'] = bom + f['faulty_line']
    return res


def _faults(source):
    a = _Src(source)
    g = _Faults(a)
    g.run()
    data = a.data
    orig_lines = source.split('\n')
    seen = {source}
    res = []
    for (line, _, s, _, kind, e, repl, desc) in sorted(g.out):
        faulty = (data[:s] + repl.encode('utf-8') + data[e:]).decode('utf-8')
        if faulty in seen:
            continue
        seen.add(faulty)
        new_lines = faulty.split('\n')
        if len(new_lines) != len(orig_lines):
            continue
        diff = [i for i, (x, y) in enumerate(zip(orig_lines, new_lines))
                if x != y]
        if diff != [line - 1]:
            continue
        if not _compiles(faulty):
            continue
        loc = location(line, a.n)
        res.append({'kind': kind, 'line': line, 'quarter': loc['quarter'],
                    'fraction': loc['fraction'], 'source': faulty,
                    'description': '%s: %s' % (kind, desc),
                    'original_line': orig_lines[line - 1],
                    'faulty_line': new_lines[line - 1]})
    return res


def faults_in_quarter(source, quarter):
    """faults(source) whose line is in the given quarter (1..4)."""
    q = _check_quarter(quarter, allow_none=False)
    return [f for f in faults(source) if f['quarter'] == q]


# ---------------------------------------------------------------- rewrites
