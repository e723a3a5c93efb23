# litmus mutant generator: Python source in, single-change mutants out.
#
# Runs inside the interpreter embedded in litmus (operators/operators.c) and
# uses only CPython's own parser (ast, tokenize), so what it reads is what the
# runtime reads.  Two operator sets: "mutmut" reproduces the mutants of
# mutmut 2.5.1's default run site by site; "algo1" is the modified set of the
# code-reasoning benchmark (shared SEEDS.md section 3).  docs/operators.md
# documents every operator and every known difference from mutmut.
# SPDX-License-Identifier: MIT

import ast
import bisect
import hashlib
import io
import keyword
import re
import tokenize

# match statements came in 3.10: under 3.9 no node is one of these.
_MATCH_CASE = getattr(ast, "match_case", ())

STATEMENT, VALUE, DECISION = 0, 1, 2

MUTMUT_OPS = ('number', 'string', 'fstring', 'name', 'argument', 'keyword',
              'operator', 'and_or', 'lambda', 'assignment', 'decorator')
ALGO1_OPS = ('arith', 'augassign', 'invert', 'relational', 'logical', 'not',
             'is', 'in', 'break_continue', 'true_false', 'number_pm')
SETS = {'mutmut': MUTMUT_OPS, 'algo1': ALGO1_OPS}

# mutmut's operator table: one replacement, or several for augmented
# assignments (mutmut numbers the last one first).
MM_OPERATORS = {
    '+': '-', '-': '+', '*': '/', '/': '*', '//': '/', '%': '/',
    '<<': '>>', '>>': '<<', '&': '|', '|': '&', '^': '&', '**': '*',
    '~': '',
    '+=': ['-=', '='], '-=': ['+=', '='], '*=': ['/=', '='],
    '/=': ['*=', '='], '//=': ['/=', '='], '%=': ['/=', '='],
    '<<=': ['>>=', '='], '>>=': ['<<=', '='], '&=': ['|=', '='],
    '|=': ['&=', '='], '^=': ['&=', '='], '**=': ['*=', '='],
    '<': '<=', '<=': '<', '>': '>=', '>=': '>', '==': '!=', '!=': '==',
}
MM_KEYWORDS = {'not': '', 'is': 'is not', 'in': 'not in',
               'break': 'continue', 'continue': 'break',
               'True': 'False', 'False': 'True'}
KEYWORD_CATEGORY = {'True': VALUE, 'False': VALUE, 'break': STATEMENT,
                    'continue': STATEMENT}
# Assignments to these dunders are never mutated (mutmut's dunder_whitelist).
DUNDER_WHITELIST = {'all', 'version', 'title', 'package_name', 'author',
                    'description', 'email', 'license', 'copyright'}

A1_BINOP = {ast.Add: '-', ast.Sub: '+', ast.Mult: '//', ast.Div: '*',
            ast.FloorDiv: '*', ast.Mod: '//', ast.LShift: '>>',
            ast.RShift: '<<', ast.BitAnd: '|', ast.BitOr: '&',
            ast.BitXor: '&', ast.Pow: '*'}
A1_COMPARE = {ast.Lt: '<=', ast.LtE: '<', ast.Gt: '>=', ast.GtE: '>',
              ast.Eq: '!=', ast.NotEq: '=='}

SKIP_TOKENS = (tokenize.NL, tokenize.COMMENT, tokenize.INDENT,
               tokenize.DEDENT, tokenize.ENCODING, tokenize.ENDMARKER)


class ParseError(Exception):
    def __init__(self, line, reason):
        Exception.__init__(self, reason)
        self.line = line
        self.reason = reason


class UsageError(Exception):
    pass


# ---------------------------------------------------------------- helpers

def mutant_id(file, start, end, op, replacement):
    """First 16 hex chars of SHA-256 over file NUL start NUL end NUL op NUL
    replacement (operators.c computes the same in lt_mutant_make_id)."""
    h = hashlib.sha256()
    h.update(file.encode('utf-8', 'surrogateescape'))
    h.update(b'\0%d\0%d\0' % (start, end))
    h.update(op.encode('utf-8'))
    h.update(b'\0')
    h.update(replacement.encode('utf-8'))
    return h.hexdigest()[:16]


def mm_number(text):
    """mutmut's number_mutation: n+1 in the literal's base (floats: +1 near
    zero, *2 far from it).  Where mutmut would crash (upper-case base prefix,
    '0e0') the literal is read with float() instead."""
    value, suffix = text, ''
    if value.upper().endswith('J'):
        suffix, value = value[-1], value[:-1]
    low = value.lower()
    if low.startswith(('0o', '0x', '0b')):
        base, digits = {'o': 8, 'x': 16, 'b': 2}[low[1]], value[2:]
    elif value.startswith('0') and len(value) > 1 and value[1] != '.':
        base, digits = 8, value[1:]
    else:
        base, digits = 10, value
    try:
        result = repr(int(digits, base) + 1)
    except ValueError:
        try:
            parsed = float(digits)
        except ValueError:
            parsed = float(value)
        if 1e-5 < abs(parsed) < 1e5 or parsed == 0.0:
            result = repr(parsed + 1)
        else:
            result = repr(parsed * 2)
    if not result.endswith(suffix):
        result += suffix
    return result


def mm_string(text):
    """mutmut's string_mutation: XX inside both quotes; triple-quoted strings
    (docstrings, mostly) are left alone (None)."""
    q = min(i for i in (text.find('"'), text.find("'")) if i != -1)
    body = text[q:]
    if body.startswith('"""') or body.startswith("'''"):
        return None
    return text[:q] + body[0] + 'XX' + body[1:-1] + 'XX' + body[-1]


def is_fstring(text):
    return 'f' in text[:len(text) - len(text.lstrip('rRbBuUfF'))].lower()


def fstring_parts(text):
    """Splits an f-string token into (prefix+quote, body, quote) strings."""
    q = min(i for i in (text.find('"'), text.find("'")) if i != -1)
    quote = text[q:q + 3] if text[q:q + 3] in ('"""', "'''") else text[q]
    return text[:q + len(quote)], text[q + len(quote):-len(quote)], quote


def fstring_exprs(body):
    """Character spans (start, end) of the replacement fields' expressions
    in an f-string body, nested format-spec fields included."""
    out = []
    n = len(body)

    def expr(i):
        # body[i] is just past '{'; returns the index just past '}'.
        start, depth, quote = i, 0, None
        end = None
        while i < n:
            c = body[i]
            if quote:
                if body.startswith(quote, i):
                    i += len(quote)
                    quote = None
                    continue
                i += 1
                continue
            if c in '\'"':
                quote = body[i:i + 3] if body[i:i + 3] in ('"""', "'''") else c
                i += len(quote)
                continue
            if c in '([{':
                depth += 1
            elif c in ')]}' and depth:
                depth -= 1
            elif depth == 0:
                if c == '}' or c == ':' or (c == '!' and body[i + 1:i + 2] != '='):
                    break
                if (c == '=' and body[i + 1:i + 2] != '='
                        and body[i - 1:i] not in ('=', '!', '<', '>')):
                    rest = body[i + 1:].lstrip()
                    if rest[:1] in ('}', '!', ':'):
                        end = i
                        i += 1
                        while body[i] not in '}!:':
                            i += 1
                        break
            i += 1
        out.append((start, i if end is None else end))
        if i < n and body[i] == '!':
            while i < n and body[i] not in ':}':
                i += 1
        if i < n and body[i] == ':':
            i += 1
            while i < n and body[i] != '}':
                if body[i] == '{':
                    i = expr(i + 1)
                else:
                    i += 1
        return i + 1

    i = 0
    while i < n:
        if body.startswith('{{', i) or body.startswith('}}', i):
            i += 2
        elif body[i] == '{':
            i = expr(i + 1)
        else:
            i += 1
    return out


def a1_number(text, delta):
    """algo1: the literal's value plus delta, in the literal's base;
    negative results are parenthesised so they stay one operand."""
    low = text.lower().replace('_', '')
    if low.endswith('j'):
        v = float(low[:-1]) + delta
        r = (str(int(v)) if v.is_integer() and not any(
            c in low for c in '.e') else repr(v)) + 'j'
        return '(%s)' % r if v < 0 else r
    if low.startswith(('0x', '0o', '0b')):
        v = int(low, 0) + delta
        if v < 0:
            return '(-%s)' % format(-v, '#' + low[1])
        return format(v, '#' + low[1])
    try:
        v = int(low, 10)
    except ValueError:
        v = float(low) + delta
        r = repr(v)
    else:
        v += delta
        r = str(v)
    return '(%s)' % r if v < 0 else r


# ---------------------------------------------------------------- units

# 3.12 tokenizes an f-string into parts (FSTRING_START, its fields' tokens,
# FSTRING_END); before, it is one STRING token.  The operators work on the
# one token, and on the fields as units of their own (Unit.subunits).
FSTRING_START = getattr(tokenize, 'FSTRING_START', None)
FSTRING_END = getattr(tokenize, 'FSTRING_END', None)


def fstrings_whole(tokens, lines):
    """The tokens, with each outermost f-string made one STRING token, as
    tokenize gives it before 3.12."""
    nest, first = 0, None
    for t in tokens:
        if FSTRING_START is not None and t.type == FSTRING_START:
            if nest == 0:
                first = t
            nest += 1
            continue
        if nest == 0:
            yield t
            continue
        if t.type == FSTRING_END:
            nest -= 1
            if nest == 0:
                (l0, c0), (l1, c1) = first.start, t.end
                text = (lines[l0 - 1][c0:c1] if l0 == l1 else
                        '\n'.join([lines[l0 - 1][c0:]] + lines[l0:l1 - 1]
                                  + [lines[l1 - 1][:c1]]))
                yield tokenize.TokenInfo(tokenize.STRING, text, first.start,
                                         t.end, first.line)


class Tok:
    __slots__ = ('type', 'string', 's', 'e', 'depth')

    def __init__(self, type_, string, s, e, depth):
        self.type, self.string, self.s, self.e, self.depth = (
            type_, string, s, e, depth)


class Unit:
    """A piece of source analysed on its own: the whole file, or the
    expression of an f-string replacement field (parsed as '(expr)').
    Every position it hands out is an absolute byte offset in the file."""

    def __init__(self, gen, text, base, wrapped):
        self.gen = gen
        self.text = (text if not wrapped else '(' + text + ')')
        self.shift = base - (1 if wrapped else 0)
        self.lo = base
        self.hi = base + len(text.encode('utf-8'))
        lines = self.text.split('\n')
        self.lines = lines
        self.starts = []
        pos = 0
        for ln in lines:
            self.starts.append(pos)
            pos += len(ln.encode('utf-8')) + 1
        if wrapped:
            self.tree = ast.parse(self.text, mode='eval')
        else:
            self.tree = gen.tree
        self.toks = []
        depth = 0
        reader = io.StringIO(self.text).readline
        for t in fstrings_whole(tokenize.generate_tokens(reader), lines):
            if t.type in SKIP_TOKENS:
                continue
            s = self.pos(t.start[0], t.start[1])
            e = self.pos(t.end[0], t.end[1])
            if wrapped and (s < self.lo or e > self.hi):
                continue
            if t.type == tokenize.OP and t.string in ')]}':
                depth -= 1
            self.toks.append(Tok(t.type, t.string, s, e, depth))
            if t.type == tokenize.OP and t.string in '([{':
                depth += 1
        self.tstarts = [t.s for t in self.toks]
        self.excl = []

    def pos(self, line, charcol):
        """Absolute byte offset of a tokenize (line, character column)."""
        if line > len(self.lines):
            return (self.starts[-1] + len(self.lines[-1].encode('utf-8'))
                    + self.shift)
        text = self.lines[line - 1]
        if charcol and not text.isascii():
            charcol = len(text[:charcol].encode('utf-8'))
        return self.starts[line - 1] + charcol + self.shift

    def start(self, node):
        return self.starts[node.lineno - 1] + node.col_offset + self.shift

    def end(self, node):
        return (self.starts[node.end_lineno - 1] + node.end_col_offset
                + self.shift)

    def tok_index(self, off):
        """Index of the first token starting at or after off."""
        return bisect.bisect_left(self.tstarts, off)

    def tok_at(self, off):
        i = self.tok_index(off)
        if i < len(self.toks) and self.toks[i].s == off:
            return i
        return None

    def next_tok(self, off, string):
        i = self.tok_index(off)
        while i < len(self.toks):
            if self.toks[i].string == string:
                return i
            i += 1
        return None

    def prev_tok(self, off, string):
        i = self.tok_index(off) - 1
        while i >= 0:
            if self.toks[i].string == string:
                return i
            i -= 1
        return None

    def exclude(self, s, e):
        self.excl.append((s, e))

    def finish_excl(self):
        self.excl.sort()
        self.excl_starts = [s for s, _ in self.excl]
        self.excl_maxend = []
        m = -1
        for _, e in self.excl:
            m = max(m, e)
            self.excl_maxend.append(m)

    def excluded(self, off):
        i = bisect.bisect_right(self.excl_starts, off) - 1
        return i >= 0 and self.excl_maxend[i] > off

    def walk(self):
        """ast.walk that does not enter f-strings: their fields are units
        of their own (positions inside JoinedStr are not reliable in 3.11)."""
        todo = [self.tree]
        while todo:
            node = todo.pop()
            yield node
            if isinstance(node, ast.JoinedStr):
                continue
            todo.extend(ast.iter_child_nodes(node))

    def subunits(self):
        """Units for the replacement fields of each f-string token that is
        not excluded."""
        for t in self.toks:
            if t.type != tokenize.STRING or self.excluded(t.s):
                continue
            if not is_fstring(t.string):
                continue
            opening, body, _ = fstring_parts(t.string)
            base = t.s + len(opening.encode('utf-8'))
            for a, b in fstring_exprs(body):
                sub = body[a:b]
                if not sub.strip():
                    continue
                off = base + len(body[:a].encode('utf-8'))
                try:
                    unit = Unit(self.gen, sub, off, True)
                except (SyntaxError, tokenize.TokenError):
                    continue  # not an expression: the scan was wrong
                yield t, unit


# ---------------------------------------------------------------- generator

class Gen:
    def __init__(self, file, data):
        self.file = file
        self.data = data
        try:
            self.text = data.decode('utf-8')
        except UnicodeDecodeError as e:
            raise ParseError(data[:e.start].count(b'\n') + 1,
                             'source is not valid UTF-8')
        # A byte order mark is analysed away; offsets stay file offsets.
        self.bom = 0
        if self.text.startswith('\ufeff'):
            self.text = self.text[1:]
            self.bom = 3
        # A lone CR ends a line for Python; it becomes LF (same length) in
        # what is analysed so that tokens, tree and line numbers agree.
        if '\r' in self.text:
            self.text = re.sub('\r(?!\n)', '\n', self.text)
            data = re.sub(b'\r(?!\n)', b'\n', data)
        self.lines_data = data
        if '\0' in self.text:
            raise ParseError(self.text[:self.text.index('\0')].count('\n') + 1,
                             'source contains a NUL byte')
        try:
            self.tree = ast.parse(self.text, filename=file)
        except SyntaxError as e:
            raise ParseError(e.lineno or 1, e.msg)
        except (RecursionError, MemoryError):
            raise ParseError(1, 'source is nested too deeply')
        self.line_starts = [0]
        pos = data.find(b'\n')
        while pos >= 0:
            self.line_starts.append(pos + 1)
            pos = data.find(b'\n', pos + 1)
        # Lines never mutated: a '# pragma: no mutate' comment on the line
        # (mutmut's spelling), and every line from '# pragma: no mutate:
        # start' to '# pragma: no mutate: end' (both included; a block left
        # open runs to the end of the file).
        self.pragma = set()
        in_block = False
        for i, ln in enumerate(self.text.split('\n')):
            tail = ln.partition('# pragma:')[2] if '# pragma:' in ln else None
            mark = tail.replace(' ', '') if tail is not None else ''
            if mark.startswith('nomutate:start'):
                in_block = True
            if in_block or (tail is not None and 'no mutate' in tail):
                self.pragma.add(i)
            if mark.startswith('nomutate:end'):
                in_block = False
        self.out = []
        self.seq = 0

    def line0(self, off):
        return bisect.bisect_right(self.line_starts, off) - 1

    def add(self, op, cat, s, e, repl, rank=0):
        self.seq += 1
        self.out.append((s, e, rank, self.seq, op, cat, repl))

    def result(self, ops):
        seen = set()
        res = []
        total = len(self.data)
        for s, e, rank, seq, op, cat, repl in sorted(self.out):
            if op not in ops or (s, e, op, repl) in seen:
                continue
            seen.add((s, e, op, repl))
            ln, end_ln = self.line0(s), self.line0(e)
            res.append((mutant_id(self.file, s, e, op, repl),
                        ln + 1, s - self.line_starts[ln],
                        end_ln + 1, e - self.line_starts[end_ln],
                        s, e, op, cat,
                        self.data[s:e].decode('utf-8'), repl,
                        (s / total) if total else 0.0))
        return res

    def keep_lines(self, s, e, repl):
        """A replacement spanning several lines keeps the line count: the
        new text is parenthesised with the line breaks inside."""
        n = self.lines_data.count(b'\n', s, e)
        if not n:
            return repl
        return '(' + repl + '\n' * n + ')'


# ---------------------------------------------------------------- mutmut

def mm_exclusions(u):
    """Regions mutmut never mutates: imports, __import__(...) chains,
    annotated def parameters and return annotations, pure annotations and
    assignments to whitelisted dunders."""
    for node in u.walk():
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            u.exclude(u.start(node), u.end(node))
        elif isinstance(node, (ast.Call, ast.Attribute, ast.Subscript)):
            n = node
            while isinstance(n, (ast.Call, ast.Attribute, ast.Subscript)):
                n = n.func if isinstance(n, ast.Call) else n.value
            if (isinstance(n, ast.Name) and n.id == '__import__'
                    and u.start(n) == u.start(node)):
                u.exclude(u.start(node), u.end(node))
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            a = node.args
            for arg in (a.posonlyargs + a.args + a.kwonlyargs
                        + [a.vararg, a.kwarg]):
                if arg is not None and arg.annotation is not None:
                    u.exclude(u.start(arg), u.end(arg))
            if node.returns is not None:
                i = u.prev_tok(u.start(node.returns), '->')
                u.exclude(u.toks[i].s, u.end(node.returns))
        elif isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            target = (node.targets[0] if isinstance(node, ast.Assign)
                      else node.target)
            if (isinstance(target, ast.Name) and u.start(target) == u.start(node)
                    and len(target.id) > 4 and target.id.startswith('__')
                    and target.id.endswith('__')
                    and target.id[2:-2] in DUNDER_WHITELIST):
                u.exclude(u.start(node), u.end(node))
            elif isinstance(node, ast.AnnAssign) and node.value is None:
                u.exclude(u.start(node.annotation), u.end(node))
    u.finish_excl()


def mm_contexts(u):
    """Token offsets whose mutation depends on the tree: stars that unpack
    arguments or declare parameters, the 'in' of for loops and
    comprehensions, operators inside match patterns, and the x of a
    statement that is exactly f(x) or a[x] (mutmut turns it into None)."""
    skip_star, loop_in, pattern_ops, none_names = set(), set(), [], set()
    for node in u.walk():
        if isinstance(node, (ast.Call, ast.ClassDef)):
            args = node.args if isinstance(node, ast.Call) else node.bases
            for a in args:
                if isinstance(a, ast.Starred):
                    skip_star.add(u.start(a))
            for kw in node.keywords:
                if kw.arg is None:
                    skip_star.add(u.start(kw))
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef,
                               ast.Lambda)):
            a = node.args
            for arg in (a.vararg, a.kwarg):
                if arg is not None:
                    i = u.tok_index(u.start(arg)) - 1
                    skip_star.add(u.toks[i].s)
            if (not isinstance(node, ast.Lambda) and a.vararg is None
                    and a.kwonlyargs):
                i = u.tok_index(u.start(a.kwonlyargs[0])) - 2
                skip_star.add(u.toks[i].s)
        elif isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)):
            i = u.next_tok(u.end(node.target), 'in')
            loop_in.add(u.toks[i].s)
        elif isinstance(node, _MATCH_CASE):
            pattern_ops.append((u.start(node.pattern), u.end(node.pattern)))
        elif isinstance(node, ast.Expr) and u is u.gen.main:
            v = node.value
            inner = None
            if (isinstance(v, ast.Call) and isinstance(v.func, ast.Name)
                    and len(v.args) == 1 and not v.keywords
                    and isinstance(v.args[0], ast.Name)):
                inner, shape = v.args[0], ('(', ')')
            elif (isinstance(v, ast.Subscript) and isinstance(v.value, ast.Name)
                    and isinstance(v.slice, ast.Name)):
                inner, shape = v.slice, ('[', ']')
            if inner is None:
                continue
            i = u.tok_index(u.start(node))
            seq = u.toks[i:i + 5]
            prev = u.toks[i - 1].string if i else ''
            if (len(seq) == 5 and prev != ';'
                    and seq[0].type == tokenize.NAME
                    and seq[1].string == shape[0]
                    and seq[2].type == tokenize.NAME
                    and seq[2].s == u.start(inner)
                    and seq[3].string == shape[1]
                    and seq[4].type == tokenize.NEWLINE
                    and seq[4].string in ('\n', '')):
                none_names.add(seq[2].s)
    pattern_ops.sort()
    return skip_star, loop_in, pattern_ops, none_names


def in_spans(spans, off):
    for s, e in spans:
        if s <= off < e:
            return True
    return False


def mm_last_line(u, s, e):
    """The line mutmut checks for '# pragma: no mutate' when it mutates a
    node with children: the line of the last leaf it visited inside."""
    i = u.tok_index(e) - 1
    while i >= 0 and u.toks[i].s >= s:
        t = u.toks[i]
        if not u.excluded(t.s):
            if t.type == tokenize.STRING and is_fstring(t.string):
                return u.gen.line0(t.e - 1)
            return u.gen.line0(t.s)
        i -= 1
    return u.gen.line0(s)


def mm_unit(u):
    g = u.gen
    mm_exclusions(u)
    skip_star, loop_in, pattern_ops, none_names = mm_contexts(u)

    def ok_line(line0):
        return line0 not in g.pragma

    # Leaves: operators, keywords, names, numbers, strings.
    toks = u.toks
    for i, t in enumerate(toks):
        s = t.string
        if u.excluded(t.s):
            continue
        if not ok_line(g.line0(t.s)):
            if not (t.type == tokenize.STRING and is_fstring(s)):
                continue
        if t.type == tokenize.OP:
            repl = MM_OPERATORS.get(s)
            if repl is None:
                continue
            if s in ('*', '**') and t.s in skip_star:
                continue
            if s == '*' and i and toks[i - 1].string == 'except':
                continue
            if in_spans(pattern_ops, t.s):
                continue
            for r in (list(reversed(repl)) if isinstance(repl, list) else [repl]):
                g.add('operator', DECISION, t.s, t.e, r)
        elif t.type == tokenize.NAME and keyword.iskeyword(s):
            repl = MM_KEYWORDS.get(s)
            if repl is None:
                continue
            if s == 'is' and i + 1 < len(toks) and toks[i + 1].string == 'not':
                continue
            if s == 'in' and (t.s in loop_in or (i and toks[i - 1].string == 'not')):
                continue
            g.add('keyword', KEYWORD_CATEGORY.get(s, DECISION), t.s, t.e, repl)
        elif t.type == tokenize.NAME:
            if s == 'deepcopy':
                g.add('name', VALUE, t.s, t.e, 'copy')
            elif t.s in none_names:
                g.add('name', VALUE, t.s, t.e, 'None')
        elif t.type == tokenize.NUMBER:
            g.add('number', VALUE, t.s, t.e, mm_number(s))
        elif t.type == tokenize.STRING:
            if is_fstring(s):
                if ok_line(g.line0(t.e - 1)):
                    opening, body, quote = fstring_parts(s)
                    g.add('fstring', VALUE, t.s, t.e,
                          opening + 'XX' + body + 'XX' + quote, 1)
            else:
                r = mm_string(s)
                if r is not None:
                    g.add('string', VALUE, t.s, t.e, r)

    # Nodes with children.
    for node in u.walk():
        if isinstance(node, ast.BoolOp):
            i = u.tok_index(u.end(node.values[0]))
            while toks[i].string not in ('and', 'or'):
                i += 1
            t = toks[i]
            if (not u.excluded(t.s)
                    and ok_line(mm_last_line(u, u.start(node), u.end(node)))):
                g.add('and_or', DECISION, t.s, t.e,
                      'or' if t.string == 'and' else 'and', 1)
        elif isinstance(node, ast.Lambda):
            ls, le = u.start(node), u.end(node)
            i = u.tok_index(u.start(node.body)) - 1
            while toks[i].string != ':' or toks[i].depth != toks[u.tok_at(ls)].depth:
                i -= 1
            bs = toks[i + 1].s
            if u.excluded(ls) or not ok_line(mm_last_line(u, ls, le)):
                continue
            body = u.toks[i + 1:u.tok_index(le)]
            repl = '0' if len(body) == 1 and body[0].string == 'None' else 'None'
            g.add('lambda', STATEMENT, bs, le, g.keep_lines(bs, le, repl), 1)
        elif (isinstance(node, (ast.Assign, ast.AnnAssign))
              and node.value is not None):
            ss, se = u.start(node), u.end(node)
            if u.excluded(ss) or not ok_line(mm_last_line(u, ss, se)):
                continue
            i = u.prev_tok(u.start(node.value), '=')
            vs = toks[i + 1].s
            rhs = u.toks[i + 1:u.tok_index(se)]
            repl = '""' if len(rhs) == 1 and rhs[0].string == 'None' else 'None'
            g.add('assignment', STATEMENT, vs, se, g.keep_lines(vs, se, repl), 1)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef,
                               ast.ClassDef)):
            for dec in node.decorator_list:
                at = u.prev_tok(u.start(dec), '@')
                j = u.tok_index(u.end(dec))
                while toks[j].type != tokenize.NEWLINE:
                    j += 1
                ds, de = toks[at].s, toks[j - 1].e
                if not ok_line(g.line0(toks[j].s)):
                    continue
                g.add('decorator', STATEMENT, ds, de,
                      '\n' * g.lines_data.count(b'\n', ds, de), 1)
        elif isinstance(node, ast.Call):
            base = node.func
            while isinstance(base, (ast.Call, ast.Attribute, ast.Subscript)):
                base = base.func if isinstance(base, ast.Call) else base.value
            if not (isinstance(base, ast.Name) and base.id == 'dict'
                    and u.start(base) == u.start(node)):
                continue
            # mutmut renames the first name of each argument node of a
            # call on dict: keyword arguments, a bare generator argument
            # and a bare walrus argument.
            names = []
            for kw in node.keywords:
                if kw.arg is not None:
                    names.append((u.start(kw), u.end(kw)))
            arg_depth = toks[u.next_tok(u.end(node.func), '(')].depth + 1
            for a in node.args:
                first = None
                if (isinstance(a, ast.GeneratorExp)
                        and isinstance(a.elt, ast.Name)):
                    first, last = a.elt, a.elt
                    for c in a.generators:
                        last = c.ifs[-1] if c.ifs else c.iter
                elif isinstance(a, ast.NamedExpr):
                    first, last = a.target, a
                if (first is not None
                        and toks[u.tok_at(u.start(first))].depth == arg_depth):
                    names.append((u.start(first), u.end(last)))
            for s, e in names:
                t = toks[u.tok_at(s)]
                if u.excluded(s) or not ok_line(mm_last_line(u, s, e)):
                    continue
                g.add('argument', VALUE, t.s, t.e, t.string + 'XX', 1)

    for _, sub in u.subunits():
        mm_unit(sub)


# ---------------------------------------------------------------- algo1

def a1_exclusions(u):
    """algo1 leaves annotations and match patterns alone."""
    for node in u.walk():
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            a = node.args
            for arg in (a.posonlyargs + a.args + a.kwonlyargs
                        + [a.vararg, a.kwarg]):
                if arg is not None and arg.annotation is not None:
                    u.exclude(u.start(arg.annotation), u.end(arg.annotation))
            if node.returns is not None:
                u.exclude(u.start(node.returns), u.end(node.returns))
        elif isinstance(node, ast.AnnAssign):
            u.exclude(u.start(node.annotation), u.end(node.annotation))
        elif isinstance(node, _MATCH_CASE):
            u.exclude(u.start(node.pattern), u.end(node.pattern))
    u.finish_excl()


def a1_unit(u):
    g = u.gen
    a1_exclusions(u)
    toks = u.toks

    def add(op, cat, i, repl):
        t = toks[i]
        if u.excluded(t.s) or g.line0(t.s) in g.pragma:
            return
        g.add(op, cat, t.s, t.e, repl)

    def op_after(node):
        i = u.tok_index(u.end(node))
        while toks[i].string in (')', ']', '}'):
            i += 1
        return i

    for node in u.walk():
        if isinstance(node, ast.BinOp):
            r = A1_BINOP.get(type(node.op))
            if r is not None:
                add('arith', DECISION, op_after(node.left), r)
        elif isinstance(node, ast.UnaryOp):
            i = u.tok_at(u.start(node))
            if isinstance(node.op, ast.UAdd):
                add('arith', DECISION, i, '-')
            elif isinstance(node.op, ast.USub):
                add('arith', DECISION, i, '+')
            elif isinstance(node.op, ast.Invert):
                add('invert', DECISION, i, '')
            elif isinstance(node.op, ast.Not):
                add('not', DECISION, i, '')
        elif isinstance(node, ast.AugAssign):
            r = A1_BINOP.get(type(node.op))
            if r is not None:
                add('augassign', DECISION, op_after(node.target), r + '=')
        elif isinstance(node, ast.Compare):
            prev = node.left
            for op, right in zip(node.ops, node.comparators):
                i = op_after(prev)
                if type(op) in A1_COMPARE:
                    add('relational', DECISION, i, A1_COMPARE[type(op)])
                elif isinstance(op, ast.Is):
                    add('is', DECISION, i, 'is not')
                elif isinstance(op, ast.In):
                    add('in', DECISION, i, 'not in')
                elif isinstance(op, ast.IsNot):
                    add('not', DECISION, i + 1, '')
                elif isinstance(op, ast.NotIn):
                    add('not', DECISION, i, '')
                prev = right
        elif isinstance(node, ast.BoolOp):
            for v in node.values[:-1]:
                i = op_after(v)
                add('logical', DECISION, i,
                    'or' if toks[i].string == 'and' else 'and')
        elif isinstance(node, (ast.Break, ast.Continue)):
            add('break_continue', STATEMENT, u.tok_at(u.start(node)),
                'continue' if isinstance(node, ast.Break) else 'break')
        elif isinstance(node, ast.Constant):
            i = u.tok_at(u.start(node))
            if i is None:
                continue
            t = toks[i]
            if node.value is True or node.value is False:
                add('true_false', VALUE, i, 'False' if node.value else 'True')
            elif t.type == tokenize.NUMBER and t.e == u.end(node):
                add('number_pm', VALUE, i, a1_number(t.string, -1))
                add('number_pm', VALUE, i, a1_number(t.string, +1))

    for _, sub in u.subunits():
        a1_unit(sub)


# ---------------------------------------------------------------- entry

def resolve(opset):
    names = [x.strip() for x in opset.split(',') if x.strip()]
    if not names:
        raise UsageError('empty operator set')
    ops = set()
    for n in names:
        if n in SETS:
            ops.update(SETS[n])
        elif n in MUTMUT_OPS or n in ALGO1_OPS:
            ops.add(n)
        else:
            raise UsageError(
                'unknown operator or set %r; sets: %s; operators: %s' % (
                    n, ', '.join(SETS), ', '.join(MUTMUT_OPS + ALGO1_OPS)))
    return ops


def generate(file, data, opset):
    """Entry point for operators.c.  Returns ('ok', [mutant tuple...]),
    ('parse', 'file:line: reason') or ('usage', message).  A mutant tuple
    is (id, line, col, end_line, end_col, start, end, op, category,
    original, replacement, position)."""
    try:
        ops = resolve(opset)
    except UsageError as e:
        return ('usage', str(e))
    try:
        g = Gen(file, bytes(data))
    except ParseError as e:
        return ('parse', '%s:%d: %s' % (file, e.line, e.reason))
    g.main = None
    try:
        if ops & set(MUTMUT_OPS):
            g.main = Unit(g, g.text, g.bom, False)
            mm_unit(g.main)
        if ops & set(ALGO1_OPS):
            g.main = Unit(g, g.text, g.bom, False)
            a1_unit(g.main)
    except (SyntaxError, tokenize.TokenError) as e:
        line = getattr(e, 'lineno', None) or 1
        return ('parse', '%s:%d: %s' % (file, line, e.args[0] if e.args else e))
    except (RecursionError, MemoryError):
        return ('parse', '%s:1: source is nested too deeply' % file)
    return ('ok', g.result(ops))


def operator_names():
    return list(SETS) + list(MUTMUT_OPS) + list(ALGO1_OPS)
