# litmus dataset generator, typed mutants (`litmus dataset typed`) (see dataset.py).  Pure Python, standard
# library only, no I/O; embedded in litmus like mutgen.py.
# SPDX-License-Identifier: MIT

import ast
import random

from ds_common import *  # noqa: F401,F403


TYPED_BINOP = {ast.Add: ('-',), ast.Sub: ('+',), ast.Mult: ('/',),
               ast.Div: ('*',), ast.FloorDiv: ('*', '/'), ast.Mod: ('//',),
               ast.Pow: ('*',), ast.LShift: ('>>',), ast.RShift: ('<<',),
               ast.BitAnd: ('|',), ast.BitOr: ('&',), ast.BitXor: ('&',)}
TYPED_COMPARE = {ast.Lt: ('<=', '>'), ast.LtE: ('<', '>='),
                 ast.Gt: ('>=', '<'), ast.GtE: ('>', '<='),
                 ast.Eq: ('!=',), ast.NotEq: ('==',)}


class _Typed:
    def __init__(self, a):
        self.a = a
        self.out = []
        self.seq = 0

    def add(self, type_, op, start, end, repl, line, end_line, desc):
        self.seq += 1
        self.out.append((line, start, end, self.seq, type_, op, repl,
                         end_line, desc))

    # statement -------------------------------------------------------
    def statements(self):
        a = self.a
        for block in _blocks(a):
            for i, s in enumerate(block):
                if not _is_simple(s) or id(s) in a.docstrings:
                    continue
                if _is_inert(s):
                    continue
                self.statement(block, i, s)
            for s, t in zip(block, block[1:]):
                if (_is_simple(s) and _is_simple(t) and not _is_inert(s)
                        and not _is_inert(t)):
                    ts, tt = a.seg(s), a.seg(t)
                    if ts == tt:
                        continue
                    mid = a.data[a.end(s):a.start(t)].decode('utf-8')
                    self.add('statement', 'swap', a.start(s), a.end(t),
                             tt + mid + ts, s.lineno, t.end_lineno,
                             'swap `%s` and `%s`' % (_short(ts, 40),
                                                     _short(tt, 40)))

    def statement(self, block, i, s):
        a = self.a
        sb, eb = a.start(s), a.end(s)
        text = a.seg(s)
        alone = a.alone_start(s) and a.alone_end(s)
        desc = _short(text)
        # delete
        if len(block) > 1 and alone:
            ls = a.lstart[s.lineno - 1]
            le = (a.lstart[s.end_lineno] if s.end_lineno < len(a.lstart)
                  else len(a.data))
            self.add('statement', 'delete', ls, le, '', s.lineno,
                     s.end_lineno, 'delete `%s`' % desc)
        else:
            self.add('statement', 'delete', sb, eb, 'pass', s.lineno,
                     s.end_lineno, 'delete `%s` (leaves `pass`)' % desc)
        if isinstance(s, ast.Return) and s.value is not None:
            self.add('statement', 'return_value', sb, eb, 'return',
                     s.lineno, s.end_lineno,
                     'replace `%s` with `return`' % desc)
        # duplicate
        if isinstance(s, (ast.Return, ast.Raise, ast.Break, ast.Continue)):
            return
        if alone:
            ls = a.lstart[s.lineno - 1]
            if s.end_lineno < a.n or a.tail:
                le = a.lstart[s.end_lineno]
                copy = a.data[ls:le].decode('utf-8')
                self.add('statement', 'duplicate', le, le, copy, s.lineno,
                         s.end_lineno, 'duplicate `%s`' % desc)
            else:
                copy = a.data[ls:].decode('utf-8')
                eol = '\r\n' if copy.endswith('\r') else '\n'
                copy = copy[:-1] if copy.endswith('\r') else copy
                self.add('statement', 'duplicate', len(a.data),
                         len(a.data), eol + copy, s.lineno, s.end_lineno,
                         'duplicate `%s`' % desc)
        elif s.lineno == s.end_lineno:
            self.add('statement', 'duplicate', sb, eb, text + '; ' + text,
                     s.lineno, s.end_lineno, 'duplicate `%s`' % desc)

    # value -----------------------------------------------------------
    def values(self):
        a = self.a
        for node, parent in a.nodes:
            if isinstance(node, ast.Constant):
                self.constant(node, parent)
            elif isinstance(node, ast.Subscript):
                sl = node.slice
                s, e = a.start(sl), a.end(sl)
                whole, base = _short(a.seg(node)), _short(a.seg(node.value))
                if (isinstance(sl, ast.Constant) and type(sl.value) is int
                        and sl.value == 0):
                    self.add('value', 'index', s, e, '-1', sl.lineno,
                             sl.end_lineno,
                             '`%s` -> `%s[-1]`' % (whole, base))
                elif (isinstance(sl, ast.UnaryOp)
                      and isinstance(sl.op, ast.USub)
                      and isinstance(sl.operand, ast.Constant)
                      and type(sl.operand.value) is int
                      and sl.operand.value == 1):
                    self.add('value', 'index', s, e, '0', sl.lineno,
                             sl.end_lineno,
                             '`%s` -> `%s[0]`' % (whole, base))

    def constant(self, node, parent):
        a = self.a
        v = node.value
        s, e = a.start(node), a.end(node)
        i = a.tok_at(s)
        if i is None:
            return
        t = a.toks[i]
        if v is True or v is False:
            if t.type == _NAME:
                self.add('value', 'bool', t.sb, t.eb, 'False' if v else 'True',
                         node.lineno, node.lineno, '`%s` -> `%s`' % (
                             t.string, 'False' if v else 'True'))
            return
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            if t.type != _NUMBER or t.eb != e:
                return
            op = 'number'
            if id(node) in a.defaults:
                op = 'default'
            else:
                p, inner = parent, node
                if isinstance(p, ast.UnaryOp):
                    inner, p = p, a.parent.get(id(p))
                if isinstance(p, ast.Subscript) and p.slice is inner:
                    op = 'index'
            if isinstance(v, int):
                repls = [_int_text(t.string, v + 1)]
                if v > 0:
                    repls.append(_int_text(t.string, v - 1))
            else:
                w = v + 1.0
                if w != w or w in (float('inf'), float('-inf')):
                    return
                repls = [repr(w)]
            for r in repls:
                self.add('value', op, t.sb, t.eb, r, node.lineno,
                         node.lineno, '`%s` -> `%s`' % (t.string, r))
            return
        if isinstance(v, (str, bytes)):
            if isinstance(parent, ast.Expr):
                return            # docstring or bare string statement
            if t.type != _STRING:
                return
            r = _string_xx(t.string)
            if r is None:
                return
            self.add('value', 'string', t.sb, t.eb, r, t.sl, t.el,
                     '`%s` -> `%s`' % (_short(t.string, 28), _short(r, 28)))

    # decision --------------------------------------------------------
    def decisions(self):
        a = self.a
        toks = a.toks

        def op_at(i, repls, op, what):
            t = toks[i]
            for r in repls:
                self.add('decision', op, t.sb, t.eb, r, t.sl, t.el,
                         '`%s` -> `%s`%s' % (t.string, r, what))

        for node, _ in a.nodes:
            if isinstance(node, ast.BinOp):
                r = TYPED_BINOP.get(type(node.op))
                if r:
                    op_at(a.op_after(node.left), r, 'arith', '')
            elif isinstance(node, ast.AugAssign):
                r = TYPED_BINOP.get(type(node.op))
                if r:
                    op_at(a.op_after(node.target), [x + '=' for x in r],
                          'augassign', '')
            elif isinstance(node, ast.BoolOp):
                for v in node.values[:-1]:
                    i = a.op_after(v)
                    op_at(i, ['or' if toks[i].string == 'and' else 'and'],
                          'logical', '')
            elif isinstance(node, ast.UnaryOp) and isinstance(node.op,
                                                              ast.Not):
                i = a.tok_at(a.start(node))
                if i is None or i + 1 >= len(toks):
                    continue
                t = toks[i]
                self.add('decision', 'not', t.sb, toks[i + 1].sb, '',
                         t.sl, t.el, 'remove `not` in `%s`'
                         % _short(a.seg(node)))
            elif isinstance(node, ast.Compare):
                prev = node.left
                for op, right in zip(node.ops, node.comparators):
                    i = a.op_after(prev)
                    prev = right
                    r = TYPED_COMPARE.get(type(op))
                    if r:
                        op_at(i, r, 'relational', '')
                        continue
                    t = toks[i]
                    if isinstance(op, (ast.IsNot, ast.NotIn)):
                        t2 = toks[i + 1]
                        word = 'is' if isinstance(op, ast.IsNot) else 'in'
                        self.add('decision', word, t.sb, t2.eb, word, t.sl,
                                 t2.el, '`%s %s` -> `%s`' % (
                                     t.string, t2.string, word))
                    elif isinstance(op, ast.Is):
                        op_at(i, ['is not'], 'is', '')
                    elif isinstance(op, ast.In):
                        op_at(i, ['not in'], 'in', '')


def typed_mutants(source):
    """Section 1 mutants of source (see the module docstring)."""
    bom, source = _split_bom(source)
    res = _typed_mutants(source)
    if bom:
        for m in res:
            m['start'] += 3
            m['end'] += 3
            m['source'] = bom + m['source']
    return res


def _typed_mutants(source):
    a = _Src(source)
    g = _Typed(a)
    g.statements()
    g.values()
    g.decisions()
    data = a.data
    seen = {source}
    res = []
    for (line, s, e, _, type_, op, repl, end_line, desc) in sorted(g.out):
        mutated = (data[:s] + repl.encode('utf-8') + data[e:]).decode('utf-8')
        if mutated in seen:
            continue
        seen.add(mutated)
        if not _compiles(mutated):
            continue
        loc = location(line, a.n)
        res.append({'type': type_, 'op': op, 'line': line,
                    'end_line': end_line, 'third': loc['third'],
                    'fraction': loc['fraction'], 'start': s, 'end': e,
                    'replacement': repl, 'source': mutated,
                    'description': desc})
    return res


# ---------------------------------------------------------------- faults
