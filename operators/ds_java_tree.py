# litmus dataset generator, Java: the source model the Java generators
# share (see ds_java.py): the tree-sitter-java tree from module _lt_java
# (operators/java_tree.c), lines, byte offsets, the bare-method wrapper,
# the names a file declares and their types.  Pure Python over the tree;
# never a pattern on the code text.
# SPDX-License-Identifier: MIT

import bisect

import _lt_java
from ds_base import count_lines, source_bytes

# A CodeSearchNet-style bare method is parsed (and compiled by the worker)
# inside this class, opened on the method's first line.
WRAP_PREFIX = 'class LitmusMethod { '
WRAP_SUFFIX = '\n}'
WRAP_CLASS = 'LitmusMethod'

TYPE_DECLS = frozenset(('class_declaration', 'interface_declaration',
                        'enum_declaration', 'record_declaration',
                        'annotation_type_declaration'))
BODIES = frozenset(('class_body', 'interface_body', 'enum_body_declarations',
                    'annotation_type_body'))
METHODS = frozenset(('method_declaration', 'constructor_declaration',
                     'compact_constructor_declaration'))
STATEMENT_PARENTS = frozenset(('block', 'constructor_body',
                               'switch_block_statement_group'))
JAVA_KEYWORDS = frozenset((
    'abstract', 'assert', 'boolean', 'break', 'byte', 'case', 'catch',
    'char', 'class', 'const', 'continue', 'default', 'do', 'double', 'else',
    'enum', 'extends', 'final', 'finally', 'float', 'for', 'goto', 'if',
    'implements', 'import', 'instanceof', 'int', 'interface', 'long',
    'native', 'new', 'package', 'private', 'protected', 'public', 'return',
    'short', 'static', 'strictfp', 'super', 'switch', 'synchronized', 'this',
    'throw', 'throws', 'transient', 'try', 'void', 'volatile', 'while',
    'true', 'false', 'null', 'var', 'yield', 'record', 'sealed', 'permits',
    'non-sealed', 'when', 'module', 'open', 'exports', 'requires', '_'))
# java.lang's types: a local named like one would obscure it.
JAVA_LANG = frozenset((
    'String', 'Object', 'System', 'Math', 'Integer', 'Long', 'Short', 'Byte',
    'Character', 'Boolean', 'Double', 'Float', 'Number', 'StringBuilder',
    'StringBuffer', 'Thread', 'Runnable', 'Exception', 'RuntimeException',
    'Error', 'Throwable', 'Iterable', 'Comparable', 'Class', 'Void',
    'Enum', 'Record', 'CharSequence', 'Override', 'Deprecated',
    'IllegalArgumentException', 'IllegalStateException',
    'NullPointerException', 'IndexOutOfBoundsException',
    'ArithmeticException', 'UnsupportedOperationException',
    'SuppressWarnings', 'FunctionalInterface', 'SafeVarargs'))
NUMERIC_TYPES = frozenset(('int', 'long', 'short', 'byte', 'char', 'float',
                           'double', 'Integer', 'Long', 'Short', 'Byte',
                           'Character', 'Float', 'Double'))
INT_LITERALS = frozenset(('decimal_integer_literal', 'hex_integer_literal',
                          'octal_integer_literal', 'binary_integer_literal'))
NUMBER_LITERALS = INT_LITERALS | {'decimal_floating_point_literal',
                                  'hex_floating_point_literal'}
STRING_METHODS = frozenset((
    'toString', 'substring', 'trim', 'strip', 'toUpperCase', 'toLowerCase',
    'concat', 'repeat', 'replace', 'replaceAll', 'format', 'join', 'valueOf',
    'getName', 'getSimpleName', 'getMessage', 'name', 'nextLine', 'readLine',
    'toBinaryString', 'toHexString', 'stripLeading', 'stripTrailing',
    'formatted', 'intern', 'getKey', 'getValue', 'get', 'next', 'peek',
    'pop', 'poll', 'remove', 'apply', 'orElse', 'charAt'))
NUMERIC_METHODS = frozenset(('size', 'length', 'indexOf', 'lastIndexOf',
                             'compareTo', 'compare', 'hashCode', 'signum',
                             'ordinal', 'intValue', 'longValue', 'abs',
                             'max', 'min', 'parseInt', 'parseLong', 'count',
                             'nextInt', 'sqrt', 'pow', 'floor', 'ceil',
                             'round', 'doubleValue', 'getAsInt',
                             'numberOfTrailingZeros', 'bitCount'))


class Node:
    __slots__ = ('type', 'named', 'field', 'sb', 'eb', 'sr', 'sc', 'er',
                 'ec', 'parent', 'children', 'bad')

    def child(self, field):
        for c in self.children:
            if c.field == field:
                return c
        return None

    def named_children(self):
        return [c for c in self.children if c.named]

    def walk(self, stop=None):
        """Preorder over the subtree; `stop(node)` true: not below it."""
        pending = [self]
        while pending:
            n = pending.pop()
            yield n
            if stop is None or n is self or not stop(n):
                pending.extend(reversed(n.children))


def parse_nodes(data):
    """(has_error, root) of bytes `data`."""
    err, tuples = _lt_java.parse(data)
    nodes = []
    for t in tuples:
        n = Node()
        (n.type, n.named, n.field, n.sb, n.eb, n.sr, n.sc, n.er, n.ec, p,
         n.bad) = t
        n.children = []
        n.parent = nodes[p] if p >= 0 else None
        if p >= 0:
            nodes[p].children.append(n)
        nodes.append(n)
    return err, nodes


def camel(name):
    """snake_case -> camelCase (a pool word as a Java identifier)."""
    parts = [p for p in name.split('_') if p]
    if not parts:
        return name
    return parts[0] + ''.join(p[:1].upper() + p[1:] for p in parts[1:])


class JSrc:
    """One parse of a Java source: bytes, lines, the tree (offsets of the
    text itself even for a wrapped bare method), and lookups."""

    def __init__(self, source):
        data = self.data = source_bytes(source)
        self.text = source
        self.blines = data.split(b'\n')
        self.tail = source.endswith('\n')
        self.n = count_lines(source)
        self.lstart = []
        pos = 0
        for p in self.blines:
            self.lstart.append(pos)
            pos += len(p) + 1
        err, nodes = parse_nodes(data)
        root = nodes[0]
        self.bare = not any(c.type in TYPE_DECLS for c in root.children)
        if self.bare:
            pre = WRAP_PREFIX.encode()
            err, nodes = parse_nodes(pre + data + WRAP_SUFFIX.encode())
            k = len(pre)
            for nd in nodes:
                nd.sb -= k
                nd.eb -= k
                if nd.sr == 0:
                    nd.sc -= k
                if nd.er == 0:
                    nd.ec -= k
        self.err = err
        self.nodes = nodes
        self.root = nodes[0]

    # text ------------------------------------------------------------
    def seg(self, n):
        return self.data[max(n.sb, 0):max(n.eb, 0)].decode('utf-8')

    def line_of(self, off):
        return bisect.bisect_right(self.lstart, off)

    def starts_line(self, n):
        return n.sb >= 0 and not self.data[self.lstart[n.sr]:n.sb].strip()

    def ends_line(self, n):
        end = self.lstart[n.er] + len(self.blines[n.er])
        rest = self.data[n.eb:end].strip()
        return not rest or rest.startswith(b'//')

    def indent(self, n):
        return self.data[self.lstart[n.sr]:n.sb]

    def first_error(self):
        for n in self.nodes:
            if n.bad and n.sb >= 0:
                return n
        for n in self.nodes:
            if n.bad:
                return n
        return None

    # names -----------------------------------------------------------
    def identifiers(self):
        return {self.seg(n) for n in self.nodes
                if n.type in ('identifier', 'type_identifier')
                and n.sb >= 0}

    def declared_types(self):
        """name -> set of declared type texts (fields, locals, params,
        loop and catch variables), over the whole file."""
        out = {}
        for n in self.nodes:
            t = n.type
            if t in ('local_variable_declaration', 'field_declaration',
                     'constant_declaration'):
                ty = n.child('type')
                for d in n.children:
                    if d.type == 'variable_declarator':
                        nm = d.child('name')
                        if nm is not None and ty is not None:
                            extra = d.child('dimensions')
                            out.setdefault(self.seg(nm), set()).add(
                                self.seg(ty) + ('[]' if extra else ''))
            elif t in ('formal_parameter', 'enhanced_for_statement',
                       'resource'):
                ty, nm = n.child('type'), n.child('name')
                if ty is not None and nm is not None:
                    out.setdefault(self.seg(nm), set()).add(self.seg(ty))
            elif t == 'spread_parameter':
                ty = next((c for c in n.children if c.named
                           and c.type != 'modifiers'), None)
                d = next((c for c in n.children
                          if c.type == 'variable_declarator'), None)
                nm = d.child('name') if d else None
                if ty is not None and nm is not None:
                    out.setdefault(self.seg(nm), set()).add(
                        self.seg(ty) + '[]')
            elif t == 'catch_formal_parameter':
                nm = n.child('name')
                if nm is not None:
                    out.setdefault(self.seg(nm), set()).add('Throwable')
        return out


def method_params(m):
    """(parameter, its name node or None) of a method or constructor,
    a varargs parameter's name included."""
    ps = m.child('parameters')
    for p in (ps.children if ps is not None else ()):
        nm = p.child('name')
        if nm is None and p.type == 'spread_parameter':
            d = next((c for c in p.children
                      if c.type == 'variable_declarator'), None)
            nm = d.child('name') if d is not None else None
        yield p, nm


def code_bodies(src):
    """The bodies of methods, constructors and initializers, each with its
    owner: the code the generators may change."""
    out = []
    for n in src.nodes:
        if n.type in METHODS:
            b = n.child('body')
            if b is not None:
                out.append((n, b))
        elif n.type == 'static_initializer':
            b = next((c for c in n.children if c.type == 'block'), None)
            if b is not None:
                out.append((n, b))
        elif n.type == 'block' and n.parent is not None \
                and n.parent.type in BODIES:
            out.append((n, n))
    return out


def stop_at_types(n):
    """walk() stop: nested class bodies belong to their own methods."""
    return n.type in BODIES or n.type == 'enum_body'


__all__ = [_n for _n in list(globals()) if not _n.startswith('__')]
