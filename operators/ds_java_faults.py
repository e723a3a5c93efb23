# litmus dataset generator, Java faults (`litmus dataset faults` on Java;
# see ds_java.py): the four kinds of the Python generator, found in the
# tree-sitter-java tree and written so that javac accepts them.
# SPDX-License-Identifier: MIT

import _lt_java
from ds_common import FAULT_KINDS
from ds_base import location, _check_quarter, _short
from ds_java_tree import (JSrc, NUMERIC_TYPES, NUMBER_LITERALS,
                          STRING_METHODS, NUMERIC_METHODS, code_bodies,
                          method_params, stop_at_types)

FLIP = {'+': '-', '-': '+', '*': '/', '/': '*', '%': '/', '<<': '>>',
        '>>': '<<', '>>>': '>>', '&': '|', '|': '&', '^': '&',
        '==': '!=', '!=': '==', '<': '>', '>': '<', '<=': '>=', '>=': '<='}
BOUND = {'<': '<=', '<=': '<', '>': '>=', '>=': '>'}
ASSIGN_FLIP = {'+=': '-=', '-=': '+=', '*=': '/=', '/=': '*=', '%=': '/=',
               '<<=': '>>=', '>>=': '<<=', '>>>=': '>>=', '&=': '|=',
               '|=': '&=', '^=': '&='}
# Expressions that need no parentheses before ` - 1` or after `!`.
TIGHT = frozenset(('identifier', 'field_access', 'method_invocation',
                   'array_access', 'parenthesized_expression', 'this',
                   'true', 'false')) | NUMBER_LITERALS
CONDITIONS = ('if_statement', 'while_statement', 'do_statement',
              'for_statement')
INDEX_METHODS = frozenset(('get', 'charAt', 'substring', 'subList',
                           'codePointAt'))
DEFAULTS = {'int': '0', 'long': '0', 'short': '0', 'byte': '0', 'char': '0',
            'float': '0', 'double': '0', 'boolean': 'false'}


def _op(n):
    return n.child('operator')


class _Types:
    """What the file says about a name's type (all its declarations)."""

    def __init__(self, src):
        self.src = src
        self.decl = src.declared_types()

    def _name_types(self, n):
        src = self.src
        if n.type == 'identifier':
            return self.decl.get(src.seg(n), set())
        if n.type == 'field_access':
            f = n.child('field')
            return self.decl.get(src.seg(f), set()) if f else set()
        if n.type == 'array_access':
            a = n.child('array')
            ts = self._name_types(a) if a is not None else set()
            return {t[:-2] for t in ts if t.endswith('[]')} if ts and all(
                t.endswith('[]') for t in ts) else set()
        return set()

    def stringy(self, n):
        """True when n may well be a String (or unknown enough to be)."""
        t = n.type
        if t in ('string_literal', 'text_block'):
            return True
        if t == 'parenthesized_expression':
            inner = [c for c in n.children if c.named]
            return bool(inner) and self.stringy(inner[0])
        if t == 'binary_expression' and self.src.seg(_op(n)) == '+':
            return (self.stringy(n.child('left'))
                    or self.stringy(n.child('right')))
        if t == 'method_invocation':
            nm = n.child('name')
            return nm is not None and self.src.seg(nm) in STRING_METHODS
        if t == 'ternary_expression':
            return (self.stringy(n.child('consequence'))
                    or self.stringy(n.child('alternative')))
        ts = self._name_types(n)
        return any(x not in NUMERIC_TYPES for x in ts)

    def numeric(self, n):
        """True when n is evidently a number."""
        t = n.type
        if t in NUMBER_LITERALS or t == 'character_literal':
            return True
        if t == 'parenthesized_expression':
            inner = [c for c in n.children if c.named]
            return bool(inner) and self.numeric(inner[0])
        if t == 'unary_expression':
            o = n.child('operand')
            return o is not None and self.numeric(o)
        if t == 'update_expression':
            return True
        if t == 'binary_expression':
            op = self.src.seg(_op(n))
            if op in ('-', '*', '/', '%', '<<', '>>', '>>>'):
                return True
            if op == '+':
                return (self.numeric(n.child('left'))
                        and self.numeric(n.child('right')))
            return False
        if t == 'field_access':
            f = n.child('field')
            if f is not None and self.src.seg(f) == 'length':
                return True
        if t == 'method_invocation':
            nm = n.child('name')
            return nm is not None and self.src.seg(nm) in NUMERIC_METHODS
        if t == 'cast_expression':
            ty = n.child('type')
            return ty is not None and self.src.seg(ty) in NUMERIC_TYPES
        ts = self._name_types(n)
        return bool(ts) and all(x in NUMERIC_TYPES for x in ts)


def _is_one(src, n):
    return n is not None and n.type == 'decimal_integer_literal' \
        and src.seg(n) == '1'


def _int_value(src, n):
    if n.type != 'decimal_integer_literal':
        return None
    try:
        return int(src.seg(n).replace('_', ''))
    except ValueError:
        return None


def _patterns(n):
    """True when an expression binds a pattern variable (`o instanceof
    Leaf leaf`): its flow scoping hangs on the boolean operators around
    it, which BooleanLogic faults would change."""
    top = n
    while top.parent is not None and top.parent.type in (
            'binary_expression', 'unary_expression',
            'parenthesized_expression'):
        top = top.parent
    for x in top.walk():
        if x.type in ('type_pattern', 'record_pattern') or (
                x.type == 'instanceof_expression'
                and x.child('name') is not None):
            return True
    return False


def _constant(n):
    """True when an expression uses no name and no call: a constant the
    reachability rules of javac see through (`while (true)`)."""
    for x in n.walk():
        if x.type in ('identifier', 'method_invocation', 'field_access',
                      'array_access', 'object_creation_expression'):
            return False
    return True


class _JFaults:
    def __init__(self, src):
        self.src = src
        self.types = _Types(src)
        self.out = []
        self.seq = 0

    def add(self, kind, s, e, repl, desc):
        self.seq += 1
        self.out.append((self.src.line_of(s), FAULT_KINDS.index(kind), s,
                         self.seq, kind, e, repl, desc))

    def shift(self, node, delta, what):
        """node -> node +/- 1; `x - 1` -> `x` and `x + 1` -> `x` when that
        is the direction; int literals move."""
        src = self.src
        if node is None or node.sr != node.er:
            return
        text = src.seg(node)
        if node.type == 'binary_expression':
            op = src.seg(_op(node))
            r = node.child('right')
            if _is_one(src, r) and ((delta > 0 and op == '-')
                                    or (delta < 0 and op == '+')):
                if op == '+' and self.types.stringy(node.child('left')):
                    return
                left = node.child('left')
                self.add('OffByOne', node.sb, node.eb, src.seg(left),
                         '%s: `%s` -> `%s`' % (what, _short(text, 40),
                                                _short(src.seg(left), 40)))
                return
        v = _int_value(src, node)
        if v is not None:
            if v + delta < 0:
                return
            repl = str(v + delta)
        else:
            tight = node.type in TIGHT or (
                node.type == 'binary_expression'
                and src.seg(_op(node)) in ('+', '-', '*', '/', '%')
                and not self.types.stringy(node))
            if node.type == 'binary_expression' and \
                    src.seg(_op(node)) == '+' and self.types.stringy(node):
                return
            repl = (text if tight else '(%s)' % text) + (
                ' + 1' if delta > 0 else ' - 1')
        self.add('OffByOne', node.sb, node.eb, repl,
                 '%s: `%s` -> `%s`' % (what, _short(text, 40),
                                        _short(repl, 40)))

    def run(self):
        for owner, body in code_bodies(self.src):
            for n in body.walk(stop_at_types):
                self.visit(n)
            if owner.type == 'method_declaration':
                self.early_returns(owner, body)

    def visit(self, n):
        src, t = self.src, n.type
        if t in ('switch_label', 'annotation', 'marker_annotation'):
            return
        anc = n.parent
        while anc is not None and anc.type not in ('block', 'class_body'):
            if anc.type in ('switch_label', 'annotation',
                            'marker_annotation'):
                return
            anc = anc.parent
        if t == 'binary_expression':
            op = src.seg(_op(n))
            o = _op(n)
            left, right = n.child('left'), n.child('right')
            if op in ('&&', '||') and not _patterns(n):
                r = '||' if op == '&&' else '&&'
                self.add('BooleanLogic', o.sb, o.eb, r,
                         '`%s` -> `%s`' % (op, r))
            elif op in FLIP:
                ok = True
                if op == '+':
                    ok = (not self.types.stringy(left)
                          and not self.types.stringy(right)
                          and (self.types.numeric(left)
                               or self.types.numeric(right)))
                if ok:
                    r = FLIP[op]
                    self.add('OperatorSwap', o.sb, o.eb, r,
                             '`%s` -> `%s` in `%s`' % (
                                 op, r, _short(src.seg(n), 40)))
            if op in ('+', '-') and _is_one(src, right) and (
                    op == '-' or self.types.numeric(left)):
                self.shift(n, 1 if op == '-' else -1, 'bound')
        elif t == 'assignment_expression':
            o = _op(n)
            op = src.seg(o)
            r = ASSIGN_FLIP.get(op)
            left = n.child('left')
            if r and (op != '+=' or self.types.numeric(left)):
                self.add('OperatorSwap', o.sb, o.eb, r,
                         '`%s` -> `%s`' % (op, r))
        elif t == 'unary_expression':
            o = _op(n)
            if src.seg(o) == '!' and not _patterns(n):
                operand = n.child('operand')
                self.add('BooleanLogic', o.sb, operand.sb, '',
                         '`!` removed in `%s`' % _short(src.seg(n), 40))
        elif t == 'array_access':
            ix = n.child('index')
            if ix is not None:
                d = 1 if (ix.type == 'binary_expression'
                          and src.seg(_op(ix)) == '-'
                          and _is_one(src, ix.child('right'))) else -1
                if _int_value(src, ix) is not None:
                    d = 1
                self.shift(ix, d, 'index')
        elif t == 'method_invocation':
            nm = n.child('name')
            args = n.child('arguments')
            if (nm is not None and args is not None
                    and n.child('object') is not None
                    and src.seg(nm) in INDEX_METHODS):
                for a in [c for c in args.children if c.named][:2]:
                    if self.types.numeric(a) and not self.types.stringy(a):
                        d = 1 if (a.type == 'binary_expression'
                                  and src.seg(_op(a)) == '-'
                                  and _is_one(src, a.child('right'))) else -1
                        if _int_value(src, a) is not None:
                            d = 1
                        self.shift(a, d, 'index')
        if t in CONDITIONS:
            self.condition(n)

    def condition(self, n):
        src = self.src
        cond = n.child('condition')
        if cond is None:
            return
        if cond.type == 'parenthesized_expression':
            inner = next((c for c in cond.children if c.named), None)
        else:
            inner = cond
        if inner is None:
            return
        stop = (lambda x: x.type in ('lambda_expression',)
                or stop_at_types(x))
        for sub in inner.walk(stop):
            if sub.type != 'binary_expression':
                continue
            o = _op(sub)
            op = src.seg(o)
            if op not in BOUND:
                continue
            r = BOUND[op]
            self.add('OffByOne', o.sb, o.eb, r,
                     'bound: `%s` -> `%s` in `%s`' % (
                         op, r, _short(src.seg(sub), 40)))
            if n.type in ('for_statement', 'while_statement') and \
                    sub.child('left').type == 'identifier':
                b = sub.child('right')
                if self.types.numeric(b):
                    d = 1 if (b.type == 'binary_expression'
                              and src.seg(_op(b)) == '-'
                              and _is_one(src, b.child('right'))) else -1
                    if _int_value(src, b) is not None:
                        d = 1
                    self.shift(b, d, 'loop bound')
        if n.type == 'for_statement':
            init = n.child('init')
            ty = init.child('type') if init is not None else None
            # `byte b = x + 1` would not compile: int, long, float, double
            if init is not None and init.type == 'local_variable_declaration' \
                    and ty is not None and src.seg(ty) in (
                        'int', 'long', 'float', 'double', 'var'):
                for d in init.children:
                    v = d.child('value') if d.type == 'variable_declarator' \
                        else None
                    if v is not None and self.types.numeric(v):
                        self.shift(v, 1, 'loop start')
        # BooleanLogic: the condition negated (never a constant one: javac
        # would find code unreachable or a return missing)
        if inner.sr != inner.er or _constant(inner) or _patterns(inner):
            return
        if inner.type == 'unary_expression' and src.seg(_op(inner)) == '!':
            return
        text = src.seg(inner)
        repl = '!' + (text if inner.type in TIGHT else '(%s)' % text)
        self.add('BooleanLogic', inner.sb, inner.eb, repl,
                 'condition negated: `%s` -> `%s`' % (_short(text, 40),
                                                      _short(repl, 40)))

    def early_returns(self, m, body):
        """`if (true) return V;` in front of a statement S that starts its
        line: javac accepts it (an `if` never makes what follows
        unreachable) and S is skipped."""
        src = self.src
        rtype = m.child('type')
        rt = src.seg(rtype) if rtype is not None else 'void'
        params = {src.seg(nm) for _, nm in method_params(m) if nm is not None}
        local_names = set()
        stmts = []
        for x in body.walk(lambda x: x.type == 'lambda_expression'
                           or stop_at_types(x)):
            if x.type == 'variable_declarator' or x.type in (
                    'catch_formal_parameter', 'enhanced_for_statement',
                    'resource', 'formal_parameter', 'inferred_parameters'):
                nm = x.child('name')
                if nm is not None:
                    local_names.add(src.seg(nm))
            if x.type == 'identifier' and x.parent.type in (
                    'lambda_expression', 'inferred_parameters',
                    'type_pattern', 'record_pattern',
                    'record_pattern_component'):
                local_names.add(src.seg(x))
            if x.type == 'instanceof_expression' and \
                    x.child('name') is not None:
                local_names.add(src.seg(x.child('name')))
            if (x is not body and x.parent is not None
                    and x.parent.type in ('block',
                                          'switch_block_statement_group')
                    and not _in_switch_value(x, body)
                    and x.named and x.type not in (
                        'switch_label', 'line_comment', 'block_comment')):
                stmts.append(x)
        top = [c for c in body.children if c.named
               and c.type not in ('line_comment', 'block_comment')]
        if not top:
            return
        last = top[-1]
        value = None
        if rt != 'void' and last.type == 'return_statement':
            value = next((c for c in last.children if c.named), None)
        for s in stmts:
            if (s is last or s.type in ('return_statement', 'throw_statement',
                                        'local_class_declaration',
                                        'class_declaration',
                                        'yield_statement')
                    or not src.starts_line(s)):
                continue
            if rt == 'void':
                v = ''
            else:
                v = ' ' + DEFAULTS.get(rt, 'null')
                if value is not None and value.sr == value.er:
                    bound = set(params)
                    for c in top:
                        if c.eb > s.sb:
                            break
                        if c.type == 'local_variable_declaration':
                            for d in c.children:
                                if d.type == 'variable_declarator' and \
                                        d.child('value') is not None:
                                    bound.add(src.seg(d.child('name')))
                    need = set()
                    ok = True
                    for x in value.walk():
                        if x.type == 'identifier' and not (
                                x.parent.type in ('field_access',
                                                  'method_invocation')
                                and x.field in ('field', 'name')):
                            need.add(src.seg(x))
                        if x.type in ('lambda_expression', 'switch_expression',
                                      'object_creation_expression'):
                            ok = False
                    need &= (local_names | params)
                    if ok and need <= bound:
                        v = ' ' + src.seg(value)
            self.add('MisplacedReturn', s.sb, s.sb, 'if (true) return%s; ' % v,
                     'early `return%s` before `%s`' % (
                         ' ' + _short(v, 30) if v else '',
                         _short(src.seg(s), 40)))


def _in_switch_value(x, body):
    """True inside a switch used as a value (javac: no return there)."""
    while x is not body and x is not None:
        if x.type == 'switch_expression' and x.parent is not None and \
                x.parent.type not in ('block', 'switch_block_statement_group',
                                      'constructor_body'):
            return True
        x = x.parent
    return False


def faults(source):
    """Section 4 single-line faults of a Java source (see ds_java.py), by
    line then kind."""
    bom = ''
    if isinstance(source, str) and source.startswith('\ufeff'):
        bom, source = '\ufeff', source[1:]
    src = JSrc(source)
    if src.err:
        raise ValueError(syntax_message(src))
    g = _JFaults(src)
    g.run()
    data = src.data
    pre = b'class LitmusMethod { ' if src.bare else b''
    post = b'\n}' if src.bare else b''
    orig_lines = source.split('\n')
    seen = {source}
    cands = []
    for (line, _, s, _, kind, e, repl, desc) in sorted(g.out):
        rb = repl.encode('utf-8')
        fb = data[:s] + rb + data[e:]
        faulty = fb.decode('utf-8')
        if faulty in seen:
            continue
        seen.add(faulty)
        # one line changes: the edit is within it and adds no line break
        if src.line_of(s) != src.line_of(e) or b'\n' in rb:
            continue
        cands.append((line, s, e, rb, kind, desc, faulty))
    # each faulty text still parses (an incremental parse of the edit)
    k = len(pre)
    bad = _lt_java.edits_have_errors(
        pre + data + post, [(s + k, e + k, rb) for _, s, e, rb, _, _, _
                            in cands])
    res = []
    for (line, s, e, rb, kind, desc, faulty), err in zip(cands, bad):
        if err:
            continue
        new_line = faulty.split('\n', line)[line - 1]
        if new_line == orig_lines[line - 1]:
            continue
        loc = location(line, src.n)
        res.append({'kind': kind, 'line': line, 'quarter': loc['quarter'],
                    'fraction': loc['fraction'], 'source': bom + faulty,
                    'description': '%s: %s' % (kind, desc),
                    'original_line': (bom if line == 1 else '')
                    + orig_lines[line - 1],
                    'faulty_line': (bom if line == 1 else '') + new_line})
    return res


def faults_in_quarter(source, quarter):
    """faults(source) whose line is in the given quarter (1..4)."""
    q = _check_quarter(quarter, allow_none=False)
    return [f for f in faults(source) if f['quarter'] == q]


def syntax_message(src):
    n = src.first_error()
    if n is None:
        return 'line 1: syntax error'
    line = max(n.sr + 1, 1)
    if n.type == 'ERROR':
        text = src.seg(n).strip()
        return 'line %d: syntax error%s' % (
            line, ' at `%s`' % _short(text, 30) if text else '')
    return 'line %d: missing `%s`' % (line, n.type)


__all__ = ['faults', 'faults_in_quarter', 'syntax_message']
