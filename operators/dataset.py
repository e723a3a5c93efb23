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

# The generators live in small modules, one a generator, on ds_common
# (what the Python ones share) and ds_base (what they share with the Java
# ones); this module is their one entry point (the C bridge and the tests
# import it) and holds every name they define.
import ds_common
import ds_faults
import ds_rewrite
import ds_typed

for _m in (ds_common, ds_typed, ds_faults, ds_rewrite):
    globals().update({_k: _v for _k, _v in vars(_m).items()
                      if not _k.startswith('__')})
del _m

__all__ = ['location', 'typed_mutants', 'faults', 'faults_in_quarter',
           'Rewriter']
