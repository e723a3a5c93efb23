# litmus dataset generator, Java: the entry point of the Java generators of
# `litmus dataset faults|rewrite --lang java` (ds_java_tree.py: the source
# model; ds_java_faults.py; ds_java_rewrite.py; ds_base.py: what they share
# with the Python generators).  Runs in the interpreter
# embedded in litmus like dataset.py; reads Java only through the
# tree-sitter-java tree of module _lt_java (operators/java_tree.c).
# SPDX-License-Identifier: MIT
"""Java program variants for the dataset commands (shared SEEDS.md section 4).

The same entry points, arguments and answers as dataset.py's Python
generators (read its docstring), for Java sources; the differences:

Input
-----
A Java compilation unit (an optional package, imports, types), or a bare
method as CodeSearchNet has them (one or more methods, no class): that text
is parsed, and compiled by the worker, as ``class LitmusMethod { `` + text
+ ``\\n}`` (the opening on the method's first line: lines do not move).
A source with an ERROR or MISSING node raises ValueError ``line N: ...``.

check(source) -> {"package", "type", "lines"}
    ``package``: the package name or ""; ``type``: the public top-level
    type, else the first one; null for a bare method; ``lines``: N.
check_call(expr) -> None | reason
    None when expr is one Java expression (parsed, never run), such as
    ``Foo.bar(3, new int[]{1, 2})``; else a one-line reason (the Python
    generator's contract, for the bridge's check_calls).

faults(source) / faults_in_quarter(source, quarter)
    The Python kinds and fields.  Faults are only in method, constructor
    and initializer bodies, never in case labels or annotations; each
    faulty text differs on one line and parses (checked by an incremental
    parse of the edit).
    * OffByOne: ``<`` <-> ``<=``, ``>`` <-> ``>=`` in if/while/do/for
      conditions; the bound of a loop condition (``i < n`` -> ``i < n - 1``,
      ``n - 1`` -> ``n``, a literal k -> k + 1, ``.length``, ``.size()``);
      a for loop's start (``int i = 0`` -> ``int i = 1``); an array index
      or the index argument of ``get``/``charAt``/``substring``/
      ``subList``/``codePointAt`` (``i`` -> ``i - 1``, ``i - 1`` -> ``i``,
      ``0`` -> ``1``); any other numeric ``x - 1``/``x + 1`` -> ``x``.
    * BooleanLogic: ``&&`` <-> ``||``, ``!`` removed, a non-constant
      if/while/do/for condition negated (``c`` -> ``!c`` / ``!(c)``).
    * OperatorSwap: ``+``<->``-``, ``*``<->``/``, ``%``->``/``, shifts,
      ``&``<->``|``, ``^``->``&``, comparisons flipped, and compound
      assignments; ``+`` only between evident numbers (never when an operand
      is a string literal, a String-typed name or a String method's
      result), ``+=`` only on a numeric target.
    * MisplacedReturn: ``if (true) return V; `` in front of a statement S
      that starts its line, in a method body (not in lambdas, local or
      anonymous classes, switch expressions), S not the method's last
      top-level statement nor a return/throw.  javac accepts it: an ``if``
      never makes the next statement unreachable.  V: nothing in a void
      method; the expression of the method's final ``return`` when every
      local name it uses is a parameter or a local declared with a value at
      the top level of the body before S; else the type's default
      (0, false, null).

Rewriter(source, vocab=None)
    ``applicable(quarter)`` and ``variant(ops, strength, quarter, seed,
    fault_line)`` as in Python; ``v`` names are the pools' words in
    camelCase; vocab names are camelCased too, and must not be Java
    keywords or java.lang types; vocab comments may start with ``//`` and
    must hold no unicode escape; vocab dead code must parse as Java
    statements inside a method, without return, yield, throw, class
    declarations, this()/super() or break/continue outside its loops, and
    is wrapped in ``if (false) { }`` unless it is one ``if`` whose
    condition is a false constant of literals; a valid snippet that
    declares a name the program uses, or uses a variable it does not
    declare itself (whether that is in scope depends on the place), is
    skipped (``Rewriter.skipped``).
    * ``d``: ``if (false) { ... }`` (or another false constant condition;
      never while/for, whose body javac would call unreachable) before a
      statement of a block or switch group that starts its line, not
      before ``this(...)``/``super(...)``; fresh names only.
    * ``c``: ``// text`` or ``/* text */`` before such a statement;
      before a member or top-level declaration also ``/** text */``.
    * ``v``: a local variable or parameter of a method or constructor,
      every declaration of that name in the method and every use the
      scopes resolve to it (not ``this.x``, ``obj.x``, ``x()``, labels);
      never when a nested class body of the method, a lambda parameter, a
      pattern variable or a ``case`` label uses the name; never the
      parameters of a record's constructors.  New names clash with no
      identifier of the file, Java keyword or java.lang type.
    * ``r``: in every class body with two or more movable members
      (methods, constructors, nested types, each with the comment lines
      right above it, starting and ending its lines), ``min(strength,
      disjoint pairs)`` pairs of them are swapped; fields and initializer
      blocks keep their places.  Every such class changes order; with a
      quarter, a class's swaps involve a member declared in it when the
      class has one there.
"""

from ds_base import location, call_text, _split_bom
from ds_java_tree import JSrc, TYPE_DECLS
from ds_java_faults import faults, faults_in_quarter, syntax_message
from ds_java_rewrite import JavaRewriter


class Rewriter(JavaRewriter):
    """Semantic-preserving rewrites of one Java program."""

    def __init__(self, source, vocab=None):
        JavaRewriter.__init__(self, source, vocab)


def check(source):
    """{"package", "type", "lines"} of a Java source that parses; else
    ValueError "line N: ..."."""
    src = JSrc(_split_bom(source)[1])
    if src.err:
        raise ValueError(syntax_message(src))
    package = ''
    types = []
    if not src.bare:
        for c in src.root.children:
            if c.type == 'package_declaration':
                nm = next((x for x in c.children if x.type in (
                    'identifier', 'scoped_identifier')), None)
                if nm is not None:
                    package = ''.join(src.seg(nm).split())
            elif c.type in TYPE_DECLS:
                mods = next((x for x in c.children
                             if x.type == 'modifiers'), None)
                public = mods is not None and any(
                    x.type == 'public' for x in mods.children)
                nm = c.child('name')
                types.append((not public, src.seg(nm) if nm else None))
    typ = min(types, key=lambda t: t[0])[1] if types else None
    return {'package': package, 'type': typ, 'lines': src.n}


def check_call(expr):
    """None when `expr` is one Java expression (an input such as
    "Foo.bar(3, new int[]{1, 2})"); else a one-line reason."""
    text, why = call_text(expr)
    if why:
        return why
    if '\\u' in text:
        return 'contains a unicode escape'
    head = 'class LitmusCall { Object litmusCall() { return (\n'
    src = JSrc(head + text + '\n); } }\n')
    if src.err:
        bad = src.first_error()
        line = max(1, bad.sr) if bad is not None else 1
        what = syntax_message(src).split(': ', 1)[-1]
        return 'line %d: %s' % (line, what)
    ret = next((n for n in src.nodes if n.type == 'return_statement'), None)
    par = ret and next((c for c in ret.children if c.named), None)
    if par is None or par.type != 'parenthesized_expression':
        return 'not one expression'
    inner = [c for c in par.children if c.named
             and c.type not in ('line_comment', 'block_comment')]
    if len(inner) != 1:
        return 'not one expression'
    if any(n.type in ('line_comment', 'block_comment') for n in src.nodes):
        return 'contains a comment'
    return None


__all__ = ['location', 'faults', 'faults_in_quarter', 'Rewriter', 'check',
           'check_call']
