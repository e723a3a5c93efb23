# Compares compiled Python modules: which code objects a mutant changes,
# whether the change needs the module re-executed, and a fingerprint of
# the change that ignores source positions, so that mutants compiling to
# the same code can share one run; and the order in which a fresh import
# executes several changed modules (a candidate's files).  Runs in the
# engine (planning) and in the zygotes (applying).
# SPDX-License-Identifier: MIT
import dis
import hashlib
import operator
import types

OK, INVALID, EQUIVALENT = 0, 1, 3

# What code objects say differs by version (3.9 to 3.13): before 3.11
# there is no qualified name (the name and first line tell functions
# apart) and no exception table (exception handling is in the bytecode).
if hasattr(types.CodeType, "co_qualname"):
    qualname = operator.attrgetter("co_qualname")
else:
    qualname = operator.attrgetter("co_name")
if hasattr(types.CodeType, "co_exceptiontable"):
    exception_table = operator.attrgetter("co_exceptiontable")
else:
    def exception_table(code):
        return b""


def code_lines(code):
    """(start offset, line) of each stretch of bytecode with a line."""
    if hasattr(code, "co_lines"):  # 3.10 on
        return [(start, line) for start, _, line in code.co_lines()]
    return list(dis.findlinestarts(code))


def is_function_code(code):
    # Function bodies get fresh locals; module and class bodies do not.
    return bool(code.co_flags & 0x0002)  # CO_NEWLOCALS


def _code_children(code):
    return [c for c in code.co_consts if isinstance(c, types.CodeType)]


def keyed_children(code, positions=True):
    """Nested code objects keyed by (qualname, first line, ordinal); by
    (qualname, ordinal) without positions."""
    seen = {}
    out = {}
    for c in _code_children(code):
        base = (qualname(c), c.co_firstlineno) if positions else \
            (qualname(c),)
        n = seen.get(base, 0)
        seen[base] = n + 1
        out[base + (n,)] = c
    return out


def _const_key(value):
    # Constants compare by type and value; floats by repr so that 0.0 and
    # -0.0 (and nan) are told apart, tuples and frozensets recursively.
    if isinstance(value, types.CodeType):
        return ("code", qualname(value), value.co_firstlineno)
    if isinstance(value, float):
        return ("float", repr(value))
    if isinstance(value, complex):
        return ("complex", repr(value))
    if isinstance(value, tuple):
        return ("tuple", tuple(_const_key(v) for v in value))
    if isinstance(value, frozenset):
        return ("frozenset", frozenset(_const_key(v) for v in value))
    return (type(value).__name__, value)


def _frame_equal(a, b):
    """Everything but the bytecode and its constants."""
    return (a.co_names == b.co_names and a.co_varnames == b.co_varnames
            and a.co_freevars == b.co_freevars
            and a.co_cellvars == b.co_cellvars
            and a.co_argcount == b.co_argcount
            and a.co_posonlyargcount == b.co_posonlyargcount
            and a.co_kwonlyargcount == b.co_kwonlyargcount
            and a.co_flags == b.co_flags)


def _instructions(code, key=_const_key):
    """The bytecode with constants resolved to their values: constants
    the code never loads (left in the table by constant folding or dead
    code) then make no difference."""
    out = []
    for ins in dis.get_instructions(code):
        if ins.opcode in dis.hasconst:
            out.append((ins.opcode, key(ins.argval)))
        else:
            out.append((ins.opcode, ins.arg))
    return tuple(out)


def _shallow_equal(a, b, quick=False, positions=True):
    """Same code apart from nested code objects, which compare by key, and
    from positions.  quick: byte-for-byte only, no resolving of constants
    (a few equal objects may then count as changed)."""
    if not _frame_equal(a, b):
        return False
    key = _const_key if positions else _free_const_key
    if (a.co_code == b.co_code and exception_table(a) == exception_table(b)
            and len(a.co_consts) == len(b.co_consts)
            and all(key(x) == key(y)
                    for x, y in zip(a.co_consts, b.co_consts))):
        return True
    if quick:
        return False
    # Slow path: an unused or reordered constant shifts indices only.
    return (len(a.co_code) == len(b.co_code)
            and exception_table(a) == exception_table(b)
            and _instructions(a, key) == _instructions(b, key))


def code_diff(orig, new, path=(), quick=False, positions=True):
    """Compares two compiled modules.  Returns (changed, structural):
    changed maps the key path of every code object that differs (itself or
    below) to the new code object; structural lists the key paths of module
    or class bodies that differ themselves, or of trees whose shape
    changed: those need the module re-executed.  quick skips resolving
    constants (the slow path): a child applying a mutant the planner found
    not equivalent loses nothing by swapping an equal function anyway.
    positions=False: code that only moved (a patch's lines above it) is
    the same; nested code is matched by name and order, and the key paths
    are still orig's (what a swap finds the live functions by)."""
    changed = {}
    structural = []
    own = not _shallow_equal(orig, new, quick, positions)
    ka = keyed_children(orig, positions)
    kb = keyed_children(new, positions)
    if ka.keys() != kb.keys():
        if not positions and is_function_code(orig):
            # A patch's function whose nested code has another shape (a
            # loop made a comprehension): swapped whole, its new nested
            # code with it; only a body of another shape is re-executed.
            return {path: new}, []
        return {path: new}, [path]
    placed = ka if positions else \
        {id(c): k for k, c in keyed_children(orig).items()}
    for key in ka:
        here = key if positions else placed[id(ka[key])]
        c, s = code_diff(ka[key], kb[key], path + (here,), quick, positions)
        changed.update(c)
        structural.extend(s)
    if own or changed:
        changed[path] = new
    if own and not is_function_code(orig):
        structural.append(path)
    return changed, structural


def _shallow_repr(code):
    return repr((_instructions(code), code.co_names, code.co_varnames,
                 code.co_freevars, code.co_cellvars, code.co_argcount,
                 code.co_posonlyargcount, code.co_kwonlyargcount,
                 code.co_flags, exception_table(code)))


def fingerprint(changed):
    """A digest of every changed code object, positions left out."""
    h = hashlib.sha256()
    for path in sorted(changed, key=repr):
        h.update(repr(path).encode())
        h.update(_shallow_repr(changed[path]).encode())
    return h.hexdigest()[:16]


def _free_const_key(value):
    # As _const_key, with nested code named by its qualified name alone:
    # no source position at all.
    if isinstance(value, types.CodeType):
        return ("code", qualname(value))
    if isinstance(value, tuple):
        return ("tuple", tuple(_free_const_key(v) for v in value))
    if isinstance(value, frozenset):
        return ("frozenset", frozenset(_free_const_key(v) for v in value))
    return _const_key(value)


def _ran_at_import(code, lines):
    # A function's prologue (RESUME) carries its def (or first decorator)
    # line, which runs at import whether the body does or not: only the
    # lines of the instructions after it count.
    body = 0
    for ins in dis.get_instructions(code):
        if ins.opname == "RESUME":
            body = ins.offset + 1
            break
    return any(line in lines for start, line in code_lines(code)
               if start >= body)


def _walk(top):
    stack = [top]
    while stack:
        code = stack.pop()
        yield code
        stack.extend(reversed(_code_children(code)))


def code_fingerprint(path, source, import_funcs=None):
    """A digest of everything `source` compiles to, source positions left
    out: texts that differ only in comments, blank lines or layout get the
    same one.  "" when it does not compile.  With import_funcs (qualified
    names of the functions that ran while the module was imported), the
    digest of what importing it does: any other function counts by its
    name alone, so edits inside it leave the digest unchanged."""
    raw = source.encode("utf-8", "surrogateescape")
    try:
        top = compile(raw, path, "exec", dont_inherit=True)
    except (SyntaxError, ValueError, OverflowError, MemoryError,
            RecursionError):
        return ""
    h = hashlib.sha256()
    stack = [top]
    while stack:
        code = stack.pop()
        if (import_funcs is not None and is_function_code(code)
                and qualname(code) not in import_funcs):
            h.update(repr(("not run at import", qualname(code))).encode())
            continue
        h.update(repr((qualname(code),
                       _instructions(code, _free_const_key), code.co_names,
                       code.co_varnames, code.co_freevars, code.co_cellvars,
                       code.co_argcount, code.co_posonlyargcount,
                       code.co_kwonlyargcount, code.co_flags,
                       exception_table(code))).encode())
        stack.extend(reversed(_code_children(code)))
    return h.hexdigest()[:16]


def import_digest(path, source, lines, funcs):
    """What importing `source` does, for reusing a baseline: the functions
    that ran at import (those of `lines`, the lines traced then, or None,
    joined to `funcs`, names stored by an earlier run), the digest of the
    module with every other function by its name alone, and the lines
    that may run at import: module-level and class-body code, def headers
    and decorators, and the bodies of those functions.  (names, digest,
    lines); digest "" when the text does not compile."""
    raw = source.encode("utf-8", "surrogateescape")
    try:
        top = compile(raw, path, "exec", dont_inherit=True)
    except (SyntaxError, ValueError, OverflowError, MemoryError,
            RecursionError):
        return ("", "", [])
    names = set(n for n in funcs.split("\n") if n) if funcs else set()
    if lines is not None:
        lines = frozenset(lines)
        names.update(qualname(c) for c in _walk(top)
                     if is_function_code(c) and _ran_at_import(c, lines))
    static = set()
    for c in _walk(top):
        if is_function_code(c) and qualname(c) not in names:
            static.add(c.co_firstlineno)  # its def line, run where defined
            continue
        static.update(line for _, line in code_lines(c) if line)
    # A def's or class's header may span lines the code objects do not
    # name (decorators, arguments): every line from a statement's first
    # to its last traced line counts.
    import ast
    try:
        tree = ast.parse(raw)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return ("", "", [])
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef,
                             ast.ClassDef)):
            first = min([node.lineno] + [d.lineno
                                         for d in node.decorator_list])
            static.update(range(first, node.body[0].lineno))
        elif isinstance(node, ast.stmt) and node.lineno in static:
            static.update(range(node.lineno, (node.end_lineno or
                                              node.lineno) + 1))
    return ("\n".join(sorted(names)),
            code_fingerprint(path, source, frozenset(names)),
            sorted(static))


def changed_spans(path, source, other):
    """The functions of `source` whose code `other` changes, as (first,
    last) line spans of `source` (decorators and nested code included):
    a test that runs none of those lines runs the same code with either
    text.  Where the module's own statements differ only in imports and
    function definitions, the functions that read a name they bind count
    as changed.  None when it cannot be said: another module-level
    statement or a class body differs, or a text does not compile."""
    raw_a = source.encode("utf-8", "surrogateescape")
    raw_b = other.encode("utf-8", "surrogateescape")
    try:
        a = compile(raw_a, path, "exec", dont_inherit=True)
        b = compile(raw_b, path, "exec", dont_inherit=True)
    except (SyntaxError, ValueError, OverflowError, MemoryError,
            RecursionError):
        return None
    spans = []
    ka = keyed_children(a, positions=False)
    kb = keyed_children(b, positions=False)
    if ka.keys() != kb.keys() or not _shallow_equal(a, b, positions=False):
        names = _rebound_names(raw_a, raw_b)
        if names is None:
            return None
        for code in _walk(a):
            if code is not a and is_function_code(code) and (
                    code.co_name in names and
                    qualname(code) == code.co_name or
                    names.intersection(code.co_names)):
                spans.append(_span(code))
    for k in ka.keys() & kb.keys():
        if not _changed_functions(ka[k], kb[k], spans):
            return None
    return sorted(set(spans))


def _span(code):
    lines = [line for c in _walk(code) for _, line in code_lines(c) if line]
    return (code.co_firstlineno, max(lines + [code.co_firstlineno]))


def _changed_functions(a, b, spans):
    # Positions ignored: code that only moved is the same code.
    ka = keyed_children(a, positions=False)
    kb = keyed_children(b, positions=False)
    if ka.keys() != kb.keys() or not _shallow_equal(a, b, positions=False):
        if not is_function_code(a):
            return False
        spans.append(_span(a))
        return True
    return all(_changed_functions(ka[k], kb[k], spans) for k in ka)


def _rebound_names(raw_a, raw_b):
    """The names that the module-level statements of two texts bind
    differently, when every statement that differs is an import or a
    function definition (its body aside: code objects compare those);
    None otherwise."""
    import ast
    import collections
    try:
        tops = [ast.parse(raw).body for raw in (raw_a, raw_b)]
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return None

    def bare(node):
        # A definition without its functions' bodies.
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return type(node)(**dict(ast.iter_fields(node), body=[]))
        if isinstance(node, ast.ClassDef):
            return ast.ClassDef(**dict(ast.iter_fields(node),
                                       body=[bare(n) for n in node.body]))
        return node

    def key(node):
        return ast.dump(bare(node))
    counts = [collections.Counter(key(n) for n in body) for body in tops]
    names = set()
    for body, mine, theirs in ((tops[0], counts[0], counts[1]),
                               (tops[1], counts[1], counts[0])):
        for node in body:
            if mine[key(node)] <= theirs[key(node)]:
                continue
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                names.add(node.name)
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                names.update((alias.asname or alias.name).split(".")[0]
                             for alias in node.names)
            else:
                return None
    return names


def rebind_payload(path, source, start, end, replacement, line):
    """The top-level statement holding `line` of the mutated source,
    compiled alone, as a swap payload ((("<rebind>",), code),): a child
    executes it in the imported module instead of importing afresh.  b""
    when it cannot be had."""
    import ast
    import marshal
    raw = source.encode("utf-8", "surrogateescape")
    new = raw[:start] + replacement.encode("utf-8") + raw[end:]
    try:
        tree = ast.parse(new, path)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return b""
    for node in tree.body:
        if node.lineno <= line <= (node.end_lineno or node.lineno):
            mod = ast.Module(body=[node], type_ignores=[])
            try:
                code = compile(mod, path, "exec", dont_inherit=True)
            except (SyntaxError, ValueError):
                return b""
            return marshal.dumps(((("<rebind>",), code),))
    return b""


_ORIGINALS = {}


def swap_payload(changed):
    """The code objects a child swaps in for a change that needs no
    re-execution, marshalled: ((key path, code), ...) without the module
    itself.  The child then neither compiles nor compares anything."""
    import marshal
    return marshal.dumps(tuple((p, c) for p, c in sorted(
        changed.items(), key=lambda kv: repr(kv[0])) if p != ()))


class _Statements:
    """A module's top-level statements, in groups that share no line, so
    that a change inside one group is compiled with that group alone: a
    large module's thousands of mutants would each compile all of it.  A
    group is compiled as the module compiles it: at its own lines, under
    the module's __future__ flags, and with what the compiler reads of the
    rest of the module, which is which module-level names imports bind (a
    call of an imported name's method compiles another way): the first
    line binds them all by an import, and is no docstring; the lines
    between it and the group are blank.  Its code then differs from the
    original group's exactly where the whole module's would.  A group on
    the module's first line is compiled with the whole module."""

    def __init__(self, raw, path):
        import ast
        import re
        self.groups = []   # (first line, start byte, end byte)
        self.group_starts = []
        self.flags = 0
        self.future_end = 0    # bytes up to the last __future__ import
        # A BOM or a coding declaration other than UTF-8 is the first
        # lines': such a module is compiled whole.
        head = raw.split(b"\n", 2)[:2]
        if raw.startswith(b"\xef\xbb\xbf") or any(
                re.match(rb"^[ \t\f]*#.*?coding[:=]", h) for h in head):
            return
        try:
            tree = ast.parse(raw, path)
        except (SyntaxError, ValueError, MemoryError, RecursionError):
            return
        starts = [0]
        for line in raw.splitlines(keepends=True):
            starts.append(starts[-1] + len(line))
        import __future__
        imported = set()
        pending = list(tree.body)
        while pending:
            node = pending.pop()
            if isinstance(node, ast.Import):
                imported.update(a.asname or a.name.split(".")[0]
                                for a in node.names)
            elif isinstance(node, ast.ImportFrom):
                imported.update(a.asname or a.name for a in node.names
                                if a.name != "*")
            elif not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef,
                                       ast.ClassDef, ast.Lambda,
                                       ast.expr)):
                pending.extend(ast.iter_child_nodes(node))
        self.first_line = b"0\n" if not imported else (
            "import " + ", ".join("sys as %s" % n for n in sorted(imported))
            + "\n").encode()
        spans = []
        for node in tree.body:
            first = min([node.lineno] + [d.lineno for d in getattr(
                node, "decorator_list", ())])
            last = node.end_lineno or node.lineno
            if isinstance(node, ast.ImportFrom) and \
                    node.module == "__future__":
                for a in node.names:
                    feature = getattr(__future__, a.name, None)
                    self.flags |= getattr(feature, "compiler_flag", 0)
                self.future_end = starts[min(last, len(starts) - 1)]
            if spans and first <= spans[-1][1]:
                spans[-1][1] = max(spans[-1][1], last)
            else:
                spans.append([first, last])
        for first, last in spans:
            if last >= len(starts):
                return
            self.groups.append((first, starts[first - 1], starts[last]))
        # What follows the module's first line is compiled whole.
        self.groups = [g for g in self.groups if g[0] > 1]
        self.group_starts = [g[1] for g in self.groups]

    def group_of(self, start, end, old, new):
        """The index of the group holding the change of bytes start:end
        from old to new, or -1 when the module is compiled whole for it:
        outside one group, within the __future__ imports, or changing the
        number of lines (the groups below it would move)."""
        if old.count(b"\n") != new.count(b"\n") or \
                old.count(b"\r") != new.count(b"\r") or \
                start < self.future_end:
            return -1
        import bisect
        k = bisect.bisect_right(self.group_starts, start) - 1
        if k < 0 or end > self.groups[k][2]:
            return -1
        return k

    def compile(self, k, text, path):
        """Group k's text (its bytes, changed or not) compiled in place."""
        pad = self.first_line + b"\n" * (self.groups[k][0] - 2)
        return compile(pad + text, path, "exec", flags=self.flags,
                       dont_inherit=True)


def _compiled_original(path, raw):
    """(raw, its code, its _Statements, {group: the group's code})."""
    orig = _ORIGINALS.get(path)
    if orig is None or orig[0] != raw:
        orig = (raw, compile(raw, path, "exec", dont_inherit=True),
                _Statements(raw, path), {})
        _ORIGINALS[path] = orig
    return orig


def _analyse_one(path, raw, orig, start, end, repl, whole):
    """(status, changed, structural, detail, group) of one change; whole:
    compile the whole module (else the change's group alone where it
    can).  group: the index of the group compiled, or -1 for the whole
    module."""
    base, stmts, group_codes = orig[1], orig[2], orig[3]
    new_bytes = repl.encode("utf-8")
    k = -1 if whole else stmts.group_of(start, end, raw[start:end],
                                        new_bytes)
    try:
        if k < 0:
            code = compile(raw[:start] + new_bytes + raw[end:], path, "exec",
                           dont_inherit=True)
        else:
            _first, gs, ge = stmts.groups[k]
            if k not in group_codes:
                group_codes[k] = stmts.compile(k, raw[gs:ge], path)
            base = group_codes[k]
            code = stmts.compile(k, raw[gs:start] + new_bytes + raw[end:ge],
                                 path)
    except (SyntaxError, ValueError, OverflowError, MemoryError,
            RecursionError) as exc:
        if k >= 0:
            # What the whole module makes of it, and its message.
            return _analyse_one(path, raw, orig, start, end, repl, True)
        return INVALID, None, None, "%s: %s" % (type(exc).__name__, exc), k
    changed, structural = code_diff(base, code)
    if not changed:
        return EQUIVALENT, None, None, "", k
    return OK, changed, structural, "", k


def analyse(path, source, changes, payload_budget=0, whole=False):
    """For each (start, end, replacement) byte change of `source`: status
    (OK, INVALID, EQUIVALENT), whether the module must be re-executed,
    the change's fingerprint, a message for INVALID, and, while the
    payloads so far stay within payload_budget bytes, the swap payload of
    an OK change that needs no re-execution (else b"").  Each change is
    compiled with its group of top-level statements alone (_Statements);
    whole=True compiles the whole module for every change, as the groups
    stand for it.  Fingerprints are comparable between changes of one
    call only."""
    raw = source.encode("utf-8", "surrogateescape")
    orig = _compiled_original(path, raw)
    out = []
    for start, end, repl in changes:
        status, changed, structural, detail, group = _analyse_one(
            path, raw, orig, start, end, repl, whole)
        if status != OK:
            out.append((status, 0, "", detail, b""))
            continue
        # A group's module code holds that group alone: the same change of
        # two like statements must not look alike.
        marked = changed if group < 0 else \
            {("group", group) + p: c for p, c in changed.items()}
        payload = b""
        if not structural and payload_budget > 0:
            payload = swap_payload(changed)
            if len(payload) > payload_budget:
                payload = b""
            payload_budget -= len(payload)
        out.append((OK, 1 if structural else 0, fingerprint(marked), "",
                    payload))
    return out


def package_of(module):
    """The package a module's relative imports start from."""
    return getattr(module, "__package__", None) or (
        module.__name__ if hasattr(module, "__path__")
        else module.__name__.rpartition(".")[0])


def imported_names(text, package):
    """The absolute names a module's text imports, anywhere in its code
    (`from .constants import X` in package pkg: pkg.constants and
    pkg.constants.X)."""
    import ast
    names = set()
    try:
        tree = ast.parse(text or "")
    except (SyntaxError, ValueError):
        return names
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".") if package else []
                up = parts[:len(parts) - (node.level - 1)] \
                    if node.level > 1 else parts
                base = ".".join(up + ([base] if base else []))
            names.add(base)
            names.update(base + "." + a.name for a in node.names)
    return names


def import_order(modules):
    """The order in which a fresh import executes changed modules,
    [(names, package, text)] -> their indices: a module that another
    one imports from comes first (a fix adds a constant to one module
    and uses it in another).  Ties and cycles keep the given order."""
    needs = []
    for k, (_, package, text) in enumerate(modules):
        imported = imported_names(text, package)
        needs.append({j for j, (names, _, _) in enumerate(modules)
                      if j != k and set(names) & imported})
    order, placed = [], set()
    while len(order) < len(modules):
        left = [k for k in range(len(modules)) if k not in placed]
        k = next((k for k in left if not needs[k] - placed), left[0])
        order.append(k)
        placed.add(k)
    return order
