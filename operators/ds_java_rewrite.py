# litmus dataset generator, Java rewrites (`litmus dataset rewrite` on
# Java; see ds_java.py): where dead code, misleading comments and names,
# and the reordering of class members may go, through the
# tree-sitter-java tree; ds_base.Rewriter draws and splices them.
# SPDX-License-Identifier: MIT

from ds_base import (Cand, Rewriter, comment_texts, vocab_lists,
                     _split_bom, DEAD_STRINGS)
from ds_java_tree import (JSrc, BODIES, METHODS, STATEMENT_PARENTS,
                          TYPE_DECLS, JAVA_KEYWORDS, JAVA_LANG, WRAP_CLASS,
                          camel, code_bodies, method_params,
                          stop_at_types)
from ds_java_faults import syntax_message

# (header, body..., footer); {u} the file's indent unit, {a}/{b} fresh
# names, {n} < {m} small ints, {s} a string literal.  Only `if`: javac
# rejects `while (false)` and `for (;false;)` bodies as unreachable.
DEAD_TEMPLATES = (
    ('if (false) {{', '{u}int {a} = {n};', '}}'),
    ('if ({m} < {n}) {{', '{u}int[] {a} = {{{n}, {m}}};', '}}'),
    ('if (false) {{', '{u}String {a} = {s};', '}}'),
    ('if (0 > {m}) {{', '{u}long {a} = {n}L;', '{u}{a} += {m};', '}}'),
    ('if (false) {{', '{u}System.out.println({s});', '}}'),
    ('if (!true) {{', '{u}int {a} = {n};', '{u}int {b} = {a} * {m};', '}}'),
    ('if ({n} == {m}) {{', '{u}boolean {a} = {n} > {m};', '}}'),
    ('if (false) {{', '{u}for (int {a} = 0; {a} < {m}; {a}++) {{',
     '{u}{u}int {b} = {a} + {n};', '{u}}}', '}}'),
)
JSTRINGS = tuple('"%s"' % s[1:-1] for s in DEAD_STRINGS)
COMMENT_KIND = {
    'for_statement': 'for', 'enhanced_for_statement': 'for',
    'while_statement': 'while', 'do_statement': 'while',
    'if_statement': 'if', 'method_declaration': 'def',
    'constructor_declaration': 'def',
    'compact_constructor_declaration': 'def',
    'try_with_resources_statement': 'with', 'try_statement': 'try',
    'switch_expression': 'match', 'class_declaration': 'class',
    'interface_declaration': 'class', 'enum_declaration': 'class',
    'record_declaration': 'class', 'annotation_type_declaration': 'class',
}
MEMBERS = frozenset(('method_declaration', 'constructor_declaration',
                     'compact_constructor_declaration', 'field_declaration',
                     'constant_declaration', 'static_initializer', 'block',
                     'annotation_type_element_declaration')) | TYPE_DECLS
MOVABLE = (METHODS | TYPE_DECLS)


def _check_dead(x):
    """Validates one Java dead-code snippet: statements that parse inside
    a method and leave it in no way (no return, yield, throw of their
    own, break/continue outside their loops, this()/super() calls).
    Returns (lines, declared names, names used but not declared)."""
    if '\0' in x or '\r' in x:
        raise ValueError('vocab dead_code entry %r contains CR or NUL' % x)
    lines = [ln.rstrip() for ln in x.strip('\n').split('\n')]
    while lines and not lines[-1].strip():
        lines.pop()
    if not any(ln.strip() for ln in lines):
        raise ValueError('vocab dead_code entry %r is empty' % x)
    ind = min(len(ln) - len(ln.lstrip()) for ln in lines if ln.strip())
    lines = [ln[ind:] for ln in lines]
    body = '\n'.join(lines)
    if '\\u' in body:
        raise ValueError('vocab dead_code entry %r contains a unicode '
                         'escape' % x)
    src = JSrc('class LitmusDead {\nvoid litmusDead() {\n' + body
               + '\n}\n}\n')
    if src.err:
        raise ValueError('vocab dead_code entry %r does not parse as Java '
                         'statements: %s' % (x, syntax_message(src)))
    meth = next(n for n in src.nodes if n.type == 'method_declaration')
    blk = meth.child('body')
    stmts = [c for c in blk.children if c.named
             and c.type not in ('line_comment', 'block_comment')]
    bound = set()
    for n in blk.walk():
        bad = None
        if n.type in ('return_statement', 'yield_statement',
                      'throw_statement', 'explicit_constructor_invocation',
                      'class_declaration', 'local_class_declaration',
                      'record_declaration', 'interface_declaration',
                      'enum_declaration'):
            bad = n.type.replace('_', ' ')
        elif n.type in ('break_statement', 'continue_statement'):
            p = n.parent
            while p is not blk and p.type not in (
                    'for_statement', 'enhanced_for_statement',
                    'while_statement', 'do_statement', 'switch_expression'):
                p = p.parent
            if p is blk or any(c.named for c in n.children):
                bad = n.type.replace('_', ' ') + ' outside a loop'
        elif n.type == 'variable_declarator' or n.type in (
                'enhanced_for_statement', 'catch_formal_parameter'):
            nm = n.child('name')
            if nm is not None:
                bound.add(src.seg(nm))
        elif n.type == 'identifier' and n.parent.type in (
                'lambda_expression', 'inferred_parameters'):
            bound.add(src.seg(n))
        elif n.type == 'formal_parameter':
            nm = n.child('name')
            if nm is not None:
                bound.add(src.seg(nm))
        if bad:
            raise ValueError('vocab dead_code entry %r contains %s'
                             % (x, bad))
    for b in sorted(bound):
        if b in JAVA_LANG:
            raise ValueError('vocab dead_code entry %r binds the name %r'
                             % (x, b))
    # Variables it uses without declaring them: whether they are in scope
    # (and not captured by a lambda, when it assigns them) depends on
    # where it goes, so such a snippet is not used (Rewriter.skipped).
    free = set()
    for n in blk.walk():
        if n.type != 'identifier' or src.seg(n) in bound:
            continue
        p, f = n.parent, n.field
        if (p.type, f) in (('method_invocation', 'name'),
                           ('field_access', 'field')):
            continue
        if (p.type, f) in (('method_invocation', 'object'),
                           ('field_access', 'object')) and \
                src.seg(n)[:1].isupper():
            continue
        if p.type in ('labeled_statement', 'break_statement',
                      'continue_statement', 'method_reference'):
            continue
        free.add(src.seg(n))
    dead = False
    if len(stmts) == 1 and stmts[0].type == 'if_statement' and \
            stmts[0].child('alternative') is None:
        cond = stmts[0].child('condition')
        dead = _static_false(src, cond)
    if not dead:
        lines = ['if (false) {'] + ['    ' + ln if ln.strip() else ln
                                    for ln in lines] + ['}']
    return lines, bound, free


def _static_false(src, n):
    """A constant boolean expression of literals that is false."""
    def ev(x):
        t = x.type
        if t == 'parenthesized_expression':
            inner = [c for c in x.children if c.named]
            return ev(inner[0]) if len(inner) == 1 else None
        if t in ('true', 'false'):
            return t == 'true'
        if t == 'decimal_integer_literal':
            try:
                return int(src.seg(x))
            except ValueError:
                return None
        if t == 'unary_expression':
            op, v = src.seg(x.child('operator')), ev(x.child('operand'))
            if v is None:
                return None
            if op == '!' and isinstance(v, bool):
                return not v
            if op == '-' and not isinstance(v, bool):
                return -v
            return None
        if t == 'binary_expression':
            a, b = ev(x.child('left')), ev(x.child('right'))
            op = src.seg(x.child('operator'))
            if a is None or b is None:
                return None
            if isinstance(a, bool) != isinstance(b, bool):
                return None
            if isinstance(a, bool):
                return {'&&': a and b, '||': a or b, '==': a == b,
                        '!=': a != b}.get(op)
            return {'<': a < b, '<=': a <= b, '>': a > b, '>=': a >= b,
                    '==': a == b, '!=': a != b}.get(op)
        return None
    return ev(n) is False


def validate_vocab(vocab):
    """The Python generator's vocabulary checks, for Java: returns (names
    as camelCase identifiers, comment texts, [(raw, (lines, bound))])."""
    names, comments, dead = vocab_lists(vocab)
    jnames = []
    for x in names:
        if not x.isidentifier() or '$' in x:
            raise ValueError('vocab names entry %r is not an identifier' % x)
        j = camel(x)
        if j in JAVA_KEYWORDS or x in JAVA_KEYWORDS:
            raise ValueError('vocab names entry %r is a keyword' % x)
        if j in JAVA_LANG:
            raise ValueError('vocab names entry %r is a java.lang type' % x)
        if x.startswith('__'):
            raise ValueError('vocab names entry %r starts with __' % x)
        jnames.append(j)
    texts = comment_texts(comments, ('//', '#'), _no_unicode_escape)
    return jnames, texts, [(x, _check_dead(x)) for x in dead]


def _no_unicode_escape(x, text):
    if '\\u' in text:
        raise ValueError('vocab comments entry %r contains a unicode '
                         'escape (javac reads it as code)' % x)


class JavaRewriter(Rewriter):
    """Semantic-preserving rewrites of one Java program (see ds_java.py).
    Analyses the tree once; variant() only draws and splices lines, which
    are the file's bytes."""

    NL = b'\n'
    UNUSED = 'unused%d'
    NUMBERED = '%s%d'
    _NONE = {'v': 'no local variable or parameter that can be renamed',
             'r': 'no class with two methods, constructors or nested '
                  'classes that can be reordered'}
    _strings = JSTRINGS
    _word = staticmethod(camel)

    @staticmethod
    def _enc(text):
        return text.encode('utf-8')

    @staticmethod
    def _dec(line):
        return line.decode('utf-8')

    def __init__(self, source, vocab=None):
        vnames, vcomments, vdead = validate_vocab(vocab)
        self.source = source
        self._bom, source = _split_bom(source)
        a = JSrc(source)
        if a.err:
            raise ValueError(syntax_message(a))
        n = a.n
        self._set_lines(n, list(a.blines[:n]) if n else [b''], a.tail,
                        b'\r' if b'\r\n' in a.data else b'')
        self._idents = a.identifiers() | {WRAP_CLASS}
        self._own_names = {a.seg(n.child('name')) for n in a.nodes
                           if n.child('name') is not None
                           and n.type != 'method_invocation'
                           and n.type != 'field_access'}
        self._unit = self._indent_unit(a)
        self._analyse_slots(a)
        self._analyse_renames(a)
        self._analyse_blocks(a)
        self._make_pools(vnames, vcomments, vdead)

    # analysis ----------------------------------------------------------
    @staticmethod
    def _indent_unit(a):
        """The file's indent step: a class member's indent beyond its
        class's (four spaces when the file shows none)."""
        for n in a.nodes:
            if n.type not in BODIES or n.parent is None or n.sb < 0:
                continue
            decl = n.parent
            kids = [c for c in n.children if c.named and c.sr > decl.sr
                    and a.starts_line(c)]
            if kids and decl.sb >= 0 and a.starts_line(decl):
                outer, inner = a.indent(decl), a.indent(kids[0])
                if inner.startswith(outer) and len(inner) > len(outer):
                    return inner[len(outer):]
        return b'    '

    def _analyse_slots(self, a):
        slots = {}
        for n in a.nodes:
            p = n.parent
            if p is None or not n.named or n.sb < 0 or n.type in (
                    'line_comment', 'block_comment', 'switch_label'):
                continue
            if p.type in STATEMENT_PARENTS:
                code = n.type != 'explicit_constructor_invocation'
            elif (p.type in BODIES and n.type in MEMBERS) or (
                    p.type == 'program' and (n.type in TYPE_DECLS or n.type
                                             in ('package_declaration',
                                                 'import_declaration'))):
                code = False
            else:
                continue
            if not a.starts_line(n):
                continue
            L = n.sr + 1
            if L in slots and not code:
                continue
            kind = COMMENT_KIND.get(self._kind_node(a, n).type, 'simple')
            member = p.type not in STATEMENT_PARENTS
            slots[L] = (a.indent(n), code, kind, member)
        self._set_slots(slots)

    @staticmethod
    def _kind_node(a, n):
        """The statement a slot's comment is about: past an `if (true)
        return ...;` that shares its line with the next statement (the
        MisplacedReturn fault), so that a faulty copy of a program gets the
        same choices as the clean one."""
        if n.type == 'if_statement' and n.child('alternative') is None:
            cond = n.child('condition')
            inner = [c for c in cond.children if c.named] if cond else []
            cons = n.child('consequence')
            nxt = n.parent.children[n.parent.children.index(n) + 1:] \
                if n.parent is not None else []
            nxt = [c for c in nxt if c.named]
            if (len(inner) == 1 and inner[0].type == 'true' and cons
                    is not None and cons.type == 'return_statement'
                    and nxt and nxt[0].sr == n.er):
                return nxt[0]
        return n

    def _analyse_renames(self, a):
        seg = a.seg
        # Names a bare `case X:` label uses: an enum constant or a local
        # constant there, which renaming could mix up.
        case_names = {seg(n) for n in a.nodes if n.type == 'identifier'
                      and n.parent.type == 'switch_label'}
        in_record = set()
        for n in a.nodes:
            if n.type == 'record_declaration':
                body = n.child('body')
                for m in (body.children if body is not None else ()):
                    if m.type in ('constructor_declaration',
                                  'compact_constructor_declaration'):
                        in_record.add(id(m))
        cands = []
        for owner, body in code_bodies(a):
            if owner.type not in METHODS:
                continue
            fname = owner.child('name')
            fname = seg(fname) if fname is not None else '<init>'
            decls = {}          # name -> [(name node, scope start, end)]
            banned = set(case_names)
            idents = []
            if id(owner) not in in_record:
                for p, nm in method_params(owner):
                    if nm is not None and p.type in ('formal_parameter',
                                                     'spread_parameter'):
                        decls.setdefault(seg(nm), []).append(
                            (nm, owner.sb, owner.eb))
            else:
                ps = owner.child('parameters')
                for p in (ps.children if ps is not None else ()):
                    nm = p.child('name')
                    if nm is not None:
                        banned.add(seg(nm))
            for x in body.walk(stop_at_types):
                t = x.type
                if t in BODIES or t == 'enum_body':
                    # a nested class may shadow the method's names, or
                    # inherit fields that do: leave its names alone
                    for y in x.walk():
                        if y.type == 'identifier':
                            banned.add(seg(y))
                    continue
                if t == 'identifier':
                    idents.append(x)
                    if x.parent.type in ('lambda_expression',
                                         'inferred_parameters'):
                        banned.add(seg(x))
                elif t == 'variable_declarator' and \
                        x.parent.type == 'local_variable_declaration':
                    nm = x.child('name')
                    scope = x.parent.parent
                    if scope is not None and scope.type == \
                            'switch_block_statement_group':
                        scope = scope.parent
                    if nm is not None and scope is not None:
                        decls.setdefault(seg(nm), []).append(
                            (nm, x.sb, scope.eb))
                elif t in ('enhanced_for_statement', 'catch_formal_parameter',
                           'resource'):
                    nm = x.child('name')
                    scope = x.parent if t == 'catch_formal_parameter' else x
                    if t == 'resource':
                        scope = x.parent.parent if x.parent else None
                    if nm is not None and scope is not None:
                        decls.setdefault(seg(nm), []).append(
                            (nm, x.sb, scope.eb))
                elif t == 'formal_parameter':
                    # lambda parameters
                    nm = x.child('name')
                    if nm is not None:
                        banned.add(seg(nm))
                elif t == 'instanceof_expression':
                    # pattern variables have flow scopes: leave them alone
                    nm = x.child('name')
                    if nm is not None:
                        banned.add(seg(nm))
                elif t in ('record_pattern', 'type_pattern'):
                    for y in x.walk():
                        if y.type == 'identifier':
                            banned.add(seg(y))
            skip_parent = {('field_access', 'field'), ('method_invocation',
                                                       'name')}
            for name, ds in decls.items():
                if name in banned:
                    continue
                decl_ids = {id(nm) for nm, _, _ in ds}
                occ = {}
                ok = True
                for x in idents:
                    if seg(x) != name:
                        continue
                    if id(x) in decl_ids:
                        occ.setdefault(x.sr + 1, []).append((x.sc, x.ec))
                        continue
                    p = x.parent
                    if (p.type, x.field) in skip_parent or p.type in (
                            'labeled_statement', 'break_statement',
                            'continue_statement', 'element_value_pair',
                            'annotation', 'marker_annotation',
                            'scoped_identifier'):
                        continue
                    if p.type == 'method_reference' and p.children[0] \
                            is not x:
                        continue
                    if p.type == 'field_access' and x.field != 'object':
                        continue
                    if any(s <= x.sb < e for _, s, e in ds):
                        occ.setdefault(x.sr + 1, []).append((x.sc, x.ec))
                    elif p.type == 'variable_declarator':
                        ok = False
                if not ok or not occ:
                    continue
                # also the parameter names (outside the body walk)
                for nm, _, _ in ds:
                    L = nm.sr + 1
                    if (nm.sc, nm.ec) not in occ.setdefault(L, []):
                        occ[L].append((nm.sc, nm.ec))
                anchor = min(nm.sr + 1 for nm, _, _ in ds)
                cands.append(Cand(name, fname, anchor, tuple(
                    (L, tuple(sorted(set(sp))))
                    for L, sp in sorted(occ.items()))))
        cands.sort(key=lambda c: (c.anchor, c.name, c.func))
        self._cands = self._by_quarter(cands, lambda c: c.anchor)

    def _analyse_blocks(self, a):
        """Movable members (methods, constructors, nested types) of every
        class body, with their comment lines; fields and initializers stay
        put.  A body with two or more is a group that reordering always
        changes."""
        blocks = []
        groups = []
        for body in a.nodes:
            if body.type not in BODIES:
                continue
            members = [c for c in body.children if c.named]
            mine = []
            for i, m in enumerate(members):
                if m.type not in MOVABLE or m.sb < 0:
                    continue
                if not (a.starts_line(m) and a.ends_line(m)):
                    continue
                if i + 1 < len(members) and members[i + 1].sr == m.er and \
                        members[i + 1].type != 'line_comment':
                    continue
                start = m.sr + 1
                j = i - 1
                while j >= 0 and members[j].type in ('line_comment',
                                                     'block_comment'):
                    c = members[j]
                    if c.er + 2 != start or not a.starts_line(c) or (
                            j > 0 and members[j - 1].er == c.sr):
                        break
                    start = c.sr + 1
                    j -= 1
                end = m.er + 1     # a line comment after it stays on it
                nm = m.child('name')
                blocks.append((start, end, m.sr + 1,
                               a.seg(nm) if nm is not None else m.type))
                mine.append(len(blocks) - 1)
            if len(mine) >= 2:
                groups.append(mine)
        self._blocks = blocks
        self._groups = groups
        pairs = {None: []}
        for qq in (1, 2, 3, 4):
            pairs[qq] = []
        self._gpairs = {None: []}
        for qq in (1, 2, 3, 4):
            self._gpairs[qq] = []
        for g in groups:
            ps = [(g[x], g[y]) for x in range(len(g))
                  for y in range(x + 1, len(g))]
            self._gpairs[None].append(ps)
            pairs[None].extend(ps)
            for qq in (1, 2, 3, 4):
                mine = self._pairs_in(ps, qq)
                self._gpairs[qq].append(mine)
                pairs[qq].extend(mine)
        self._pairs = pairs
        # the nesting of blocks: children of each (None: the file)
        order = sorted(range(len(blocks)),
                       key=lambda b: (blocks[b][0], -blocks[b][1]))
        kids = {None: []}
        stack = []
        for b in order:
            while stack and blocks[stack[-1]][1] < blocks[b][0]:
                stack.pop()
            kids.setdefault(stack[-1] if stack else None, []).append(b)
            kids.setdefault(b, [])
            stack.append(b)
        self._kids = kids

    def _make_pools(self, vnames, vcomments, vdead):
        taken = self._idents
        self._make_names(vnames, vcomments, taken | JAVA_KEYWORDS | JAVA_LANG)
        # a template naming String or System only when the file does not
        # declare a type (or anything else) of that name
        own = self._own_names
        self._templates = [t for t in DEAD_TEMPLATES
                           if not any(w in ''.join(t) and w in own
                                      for w in ('String', 'System'))]
        dead = []
        for raw, (lines, bound, free) in vdead:
            clash = sorted(bound & taken)
            if clash:
                self.skipped.append(('dead_code', raw,
                                     'binds %s, used by the program'
                                     % ', '.join(clash)))
            elif free:
                self.skipped.append(('dead_code', raw,
                                     'uses %s, which it does not declare'
                                     % ', '.join(sorted(free))))
            else:
                dead.append([ln.encode('utf-8') for ln in lines])
        self._vdead = dead or None

    # variants ------------------------------------------------------------
    def _comment(self, rng, slot):
        indent, _, kind, member = slot
        text = self._comment_text(rng, kind)
        style = rng.randrange(3 if member else 2)
        if '*/' in text:
            style = 0
        if style == 0:
            line = '// ' + text
        elif style == 1:
            line = '/* ' + text + ' */'
        else:
            line = '/** ' + text + ' */'
        return [indent + line.encode('utf-8') + self._cr]

    def _reorder(self, rng, q, strength, perm, events):
        for gi, g in enumerate(self._groups):
            # every class changes; in a quarter, through a member
            # declared there when the class has one
            order = self._swap_some(rng, self._gpairs[q][gi]
                                    or self._gpairs[None][gi],
                                    strength, perm, events)
            if all(perm[b] == b for b in g):
                # a second "r" undid the first: swap once more
                self._swap(perm, *order[0], events)

    def _ranges(self, perm):
        """The original line ranges in output order."""
        if perm is None:
            return [(1, self._n)]
        blocks, kids = self._blocks, self._kids
        out = []

        def expand(s, e, children):
            pos = s
            for b in children:
                bs, be = blocks[b][0], blocks[b][1]
                if bs > pos:
                    out.append((pos, bs - 1))
                p = perm[b]
                expand(blocks[p][0], blocks[p][1], kids[p])
                pos = be + 1
            if pos <= e:
                out.append((pos, e))
        expand(1, self._n, kids[None])
        return out


__all__ = ['JavaRewriter', 'validate_vocab', 'DEAD_TEMPLATES']
