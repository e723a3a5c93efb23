"""Who reads which module-level name: the static analysis behind litmus'
test selection for mutants on lines that run at import time.

A mutant on an import-time line (a module constant, a top-level import, a
function a constant calls at import) changes module state once, before any
test runs, so per-test coverage cannot tell which tests depend on it.  This
module answers instead from the source: which code can observe the names
the mutated statement binds.  Every answer errs towards more tests; when it
cannot be known the answer is "all" (every test runs), because a too narrow
answer makes a killed mutant look survived.  Standard library only; run in
the engine's embedded interpreter (operators/readers.c).

Scan (Index(root, subjects)).  Every .py file under root, except in
directories named .git, __pycache__, node_modules, .tox, .nox, any other
dot-directory, site-packages, dist-packages, a directory holding
pyvenv.cfg, and build/ or dist/ directories that are not packages; the
subjects (the files litmus mutates) are always scanned.  Each file is
parsed once into units:
  - one import-time unit per top-level statement: the statement's code that
    runs when the module is imported (module-level expressions, class
    bodies, decorators, default values, annotations unless the file has
    `from __future__ import annotations`, comprehensions at that level);
  - one function unit per def or lambda at any depth: its body, spanning
    the def (or lambda) line to its last line;
  - one for the block of `if __name__ == "__main__":` (no else): code
    that runs as a script, never at import, like a function nobody calls.
A unit mentions a name when it loads it as a global (a Name that is not
local to an enclosing function or comprehension), as an attribute (x.N,
any context), imports it (from m import N), or holds a string constant
made of dotted identifiers with N as one component ("N", "pkg.mod.N":
getattr(mod, "N"), monkeypatch.setattr("pkg.mod.N", ...)).  Strings in
an `__all__ = [...]` statement are not mentions: star imports are handled
on their own.  Files are test modules when named test_*.py or *_test.py.

Query (Index.query(subject, line, end_line)).  The top-level statement T
of the subject module M holding the lines (none, or lines across two
statements: all).
  - Lines in T's import-time code: the affected names are the names T
    binds: Name targets of (augmented, annotated) assignments, def and
    class names, import aliases, walrus targets, for/with/except/match
    targets, recursively through if/try/with/for/while/match.  All when T
    assigns an attribute or item, star-imports, holds an expression
    statement (a bare call), del, assert, raise, global or nonlocal.
  - Lines in a function body (the engine asks only about lines that ran at
    import, so the function was called at import): the function's span is
    a reader span, and the affected names are those bound by the import-
    time statements that call it.  The function must be pure (calls only
    pure code, stores only into its own locals) or effect-free (below),
    and so must what each such statement calls (else all).  Callers are followed by name from the
    seeds of the function: its def names (enclosing ones too) and, for a
    top-level function, a lambda or a dunder method (called unnamed), the
    names of its top-level statement.  Any function mentioning one adds
    its own seeds; an import-time statement of a subject or test file that
    calls nothing, or a `from x import` anywhere, adds the names it binds
    (it stores or re-exports); until nothing changes.  The other import-
    time units mentioning one are the callers (a script's main block never
    is).  A caller in M gives its bound names; a caller in a test
    module gives that module; a caller anywhere else, no caller found, a
    def on the way decorated by anything but a known pure wrapper, or a
    `global` statement in it: all.
  - A line that is both (a one-line def, a lambda) gets both answers.
Then, for every affected name N (and names it flows into, below):
  - a dunder the runtime reads without naming it (special methods and
    attributes of the built-in types, of modules, classes, pickling,
    typing, dataclasses, doctest and pytest: is_protocol_name), or a
    function of M declaring `global N`: all (other dunders, a project's
    own `__version__` or `__author__`, are read by naming them);
  - a function unit of a subject file mentioning N: its span;
  - a unit of a test module mentioning N: when it is a test's own code
    (a def outside any other, a method of a class, decorated at most by
    marks, hypothesis, patches or skips, not one of the names a framework
    calls unnamed: setUp, run, setup_method, pytest_*, dunders), that
    test ("Class::test_x") is a reader, and whoever names the def is
    followed (a helper's callers); a `from m import N` at the top makes
    the module hold N without reading it (unless N names a decorated
    def: a fixture is taken by naming it as a parameter); a class
    statement that names N only in its bases or in class attributes
    bound without a call (`cls = mi.peekable`) makes that class's tests
    readers, and N flows into the class's name (its subclasses); any
    other unit (import-time code, a fixture, set-up, a lambda at the top)
    makes the whole module a reader, and for its import-time code N flows
    into the names it binds, which other test modules may import.  A test module
    that only some tests read gets the others' "PATH::QUAL" in the
    answer's skip list; a test whose id is none of the module's defs
    (inherited, generated, a doctest) always reads;
  - an import-time unit of a subject file mentioning N, other than T
    itself: when it calls nothing (no call, decorator, with, await or
    yield) or only pure built-ins and effect-free functions of its file
    given fresh values, and its bound names are known, N flows into those
    names (`TABLE = {k: N for k in X}`, `from pkg.mod import N as M`, a
    default value, `P = tuple(sieve(N))`); otherwise all;
  - a function unit of M that reads N and runs at import itself (a
    generator a constant is built with): when every import-time caller of
    it is such a statement of M (or a test module's, then a reader), N
    also flows into the callers' names, and the span is marked followed:
    the engine need not take its having run at import as all;
  - a pure `from x import ...` at the top of any other file: N flows into
    its alias; any other unit of another file (conftest.py, helpers,
    setup.py, docs): all.
  - a bare-name read of N in another file that binds N at its top only
    by statements other than imports (and star-imports nothing) reads
    that file's own N, another object: not followed, unless N reaches the
    file as one of its own names (a def of its that reads the change);
  - an import-time statement of a file that is neither subject nor test
    (nor conftest) that calls nothing but pure decorators and built-in
    bases (a def whose default is N) passes N on to its names.
  - files no other file names (find_unimported: a docs conf.py, a tool
    script; no import, string or path of the tree or of its setup.cfg,
    tox.ini, pytest.ini, pyproject.toml names their module) cannot run in
    a test: their code reads nothing.
Regardless of names:
  - a file that cannot be read or parsed: all, or, for a test module, that
    module is always a reader;
  - a unit of a non-subject file that mentions globals, vars, locals,
    eval, exec, __dict__, getmembers or __all__, or star-imports a module
    whose last dotted component is M's name (or `from . import *`): all,
    or its test module; the same in another subject file: its span for a
    function, all at import time; in M's own import-time code other than
    T: all (also for sys.modules[__name__]).
Effect-free (effect_free): a def at the top of its file, bound once,
that changes nothing outside what it makes itself and its arguments and
holds nothing another call could change: no decorator but the pure ones,
only immutable defaults, no global or nonlocal, stores only into its own
locals and arguments, calls only pure built-ins, the pure standard
library (PURE_LIB, by name through imports of PURE_MODULES), what its
locals and arguments hold (their methods), and effect-free functions of
its file; reads as globals only built-ins, immutable constants, the
standard library's names and such functions; yields and `with
suppress(...)` allowed.  Called with fresh values (constants, literals,
pure built-ins' results: fresh_value) by name, whatever it does stays in
what it returns or yields.

Left out, known: a reader function that also runs at import (a constant
computed by calling it) passes what it read on unseen, unless followed
as above: the engine, which has the import coverage, must take a reader
span that ran at import and is not followed as all.  Also reads through getattr with a computed name, through objects
handed over by calls at import, through pickles, the file system or
subprocesses.  Matching is by name only, never by module, which can only
add readers.
"""

import ast
import builtins
import os
import re

# match statements came in 3.10: under 3.9 no node is one of these.
_MATCH = getattr(ast, "Match", ())
_MATCH_CAPTURES = tuple(getattr(ast, n) for n in ("MatchAs", "MatchStar")
                        if hasattr(ast, n))
_MATCH_MAPPING = getattr(ast, "MatchMapping", ())

DYNAMIC = frozenset(("globals", "vars", "locals", "eval", "exec", "__dict__",
                     "getmembers", "__all__"))
# Decorators that neither call the function at import nor hand it to
# anything that could: following callers by name stays sound under them.
PURE_DECORATORS = frozenset((
    "property", "staticmethod", "classmethod", "cached_property",
    "abstractmethod", "overload", "override", "final", "setter", "getter",
    "deleter", "wraps", "lru_cache", "cache", "total_ordering",
    "dataclass", "no_type_check",
))
# Calls that change nothing but what they return (given arguments the
# statement computes): a statement making its names with them has no
# effect beyond those names.  Matched by the called name's last part.
PURE_CALLS = frozenset((
    "dict", "list", "set", "frozenset", "tuple", "int", "float", "str",
    "bytes", "bytearray", "bool", "complex", "range", "object", "len",
    "abs", "min", "max", "sum", "round", "divmod", "pow", "chr", "ord",
    "hex", "oct", "bin", "enumerate", "zip", "reversed", "sorted",
    "isinstance", "issubclass", "compile", "namedtuple", "NamedTuple",
    "TypeVar", "field", "Decimal", "Fraction", "timedelta",
    # A generator of its own (random.Random()): seeded from the system,
    # it leaves the module's shared generator as it was.
    "Random",
))
# Context managers of the standard library that change nothing outside
# the block (a `with` of anything else is a call of unknown code).
PURE_CMS = frozenset(("suppress", "nullcontext"))
# Modules of the standard library whose functions compute a value from
# their arguments and change no state of their own (an iterator they
# return consumes what it is given, as the caller asked).
PURE_MODULES = frozenset(("math", "cmath", "itertools", "operator",
                          "functools", "contextlib", "builtins"))
# Those functions, and the built-ins beyond PURE_CALLS that read only
# what they are given; matched by the called name's last part when the
# file binds that name by an import of a PURE_MODULES module (or not at
# all: a built-in).
PURE_LIB = frozenset((
    "islice", "chain", "from_iterable", "compress", "count", "cycle",
    "repeat", "accumulate", "starmap", "product", "permutations",
    "combinations", "combinations_with_replacement", "groupby",
    "zip_longest", "takewhile", "dropwhile", "filterfalse", "pairwise",
    "batched", "isqrt", "gcd", "lcm", "comb", "perm", "factorial",
    "prod", "fsum", "sqrt", "log", "log2", "log10", "exp", "floor",
    "ceil", "trunc", "isclose", "isfinite", "isinf", "isnan", "copysign",
    "fabs", "hypot", "itemgetter", "attrgetter", "add", "mul", "sub",
    "neg", "truediv", "floordiv", "mod", "eq", "ne", "lt", "le", "gt",
    "ge", "not_", "truth", "getitem", "reduce", "partial", "suppress",
    "nullcontext", "map", "filter", "iter", "next", "any", "all",
    "getattr", "hasattr", "repr", "hash", "callable", "id", "type",
    "format", "ascii", "slice",
))
# Bases whose subclassing runs no code of the project's (no
# __init_subclass__ or metaclass of its own).
PURE_BASES = frozenset(
    [n for n in dir(builtins) if isinstance(getattr(builtins, n), type)]
    + ["NamedTuple", "TypedDict", "Protocol", "Generic", "ABC", "Enum",
       "IntEnum", "Flag", "IntFlag", "StrEnum"])
SKIP_DIRS = frozenset(("__pycache__", "node_modules", "site-packages",
                       "dist-packages"))
DOTTED = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*")
FUNC = (ast.FunctionDef, ast.AsyncFunctionDef)
COMP = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


_FIELDS = {}


def kids(n):
    """ast.iter_child_nodes, less the leaves nothing here looks at (ctx,
    operators), as a list: the scan's hot loop."""
    t = type(n)
    fs = _FIELDS.get(t)
    if fs is None:
        fs = _FIELDS[t] = tuple(f for f in t._fields if f not in (
            "ctx", "op", "ops", "type_comment", "kind"))
    out = []
    for f in fs:
        v = getattr(n, f, None)
        if type(v) is list:
            out += [x for x in v if isinstance(x, ast.AST)]
        elif isinstance(v, ast.AST):
            out.append(v)
    return out


def is_dunder(name):
    return len(name) > 4 and name.startswith("__") and name.endswith("__")


def _protocol_names():
    """Dunder names that the interpreter, the standard library or pytest
    read without naming them in the project's code: special methods and
    attributes of the built-in types, and those of modules, classes,
    pickling, typing, dataclasses, doctest and pytest."""
    import types
    names = set()
    for t in (object, type, int, float, complex, bool, str, bytes,
              bytearray, list, tuple, dict, set, frozenset, range, slice,
              memoryview, property, staticmethod, classmethod,
              BaseException, types.ModuleType, types.FunctionType,
              types.MethodType, types.CodeType, types.GeneratorType,
              types.CoroutineType, types.AsyncGeneratorType,
              types.SimpleNamespace):
        names.update(n for n in dir(t) if is_dunder(n))
    names.update(
        "__%s__" % n for n in (
            "all", "getattr", "dir", "path", "file", "cached", "builtins",
            "loader", "package", "spec", "annotations", "name", "qualname",
            "module", "doc", "dict", "class", "slots", "weakref",
            "match_args", "post_init", "set_name", "init_subclass",
            "class_getitem", "mro_entries", "prepare", "instancecheck",
            "subclasscheck", "fspath", "index", "length_hint", "missing",
            "enter", "exit", "aenter", "aexit", "aiter", "anext", "await",
            "get", "set", "delete", "copy", "deepcopy", "reduce",
            "reduce_ex", "getstate", "setstate", "getnewargs",
            "getnewargs_ex", "signature", "wrapped", "text_signature",
            "abstractmethods", "orig_bases", "parameters",
            "dataclass_fields", "dataclass_params", "future", "debug",
            "main", "mro", "bases", "origin", "args", "total",
            "required_keys", "optional_keys", "final", "type_params",
            "buffer", "release_buffer", "test", "tracebackhide",
            "call", "iter", "next", "len", "contains",
            "getitem", "setitem", "delitem", "bool", "hash", "eq",
            "init", "new", "del", "repr", "str", "format", "bytes",
            "round", "trunc", "floor", "ceil", "complex", "int", "float",
            "import", "protocol_attrs", "non_callable_proto_members",
            "unittest"))
    return frozenset(names)


PROTOCOL_NAMES = None


def is_protocol_name(name):
    """A dunder the runtime may read without naming it: the answer for it
    is all.  Other dunders (a project's own __version__-like constants)
    are read by naming them, as any name."""
    global PROTOCOL_NAMES
    if PROTOCOL_NAMES is None:
        PROTOCOL_NAMES = _protocol_names()
    return is_dunder(name) and name in PROTOCOL_NAMES


def is_test_file(path):
    base = os.path.basename(path)
    return base.endswith(".py") and (base.startswith("test_")
                                     or base.endswith("_test.py"))


# Special methods and attributes that the runtime or the standard library
# inspects without calling them (collections.abc's subclass hooks and
# typing's protocols test `is None`; the descriptor protocol and class
# creation look at presence; __del__ runs whenever the object goes):
# for them, the tests that ran the bound code are not all the observers.
NONE_CHECKED = frozenset("__%s__" % n for n in (
    "hash", "iter", "len", "contains", "reversed", "next", "await", "aiter",
    "anext", "call", "buffer", "release_buffer", "enter", "exit", "aenter",
    "aexit", "fspath", "index", "int", "float", "complex", "bytes", "abs",
    "round", "class_getitem", "init_subclass", "set_name", "slots",
    "getattr", "getattribute", "setattr", "delattr", "get", "set",
    "delete", "del", "new", "subclasshook", "instancecheck",
    "subclasscheck", "mro_entries", "prepare", "match_args", "weakref",
    "dict", "doc", "module", "qualname", "name", "annotations",
    "abstractmethods", "orig_bases", "dataclass_fields", "test"))
# Bases from collections.abc and typing: ABCMeta makes the class, which
# reads nothing of a value but whether it is abstract.
ABC_BASES = frozenset((
    "Hashable", "Awaitable", "Coroutine", "AsyncIterable", "AsyncIterator",
    "AsyncGenerator", "Iterable", "Iterator", "Reversible", "Generator",
    "Sized", "Container", "Collection", "Callable", "Set", "MutableSet",
    "Mapping", "MutableMapping", "MappingView", "KeysView", "ItemsView",
    "ValuesView", "Sequence", "MutableSequence", "ByteString", "Buffer",
    "AbstractSet", "MutableSequence"))
# What those bases' mixin methods read by name (and call).
ABC_MIXIN_NAMES = frozenset((
    "insert", "append", "extend", "pop", "remove", "reverse", "index",
    "count", "add", "discard", "clear", "get", "keys", "items", "values",
    "popitem", "update", "setdefault", "isdisjoint", "_from_iterable",
    "_hash", "send", "throw", "close"))
# Wrappers whose value calls the wrapped function's code when used.
CODE_WRAPPERS = frozenset(("property", "staticmethod", "classmethod"))
# Calls a factory of methods may make at import beyond PURE_CALLS.
FACTORY_CALLS = frozenset(("dedent", "format", "join", "wraps"))


class Unit:
    """A piece of code that runs as one: a top-level statement's import-time
    code (func False) or a function body (func True)."""
    __slots__ = ("rec", "func", "first", "last", "stmt", "names", "impure",
                 "chain", "star", "globals", "main", "body", "calls",
                 "own", "roots", "escapes", "decorated", "node", "attrs")

    def __init__(self, rec, func, first, last, stmt):
        self.rec = rec
        self.func = func
        self.first = first
        self.last = last
        self.stmt = stmt          # index of the top-level statement
        self.names = set()
        self.attrs = set()        # the names among those mentioned other
                                  # than as a variable: x.N, "N", an import
        self.impure = False       # calls something (import-time units)
        self.chain = ()           # def names, outermost first (functions)
        self.star = []            # modules star-imported
        self.globals = set()      # names declared global (functions)
        self.main = False         # the body of `if __name__ == "__main__"`
        self.body = first         # functions: the first line of the body
        self.calls = set()        # names it calls, decorates or subclasses
                                  # with ("?": a callee without a name)
        self.own = frozenset()    # functions: locals it makes itself (not
                                  # its arguments): changing them changes
                                  # nothing outside
        self.roots = set()        # module-level names it stores into or
                                  # calls a method of (functions)
        self.escapes = False      # stores into something no name of its
                                  # own or of its module reaches (f().x)
        self.decorated = False    # a def holding it is decorated by more
                                  # than a known pure wrapper (a fixture)
        self.node = None          # functions: the def or lambda


class Stmt:
    __slots__ = ("node", "first", "last", "binds", "why", "unit")

    def __init__(self, node):
        self.node = node
        decos = getattr(node, "decorator_list", ())
        self.first = min([node.lineno] + [d.lineno for d in decos])
        self.last = node.end_lineno
        self.binds = set()
        self.why = None           # set when the names bound are unknown
        self.unit = None


class File:
    __slots__ = ("path", "subject", "test", "modname", "error", "stmts",
                 "units", "globals", "future_ann", "fresh_stores",
                 "state_names", "cache")

    def __init__(self, path, subject):
        self.path = path
        self.subject = subject    # index, or None
        self.test = subject is None and is_test_file(path)
        base = os.path.basename(path)[:-3]
        if base == "__init__":
            base = os.path.basename(os.path.dirname(path))
        self.modname = base
        self.error = None
        self.stmts = []
        self.units = []
        self.globals = set()      # names any function declares global
        self.future_ann = False
        self.fresh_stores = set()  # id() of attribute stores into an
                                   # object the same statement just made
        self.state_names = None    # names bound other than by an import
        self.cache = {}            # answers about the file that queries
                                   # share (stdlib_names, effect_free)


# --- Names a statement binds at module level ---

def target_binds(t, out):
    if isinstance(t, ast.Name):
        out.add(t.id)
        return None
    if isinstance(t, (ast.Tuple, ast.List)):
        for e in t.elts:
            why = target_binds(e, out)
            if why:
                return why
        return None
    if isinstance(t, ast.Starred):
        return target_binds(t.value, out)
    return "assigns an attribute or item"


def pattern_binds(p, out):
    for n in ast.walk(p):
        if isinstance(n, _MATCH_CAPTURES) and n.name:
            out.add(n.name)
        elif isinstance(n, _MATCH_MAPPING) and n.rest:
            out.add(n.rest)


def fresh_stores(stmts, out):
    """Adds to out the id() of every statement of the blocks stmts (and
    their nested blocks) that only stores into attributes of a function
    or class the same block has just defined, undecorated and not bound
    again since (`f.__doc__ = g.__doc__` after `def f`): the object is
    new and reachable only through the name the block binds, so the
    store changes nothing but what that name holds."""
    fresh = set()
    for b in stmts:
        if isinstance(b, FUNC + (ast.ClassDef,)):
            if b.decorator_list:
                fresh.discard(b.name)
            else:
                fresh.add(b.name)
            continue
        if isinstance(b, ast.Assign) and all(
                isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name)
                and t.value.id in fresh for t in b.targets):
            out.add(id(b))
            continue
        for field in ("body", "orelse", "finalbody"):
            sub = getattr(b, field, None)
            if isinstance(sub, list):
                fresh_stores(sub, out)
        for h in getattr(b, "handlers", ()):
            fresh_stores(h.body, out)
        for c in getattr(b, "cases", ()):
            fresh_stores(c.body, out)
        # Whatever else the statement binds is no longer the new object.
        for n in ast.walk(b):
            if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load):
                fresh.discard(n.id)
            elif isinstance(n, FUNC + (ast.ClassDef,)):
                fresh.discard(n.name)
            elif isinstance(n, (ast.Import, ast.ImportFrom)):
                for a in n.names:
                    fresh.discard(a.asname or a.name.split(".")[0])


def stmt_binds(s, out, fresh=frozenset()):
    """Adds the module-level names s binds to out; returns why they cannot
    be known, or None.  fresh: ids of the stores fresh_stores() found,
    which bind nothing."""
    if isinstance(s, FUNC + (ast.ClassDef,)):
        out.add(s.name)
        return None
    if id(s) in fresh:
        return None
    if isinstance(s, ast.Assign):
        for t in s.targets:
            why = target_binds(t, out)
            if why:
                return why
        return None
    if isinstance(s, (ast.AugAssign, ast.AnnAssign)):
        if isinstance(s, ast.AnnAssign) and s.value is None:
            return "a bare annotation"
        return target_binds(s.target, out)
    if isinstance(s, (ast.Import, ast.ImportFrom)):
        for a in s.names:
            if a.name == "*":
                return "a star import"
            out.add(a.asname or a.name.split(".")[0])
        return None
    if isinstance(s, ast.Expr):
        if isinstance(s.value, ast.Constant):
            return None
        return "an expression statement"
    if isinstance(s, (ast.Pass, ast.Break, ast.Continue)):
        return None
    subs = []
    if isinstance(s, (ast.For, ast.AsyncFor)):
        why = target_binds(s.target, out)
        if why:
            return why
    elif isinstance(s, (ast.With, ast.AsyncWith)):
        for it in s.items:
            if it.optional_vars is not None:
                why = target_binds(it.optional_vars, out)
                if why:
                    return why
    elif isinstance(s, (ast.Try, getattr(ast, "TryStar", ast.Try))):
        for h in s.handlers:
            if h.name:
                out.add(h.name)
            subs += h.body
        subs += s.finalbody
    elif isinstance(s, _MATCH):
        for c in s.cases:
            pattern_binds(c.pattern, out)
            subs += c.body
    elif not isinstance(s, ast.If) and not isinstance(s, ast.While):
        return "a %s statement" % type(s).__name__.lower()
    subs += getattr(s, "body", []) + getattr(s, "orelse", [])
    for sub in subs:
        why = stmt_binds(sub, out, fresh)
        if why:
            return why
    return None


# --- Scope analysis: which names a unit mentions ---

def arg_names(args):
    a = args.posonlyargs + args.args + args.kwonlyargs
    names = {x.arg for x in a}
    if args.vararg:
        names.add(args.vararg.arg)
    if args.kwarg:
        names.add(args.kwarg.arg)
    return names


def scope_locals(fn):
    """The names local to a def or lambda (its arguments and what its own
    body binds, less what it declares global or nonlocal), and the names
    it declares global."""
    local = arg_names(fn.args)
    declared = set()
    globs = set()
    body = fn.body if isinstance(fn.body, list) else [fn.body]
    pending = list(body)
    while pending:
        n = pending.pop()
        if isinstance(n, ast.Name):
            if not isinstance(n.ctx, ast.Load):
                local.add(n.id)
            continue
        if isinstance(n, FUNC + (ast.ClassDef,)):
            local.add(n.name)
            # decorators and defaults run here; the body does not
            pending += n.decorator_list
            if isinstance(n, ast.ClassDef):
                pending += n.bases + [k.value for k in n.keywords]
            else:
                pending += n.args.defaults + [d for d in n.args.kw_defaults
                                           if d is not None]
            continue
        if isinstance(n, ast.Lambda):
            pending += n.args.defaults + [d for d in n.args.kw_defaults
                                       if d is not None]
            continue
        if isinstance(n, COMP):
            pending.append(n.generators[0].iter)
            continue
        if isinstance(n, (ast.Import, ast.ImportFrom)):
            for a in n.names:
                if a.name != "*":
                    local.add(a.asname or a.name.split(".")[0])
            continue
        if isinstance(n, (ast.Global, ast.Nonlocal)):
            declared.update(n.names)
            if isinstance(n, ast.Global):
                globs.update(n.names)
            continue
        if isinstance(n, ast.ExceptHandler) and n.name:
            local.add(n.name)
        elif isinstance(n, _MATCH_CAPTURES) and n.name:
            local.add(n.name)
        elif isinstance(n, _MATCH_MAPPING) and n.rest:
            local.add(n.rest)
        pending += kids(n)
    return local - declared, globs


class Walker:
    """Fills the units of one file from its tree."""

    def __init__(self, rec):
        self.rec = rec

    def unit(self, func, first, last, stmt, chain=()):
        u = Unit(self.rec, func, first, last, stmt)
        u.chain = chain
        self.rec.units.append(u)
        return u

    def annotation(self, node, u, scopes):
        if node is not None and not self.rec.future_ann:
            self.visit(node, u, scopes)

    def function(self, fn, u, scopes, chain):
        """The parts of a def or lambda that run where it is defined go to
        u; the body gets a unit of its own."""
        args = fn.args
        if isinstance(fn, ast.Lambda):
            name_chain = chain
        else:
            name_chain = chain + (fn.name,)
            for d in fn.decorator_list:
                u.impure = True
                u.calls.add(deco_name(d) or "?")
                self.visit(d, u, scopes)
            for a in args.posonlyargs + args.args + args.kwonlyargs + \
                    [args.vararg, args.kwarg]:
                if a is not None:
                    self.annotation(a.annotation, u, scopes)
            self.annotation(fn.returns, u, scopes)
        for d in args.defaults + [d for d in args.kw_defaults
                                  if d is not None]:
            self.visit(d, u, scopes)
        f = self.unit(True, fn.lineno, fn.end_lineno, u.stmt, name_chain)
        f.node = fn
        f.body = body_first(fn)
        f.decorated = u.func and u.decorated or any(
            deco_name(d) not in PURE_DECORATORS
            for d in getattr(fn, "decorator_list", ()))
        local, declared = scope_locals(fn)
        body = fn.body if isinstance(fn.body, list) else [fn.body]
        f.globals = declared
        f.own = frozenset(local - arg_names(fn.args))
        self.rec.globals |= declared
        inner = scopes + (local,)
        for n in body:
            self.visit(n, f, inner, name_chain)

    def visit(self, node, u, scopes, chain=()):
        pending = [node]
        while pending:
            n = pending.pop()
            t = type(n)
            if t is ast.Name:
                if isinstance(n.ctx, ast.Load) or isinstance(n.ctx, ast.Del):
                    if not any(n.id in s for s in scopes):
                        u.names.add(n.id)
                elif n.id in u.globals:
                    u.names.add(n.id)
                continue
            if t is ast.Attribute:
                u.names.add(n.attr)
                u.attrs.add(n.attr)
                pending.append(n.value)
                continue
            if t is ast.Constant:
                v = n.value
                if type(v) is str and len(v) <= 200 and DOTTED.fullmatch(v):
                    u.names.update(v.split("."))
                    u.attrs.update(v.split("."))
                continue
            if t in (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda):
                self.function(n, u, scopes, chain)
                continue
            if t is ast.ClassDef:
                for d in n.decorator_list:
                    u.impure = True
                    u.calls.add(deco_name(d) or "?")
                    pending.append(d)
                # Subclassing runs the bases' __init_subclass__ and
                # metaclass: calls of their own.
                for base in n.bases:
                    name = callee_name(base.value if isinstance(
                        base, ast.Subscript) else base)
                    if name not in PURE_BASES:
                        u.calls.add(name or "?")
                if n.keywords:
                    u.calls.add("?")
                pending += n.bases + [k.value for k in n.keywords]
                # The class body runs where the class statement does.
                for b in n.body:
                    self.visit(b, u, scopes, chain)
                continue
            if t in COMP:
                # The first iterable runs outside; the rest in a scope
                # whose locals are the targets.
                local = set()
                for g in n.generators:
                    for m in ast.walk(g.target):
                        if isinstance(m, ast.Name):
                            local.add(m.id)
                inner = scopes + (local,)
                pending.append(n.generators[0].iter)
                parts = [n.generators[0].target] + n.generators[0].ifs
                for g in n.generators[1:]:
                    parts += [g.target, g.iter] + g.ifs
                parts += [n.key, n.value] if t is ast.DictComp else [n.elt]
                for p in parts:
                    self.visit(p, u, inner, chain)
                continue
            if t is ast.ImportFrom:
                for a in n.names:
                    if a.name == "*":
                        u.star.append(n.module.split(".")[-1]
                                      if n.module else "")
                    else:
                        u.names.add(a.name)
                        u.attrs.add(a.name)
                continue
            if t in (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Delete):
                # Storing into an attribute or item of anything but a
                # function's own local changes state the code does not
                # bind: a side effect, as a call.
                targets = n.targets if t in (ast.Assign, ast.Delete) \
                    else [n.target]
                for tgt in targets:
                    for el in (tgt.elts if isinstance(tgt, (ast.Tuple,
                                                            ast.List))
                               else [tgt]):
                        if not isinstance(el, (ast.Attribute, ast.Subscript,
                                               ast.Starred)):
                            continue
                        root = el
                        while isinstance(root, (ast.Attribute, ast.Subscript,
                                                ast.Starred)):
                            root = root.value
                        if u.func and not (isinstance(root, ast.Name) and
                                           any(root.id in sc
                                               for sc in scopes)):
                            # Not the function's own nor its arguments'.
                            if isinstance(root, ast.Name):
                                u.roots.add(root.id)
                            else:
                                u.escapes = True
                        if not (u.func and isinstance(root, ast.Name) and
                                root.id in u.own) and \
                                id(n) not in self.rec.fresh_stores:
                            u.calls.add("?store")
            if t is ast.AnnAssign:
                self.annotation(n.annotation, u, scopes)
                pending.append(n.target)
                if n.value is not None:
                    pending.append(n.value)
                continue
            if t is ast.NamedExpr and not u.func and \
                    isinstance(n.target, ast.Name):
                self.rec.stmts[u.stmt].binds.add(n.target.id)
            if t in (ast.Call, ast.With, ast.AsyncWith, ast.Await, ast.Yield,
                     ast.YieldFrom):
                u.impure = True
                # A method of an object the function made itself
                # (out.append) changes nothing outside it.
                root = n.func if t is ast.Call else None
                while isinstance(root, (ast.Attribute, ast.Subscript)):
                    root = root.value
                local_root = isinstance(root, ast.Name) and \
                    any(root.id in sc for sc in scopes)
                if t is ast.Call and u.func and \
                        isinstance(n.func, ast.Attribute) and \
                        isinstance(root, ast.Name) and not local_root:
                    u.roots.add(root.id)
                if t in (ast.Yield, ast.YieldFrom) and u.func:
                    # A value handed to whoever iterates the generator.
                    u.calls.add("?yield")
                elif t in (ast.With, ast.AsyncWith) and all(
                        isinstance(i.context_expr, ast.Call) and
                        callee_name(i.context_expr.func) in PURE_CMS
                        for i in n.items):
                    pass          # the call itself is recorded below
                elif t is ast.Call and u.func and local_root and \
                        (isinstance(n.func, ast.Attribute) or
                         isinstance(n.func, ast.Name)):
                    # Something a local or an argument holds: ".name".
                    # Own locals' methods (out.append) are not recorded.
                    if not (isinstance(n.func, ast.Attribute) and
                            root.id in u.own):
                        u.calls.add("." + callee_name(n.func))
                else:
                    u.calls.add((callee_name(n.func) if t is ast.Call
                                 else None) or "?")
            pending += kids(n)

    def module(self, tree):
        rec = self.rec
        for b in tree.body:
            if isinstance(b, ast.ImportFrom) and b.module == "__future__" \
                    and any(a.name == "annotations" for a in b.names):
                rec.future_ann = True
        for i, node in enumerate(tree.body):
            st = Stmt(node)
            fresh_stores([node], rec.fresh_stores)
            st.why = stmt_binds(node, st.binds, rec.fresh_stores)
            st.unit = self.unit(False, st.first, st.last, i)
            rec.stmts.append(st)
            if is_all_assign(node):
                continue          # its strings are not reads
            if is_main_block(node):
                # Runs when the file is a script, never at import: like a
                # function nothing calls.
                st.why = "the block of a script's main"
                self.visit(node.test, st.unit, ())
                body = self.unit(True, node.body[0].lineno, node.end_lineno,
                                 i)
                body.main = True
                for b in node.body:
                    self.visit(b, body, ())
                continue
            self.visit(node, st.unit, ())


def is_main_block(node):
    """`if __name__ == "__main__":` with no else."""
    if not isinstance(node, ast.If) or node.orelse:
        return False
    t = node.test
    if not isinstance(t, ast.Compare) or len(t.ops) != 1 or \
            not isinstance(t.ops[0], ast.Eq):
        return False
    sides = [t.left, t.comparators[0]]
    return any(isinstance(x, ast.Name) and x.id == "__name__"
               for x in sides) and \
        any(isinstance(x, ast.Constant) and x.value == "__main__"
            for x in sides)


def is_all_assign(node):
    """`__all__ = [...]` (or +=) of string constants only."""
    if isinstance(node, ast.Assign):
        ts = node.targets
    elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
        ts = [node.target]
    else:
        return False
    v = node.value
    return all(isinstance(t, ast.Name) and t.id == "__all__" for t in ts) \
        and isinstance(v, (ast.List, ast.Tuple)) \
        and all(isinstance(e, ast.Constant) for e in v.elts)


# --- The index ---

def walk_tree(root):
    for d, dirs, files in os.walk(root):
        if "pyvenv.cfg" in files:
            dirs[:] = []
            continue
        keep = []
        for x in dirs:
            if x.startswith(".") or x in SKIP_DIRS:
                continue
            if x in ("build", "dist") and not os.path.exists(
                    os.path.join(d, x, "__init__.py")):
                continue
            keep.append(x)
        dirs[:] = sorted(keep)
        for f in sorted(files):
            if f.endswith(".py"):
                yield os.path.join(d, f)


def module_names(path):
    """The names a module at path is imported by: its own and those of
    the packages holding it."""
    out = set()
    d, base = os.path.split(path)
    out.add(base[:-3] if base.endswith(".py") else base)
    while os.path.exists(os.path.join(d, "__init__.py")):
        d, base = os.path.split(d)
        out.add(base)
    out.discard("__init__")
    return out


def config_texts(root, texts):
    """texts with the project's setup.cfg, tox.ini, pytest.ini and
    pyproject.toml added, where plugins and options are named."""
    for cfg in ("setup.cfg", "tox.ini", "pytest.ini", "pyproject.toml"):
        p = os.path.join(root, cfg)
        try:
            with open(p, "rb") as f:
                texts[p] = f.read()
        except OSError:
            pass
    return texts


def name_pattern(names):
    """A search for any of names as a whole word, in bytes."""
    words = sorted((n for n in names if n), key=len, reverse=True)
    if not words:
        return re.compile(rb"(?!x)x")
    return re.compile(rb"\b(?:" + b"|".join(re.escape(w.encode())
                                             for w in words) + rb")\b")


class Index:
    def __init__(self, root, subjects):
        self.root = os.path.abspath(root)
        self.subjects = [os.path.abspath(s) for s in subjects]
        where = {p: i for i, p in enumerate(self.subjects)}
        paths = [os.path.abspath(p) for p in walk_tree(root)]
        paths += [p for p in self.subjects if p not in set(paths)]
        self.files = []
        self.by_subject = [None] * len(self.subjects)
        self.mentions = {}        # name -> [Unit]
        self.dynamic = []         # units that read names without naming them
        self.stars = []           # units with star imports
        self.broken = None        # a non-test file we could not parse
        self.broken_tests = []
        self.callers_cache = {}
        self.class_index = None
        self.decorated = None
        self.by_path = None
        self.unimported = frozenset()
        self.every_query = None   # why every query answers all, known early
        # Subjects first; then only the files whose text names something
        # a subject binds or a subject module (a file that does not name
        # it cannot read it), and so on for the names those files bind,
        # until nothing new is named.  A large tree then costs a read and
        # a search per file, not a parse.
        texts = {}
        for p in paths:
            try:
                with open(p, "rb") as f:
                    texts[p] = f.read()
            except OSError as e:
                texts[p] = e
        # Every text, and the project's configuration files, where plugins
        # and options are named: for reads_all and find_unimported.
        every = config_texts(self.root, dict(texts))
        names = set()
        for p in self.subjects:
            names.update(module_names(p))
            for st in self.add(p, where.get(p), texts.pop(p, b"")):
                names |= st.binds
        while True:
            pattern = name_pattern(names)
            named = [p for p, t in texts.items()
                     if not isinstance(t, bytes) or pattern.search(t)]
            if not named:
                break
            more = set()
            for p in named:
                n_dynamic = len(self.dynamic)
                stmts = self.add(p, where.get(p), texts.pop(p))
                why = self.reads_all(self.files[-1],
                                     self.dynamic[n_dynamic:], every)
                if why:
                    # Every query would answer all: the rest of a large
                    # tree need not be parsed (Query.dynamic).
                    self.every_query = why
                    return
                for st in stmts:
                    more |= st.binds
                # A module that star-imports re-exports: who names it
                # may read the names.
                if any(isinstance(st.node, ast.ImportFrom) and
                       any(a.name == "*" for a in st.node.names)
                       for st in stmts):
                    more |= module_names(p)
            names |= more
        self.unimported = self.find_unimported(every)

    def reads_all(self, rec, dynamic, texts):
        """Why every query must answer all once rec is parsed, or None: a
        unit of a file that is neither subject nor test reads names
        without naming them (Query.dynamic's last case), and some other
        file names the file's module, so that find_unimported cannot
        leave it out (one more file only adds names)."""
        if not dynamic or rec.subject is not None or rec.test:
            return None
        if os.path.basename(rec.path) not in ("conftest.py", "__init__.py"):
            pattern = name_pattern([rec.modname])
            if not any(p != rec.path and (not isinstance(t, bytes) or
                                          pattern.search(t))
                       for p, t in texts.items()):
                return None
        return "%s reads names without naming them" % where(self, dynamic[0])

    def find_unimported(self, texts):
        """The parsed files that are neither subjects, test modules,
        conftests nor a package's __init__.py and whose module's own name
        (the file's stem) no other file of the tree names as a
        word (Python sources, and the project's setup.cfg, tox.ini,
        pytest.ini and pyproject.toml, where plugins and options are
        named): no import, import_module string, pytest_plugins entry or
        path of a script names it, so no test can run its code (a docs
        conf.py, a tool script).  Their code reads nothing here."""
        cand = {}
        for rec in self.files:
            # A package's __init__.py runs whenever any of its modules is
            # imported: never a candidate.
            if rec.subject is None and not rec.test and \
                    os.path.basename(rec.path) not in ("conftest.py",
                                                       "__init__.py"):
                cand.setdefault(rec.modname, []).append(rec.path)
        if not cand:
            return frozenset()
        pattern = name_pattern(cand)
        named = set()
        for p, t in texts.items():
            if not isinstance(t, bytes):
                return frozenset()   # unreadable: it might name any
            for m in set(pattern.findall(t)):
                stem = m.decode()
                if p not in cand[stem] or len(cand[stem]) > 1:
                    named.add(stem)
        return frozenset(p for stem, ps in cand.items() if stem not in named
                         for p in ps)

    def add(self, p, subject, text):
        """Parses one file into the index; its top-level statements."""
        rec = File(p, subject)
        self.files.append(rec)
        if rec.subject is not None:
            self.by_subject[rec.subject] = rec
        try:
            if not isinstance(text, bytes):
                raise text
            tree = ast.parse(text, p)
        except (OSError, SyntaxError, ValueError) as e:
            # A file Python cannot parse, it cannot import either: it
            # reads nothing.  One that cannot be read might be imported.
            rec.error = "%s: %s" % (p, type(e).__name__)
            if isinstance(e, OSError) and rec.subject is None:
                if rec.test:
                    self.broken_tests.append(p)
                elif self.broken is None:
                    self.broken = "cannot read " + rec.error
            return []
        Walker(rec).module(tree)
        for u in rec.units:
            for n in u.names:
                self.mentions.setdefault(n, []).append(u)
            if u.names & DYNAMIC and not instance_dict_only(u):
                self.dynamic.append(u)
            if u.star:
                self.stars.append(u)
        return rec.stmts

    def file(self, path):
        """The scanned file at path, or None."""
        if self.by_path is None:
            self.by_path = {rec.path: rec for rec in self.files}
        return self.by_path.get(path)

    def plain_binding(self, u):
        """1 when import-time unit u of a file litmus does not trace (not
        a conftest: its defs may be fixtures) calls nothing (no call,
        decorator, base or store beyond the names it binds, but for the
        pure decorators and built-in bases): what it reads goes into those
        names alone (a def's default value), and whoever names them is
        followed."""
        return not u.func and \
            not (u.calls - PURE_DECORATORS - PURE_BASES) and \
            not u.main and not u.rec.stmts[u.stmt].why and \
            os.path.basename(u.rec.path) != "conftest.py"

    def classes(self, name):
        """The top-level classes named name in the scanned files."""
        if self.class_index is None:
            self.class_index = {}
            for rec in self.files:
                for st in rec.stmts:
                    if isinstance(st.node, ast.ClassDef):
                        self.class_index.setdefault(st.node.name, []).append(
                            st.node)
        return self.class_index.get(name, [])

    def plain_class(self, rec, cls, seen=()):
        """Why making class cls may run code of the project's or read the
        values of its body (a decorator, a metaclass, a base that is not
        a built-in type, an ABC of the standard library or such a class of
        the project's without __init_subclass__), or None."""
        if cls.decorator_list:
            return "the class is decorated"
        if cls.keywords:
            return "the class has a metaclass or keywords"
        for base in cls.bases:
            name = callee_name(base.value if isinstance(base, ast.Subscript)
                               else base)
            if name in PURE_BASES or name in ABC_BASES:
                continue
            found = self.classes(name) if name else []
            if not found or name in seen:
                return "subclasses %s" % (name or "an expression")
            for c in found:
                b = set()
                for x in c.body:
                    stmt_binds(x, b)
                if "__init_subclass__" in b:
                    return "%s has __init_subclass__" % name
                why = self.plain_class(rec, c, seen + (name,))
                if why:
                    return why
        return None

    def followable(self, u):
        """Why who names function unit u of a file litmus does not trace
        (not a subject, not a test module) may not be all that sees what
        it reads, or None: it must be called by name (not a fixture, a
        hook or a script's main), and change nothing but its arguments
        and what it returns."""
        r = u.rec
        if u.main:
            return "a script's main block"
        if os.path.basename(r.path) == "conftest.py":
            return "a conftest"
        if u.decorated:
            return "a decorated function"
        if any(c.startswith("pytest_") for c in u.chain):
            return "a pytest hook"
        if u.globals:
            return "it declares global %s" % min(u.globals)
        if u.escapes:
            return "it stores into what it does not name"
        state = u.roots - rec_imported(r)
        if state:
            return "it changes %s" % min(state)
        st = r.stmts[u.stmt]
        if st.why and (len(u.chain) <= 1 or is_dunder(u.chain[-1])):
            return st.why
        return None

    def import_callers(self, called):
        """The import-time units that may call code reachable through the
        names in called, followed by name: a function mentioning one adds
        its seeds; a statement that only stores or re-exports one (calls
        nothing) adds the names it binds.  A list of (unit, name), or why
        it cannot be known.  Cached: the lines of one function share it."""
        key = frozenset(called)
        found = self.callers_cache.get(key)
        if found is None:
            found = self.callers_cache[key] = self.follow_calls(called)
        return found

    def follow_calls(self, called):
        called = set(called)
        pending = list(called)
        out = []
        while pending:
            n = pending.pop()
            for u in self.mentions.get(n, ()):
                r = u.rec
                st = r.stmts[u.stmt]
                if u.main or r.path in self.unimported:
                    continue
                if u.func:
                    if st.why:
                        return "%s calls %s; %s" % (where(self, u), n,
                                                    st.why)
                    new = seeds(u.chain, st)
                elif not u.impure and not st.why and (
                        r.subject is not None or r.test
                        or isinstance(st.node, ast.ImportFrom)):
                    # `from m import a, n as b` re-exports n as b only.
                    new = set(flow_names(st, n))
                else:
                    out.append((u, n))
                    continue
                for m in new - called:
                    called.add(m)
                    pending.append(m)
        return out

    # The answer is (why, spans, test_files, names, rebind, skip): why is
    # None unless all; spans are (subject, first, last, followed), where
    # followed says that what the span's code reads when it runs at
    # import is followed in this answer (its import-time callers' names
    # are among the readers'), so that its having run at import is no
    # reason for all; rebind: executing the mutated statement again in
    # the imported module puts the mutant in place as a fresh import
    # would; names are those the change flows into (tests that are not in
    # a test module, doctests, can only be matched by their text); skip:
    # "PATH::Class::test" for the tests of the test modules in test_files
    # that cannot read the change (see Query.finish).
    def query(self, subject, line, end_line):
        rec = self.by_subject[subject]
        if rec.error:
            return ("cannot parse " + rec.error, [], [], [], False, [])
        if self.broken or self.every_query:
            return (self.broken or self.every_query, [], [], [], False, [])
        q = Query(self, rec, line, end_line)
        why = q.run()
        if why:
            return (why, [], [], [], False, [])
        skip = q.finish()
        spans = sorted((s, f, l, int((s, f, l) in q.followed))
                       for s, f, l in q.spans)
        return (None, spans, sorted(q.tests), sorted(q.names), q.rebind,
                skip)

    def decorated_names(self):
        """The names of defs anywhere that a decorator beyond the pure
        ones wraps (a fixture is used by naming it as a parameter)."""
        if self.decorated is None:
            self.decorated = set()
            for rec in self.files:
                for u in rec.units:
                    if u.func and isinstance(u.node, FUNC) and any(
                            deco_name(d) not in PURE_DECORATORS
                            for d in u.node.decorator_list):
                        self.decorated.add(u.node.name)
        return self.decorated


class All(Exception):
    pass


class Query:
    def __init__(self, ix, rec, line, end_line):
        self.ix = ix
        self.rec = rec
        self.line = line
        self.end = end_line
        self.spans = set()
        self.tests = set(ix.broken_tests)
        self.names = set()        # every name the change flows into
        self.flows = False        # some import-time code reads one
        self.T = None
        self.followed = set()     # spans whose import-time reads are
                                  # followed (import_flow)
        self.partial = {}         # test module path -> the qualified
                                  # names of its tests that read (only
                                  # when no code of it that runs for
                                  # every test does)

    def run(self):
        try:
            self.find()
            if isinstance(self.T.node, ast.ClassDef):
                # One attribute of the class: its own readers when they
                # can be known, else those of the class's name.
                q = Query(self.ix, self.rec, self.line, self.end)
                q.T = self.T
                try:
                    done = q.class_attr()
                except All as e:
                    done = False
                    self.attr_why = str(e)
                if done:
                    self.spans, self.tests, self.names = \
                        q.spans, q.tests, q.names
                    self.followed, self.partial = q.followed, q.partial
                    self.rebind = False
                    return None
            self.dynamic()
            names = set()
            chain = self.chain()
            if not chain or self.line <= header_last(chain[0]):
                if self.T.why:
                    raise All("line %d: %s" % (self.line, self.T.why))
                # A call at import may change state beyond the names the
                # statement binds (a registry, a class's subclasses).
                calls = side_effects(self.T.unit)
                if calls:
                    raise All("line %d: the statement calls %s at import"
                              % (self.line, ", ".join(calls)))
                names |= self.T.binds
            if chain:
                names |= self.callers(chain)
            self.readers(names)
            self.star_readers()
            self.rebind = not chain and not self.flows and \
                rebindable(self.rec, self.T)
        except All as e:
            return str(e)
        return None

    def class_attr(self):
        """Lines in the value of `N = value` (or `N: T = value`), a
        statement of a top-level class's own body: the mutant changes the
        class attribute N, and nothing else, when the class is made by
        nothing but type or ABCMeta (no decorator, metaclass or
        __init_subclass__ of the project's), the value calls only pure
        code at import and no other statement of the class body reads N.
        Then the readers are those of N (its mentions, by name), and, for
        a special method the runtime calls without naming it, the tests
        that ran the code the original value is (their implicit calls run
        its lines).  False when the lines are not such a statement's; All
        when it cannot be known (the caller then answers for the class's
        name)."""
        cls = self.T.node
        S = None
        for b in cls.body:
            if b.lineno <= self.line and self.end <= b.end_lineno:
                S = b
        if isinstance(S, ast.Assign) and len(S.targets) == 1 and \
                isinstance(S.targets[0], ast.Name):
            name = S.targets[0].id
        elif isinstance(S, ast.AnnAssign) and S.value is not None and \
                isinstance(S.target, ast.Name):
            name = S.target.id
        else:
            return False
        value = S.value
        if not (value.lineno <= self.line and self.end <= value.end_lineno):
            return False
        where_ = "line %d: %s.%s" % (self.line, cls.name, name)
        why = self.ix.plain_class(self.rec, cls)
        if why:
            raise All("%s: %s" % (where_, why))
        # A later statement of the body that reads N at import passes the
        # value on unseen (an earlier one read what N held before).
        aliases = set()
        for b in cls.body[cls.body.index(S) + 1:]:
            seen = import_mentions(b)
            if name in seen:
                # `__rand__ = __and__`: the same value under another name.
                if isinstance(b, ast.Assign) and len(b.targets) == 1 and \
                        isinstance(b.targets[0], ast.Name) and \
                        isinstance(b.value, ast.Name) and \
                        b.value.id == name:
                    aliases.add(b.targets[0].id)
                    continue
                raise All("%s: read again in the class body" % where_)
            if seen & DYNAMIC:
                raise All("%s: the class body reads names without naming "
                          "them" % where_)
        before = cls.body[:cls.body.index(S)]
        top = [st.node for st in self.rec.stmts[:self.rec.stmts.index(self.T)]]
        spans, why = bound_code(self.rec, before, top, value)
        if why:
            raise All("%s: %s" % (where_, why))
        for first, last in spans:
            # A mutant inside the code itself (a lambda's body on the
            # statement's line): the engine cannot tell its calls at
            # import from the statement's own run.
            if first <= self.end and self.line <= last:
                raise All("%s: the mutant is in the bound code" % where_)
            self.spans.add((self.rec.subject, first, last))
        for n in {name} | aliases:
            if is_protocol_name(n):
                if n in NONE_CHECKED:
                    raise All("%s: the runtime checks %s without calling "
                              "it" % (where_, n))
                if not spans:
                    raise All("%s: binds %s to no code of the project's"
                              % (where_, n))
            elif not spans and n in ABC_MIXIN_NAMES and cls.bases:
                raise All("%s: a base's mixin methods read %s"
                          % (where_, n))
            if n != name and n.startswith("__") and not n.endswith("__"):
                raise All("%s: passed on to a private name" % where_)
        names = {name} | aliases
        if name.startswith("__") and not name.endswith("__") and \
                cls.name.lstrip("_"):
            # A private name: `__n` means `_C__n` inside the class's own
            # code, and another attribute anywhere else.
            names = {"_%s%s" % (cls.name.lstrip("_"), name)} | aliases
            at = self.rec.stmts.index(self.T)
            for u in self.ix.mentions.get(name, ()):
                if u.rec is self.rec and u.stmt == at and u.func:
                    self.spans.add((self.rec.subject, u.body, u.last))
        self.dynamic()
        self.readers(names, allow=frozenset(names))
        self.star_readers()
        return True

    def find(self):
        for st in self.rec.stmts:
            if st.first <= self.line and self.end <= st.last:
                self.T = st
                return
        raise All("lines %d-%d are not inside one statement"
                  % (self.line, self.end))

    def chain(self):
        """The defs and lambdas whose bodies hold the lines, outermost
        first."""
        out = []
        pending = [self.T.node]
        while pending:
            n = pending.pop()
            if getattr(n, "lineno", self.line) > self.end or \
                    getattr(n, "end_lineno", self.end) < self.line:
                continue
            if isinstance(n, FUNC + (ast.Lambda,)):
                body = n.body if isinstance(n.body, list) else [n.body]
                if body[0].lineno <= self.line and self.end <= n.end_lineno:
                    out.append(n)
                    pending = list(body)
                    continue
            pending.extend(ast.iter_child_nodes(n))
        return out

    def dynamic(self):
        ix, M = self.ix, self.rec
        for u in ix.dynamic:
            r = u.rec
            if r.path in ix.unimported:
                continue
            if r is M:
                if u.func:
                    self.spans.add((r.subject, u.body, u.last))
                elif u is not self.T.unit:
                    raise All("%s reads module globals" % where(self.ix, u))
            elif r.subject is not None:
                if u.func:
                    self.spans.add((r.subject, u.body, u.last))
                else:
                    raise All("%s reads names without naming them"
                              % where(self.ix, u))
            elif r.test:
                self.tests.add(r.path)
            else:
                raise All("%s reads names without naming them"
                          % where(self.ix, u))
        for u in M.units:
            if not u.func and u is not self.T.unit and \
                    "modules" in u.names and "__name__" in u.names:
                raise All("%s reads sys.modules[__name__]" % where(self.ix, u))

    def star_readers(self):
        """Star imports of M read every name it exports (its literal
        __all__, else its names without a leading underscore): one that
        exports none of the names the change flows into reads nothing."""
        ix, M = self.ix, self.rec
        out = exported(M)
        if out is not None and not (self.names & out) and not (
                out is PUBLIC and any(not n.startswith("_")
                                      for n in self.names)):
            return
        # A package that star-imports M at its top re-exports the names
        # under the same names (found by name like M's own); star imports
        # of that package are star imports of M.
        pending, seen = [M.modname], set()
        while pending:
            mod = pending.pop()
            if mod in seen:
                continue
            seen.add(mod)
            for u in ix.stars:
                if not any(s in ("", mod) for s in u.star) or \
                        u.rec.path in ix.unimported:
                    continue
                # It copies the names at import: executing the mutated
                # statement again in M alone would leave its copies old.
                self.flows = True
                if u.rec.test:
                    self.tests.add(u.rec.path)
                elif not u.func and u.rec is not M and isinstance(
                        u.rec.stmts[u.stmt].node, ast.ImportFrom) and \
                        not u.rec.stmts[u.stmt].node.module is None:
                    pending.append(u.rec.modname)
                else:
                    raise All("%s star-imports %s" % (where(self.ix, u),
                                                      mod))

    def callers(self, chain):
        """Lines in a function body: its span, and the names bound by the
        import-time statements that call it."""
        M = self.rec
        inner = chain[-1]
        for f in chain:
            if isinstance(f, ast.Lambda):
                continue
            for d in f.decorator_list:
                if deco_name(d) not in PURE_DECORATORS:
                    raise All("line %d: %s is decorated by %s" % (
                        self.line, f.name, ast.unparse(d)))
        for u in M.units:
            if u.func and u.globals and \
                    chain[0].lineno <= u.first <= chain[0].end_lineno:
                raise All("line %d: a function declares global %s"
                          % (self.line, min(u.globals)))
        # What the function changes beyond what it returns (a registry it
        # fills, an argument it appends to) is out of sight.
        top = chain[0]
        if isinstance(top, ast.Lambda) or not (
                pure_function(M, top.name, ()) or effect_free(M, top.name)):
            raise All("line %d: %s changes state beyond what it returns"
                      % (self.line, getattr(top, "name", "a lambda")))
        self.spans.add((M.subject, body_first(inner), inner.end_lineno))
        if len(chain) > 1 and self.line <= header_last(inner):
            p = chain[-2]
            self.spans.add((M.subject, body_first(p), p.end_lineno))
        if self.T.why:
            raise All("line %d: %s" % (self.line, self.T.why))
        names = tuple(f.name for f in chain if not isinstance(f, ast.Lambda))
        found = self.ix.import_callers(seeds(names, self.T))
        if isinstance(found, str):
            raise All(found)
        if not found:
            raise All("line %d: no caller at import found" % self.line)
        out = set()
        for u, n in found:
            self.caller(u, n, out)
        return out

    def caller(self, u, n, names):
        """u calls n at import, which reads or is the mutated code: a
        statement of M passes that on to the names it binds (unless it
        calls more, which may hand the result on unseen), a test module
        is a reader, anything else cannot be followed."""
        r = u.rec
        st = r.stmts[u.stmt]
        # What u calls, n included (through it the mutated code runs):
        # pure, or effect-free and given fresh values, else what it does
        # with the mutated code's results may reach beyond st's names.
        more = side_effects(u)
        if r is self.rec and not st.why and not more:
            names |= st.binds
        elif r.test:
            self.tests.add(r.path)
        else:
            raise All("%s calls %s at import%s" % (
                where(self.ix, u), n, "; " + st.why if st.why
                else "; and " + ", ".join(more) if more else ""))

    def import_flow(self, u):
        """Function unit u of the mutated module reads a changed name.
        When its function may run at import, what it read there goes
        into what it returns: the names bound by the import-time
        statements that call it, when every such caller is a statement
        of the module that calls only pure or effect-free code given
        fresh values (side_effects), or a test module's (then a reader).
        Those names, or None when it cannot be followed (never called at
        import by name, an effect on the way)."""
        r = u.rec
        if r is not self.rec or not u.chain:
            return None
        st = r.stmts[u.stmt]
        top = u.chain[0]
        if st.why or not isinstance(st.node, FUNC) or not (
                pure_function(r, top, ()) or effect_free(r, top)):
            return None
        found = self.ix.import_callers(seeds(u.chain, st))
        if isinstance(found, str) or not found:
            return None
        names, tests = set(), set()
        for cu, _ in found:
            cst = cu.rec.stmts[cu.stmt]
            if cu.rec.test:
                tests.add(cu.rec.path)
            elif cu.rec is not r or cu.func or cst.why or side_effects(cu):
                return None
            else:
                names |= cst.binds
        self.tests |= tests
        return sorted(names)

    def named_import(self, st, n):
        """1 when statement st of a test module is `from m import ...`
        that binds n's value under a name its tests must name to read it
        (not a star import; not a fixture, which tests take by naming it
        as a parameter)."""
        node = st.node
        return isinstance(node, ast.ImportFrom) and not st.why and \
            all(a.name != "*" for a in node.names) and \
            n not in self.ix.decorated_names() and not is_dunder(n) and \
            not n.startswith(("pytest_", "setup", "teardown"))

    def finish(self):
        """The test modules read only by some of their tests join
        test_files, with the others' names in the skip list: every
        "PATH::QUALNAME" of a def of the module (test_quals) that no
        reading unit is in.  A test whose id is not among them (inherited,
        generated, a doctest) stays a reader."""
        skip = []
        for path, readers in sorted(self.partial.items()):
            if path in self.tests:
                continue
            self.tests.add(path)
            rec = self.ix.file(path)
            if rec is None:
                continue
            skip += ["%s::%s" % (path, q) for q in test_quals(rec)
                     if q not in readers]
        return sorted(skip)

    def readers(self, names, allow=frozenset()):
        M, T = self.rec, self.T
        pending = list(names)
        seen = set()
        # Names reached only through a test's code (a helper's, a test's
        # own) are no names of the project's that a doctest or a star
        # import could read: they stay out of self.names.
        code = set(names)
        # The files whose own top-level binding of a name is one the
        # change reaches (the name of a def that reads it, of a
        # statement it flows into): another file's own variable of the
        # same name is another object.
        origin = {}

        def push(more, rec, test=False):
            if not test:
                code.update(more)
            for m in more:
                where_ = origin.setdefault(m, set())
                if rec.path not in where_:
                    where_.add(rec.path)
                    # Seen before from elsewhere: rec's own mentions of it
                    # were passed over then.
                    seen.discard(m)
            pending.extend(more)
        while pending:
            n = pending.pop()
            if n in seen:
                continue
            seen.add(n)
            if is_protocol_name(n) and n not in allow:
                raise All("binds %s" % n)
            allow = allow - {n}
            if n in M.globals:
                raise All("a function of %s declares global %s"
                          % (M.modname, n))
            for u in self.ix.mentions.get(n, ()):
                r = u.rec
                if u is T.unit or r.path in self.ix.unimported:
                    continue
                if r is not M and n not in u.attrs and \
                        n in own_globals(r) and \
                        r.path not in origin.get(n, ()):
                    continue      # its own variable n, another object
                if r.test:
                    st = r.stmts[u.stmt]
                    if not u.func:
                        self.flows = True
                        if not st.why:
                            push(flow_names(st, n), r)
                        if self.named_import(st, n):
                            # `from pkg import N`: the module holds N;
                            # its tests read it by naming it.
                            self.partial.setdefault(r.path, set())
                        elif not st.why and class_attribute_only(st.node, n):
                            # `cls = mi.peekable` in a test class: that
                            # class's tests; classes that name it (its
                            # subclasses) follow through its name.
                            prefix = st.node.name + "::"
                            self.partial.setdefault(r.path, set()).update(
                                q for q in test_quals(r)
                                if q.startswith(prefix))
                        else:
                            self.tests.add(r.path)
                        continue
                    # A test's own code: that test, and whoever calls
                    # it by name.  Code that runs for every test or is
                    # called without its name (a fixture, setUp, a
                    # hook): the whole module.
                    q = test_qualname(u)
                    if q is None:
                        self.tests.add(r.path)
                    else:
                        self.partial.setdefault(r.path, set()).add(q)
                    push([c for c in seeds(u.chain, st)
                          if not is_dunder(c) and c not in seen], r,
                         test=True)
                    continue
                if u.func:
                    if r.subject is None:
                        # A function of a file litmus does not trace:
                        # whoever names it may see the change.
                        why = self.ix.followable(u)
                        if why:
                            raise All("%s reads %s; %s"
                                      % (where(self.ix, u), n, why))
                        more = seeds(u.chain, r.stmts[u.stmt])
                        # A special method of a class runs on instances
                        # that code naming the class made.
                        st = r.stmts[u.stmt]
                        if isinstance(st.node, ast.ClassDef) and \
                                len(u.chain) == 1 and not st.why and \
                                st.node.name in more:
                            allow = allow | {u.chain[0]}
                        push(more, r)
                        continue
                    # Should it also run at import, what it read flows on
                    # unseen: the engine, which knows, runs every test,
                    # unless every import-time caller is followed here.
                    span = (r.subject, u.body, u.last)
                    self.spans.add(span)
                    if span not in self.followed:
                        flow = self.import_flow(u)
                        if flow is not None:
                            self.followed.add(span)
                            self.flows = True
                            push(flow, r)
                    continue
                st = r.stmts[u.stmt]
                # A statement that calls only pure code, or effect-free
                # functions given fresh values, passes what it read on to
                # its names alone (`P = tuple(sieve(N))`).
                if st.why or (u.impure and r.subject is not None and
                              side_effects(u)) or (
                        r.subject is None and not isinstance(
                            st.node, ast.ImportFrom) and
                        not self.ix.plain_binding(u)):
                    raise All("%s reads %s at import"
                              % (where(self.ix, u), n))
                self.flows = True
                push(flow_names(st, n), r)
        self.names |= seen & code


PUBLIC = frozenset()  # exported(): no __all__, the public names


def exported(rec):
    """The names a star import of rec's module takes: its literal
    `__all__` (strings in one list or tuple assigned once at the top), or
    PUBLIC when it has none; None when __all__ is built otherwise."""
    found = None
    for st in rec.stmts:
        if "__all__" not in st.binds:
            continue
        node = st.node
        if found is not None or not isinstance(node, ast.Assign) or \
                not isinstance(node.value, (ast.List, ast.Tuple)) or \
                not all(isinstance(e, ast.Constant) and isinstance(e.value, str)
                        for e in node.value.elts):
            return None
        found = frozenset(e.value for e in node.value.elts)
    return PUBLIC if found is None else found


def rebindable(rec, T):
    """1 when executing statement T again, after the module's import, is
    what importing the module with T mutated would have done: T assigns
    names (no augmented assignment, no attribute or item), reads none of
    the names it binds nor any name another statement of the module
    binds after it (their values at T's turn would be lost)."""
    node = T.node
    if isinstance(node, ast.AnnAssign):
        if node.value is None or not isinstance(node.target, ast.Name):
            return False
    elif isinstance(node, ast.Assign):
        if not all(isinstance(t, ast.Name) for t in node.targets):
            return False
    else:
        return False
    reads = T.unit.names
    if reads & T.binds:
        return False
    i = rec.stmts.index(T)
    return not any(reads & st.binds for st in rec.stmts[i + 1:])


# Callees that hand out a module (or anything) whatever their name.
MODULE_GETTERS = frozenset(("import_module", "__import__", "reload",
                            "getmodule", "get", "getattr", "type"))


def instance_dict_only(u):
    """1 when every read without naming of function unit u is `vars(x)`
    or `x.__dict__` of a local x the function only ever assigns the
    result of calling a class (a callee whose name starts with a capital):
    an instance's own dictionary, which holds a module's or class's value
    only where code naming it put it there.  (`assertRaises(TypeError):
    vars(st)` on a slotted record.)"""
    if not u.func or u.node is None or u.names & DYNAMIC - {"vars",
                                                           "__dict__"}:
        return False
    fn = u.node
    if any(isinstance(n, ast.Nonlocal) for n in ast.walk(fn)):
        return False          # a nested def may rebind its locals
    uses, made = [], {}
    for n in own_nodes(fn):
        if isinstance(n, ast.Name) and n.id == "vars" and \
                isinstance(n.ctx, ast.Load):
            uses.append(n)
        elif isinstance(n, ast.Attribute) and n.attr == "__dict__":
            uses.append(n)
        elif isinstance(n, (ast.Assign, ast.AnnAssign, ast.AugAssign,
                            ast.NamedExpr, ast.For, ast.With,
                            ast.comprehension)):
            tgts = n.targets if isinstance(n, ast.Assign) else \
                [n.target] if not isinstance(n, ast.With) else \
                [i.optional_vars for i in n.items if i.optional_vars]
            for t in tgts:
                for m in ast.walk(t):
                    if isinstance(m, ast.Name) and \
                            not isinstance(m.ctx, ast.Load):
                        v = getattr(n, "value", None)
                        ok = isinstance(n, (ast.Assign, ast.AnnAssign)) \
                            and t is m and isinstance(v, ast.Call) and \
                            (callee_name(v.func) or "")[:1].isupper() and \
                            callee_name(v.func) not in MODULE_GETTERS
                        made[m.id] = made.get(m.id, True) and ok
    if not uses:
        return False
    calls = {id(n.func): n for n in own_nodes(fn) if isinstance(n, ast.Call)}
    for use in uses:
        if isinstance(use, ast.Attribute):
            x = use.value
        else:
            call = calls.get(id(use))
            if call is None or len(call.args) != 1 or call.keywords:
                return False
            x = call.args[0]
        if not (isinstance(x, ast.Name) and x.id in u.own and
                made.get(x.id)):
            return False
    return True


def import_mentions(node):
    """The names the parts of statement node that run where it runs
    mention (all but function and lambda bodies; a nested class's body
    included), in any context."""
    out = set()
    pending = [node]
    while pending:
        n = pending.pop()
        if isinstance(n, FUNC):
            pending += n.decorator_list + n.args.defaults + \
                [d for d in n.args.kw_defaults if d is not None]
            for a in n.args.posonlyargs + n.args.args + n.args.kwonlyargs + \
                    [n.args.vararg, n.args.kwarg]:
                if a is not None and a.annotation is not None:
                    pending.append(a.annotation)
            if n.returns is not None:
                pending.append(n.returns)
            out.add(n.name)
            continue
        if isinstance(n, ast.Lambda):
            pending += n.args.defaults + \
                [d for d in n.args.kw_defaults if d is not None]
            continue
        if isinstance(n, ast.ClassDef):
            out.add(n.name)
        if isinstance(n, ast.Name):
            out.add(n.id)
        elif isinstance(n, ast.Attribute):
            out.add(n.attr)
        elif isinstance(n, ast.Constant) and isinstance(n.value, str) and \
                len(n.value) <= 200 and DOTTED.fullmatch(n.value):
            out.update(n.value.split("."))
        pending += ast.iter_child_nodes(n)
    return out


def own_nodes(fn):
    """The nodes of a def's or lambda's own code: not those of the
    functions, lambdas and classes it holds (their headers included)."""
    body = fn.body if isinstance(fn.body, list) else [fn.body]
    pending = list(body)
    while pending:
        n = pending.pop()
        yield n
        if isinstance(n, FUNC + (ast.Lambda, ast.ClassDef)):
            continue
        pending += ast.iter_child_nodes(n)


def is_generator(fn):
    """A def whose call runs none of its lines (a generator or a
    coroutine): its lines show no call that did not iterate it."""
    return isinstance(fn, ast.AsyncFunctionDef) or any(
        isinstance(n, (ast.Yield, ast.YieldFrom, ast.Await))
        for n in own_nodes(fn))


def last_binding(stmts, name):
    """The last statement of stmts binding name, or None."""
    found = None
    for st in stmts:
        b = set()
        if stmt_binds(st, b) or name in b:
            found = st
    return found


def plain_def(node):
    """A def whose value is its own code: undecorated, and its calls run
    its lines (not a generator or a coroutine)."""
    return isinstance(node, ast.FunctionDef) and not node.decorator_list \
        and not is_generator(node)


def code_of(rec, before, top, x):
    """The body span of the plain def that name x holds at a statement
    of a class body preceded by before (the class at top-level statement
    top), or None when it holds no such code."""
    for _ in range(8):
        st = last_binding(before, x)
        stmts = before
        if st is None:
            st, stmts = last_binding(top, x), top
        if st is not None and plain_def(st):
            return (body_first(st), st.end_lineno)
        # `__rand__ = __and__` after `__and__ = intersection`: the
        # value another plain name held when this statement ran.
        if not (isinstance(st, ast.Assign) and len(st.targets) == 1 and
                isinstance(st.targets[0], ast.Name) and
                isinstance(st.value, ast.Name)):
            return None
        x = st.value.id
        i = stmts.index(st)
        if stmts is before:
            before = before[:i]
        else:
            before, top = [], top[:i]
    return None


def factory_code(rec, fn):
    """When calling def fn only makes and returns a nested plain def (a
    factory of methods: `__lt__ = __make_cmp(lt, ...)`), with no effect
    at import beyond its own locals: the body spans of the defs it may
    return; else None."""
    if not isinstance(fn, ast.FunctionDef) or fn.decorator_list or \
            is_generator(fn) or not fn.body or \
            not isinstance(fn.body[-1], ast.Return):
        return None
    nested = {b.name: b for b in fn.body if isinstance(b, ast.FunctionDef)
              and all(deco_name(d) == "wraps" for d in b.decorator_list)
              and not is_generator(b)}
    spans = set()
    for n in own_nodes(fn):
        if isinstance(n, ast.Return):
            if not (isinstance(n.value, ast.Name) and n.value.id in nested):
                return None
            f = nested[n.value.id]
            spans.add((body_first(f), f.end_lineno))
        elif isinstance(n, (ast.Global, ast.Nonlocal)):
            return None
    units = [u for u in rec.units if u.func and u.first == fn.lineno and
             u.chain and u.chain[-1] == fn.name]
    if len(units) != 1:
        return None
    u = units[0]
    if u.globals or u.escapes or u.roots - rec_imported(rec) or \
            u.calls - PURE_CALLS - PURE_BASES - PURE_DECORATORS - \
            FACTORY_CALLS - set(nested):
        return None
    return spans


def rec_imported(rec):
    """The names file rec binds by imports alone."""
    out = set()
    other = set()
    for st in rec.stmts:
        if isinstance(st.node, (ast.Import, ast.ImportFrom)):
            out |= st.binds
        else:
            other |= st.binds
    return out - other


def bound_code(rec, before, top, value):
    """The code a class attribute's value is, as body spans of plain
    defs: a def of the class or module by name (through property,
    staticmethod or classmethod), a lambda, or what a factory of methods
    returns; none for other values.  (spans, why): why says which call
    at import may do more than make the value."""
    spans = set()
    head = value
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) \
            and value.func.id in CODE_WRAPPERS and len(value.args) == 1:
        head = value.args[0]
    if isinstance(head, ast.Name):
        sp = code_of(rec, before, top, head.id)
        if sp:
            spans.add(sp)
    elif isinstance(head, ast.Lambda):
        spans.add((head.body.lineno, head.body.end_lineno))
    factory = None
    if isinstance(head, ast.Call) and isinstance(head.func, ast.Name):
        st = last_binding(before, head.func.id) or \
            last_binding(top, head.func.id)
        if st is not None:
            got = factory_code(rec, st)
            if got is not None:
                spans |= got
                factory = head
    # Everything else the value runs at import: pure calls only.
    pending = [value]
    while pending:
        n = pending.pop()
        if isinstance(n, ast.Lambda):
            pending += n.args.defaults
            continue
        if isinstance(n, (ast.Yield, ast.YieldFrom, ast.Await,
                          ast.NamedExpr)):
            return set(), "a %s at import" % type(n).__name__.lower()
        if isinstance(n, ast.Call) and n is not factory:
            name = callee_name(n.func)
            if name not in PURE_CALLS and name not in CODE_WRAPPERS:
                return set(), "calls %s at import" % (name or "something")
        pending += ast.iter_child_nodes(n)
    return spans, None


# Methods a test framework calls without naming them in the project's
# code, beyond dunders: unittest's (setUp, run, the type-specific
# assertEqual helpers...), pytest's xunit-style set-up and hooks.
_IMPLICIT = None


def implicit_test_name(name):
    global _IMPLICIT
    if _IMPLICIT is None:
        import unittest
        _IMPLICIT = frozenset(dir(unittest.TestCase)) | frozenset((
            "setup", "teardown", "setUpModule", "tearDownModule",
            "load_tests"))
    return is_dunder(name) or name in _IMPLICIT or name.startswith(
        ("pytest_", "setup_", "teardown_"))


# Decorators of a test that leave it a test called by its id (marks,
# hypothesis, mock's patches, unittest's skips), besides PURE_DECORATORS.
TEST_DECORATORS = frozenset((
    "given", "settings", "example", "seed", "reproduce_failure", "patch",
    "object", "dict", "multiple", "skip", "skipIf", "skipUnless",
    "expectedFailure", "parametrize", "usefixtures", "filterwarnings",
    "xfail", "skipif"))


def test_decorator(d):
    """1 when decorator d keeps the function a test run by its id
    (pytest.mark.anything included), not a fixture or a registration."""
    if isinstance(d, ast.Call):
        d = d.func
    parts = []
    while isinstance(d, ast.Attribute):
        parts.append(d.attr)
        d = d.value
    if not isinstance(d, ast.Name):
        return False
    parts.append(d.id)
    return "mark" in parts[1:] or parts[0] in TEST_DECORATORS or \
        parts[0] in PURE_DECORATORS


def def_path(node, name, line, prefix=()):
    """The classes holding the def named name whose lines hold line, in
    top-level statement node (through if, try and with blocks), with the
    def: (classes, def), or None."""
    if isinstance(node, FUNC):
        if node.name == name and node.lineno <= line <= node.end_lineno:
            return prefix, node
        return None
    if isinstance(node, ast.ClassDef):
        if not (node.lineno <= line <= node.end_lineno):
            return None
        prefix = prefix + (node.name,)
    elif not isinstance(node, (ast.If, ast.Try, ast.With,
                               getattr(ast, "TryStar", ast.Try))):
        return None
    for field in ("body", "orelse", "finalbody", "handlers"):
        for b in getattr(node, field, ()):
            for sub in (b.body if isinstance(b, ast.ExceptHandler) else
                        [b]):
                found = def_path(sub, name, line, prefix)
                if found:
                    return found
    return None


def test_qualname(u):
    """The id of the test that function unit u of a test module is in
    ("Class::test_x" or "test_x", as pytest names it after the file's
    "::"), or None when its code may run for other tests: a def a
    framework calls without naming it (set-up, a hook, a dunder), one
    decorated beyond a test's decorators (a fixture), code outside a
    def."""
    if not u.chain:
        return None
    outer = u.chain[0]
    if implicit_test_name(outer):
        return None
    found = def_path(u.rec.stmts[u.stmt].node, outer, u.first)
    if found is None:
        return None
    classes, fn = found
    if not all(test_decorator(d) for d in fn.decorator_list):
        return None
    return "::".join(classes + (outer,))


def _mentions(nodes, n):
    """Whether the code of nodes that runs where they stand (not the
    bodies of the defs and lambdas among them) names n, as the Walker
    counts a mention: a name, an attribute, a dotted text."""
    pending = list(nodes)
    while pending:
        x = pending.pop()
        if isinstance(x, ast.Name) and x.id == n or \
                isinstance(x, ast.Attribute) and x.attr == n or \
                isinstance(x, ast.Constant) and type(x.value) is str and \
                len(x.value) <= 200 and DOTTED.fullmatch(x.value) and \
                n in x.value.split("."):
            return True
        if isinstance(x, FUNC + (ast.Lambda,)):
            a = x.args
            pending += list(getattr(x, "decorator_list", ())) + \
                a.defaults + [d for d in a.kw_defaults if d is not None] + \
                [y.annotation for y in a.posonlyargs + a.args +
                 a.kwonlyargs + [a.vararg, a.kwarg]
                 if y is not None and y.annotation is not None] + \
                ([x.returns] if getattr(x, "returns", None) else [])
            continue
        pending += list(ast.iter_child_nodes(x))
    return False


_BINDS_AT_CLASS = (ast.Call, ast.Await, ast.Yield, ast.YieldFrom,
                   ast.NamedExpr, ast.ClassDef, ast.Lambda) + FUNC + COMP


def class_attribute_only(node, n):
    """Whether top-level class statement node names n only in its bases
    or in class attributes bound without a call (`cls = mi.peekable`),
    no decorator, keyword, nested class or def's default naming it: then
    what n is reaches only the class's own tests, and code that names
    the class (a subclass)."""
    if not isinstance(node, ast.ClassDef) or \
            _mentions(node.decorator_list +
                      [k.value for k in node.keywords], n):
        return False
    for b in node.body:
        if isinstance(b, FUNC):
            if _mentions([b], n):
                return False    # a decorator, a default, an annotation
            continue
        if not _mentions([b], n):
            continue
        if not isinstance(b, (ast.Assign, ast.AnnAssign)) or \
                any(isinstance(x, _BINDS_AT_CLASS) for x in ast.walk(b)):
            return False
    return True


def test_quals(rec):
    """Every "Class::name" and "name" a def of test module rec may be
    collected as, outside other defs."""
    found = rec.cache.get("quals")
    if found is not None:
        return found
    out = []

    def walk(nodes, prefix):
        for n in nodes:
            if isinstance(n, FUNC):
                out.append("::".join(prefix + (n.name,)))
            elif isinstance(n, ast.ClassDef):
                walk(n.body, prefix + (n.name,))
            elif isinstance(n, (ast.If, ast.Try, ast.With,
                                getattr(ast, "TryStar", ast.Try))):
                walk(n.body + getattr(n, "orelse", []) +
                     getattr(n, "finalbody", []), prefix)
                for h in getattr(n, "handlers", ()):
                    walk(h.body, prefix)

    walk([st.node for st in rec.stmts], ())
    found = rec.cache["quals"] = sorted(set(out))
    return found


def flow_names(st, n):
    """The names that a statement reading n passes it on to: for `from m
    import a, n as b`, only b; for any other statement, all it binds."""
    node = st.node
    if isinstance(node, ast.ImportFrom):
        return [a.asname or a.name for a in node.names if a.name == n]
    return list(st.binds)


def seeds(chain, st):
    """The names through which code can reach a function: its def names
    (innermost last), and, for a top-level function, a lambda or a dunder
    method (called without being named: __init__, __eq__, ...), the names
    its top-level statement binds."""
    out = set(chain)
    if len(chain) <= 1 or is_dunder(chain[-1]):
        out |= st.binds
    return out


def where(ix, u):
    return "%s:%d" % (os.path.relpath(u.rec.path, ix.root), u.first)


def callee_name(node):
    """The last part of a called name (f, mod.f), or None."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def side_effects(u, allowed=()):
    """What a unit calls beyond the pure calls and bases, the functions of
    its own file that have no side effects themselves, and `allowed`,
    sorted: calls that may change state the statement does not bind.  In
    an import-time unit, a call of an effect-free function of the file
    (effect_free) whose every call in the statement passes only fresh or
    constant values (plain_call_sites) is no side effect either: a
    generator building a constant (`P = tuple(sieve(211))`)."""
    rest = u.calls - PURE_CALLS - PURE_DECORATORS - PURE_BASES - set(allowed)
    return sorted(c for c in rest if not pure_function(u.rec, c, ()) and
                  not (not u.func and effect_free(u.rec, c) and
                       plain_call_sites(u, c)))


def own_globals(rec):
    """The names file rec binds at its top only by statements other than
    imports, when it has no star import: a variable of one of them read
    in rec is rec's own object, whatever another module binds under the
    same name (more.py's `_marker = object()`, not recipes.py's)."""
    found = rec.cache.get("own_globals")
    if found is not None:
        return found
    out, imported = set(), set()
    star = False
    for st in rec.stmts:
        node = st.node
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            imported |= st.binds
            star = star or any(a.name == "*" for a in node.names)
        else:
            b = set()
            stmt_binds(node, b)   # what it binds before anything unknown
            out |= b
        for n in ast.walk(node):
            if isinstance(n, (ast.Import, ast.ImportFrom)) and \
                    n is not node:
                for a in n.names:
                    imported.add(a.asname or a.name.split(".")[0])
                    star = star or a.name == "*"
    found = rec.cache["own_globals"] = frozenset() if star else \
        frozenset(out - imported - rec.globals)
    return found


def binders(rec, name):
    """The top-level statements of file rec that bind name."""
    return [st for st in rec.stmts if name in st.binds]


def stdlib_names(rec):
    """The names file rec binds only by imports of PURE_MODULES modules,
    each to what it imported: a module's name, or a function's own name
    (`from itertools import pairwise as ipairwise`: ipairwise ->
    pairwise)."""
    found = rec.cache.get("stdlib")
    if found is not None:
        return found
    out, other = {}, set()
    for st in rec.stmts:
        node = st.node
        if isinstance(node, ast.Import) and all(
                a.name.split(".")[0] in PURE_MODULES for a in node.names):
            for a in node.names:
                out[a.asname or a.name.split(".")[0]] = a.name
        elif isinstance(node, ast.ImportFrom) and not node.level and \
                node.module and node.module.split(".")[0] in PURE_MODULES:
            for a in node.names:
                out[a.asname or a.name] = a.name
        else:
            other |= st.binds
    found = rec.cache["stdlib"] = {k: v for k, v in out.items()
                                   if k not in other}
    return found


def lib_call(rec, name):
    """1 when a call of name in file rec is one of PURE_LIB's: the file
    binds the name by an import of a PURE_MODULES module, or not at all
    (a built-in, or reached as an attribute of such a module)."""
    stdlib = stdlib_names(rec)
    if name in stdlib:
        return stdlib[name] in PURE_LIB
    return name in PURE_LIB and not binders(rec, name)


def immutable_value(node):
    """1 when node is a constant, or a tuple or frozenset of them."""
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, ast.Tuple):
        return all(immutable_value(e) for e in node.elts)
    if isinstance(node, ast.UnaryOp):
        return immutable_value(node.operand)
    if isinstance(node, ast.BinOp):
        return immutable_value(node.left) and immutable_value(node.right)
    return False


def constant_name(rec, name):
    """1 when every top-level binding of name in rec is `name = V` with V
    an immutable value: reading it hands out nothing that can change."""
    sts = binders(rec, name)
    return bool(sts) and all(
        isinstance(st.node, ast.Assign) and len(st.node.targets) == 1 and
        isinstance(st.node.targets[0], ast.Name) and
        immutable_value(st.node.value) for st in sts)


def fresh_value(rec, node):
    """1 when evaluating node at import yields a constant or a new object
    built from constants (a literal, a pure built-in's result, arithmetic
    on them): a callee that changes it changes nothing anyone else
    holds."""
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, ast.Name):
        return node.id in ("None", "True", "False") or \
            constant_name(rec, node.id)
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return all(fresh_value(rec, e) for e in node.elts)
    if isinstance(node, ast.Dict):
        return all(k is None or fresh_value(rec, k) for k in node.keys) \
            and all(fresh_value(rec, v) for v in node.values)
    if isinstance(node, ast.Starred):
        return fresh_value(rec, node.value)
    if isinstance(node, ast.UnaryOp):
        return fresh_value(rec, node.operand)
    if isinstance(node, ast.BinOp):
        return fresh_value(rec, node.left) and fresh_value(rec, node.right)
    if isinstance(node, ast.BoolOp):
        return all(fresh_value(rec, v) for v in node.values)
    if isinstance(node, ast.Compare):
        return fresh_value(rec, node.left) and \
            all(fresh_value(rec, c) for c in node.comparators)
    if isinstance(node, ast.IfExp):
        return all(fresh_value(rec, x) for x in (node.test, node.body,
                                                 node.orelse))
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
            node.func.id in PURE_CALLS and not binders(rec, node.func.id):
        return all(fresh_value(rec, a) for a in node.args) and \
            all(fresh_value(rec, k.value) for k in node.keywords)
    return False


def plain_call_sites(u, name):
    """1 when, in the import-time code of unit u's statement, name is
    only called (never handed over as a value) and every call passes
    fresh values (fresh_value): whatever an effect-free callee does to
    its arguments stays inside the call."""
    st = u.rec.stmts[u.stmt]
    calls = 0
    pending = [st.node]
    while pending:
        n = pending.pop()
        if isinstance(n, FUNC):
            pending += n.decorator_list + n.args.defaults + \
                [d for d in n.args.kw_defaults if d is not None]
            continue
        if isinstance(n, ast.Lambda):
            pending += n.args.defaults + \
                [d for d in n.args.kw_defaults if d is not None]
            continue
        if isinstance(n, ast.Call) and callee_name(n.func) == name:
            if not isinstance(n.func, ast.Name):
                return False      # another object's n, not the file's
            if not all(fresh_value(u.rec, a) for a in n.args) or \
                    not all(fresh_value(u.rec, k.value) for k in n.keywords):
                return False
            calls += 1
            pending += n.args + [k.value for k in n.keywords]
            continue
        if isinstance(n, ast.Name) and n.id == name:
            return False          # handed over, not called here
        pending += ast.iter_child_nodes(n)
    return calls > 0


def global_loads(fn):
    """The names a def (with the defs, lambdas and comprehensions inside
    it) reads as globals: Name loads no enclosing scope of its own binds."""
    out = set()

    def walk(nodes, scopes):
        pending = list(nodes)
        while pending:
            n = pending.pop()
            if isinstance(n, ast.Name):
                if not isinstance(n.ctx, ast.Store) and \
                        not any(n.id in sc for sc in scopes):
                    out.add(n.id)
                continue
            if isinstance(n, FUNC + (ast.Lambda,)):
                pending += n.args.defaults + \
                    [d for d in n.args.kw_defaults if d is not None]
                if not isinstance(n, ast.Lambda):
                    pending += n.decorator_list
                local, _ = scope_locals(n)
                walk(n.body if isinstance(n.body, list) else [n.body],
                     scopes + (local,))
                continue
            if isinstance(n, COMP):
                local = set()
                for g in n.generators:
                    for m in ast.walk(g.target):
                        if isinstance(m, ast.Name):
                            local.add(m.id)
                pending.append(n.generators[0].iter)
                parts = n.generators[0].ifs[:]
                for g in n.generators[1:]:
                    parts += [g.iter] + g.ifs
                parts += [n.key, n.value] if isinstance(n, ast.DictComp) \
                    else [n.elt]
                walk(parts, scopes + (local,))
                continue
            pending += ast.iter_child_nodes(n)

    local, _ = scope_locals(fn)
    walk(fn.body if isinstance(fn.body, list) else [fn.body], (local,))
    return out


def effect_free(rec, name, seen=()):
    """1 when name is a def at the top of file rec (bound by nothing else)
    that, called with fresh values (fresh_value), changes nothing but
    what it makes itself and those values, and hands out nothing but
    what it returns or yields: no decorator beyond the pure ones, no
    default that is not an immutable value, no global or nonlocal
    declaration, no store into anything but its own locals and
    arguments, and calls only of pure built-ins (PURE_CALLS), of the pure
    standard library (lib_call), of what its locals and arguments hold
    (methods included: under fresh values they are built-ins'), and of
    such functions of the file.  The globals it reads are built-ins,
    immutable constants (constant_name), the standard library's, or such
    functions: it never holds an object another call could change.
    Generators and `with suppress(...)` are fine: yielding hands a value
    to the one iterating, as returning does."""
    cache = rec.cache.setdefault("effect_free", {})
    if name in cache:
        return cache[name]
    if name in seen:
        return True           # recursion: decided by the outer call
    ok = _effect_free(rec, name, seen + (name,))
    if not seen:
        cache[name] = ok
    return ok


def _effect_free(rec, name, seen):
    sts = binders(rec, name)
    if len(sts) != 1 or not isinstance(sts[0].node, FUNC):
        return False
    st = sts[0]
    fn = st.node
    if fn.name != name or any(deco_name(d) not in PURE_DECORATORS
                              for d in fn.decorator_list):
        return False
    at = rec.stmts.index(st)
    stdlib = set(stdlib_names(rec))
    for n in ast.walk(fn):
        if isinstance(n, FUNC + (ast.Lambda,)):
            if not all(d is None or immutable_value(d) for d in
                       n.args.defaults + n.args.kw_defaults):
                return False
    for u in rec.units:
        if not u.func or u.stmt != at:
            continue
        if u.globals or u.escapes or u.roots - stdlib:
            return False
        if any(isinstance(x, ast.Nonlocal) for x in own_nodes(u.node)):
            return False
        for c in u.calls:
            if c == "?yield" or c.startswith("."):
                continue
            if c in PURE_CALLS or c in PURE_BASES or c in PURE_DECORATORS:
                if not binders(rec, c):
                    continue
            if lib_call(rec, c):
                continue
            if effect_free(rec, c, seen):
                continue
            return False
    for g in global_loads(fn):
        if g == name or g in stdlib or constant_name(rec, g):
            continue
        if not binders(rec, g) and hasattr(builtins, g):
            continue
        if effect_free(rec, g, seen):
            continue
        return False
    return True


def pure_function(rec, name, seen):
    """1 when name is a function defined at the top of file rec whose
    code (nested functions included) calls only pure calls and such
    functions, stores only into its own locals and declares no global."""
    if name in seen:
        return True
    units = [u for u in rec.units if u.func and u.chain and
             u.chain[0] == name]
    defs = [st.node for st in rec.stmts
            if isinstance(st.node, FUNC) and st.node.name == name]
    if not units or not defs or any(
            deco_name(d) not in PURE_DECORATORS
            for f in defs for d in f.decorator_list):
        return False
    for u in units:
        if u.globals:
            return False
        rest = u.calls - PURE_CALLS - PURE_DECORATORS - PURE_BASES
        if any(not pure_function(rec, c, seen + (name,)) for c in rest):
            return False
    return True


def body_first(f):
    """The first line of a def's or lambda's body, the start of its reader
    span: the header runs where the function is defined (at import, for a
    top-level def; coverage counts it up to the line before the body), the
    body only when called.  A one-line def's body shares the def's line."""
    body = f.body if isinstance(f.body, list) else [f.body]
    return body[0].lineno


def header_last(f):
    """The last line of a def's or lambda's header: what runs where it is
    defined."""
    last = f.lineno
    args = f.args
    for d in args.defaults + [d for d in args.kw_defaults if d is not None]:
        last = max(last, d.end_lineno)
    if isinstance(f, ast.Lambda):
        return last
    for a in args.posonlyargs + args.args + args.kwonlyargs + \
            [args.vararg, args.kwarg]:
        if a is not None:
            last = max(last, a.end_lineno)
    if f.returns is not None:
        last = max(last, f.returns.end_lineno)
    return last


def deco_name(d):
    if isinstance(d, ast.Call):
        d = d.func
    if isinstance(d, ast.Attribute):
        return d.attr
    if isinstance(d, ast.Name):
        return d.id
    return None


def scan(root, subjects):
    return Index(root, subjects)
