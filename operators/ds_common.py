# litmus dataset generator, what the Python generators share: tokens, the
# source model and checks (see dataset.py; what the Java generators share
# with them is in ds_base.py).  Pure Python, standard library only, no I/O;
# embedded in litmus like mutgen.py.
# SPDX-License-Identifier: MIT

import ast
import bisect
import builtins
import io
import keyword
import random
import re
import symtable
import textwrap
import tokenize

from ds_base import (count_lines as _count_lines, location,  # noqa: F401
                     _check_quarter, _short, _split_bom, call_text,
                     source_bytes)

BUILTIN_NAMES = frozenset(dir(builtins))
SOFT_KEYWORDS = frozenset(getattr(keyword, 'softkwlist', ()) or
                          ('_', 'case', 'match'))
FAULT_KINDS = ('OffByOne', 'MisplacedReturn', 'BooleanLogic', 'OperatorSwap')
_FSTRING_START = getattr(tokenize, 'FSTRING_START', None)
_FSTRING_END = getattr(tokenize, 'FSTRING_END', None)
_NAME, _OP, _STRING, _NUMBER = (tokenize.NAME, tokenize.OP, tokenize.STRING,
                                tokenize.NUMBER)
_NEWLINE, _INDENT, _DEDENT = tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT
_DROPPED = (tokenize.NL, tokenize.COMMENT, tokenize.ENCODING,
            tokenize.ENDMARKER)
_LINE_START = (_NEWLINE, _INDENT, _DEDENT)
_WORD = re.compile(r'[A-Za-z_][A-Za-z_0-9]*')

_COMPOUND = tuple(getattr(ast, n) for n in (
    'FunctionDef', 'AsyncFunctionDef', 'ClassDef', 'If', 'For', 'AsyncFor',
    'While', 'With', 'AsyncWith', 'Try', 'TryStar', 'Match')
    if hasattr(ast, n))
_FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef)
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda,
           ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


# ---------------------------------------------------------------- checks

def check_call(expr):
    """None when `expr` (an input of a record: a call such as "f(1, 2)")
    is one Python expression; else a one-line reason.  Parsing only:
    nothing is evaluated here."""
    text, why = call_text(expr)
    if why:
        return why
    try:
        ast.parse(text, '<input>', 'eval')
    except SyntaxError as exc:
        return exc.msg or 'invalid syntax'
    except (ValueError, MemoryError, RecursionError) as exc:
        return ' '.join(str(exc).split()) or type(exc).__name__
    return None


def _compiles(src):
    try:
        compile(src, '<variant>', 'exec', 0, True)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return False
    return True


# ---------------------------------------------------------------- analysis

class _Tok:
    __slots__ = ('type', 'string', 'sl', 'sc', 'el', 'ec', 'sb', 'eb')

    def __init__(self, type_, string, sl, sc, el, ec, sb, eb):
        self.type, self.string = type_, string
        self.sl, self.sc, self.el, self.ec = sl, sc, el, ec
        self.sb, self.eb = sb, eb


class _Src:
    """One parse of a source: lines, byte offsets, significant tokens
    (NEWLINE/INDENT/DEDENT kept, NL/COMMENT dropped), tree, and the nodes
    the generators may touch."""

    def __init__(self, source):
        self.data = source_bytes(source)
        self.text = source
        parts = source.split('\n')
        self.tail = source.endswith('\n')
        self.n = _count_lines(source)
        self.lines = parts[:self.n] if self.n else ['']
        self.lstart = []
        pos = 0
        for p in parts:
            self.lstart.append(pos)
            pos += len(p.encode('utf-8')) + 1
        self.ascii = [ln.isascii() for ln in self.lines]
        try:
            self.tree = ast.parse(source)
        except SyntaxError as e:
            raise ValueError('source does not parse: line %s: %s'
                             % (e.lineno, e.msg))
        except (RecursionError, MemoryError):
            raise ValueError('source is nested too deeply')
        self.toks = []
        self.fstr = []       # token indexes inside f-strings (3.12+)
        depth = 0
        try:
            gen = tokenize.generate_tokens(io.StringIO(source).readline)
            for t in gen:
                if t.type in _DROPPED:
                    continue
                if t.type == _FSTRING_START:
                    depth += 1
                elif t.type == _FSTRING_END:
                    depth -= 1
                (sl, sc), (el, ec) = t.start, t.end
                self.toks.append(_Tok(t.type, t.string, sl, sc, el, ec,
                                      self.boff(sl, sc), self.boff(el, ec)))
                if depth or t.type == _FSTRING_END:
                    self.fstr.append(len(self.toks) - 1)
        except (tokenize.TokenError, SyntaxError) as e:
            raise ValueError('source does not tokenize: %s' % (e,))
        self.tstarts = [t.sb for t in self.toks]
        self.fstr = set(self.fstr)
        self._prepare()

    # positions -------------------------------------------------------
    def boff(self, line, ccol):
        """Byte offset of (1-based line, character column)."""
        if line > len(self.lstart):
            return len(self.data)
        if line - 1 < len(self.ascii) and self.ascii[line - 1]:
            return self.lstart[line - 1] + ccol
        text = self.lines[line - 1] if line - 1 < len(self.lines) else ''
        return self.lstart[line - 1] + len(text[:ccol].encode('utf-8'))

    def ccol(self, line, bcol):
        if self.ascii[line - 1]:
            return bcol
        return len(self.lines[line - 1].encode('utf-8')[:bcol]
                   .decode('utf-8', 'ignore'))

    def start(self, node):
        return self.lstart[node.lineno - 1] + node.col_offset

    def end(self, node):
        return self.lstart[node.end_lineno - 1] + node.end_col_offset

    def seg(self, node):
        return self.data[self.start(node):self.end(node)].decode('utf-8')

    def line_of(self, off):
        return bisect.bisect_right(self.lstart, off)

    def tok_index(self, off):
        return bisect.bisect_left(self.tstarts, off)

    def tok_at(self, off):
        i = self.tok_index(off)
        if i < len(self.toks) and self.toks[i].sb == off:
            return i
        return None

    def op_after(self, node):
        """Index of the operator token that follows an operand."""
        i = self.tok_index(self.end(node))
        while i < len(self.toks) and self.toks[i].string in (')', ']', '}'):
            i += 1
        return i

    # structure -------------------------------------------------------
    def _prepare(self):
        skip = set()
        self.docstrings = set()
        self.defaults = set()
        self.main_guard = None
        for node in ast.walk(self.tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef,
                                 ast.Lambda)):
                a = node.args
                for arg in (a.posonlyargs + a.args + a.kwonlyargs
                            + [a.vararg, a.kwarg]):
                    if arg is not None and arg.annotation is not None:
                        skip.add(id(arg.annotation))
                for d in a.defaults + [d for d in a.kw_defaults if d]:
                    self.defaults.add(id(d))
                if getattr(node, 'returns', None) is not None:
                    skip.add(id(node.returns))
            elif isinstance(node, ast.AnnAssign):
                skip.add(id(node.annotation))
            if isinstance(node, (ast.Module, ast.FunctionDef,
                                 ast.AsyncFunctionDef, ast.ClassDef)):
                b = node.body
                if (b and isinstance(b[0], ast.Expr)
                        and isinstance(b[0].value, ast.Constant)
                        and isinstance(b[0].value.value, str)):
                    self.docstrings.add(id(b[0]))
        for node in self.tree.body:
            if _is_main_guard(node):
                skip.add(id(node))
                self.main_guard = node
        self.skip = skip
        # (node, parent) pairs the generators look at: not inside
        # f-strings (positions there are unreliable in 3.11), annotations
        # or the __main__ block.
        nodes = []
        pending = [(self.tree, None)]
        while pending:
            node, parent = pending.pop()
            nodes.append((node, parent))
            if isinstance(node, ast.JoinedStr):
                continue
            for child in ast.iter_child_nodes(node):
                if id(child) not in skip:
                    pending.append((child, node))
        nodes.sort(key=lambda np: (getattr(np[0], 'lineno', 0),
                                   getattr(np[0], 'col_offset', 0)))
        self.nodes = nodes
        self.parent = {id(n): p for n, p in nodes}

    def alone_start(self, node):
        """True when node's first token begins a logical line."""
        i = self.tok_at(self.start(node))
        if i is None:
            return False
        return i == 0 or self.toks[i - 1].type in _LINE_START

    def alone_end(self, node):
        """True when nothing but blanks or a comment follows node on its
        last line."""
        line = self.lines[node.end_lineno - 1]
        rest = line.encode('utf-8')[node.end_col_offset:].decode(
            'utf-8', 'ignore').strip()
        return rest == '' or rest.startswith('#')


def _is_main_guard(node):
    if not isinstance(node, ast.If):
        return False
    t = node.test
    if not (isinstance(t, ast.Compare) and len(t.ops) == 1
            and isinstance(t.ops[0], ast.Eq)):
        return False
    sides = [t.left, t.comparators[0]]
    names = [s for s in sides if isinstance(s, ast.Name)]
    consts = [s for s in sides if isinstance(s, ast.Constant)]
    return (len(names) == 1 and names[0].id == '__name__' and len(consts) == 1
            and consts[0].value == '__main__')


def _int_text(text, value):
    """An int literal for value, in the base of the literal text."""
    low = text.lower()
    if value >= 0:
        for p, f in (('0x', '#x'), ('0o', '#o'), ('0b', '#b')):
            if low.startswith(p):
                return format(value, f)
    return str(value)


def _is_fstring(text):
    q = min(i for i in (text.find('"'), text.find("'")) if i != -1)
    return 'f' in text[:q].lower()


def _string_xx(text):
    """'s' -> 'XXsXX', '' -> 'XX', prefixes and quotes kept; None for
    f-strings."""
    q = min(i for i in (text.find('"'), text.find("'")) if i != -1)
    prefix = text[:q]
    if 'f' in prefix.lower():
        return None
    quote = text[q:q + 3] if text[q:q + 3] in ('"""', "'''") else text[q]
    body = text[q + len(quote):len(text) - len(quote)]
    if body == '':
        return prefix + quote + 'XX' + quote
    return prefix + quote + 'XX' + body + 'XX' + quote


def _is_simple(stmt):
    return not isinstance(stmt, _COMPOUND)


def _is_inert(stmt):
    """Statements the statement operators leave alone."""
    return (isinstance(stmt, (ast.Pass, ast.Import, ast.ImportFrom,
                              ast.Global, ast.Nonlocal))
            or (isinstance(stmt, ast.Expr)
                and isinstance(stmt.value, ast.Constant)))


def _blocks(a):
    """Every statement list the generators may touch."""
    for node, _ in a.nodes:
        for field in ('body', 'orelse', 'finalbody'):
            v = getattr(node, field, None)
            if isinstance(v, list) and v and isinstance(v[0], ast.stmt):
                yield [s for s in v if id(s) not in a.skip]


# ---------------------------------------------------------------- typed


def _own_nodes(stmt):
    """Nodes of a statement that belong to its scope (not nested
    functions, classes, lambdas or comprehensions)."""
    pending = [stmt]
    while pending:
        node = pending.pop()
        yield node
        for child in ast.iter_child_nodes(node):
            if not isinstance(child, _SCOPES):
                pending.append(child)


# Everything above, for `from ds_common import *` in the generators.
__all__ = [_n for _n in list(globals()) if not _n.startswith('__')]
