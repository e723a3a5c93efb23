# litmus dataset generator: the program variants of `litmus dataset
# typed|faults|rewrite`.
#
# Runs inside the interpreter embedded in litmus, like mutgen.py: pure
# Python, standard library only, no I/O, never executes the subject code,
# deterministic (random.Random(seed) is the only source of choice).  Every
# function returns plain dicts/lists of str/int/float/None so that the C side
# can hand them to json.dumps.  The engine verifies each variant by running
# it in the sandbox; this module only promises that each one compiles.
# SPDX-License-Identifier: MIT
"""Program variants for the dataset commands (shared SEEDS.md sections 1, 4).

Input
-----
Every entry point takes the program as ``str``.  A leading byte order mark
is kept (and counted in byte offsets); CRLF line ends are kept (inserted
lines get them too); a source that does not parse, contains NUL or uses
lone CR line ends raises ValueError.

Locations
---------
Lines are 1-based.  For a change on line ``L`` of a file of ``N`` lines
(``N`` = number of newline-terminated lines, plus one for a last line
without a newline; at least 1 in the formulas)::

    k        = min(L, N) - 1
    fraction = k / N                      # in [0, 1)
    quarter  = k * 4 // N + 1             # 1..4: fraction in [(q-1)/4, q/4)
    third    = ("first", "middle", "last")[k * 3 // N]
                                          # [0,1/3), [1/3,2/3), [2/3,1)

Integer arithmetic decides the quarter and third, so there is no rounding at
the boundaries.  ``location(line, total_lines)`` computes all of them.

typed_mutants(source) -> [mutant]
---------------------------------
Section 1 mutants, in source order (by line, then byte offset), deduplicated
by resulting program, each compiling and differing from the original::

    {"type": "statement"|"value"|"decision", "op", "line", "end_line",
     "third", "fraction", "start", "end", "replacement", "source",
     "description"}

``start``/``end`` are byte offsets in the UTF-8 source and
``source == (src_bytes[:start] + replacement + src_bytes[end:])``.
``line``/``end_line`` are the original lines the change is about (for a
duplicated statement: the statement that is copied, although the copy is
inserted after it; for a swap: from the first statement to the second).
Operators (``op``):

* statement: ``delete`` (the statement's lines are removed; ``pass`` in its
  place when it is the only statement of its block or shares its line),
  ``return_value`` (``return x`` -> ``return``), ``duplicate`` (a copy on the
  next line; never for return/raise/break/continue), ``swap`` (two adjacent
  simple statements of one block, not when their texts are equal).  Never
  touched: docstrings and other bare constant expressions, ``pass``,
  imports, ``global``/``nonlocal``, ``def``/``class`` (compound statements).
* value: ``number`` (int n -> n+1, n -> n-1 when n > 0, the literal's base
  kept; float x -> x+1.0), ``index`` (the same in a subscript, plus
  ``a[0]`` -> ``a[-1]`` and ``a[-1]`` -> ``a[0]``), ``default`` (the same for
  a parameter's default value), ``string`` (``''`` -> ``'XX'``, ``'s'`` ->
  ``'XXsXX'``; not docstrings or bare string statements), ``bool``
  (True <-> False).  ``None`` is left alone.
* decision: ``arith`` (``+``<->``-``, ``*``<->``/``, ``//``->``*``,
  ``//``->``/``, ``%``->``//``, ``**``->``*``, ``<<``<->``>>``,
  ``&``<->``|``, ``^``->``&``), ``augassign`` (the same on ``+=`` ...),
  ``relational`` (``<``->``<=``, ``<``->``>``, ``<=``->``<``, ``<=``->``>=``,
  and mirrored for ``>``/``>=``; ``==``<->``!=``), ``logical`` (and<->or),
  ``not`` (``not x`` -> ``x``), ``is`` (is <-> is not), ``in``
  (in <-> not in).

Nothing inside f-strings, annotations or the ``if __name__ ==
'__main__':`` block is mutated.

faults(source) -> [fault]; faults_in_quarter(source, quarter)
-------------------------------------------------------------
Section 4 single-line faults::

    {"kind": "OffByOne"|"MisplacedReturn"|"BooleanLogic"|"OperatorSwap",
     "line", "quarter", "fraction", "source", "description",
     "original_line", "faulty_line"}

Each faulty program has the original's line count and differs from it on
exactly line ``line`` (checked), compiles, and its fault lies in the
program's own logic: code in functions, classes or at module level, never
docstrings, comments, imports, annotations or the ``__main__`` block.

* OffByOne: the stop of ``range(...)`` (``range(n)`` -> ``range(n + 1)``,
  ``range(n - 1)`` -> ``range(n)``, ``range(n + 1)`` -> ``range(n)``), its
  start (``range(a, b)`` -> ``range(a + 1, b)``), a slice bound
  (``a[:k]`` -> ``a[:k + 1]``), an index (``a[i]`` -> ``a[i - 1]``,
  ``a[i - 1]`` -> ``a[i]``, ``a[0]`` -> ``a[1]``; a bare name as index or
  bound only when the file uses it as a number: a range/enumerate loop
  index, assigned a number or arithmetic, counted with ``+=``/``-=``,
  compared with ``<``..``>=`` or combined with an int, so that dict keys
  are left alone), a bound in an ``if``/
  ``while`` condition (``<`` <-> ``<=``, ``>`` <-> ``>=``) and any other
  ``x - 1`` / ``x + 1`` (-> ``x``).
* BooleanLogic: ``and`` <-> ``or``, ``not`` removed, ``not`` added to an
  ``if``/``while`` condition, ``is`` <-> ``is not``, ``in`` <-> ``not in``.
* OperatorSwap: ``+``<->``-``, ``*``<->``/``, ``//``->``*``, ``%``->``//``,
  ``**``->``*``, shifts, bitwise, the same on augmented assignments, and
  comparison flips (``==``<->``!=``, ``<``<->``>``, ``<=``<->``>=``).
* MisplacedReturn: an early return is put *in front of* a simple statement
  S of a function (S starts its line, is not a return/raise, not the last
  statement of the function): the line ``    S`` becomes
  ``    return V; S``.  ``return V; S`` is valid Python whatever S is (S is a
  simple statement, a ``;`` never precedes a compound one), S becomes
  unreachable (the program behaves as if a ``return`` line had been
  inserted before S), the line count does not change, and the identifiers
  and line structure of the file stay the same, which keeps the rewrite
  determinism contract (below).  V is the expression of the function's
  final ``return`` when all its local names are parameters or are assigned
  by top-level statements above S, ``None`` when that return has a value
  that cannot be used, and V is empty (a bare ``return``) when the function
  never returns a value.

Rewriter(source, vocab=None, rename_params=True)
------------------------------------------------
Semantic-preserving rewrites.  The source is analysed once (tokenize, ast,
symtable); ``variant()`` then only draws choices and splices lines, with no
parsing (thousands of variants per second).

``vocab`` (optional, e.g. the parsed JSON an LLM produced)::

    {"names": [identifier...], "comments": [one line...],
     "dead_code": [statement block...]}

Each entry is validated and a bad one raises ValueError naming it: names
must be identifiers, not keywords, soft keywords, builtins or dunder names;
comments one line (no CR/LF/NUL; a leading ``#`` is optional); dead code
must compile as a statement block, must not contain return, yield, await,
global, nonlocal, import, or break/continue outside a loop, and must not
bind a builtin name.  A dead-code snippet that is not already a single
``if``/``while`` with a constant false condition is wrapped in
``if False:``.  Entries that are valid but unusable for this program (a
name the program already uses, a snippet binding such a name) are skipped
(listed in ``Rewriter.skipped``); a list left empty falls back to the
built-in texts.

``variant(ops, strength, quarter=None, seed=0, fault_line=None)``::

    {"source", "fault_line", "quarter",
     "applied": [{"op": "d"|"c"|"v"|"r", "line", "detail"}]}

* ``ops``: a comma-separated composition such as ``"c,v,d"`` read as
  function composition, applied right to left: ``c(v(d(P)))`` = dead code
  first, then renames, then comments.  ``applied`` lists the applications
  in that order; ``line`` is a line of the final output (an inserted line, a
  renamed variable's binding line, a moved function's ``def`` line).
* ``strength`` (1..8): the number of applications of EACH op in ``ops``.
  ``d``/``c`` always apply exactly ``strength`` times (slots are drawn
  without replacement while enough exist, then with replacement).  ``v``
  renames ``min(strength, eligible variables)`` variables; ``r`` swaps
  ``min(strength, possible disjoint pairs)`` pairs of function blocks (the
  pairs are disjoint, so the reordering is never the identity).  When an op
  has nothing applicable (in the quarter), ValueError is raised; when it
  has fewer than ``strength``, ``applied`` is shorter, so a caller that
  needs the full strength compares counts.
* ``quarter`` (1..4 or None): every choice is made in the ORIGINAL file's
  coordinates; insertions (``d``, ``c``) go before statements whose
  original line is in the quarter, ``v`` renames variables whose first
  binding is in the quarter, ``r`` swaps pairs of which at least one
  function's ``def`` line is in the quarter.
* ``fault_line``: a line of this source, reported as its line in the output
  (insertions before it shift it, a function move carries it).

Determinism contract: all choices depend only on the seed, the line
structure (which lines start statements, their indentation, compound
statement kinds, function blocks) and identifier sets, never on the text
of operators or constants.  A clean program and a faulty copy from
``faults()`` (one line differs) therefore get the same choices for the same
``variant()`` arguments, and their outputs differ on exactly the returned
``fault_line``.

* ``d``: a dead block (``if False:`` / ``while False:`` / ``if 3 > 7:`` /
  ``for x in ():``... using fresh names that appear nowhere in the program
  and are not builtins, so no scope changes) as new lines before a statement,
  with that statement's indentation.  Not before docstrings, nor before or
  among module-level ``from __future__`` imports; between a decorator and
  its ``def`` never (the slot of a decorated definition is its first
  decorator).
* ``c``: a plausible but wrong comment line before a statement (docstring
  and ``__future__`` statements allowed), indented like it, chosen by the
  kind of statement (loop, condition, def, ...).
* ``v``: a function-local variable renamed to a misleading fresh name in
  every occurrence of its function (symtable decides: locals only, not
  global/nonlocal/imported; not when a nested class uses the name, a nested
  scope has it as a parameter or declares it global; not when the name
  appears inside a string or f-string of the function; not in functions
  calling eval/exec/locals/vars; attributes ``.x`` and keyword arguments
  ``f(x=...)`` are never touched).  Parameters too (``rename_params``),
  except in methods and decorated functions, keyword-only ones, and any
  name that is used as a keyword argument anywhere in the file or when any
  call unpacks ``**``.  The new names clash with no identifier of the file
  (attributes included), keyword, soft keyword or builtin.
* ``r``: swaps two top-level function blocks (decorators and the comment
  lines right above them included) of one run of consecutive module-level
  ``def`` statements that are undecorated or decorated only by
  ``functools.lru_cache``/``cache`` or ``contextlib.(async)contextmanager``
  (imported at module level, called with constants at most), have only
  constant defaults and builtin-or-string annotations, and bind a name
  bound only once at module level.  Lines
  inserted by ``d``/``c`` inside or right before a block move with it,
  whatever the composition order.
"""

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

__all__ = ['location', 'typed_mutants', 'faults', 'faults_in_quarter',
           'Rewriter']

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


# ---------------------------------------------------------------- locations

def _count_lines(source):
    if not source:
        return 0
    n = source.count('\n')
    return n if source.endswith('\n') else n + 1


def location(line, total_lines):
    """{"line", "fraction", "quarter", "third"} of a 1-based line (see the
    module docstring for the formula)."""
    line = int(line)
    if line < 1:
        raise ValueError('line %d: lines are 1-based' % line)
    total = max(1, int(total_lines))
    k = min(line, total) - 1
    return {'line': line, 'fraction': k / total,
            'quarter': k * 4 // total + 1,
            'third': ('first', 'middle', 'last')[k * 3 // total]}


def check_call(expr):
    """None when `expr` (an input of a record: a call such as "f(1, 2)")
    is one Python expression; else a one-line reason.  Parsing only:
    nothing is evaluated here."""
    if not isinstance(expr, str):
        return 'not a string'
    if '\0' in expr:
        return 'contains a NUL character'
    text = expr.strip()
    if not text:
        return 'empty'
    try:
        ast.parse(text, '<input>', 'eval')
    except SyntaxError as exc:
        return exc.msg or 'invalid syntax'
    except (ValueError, MemoryError, RecursionError) as exc:
        return ' '.join(str(exc).split()) or type(exc).__name__
    return None


def _check_quarter(quarter, allow_none=True):
    if quarter is None and allow_none:
        return None
    if isinstance(quarter, bool) or quarter not in (1, 2, 3, 4):
        raise ValueError('quarter must be 1, 2, 3 or 4%s, not %r' % (
            ' or None' if allow_none else '', quarter))
    return quarter


def _compiles(src):
    try:
        compile(src, '<variant>', 'exec', 0, True)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return False
    return True


def _short(text, limit=60):
    text = ' '.join(text.split())
    return text if len(text) <= limit else text[:limit - 3] + '...'


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
        if not isinstance(source, str):
            raise TypeError('source must be str, not %s'
                            % type(source).__name__)
        if '\0' in source:
            raise ValueError('source contains a NUL character')
        if '\r' in source.replace('\r\n', ''):
            raise ValueError('lone CR line ends are not supported')
        self.text = source
        try:
            self.data = source.encode('utf-8')
        except UnicodeEncodeError:
            raise ValueError('source is not valid Unicode text')
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
        todo = [(self.tree, None)]
        while todo:
            node, parent = todo.pop()
            nodes.append((node, parent))
            if isinstance(node, ast.JoinedStr):
                continue
            for child in ast.iter_child_nodes(node):
                if id(child) not in skip:
                    todo.append((child, node))
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


def _split_bom(source):
    if isinstance(source, str) and source.startswith('\ufeff'):
        return '\ufeff', source[1:]
    return '', source


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
        todo = list(fn.body)
        while todo:
            s = todo.pop()
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
                    todo.extend(getattr(s, field, ()) or ())
                for h in getattr(s, 'handlers', ()) or ():
                    todo.extend(h.body)
                for c in getattr(s, 'cases', ()) or ():
                    todo.extend(c.body)
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


def _own_nodes(stmt):
    """Nodes of a statement that belong to its scope (not nested
    functions, classes, lambdas or comprehensions)."""
    todo = [stmt]
    while todo:
        node = todo.pop()
        yield node
        for child in ast.iter_child_nodes(node):
            if not isinstance(child, _SCOPES):
                todo.append(child)


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
        elif isinstance(n, (ast.MatchAs, ast.MatchStar)) and n.name:
            bound.add(n.name)
        elif isinstance(n, ast.MatchMapping) and n.rest:
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
            elif hasattr(ast, 'Match') and isinstance(node, ast.Match):
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
        todo = [top] if top is not None else []
        order = []
        while todo:
            tab = todo.pop(0)
            order.append(tab)
            todo[0:0] = list(tab.get_children())
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
            elif isinstance(n, (ast.MatchAs, ast.MatchStar)):
                nm = n.name
            elif isinstance(n, ast.MatchMapping):
                nm = n.rest
            if nm and (nm not in binding or n.lineno < binding[nm]):
                binding[nm] = n.lineno
        descendants = []
        todo = list(tab.get_children())
        while todo:
            d = todo.pop()
            descendants.append(d)
            todo.extend(d.get_children())
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
