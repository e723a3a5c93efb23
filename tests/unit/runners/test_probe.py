# Tests of runners/probe.py outside a zygote (shim_stub.py's stand-in
# `_litmus` keeps the records): which functions a pair of texts changes,
# summaries that hold no address and run no property, the first call of
# each kind of arguments observed per test, and the calls one change away
# made in forked children that leave the test's own state alone.
#   /usr/bin/python3 -m pytest tests/unit/runners/test_probe.py
# SPDX-License-Identifier: MIT
import json
import os
import sys
import types
import weakref

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from shim_stub import _litmus  # noqa: E402
import probe  # noqa: E402

AFTER = "after the test's call, "
SENT = []
_litmus.send_call = lambda text: SENT.append(text) or True

BASE = '''
def helper(x):
    return x + 1

class Box:
    def __init__(self, items):
        self.items = items

    def first(self):
        return self.items[0]

    def size(self):
        return len(self.items)
'''


def test_changed_functions_by_code_not_by_line():
    # A method changed, a function moved down by a blank line (not a
    # change), a nested function changed (its definer is observed).
    cand = BASE.replace('return self.items[0]',
                        'return self.items[0] if self.items else None')
    cand = '\n\n' + cand
    assert probe.changed_functions('m.py', BASE, cand) == {'Box.first'}
    nested = BASE + '\ndef outer():\n    def inner():\n        return 1\n' \
        '    return inner\n'
    assert probe.changed_functions(
        'm.py', nested, nested.replace('return 1', 'return 2')) == {'outer'}
    assert probe.changed_functions('m.py', BASE, BASE + '\ndef new():\n'
                                   '    pass\n') == {'new'}
    assert probe.changed_functions('m.py', BASE, 'def (') == set()


class Lazy:
    def __init__(self):
        self.a = 1
        self._b = [1, 2]

    @property
    def boom(self):
        raise AssertionError('a property must not run')


def test_summary_is_data_without_addresses():
    s = probe.summary({'k': Lazy(), 'f': test_summary_is_data_without_addresses,
                       's': {3, 1, 2}, 't': (1.5, b'x')})
    text = json.dumps(s)
    assert '0x' not in text
    assert s['map'] == 'builtins.dict'
    items = dict((json.dumps(k), v) for k, v in s['items'])
    assert items['"k"']['attrs'] == {'_b': {'seq': 'builtins.list', 'len': 2,
                                            'items': [1, 2]}, 'a': 1}
    assert items['"s"']['items'] == [1, 2, 3]
    assert items['"t"']['items'] == [1.5, {'bytes': 'x', 'len': 1}]
    loop = []
    loop.append(loop)
    assert probe.summary(loop)['items'][0] == {'cycle': 'builtins.list'}
    # One object held a thousand times is summarised within the count.
    shared = Lazy()
    s = probe.summary([[[shared] * 20] * 20] * 20)
    assert len(json.dumps(s)) < 60 * probe.SUMMARY_NODES
    assert '"deep"' in json.dumps(s) and s['items'][0]['items'][0][
        'items'][0]['obj'] == 'test_probe.Lazy'


    # A dict keyed by its values' addresses (matplotlib's {id(parent):
    # weakref(parent)}): the same summary in every run.
    class Node:
        pass
    a, b = Node(), Node()
    one = probe.summary({id(a): weakref.ref(a), 'n': 1})
    a2 = Node()     # alive beside a: another address
    other = probe.summary({id(a2): weakref.ref(a2), 'n': 1})
    assert one == other and '"address"' in json.dumps(one), one
    # An int key that is no address stays a number.
    assert probe.summary({7: b})['items'][0][0] == 7

    class Sneaky(dict):
        def items(self):
            raise AssertionError('an override must not run')
    assert probe.summary(Sneaky(a=1))['items'] == [['a', 1]]


def test_one_call_per_kind_and_variants_in_children():
    mod = types.ModuleType('pmod')
    mod.__file__ = '/virtual/pmod.py'
    exec(compile(BASE, '/virtual/pmod.py', 'exec'), mod.__dict__)
    sys.modules['pmod'] = mod
    cand = BASE.replace('return x + 1', 'return x + 2')
    registry = {'h': mod.helper}  # a reference taken before the run
    try:
        probe.install([{'module': 'pmod', 'path': '/virtual/pmod.py',
                        'reference': BASE, 'candidate': cand}], [])
        import inspect
        assert str(inspect.signature(mod.helper)) == '(x)'
        SENT.clear()
        probe.begin_test(7)
        assert mod.helper(4) == 5
        assert mod.helper(5) == 6     # same kind of arguments: not observed
        assert registry['h'](1.5) == 2.5  # another kind
        probe.end_test()
        assert mod.helper(3) == 4     # between tests: not observed
    finally:
        del sys.modules['pmod']
    recs = [json.loads(t) for t in SENT]
    assert {(r['t'], r['f']) for r in recs} == {(7, 'helper')}
    calls = {}
    for r in recs:
        calls.setdefault(r['c'], []).append(r)
    assert sorted(calls) == [0, 1]
    first = {r['v']: r for r in calls[0]}
    assert first[0]['what'] == 'as the test called it'
    assert first[0]['out']['value'] == 5
    # The input as the test gave it: the engine compares a call only
    # where both sides' tests gave the same.
    assert first[0]['out']['in'] == {
        'args': {'seq': 'builtins.list', 'len': 1, 'items': [4]},
        'kwargs': {'map': 'builtins.dict', 'len': 0, 'items': []}}
    # Inputs one change away, each its own record: x + 1 of each.
    ran = {r['what']: r['out'].get('value') for r in calls[0] if r['v']}
    assert ran['argument 1 = 2'] == 3 and ran['argument 1 = 0'] == 1
    assert len(ran) <= probe.VARIANTS_PER_CALL


def test_a_private_function_is_compared_on_the_tests_calls_alone():
    # A fix may move a check from a private helper to its callers: the
    # helper's calls one change away are no contract of it.
    src = BASE.replace('def helper(x):', 'def _helper(x):')
    mod = types.ModuleType('pmod')
    mod.__file__ = '/virtual/pmod.py'
    exec(compile(src, '/virtual/pmod.py', 'exec'), mod.__dict__)
    sys.modules['pmod'] = mod
    try:
        probe.install([{'module': 'pmod', 'path': '/virtual/pmod.py',
                        'reference': src,
                        'candidate': src.replace('x + 1', 'x + 2')}], [])
        SENT.clear()
        probe.begin_test(3)
        assert mod._helper(1) == 2
        probe.end_test()
    finally:
        del sys.modules['pmod']
    recs = [json.loads(t) for t in SENT]
    assert [(r['f'], r['v'], r['what']) for r in recs] == [
        ('_helper', 0, 'as the test called it')]
    assert probe._private('Box._check') and probe._private('_helper')
    assert not probe._private('Box.__le__') and not probe._private('helper')


NESTED = '''
def position(name):
    return "in " + name

def _note(name):
    return name

def visit(name):
    return len(position(name)) + len(_note(name))
'''


def test_a_public_changed_function_called_inside_another_is_observed():
    # A fix's helper whose other callers the tests do not reach: the
    # outer call agrees on both sides where the helper's result does not.
    # A private helper stays its callers' contract: not observed inside.
    mod = types.ModuleType('nmod')
    mod.__file__ = '/virtual/nmod.py'
    exec(compile(NESTED, '/virtual/nmod.py', 'exec'), mod.__dict__)
    sys.modules['nmod'] = mod
    cand = NESTED.replace('return len(position(name))',
                          'return 0 + len(position(name))') \
        .replace('return "in " + name', 'return "in  " + name') \
        .replace('return name', 'return name + ""')
    try:
        probe.install([{'module': 'nmod', 'path': '/virtual/nmod.py',
                        'reference': NESTED, 'candidate': cand}], [])
        SENT.clear()
        probe.begin_test(1)
        assert mod.visit('ab') == 7
        probe.end_test()
        assert probe._own[0] == 0
    finally:
        del sys.modules['nmod']
    recs = [json.loads(t) for t in SENT]
    own = {r['f']: r['out'].get('value') for r in recs if r['v'] == 0}
    assert own == {'visit': 7, 'position': 'in ab'}
    # Inside a variant's child nothing is observed: every record of
    # position is of the test's own call (call 0) or its variants.
    assert {r['c'] for r in recs if r['f'] == 'position'} == {0}


def test_a_variant_that_hangs_or_changes_state_leaves_the_test_alone():
    state = {'n': 0}

    def f(x):
        state['n'] += 1
        if x == 0:
            while True:
                pass
        return x

    saved = probe.CHILD_WALL
    probe.CHILD_WALL = 5.0
    try:
        out = probe._in_child(f, (0,), {}, 0.2)
        assert out == {'timeout': True, 'args': {
            'seq': 'builtins.list', 'len': 1, 'items': [0]}}
        assert probe._in_child(f, (4,), {}, 1)['value'] == 4
    finally:
        probe.CHILD_WALL = saved
    assert state['n'] == 0  # each call ran in a child


def test_a_method_is_called_again_after_the_tests_own_call():
    # A method that keeps its first answer (a cache with no key): alone
    # on a changed argument it answers right; after the test's own call
    # on the same receiver, with the test's answer.
    class Ctx:
        def __init__(self, names):
            self.names = names

    class Command:
        def names(self, ctx):
            if getattr(self, '_kept', None) is None:
                self._kept = [n for n in ctx.names if n != '-x']
            return list(self._kept)

    cmd, ctx = Command(), Ctx(['-h', '--help'])
    variants = probe._variants(Command.names, (cmd, ctx), {},
                               probe.Hints((), {'names'}))
    after = [v for v in variants if v[0].startswith(AFTER)]
    assert 0 < len(after) <= probe.AFTER_CALL
    assert len(variants) - len(after) <= probe.VARIANTS_PER_CALL
    what, fn, args, kwargs, setting = next(
        v for v in after if "'-H'" in v[0])
    alone = next(v for v in variants if v[0] == what[len(AFTER):])
    assert probe._in_child(Command.names, alone[2], alone[3], 1,
                           alone[4])['value'] != \
        probe._in_child(Command.names, args, kwargs, 1, setting)['value']
    assert probe._in_child(Command.names, args, kwargs, 1, setting)[
        'value'] == probe.summary(['-h', '--help'])
    assert cmd.__dict__ == {}   # made in children only
    # A plain function has no receiver to keep anything on.
    assert not [w for w, *_ in probe._variants(lambda a: a, (1,), {})
                if w.startswith(AFTER)]


def test_variants_take_each_argument_in_turn():
    def f(a, b, flag=False, default=object(), none=None):
        pass

    whats = [w for w, _, _, _, _ in probe._variants(f, (1, 'x'), {})]
    assert whats[0].startswith('argument 1 = ')
    assert whats[1].startswith('argument 2 = ')
    assert whats[2] == 'flag = True' and whats[3] == 'b given by name'
    assert whats[6] == 'default = None'
    assert not any(w.startswith('none') for w in whats)
    assert 12 <= len(whats) <= probe.VARIANTS_PER_CALL

    # A library's inputs, but no iterator for a value the test gave.
    import litmus_inputs
    litmus_inputs.PACKAGE[0] = True
    try:
        near = probe._near([], ())
        mapping = probe._near({'a': 1}, ())
    finally:
        litmus_inputs.PACKAGE[0] = False
    assert () in near and range(0) in near, near
    assert not any(probe.litmus_calls.builtin_iterator(v) for v in near), near
    import collections
    assert any(type(v) is collections.OrderedDict for v in mapping), mapping

    class Missing(KeyError):
        pass

    def register(self, exc, handler):
        pass
    got = {w: a for w, _, a, _, _ in probe._variants(register,
                                               (Lazy(), Missing, 'h'), {})}
    assert isinstance(got['argument 1 = Missing()'][1], Missing)
    for base in ('KeyError', 'LookupError', 'Exception'):
        assert "argument 1 = <class '%s'>" % base in got, sorted(got)

    # A function made as a variant is described without its address: the
    # reference's run and the candidate's tell it alike.
    def make(**kwargs):
        pass
    litmus_inputs.PACKAGE[0] = True
    try:
        whats = [w for w, _, _, _, _ in probe._variants(register,
                                                        (Lazy(), make, 'h'), {})]
    finally:
        litmus_inputs.PACKAGE[0] = False
    assert 'argument 1 = <function make_keywords>' in whats, whats
    assert not any(' at 0x' in w for w in whats), whats

    # A static method's class argument is varied too; a class method's
    # cls is its receiver.
    def exc_class_of(exc_class_or_code):
        pass

    def from_class(cls, value):
        pass
    got = [w for w, _, _, _, _ in probe._variants(exc_class_of, (Missing,), {})]
    assert "argument 1 = <class 'BaseException'>" in got, got
    got = [w for w, _, _, _, _ in probe._variants(from_class, (Missing, 1), {})]
    assert not any('BaseException' in w for w in got), got


def test_public_attributes_of_the_receiver_and_arguments_are_varied():
    class Redirect(Exception):
        code = 308      # on the class: shadowed on the instance

        def __init__(self):
            self._cache = 5

    class App:
        def __init__(self):
            self.debug = False
            self.name = 'app'
            self.config = {'DEBUG': False, 'ROOT': '/'}
            self.redirect = Redirect()
            self._state = 1

        def handle(self, request):
            if self.debug and self.redirect.code == 307:
                return 'refused'
            return request.method

    class Request:
        method = 'GET'

        def __init__(self):
            self.method = 'POST'

    app, request = App(), Request()
    # The function's constants first: the values its branches compare to.
    hints = probe.function_hints(
        'm.py', 'def f(r):\n    return r.redirect.code in {307, 308} and '
        'r.method in ("GET", "HEAD")\n', 'def f(r):\n    return 1\n')['f']
    assert hints.constants == [1, 307, 308, 'GET', 'HEAD']
    assert {'redirect', 'code', 'method'} <= hints.names
    got = {w: s for w, _, _, _, s in probe._variants(App.handle,
                                                  (app, request), {},
                                                  hints)}
    assert 'self.debug = True' in got
    assert any(w.startswith('self.name = ') for w in got)
    assert 'self.redirect.code = 307' in got
    assert "argument 1.method = 'GET'" in got
    # The constants go to the attributes the function reads, first.
    assert not any(w.startswith("self.name = 'GET'") for w in got)
    whats = list(got)
    assert whats.index('self.redirect.code = 307') < \
        whats.index('self.debug = True')
    assert "self.config['DEBUG'] = True" in got
    assert not any('_cache' in w or '_state' in w for w in got)
    # Set in the child only: the test's objects stay as they were.
    obj, name, value, how = got['self.debug = True']
    assert obj is app and name == 'debug' and value is True
    out = probe._in_child(App.handle, (app, request), {}, 1,
                          got['self.debug = True'])
    assert out['value'] == 'POST' and app.debug is False


def test_a_returned_iterator_is_read_in_a_variants_child_only():
    import itertools

    def lazy(xs):
        return (x for x in xs if x)

    def eager_iter(xs):
        return itertools.takewhile(lambda x: True, [x for x in xs if x])
    # The test's own call: its iterator is the test's to read.
    assert probe.summary(lazy([1])) == {'iterator': '?'}
    # A variant's call, in a child: its items, whatever iterator holds them.
    a = probe._in_child(lazy, ([0, 1, 2],), {}, 1)
    b = probe._in_child(eager_iter, ([0, 1, 2],), {}, 1)
    assert a['value'] == b['value'] == {'seq': 'iterator', 'len': 2,
                                        'items': [1, 2]}

    def fails_late(xs):
        yield 1
        raise ValueError('late')
    assert probe._in_child(fails_late, ([],), {}, 1)['raise'] == \
        'builtins.ValueError'


def test_a_class_attribute_and_a_config_entry_are_set_in_the_child():
    class Redirect(Exception):
        code = 308

    class App:
        def __init__(self):
            self.config = {'DEBUG': False}
            self.redirect = Redirect()

        def handle(self):
            return self.config['DEBUG'], self.redirect.code

    app = App()
    got = {w: s for w, _, _, _, s in probe._variants(
        App.handle, (app,), {}, probe.Hints([307], ['redirect', 'code']))}
    out = probe._in_child(App.handle, (app,), {}, 1,
                          got['self.redirect.code = 307'])
    assert out['value']['items'] == [False, 307]
    out = probe._in_child(App.handle, (app,), {}, 1,
                          got["self.config['DEBUG'] = True"])
    assert out['value']['items'] == [True, 308]
    assert app.handle() == (False, 308)


def test_a_setting_the_options_give_is_also_given_by_the_receiver():
    class Part:
        def __init__(self, prefix=None):
            self.prefix = prefix

        def only_options(self, options):
            return options.get('prefix')

        def either(self, options, **kw):
            return options.get('prefix') or kw.get('prefix') or self.prefix

    part = Part()
    hints = probe.Hints([], ['prefix', 'get'])
    got = {w: (a, k, s) for w, _, a, k, s in probe._variants(
        Part.either, (part, {'prefix': 'api', 'x': 1}), {'prefix': 'v'},
        hints)}
    a, k, s = got["self.prefix = 'api', left out of argument 1"]
    assert a[1] == {'x': 1} and k == {'prefix': 'v'}
    assert s == (part, 'prefix', 'api', 'attr')
    a, k, s = got["self.prefix = 'v', left out of the keywords"]
    assert a[1] == {'prefix': 'api', 'x': 1} and k == {}
    # Where the two patches part: one reads the options alone.
    a, k, s = got["self.prefix = 'api', left out of argument 1"]
    assert probe._in_child(Part.either, a, {}, 1, s)['value'] == 'api'
    assert probe._in_child(Part.only_options, a, {}, 1, s)['value'] is None
    assert part.prefix is None
    # Only an unset attribute the function reads, never a private entry.
    part.prefix = 'set'
    assert not probe._moved_settings((part, {'prefix': 'api'}), {}, hints)
    part.prefix = None
    assert not probe._moved_settings((part, {'prefix': 'api'}), {},
                                     probe.Hints([], ['get']))
    assert not probe._moved_settings((part, {'_prefix': 'a'}), {}, hints)


def test_a_setting_the_receiver_gives_is_also_given_by_an_argument():
    # An option shown in a context: either may say to show the default.
    class Context:
        def __init__(self, show_default=None):
            self.show_default = show_default

    class Option:
        def __init__(self, default, show_default=None):
            self.default, self.show_default = default, show_default

        def either(self, ctx):
            shown = self.show_default if self.show_default is not None \
                else ctx.show_default
            return repr(self.default) if shown else None

        def own_only(self, ctx):
            return repr(self.default) if self.show_default is True else None

    opt, ctx = Option('', show_default=True), Context()
    hints = probe.Hints([], ['show_default', 'default'])
    got = {w: (a, k, s) for w, _, a, k, s in probe._variants(
        Option.either, (opt, ctx), {}, hints)}
    a, k, s = got["self.show_default = None, argument 1.show_default = True"]
    assert probe._in_child(Option.either, a, k, 1, s)['value'] == "''"
    assert probe._in_child(Option.own_only, a, k, 1, s)['value'] is None
    assert opt.show_default is True and ctx.show_default is None
    # Not where the argument gives a value of its own, nor an attribute
    # the function does not read, nor a private one.
    ctx.show_default = False
    assert not probe._moved_settings((opt, ctx), {}, hints)
    ctx.show_default = None
    assert not probe._moved_settings((opt, ctx), {},
                                     probe.Hints([], ['default']))
    opt._hidden, ctx._hidden = True, None
    assert not [w for w, *_ in probe._moved_settings(
        (opt, ctx), {}, probe.Hints([], ['_hidden']))]


def test_a_setting_a_registered_object_carries_is_also_given_with_its_options():
    class Part:
        def __init__(self, prefix=None):
            self.prefix = prefix

    class Registry:
        def __init__(self):
            self._parts = []

        def add(self, part, **options):
            self._parts.append((part, options))

        def object_first(self):
            return [p.prefix or o.get('prefix') for p, o in self._parts]

        def object_only(self):
            return [p.prefix for p, o in self._parts]

        def under(self, options):
            return [o.get('prefix') or p.prefix or options.get('prefix')
                    for p, o in self._parts]

    reg = Registry()
    made_with, registered_with = Part('api'), Part()
    reg.add(made_with)
    reg.add(registered_with, prefix='v')
    hints = probe.Hints([], ['prefix', 'get'])
    got = {w: s for w, _, _, _, s in probe._variants(
        Registry.object_first, (reg,), {}, hints)}
    # Only the object that carries the setting, and not where its
    # options already give one.
    (what,) = [w for w in got if 'given with its options' in w and
               not w.startswith(AFTER)]
    assert what == "self._parts[0]: prefix = 'api' given with its " \
        "options, not set on it"
    out = probe._in_child(Registry.object_first, (reg,), {}, 1, got[what])
    assert out['value']['items'] == ['api', 'v']
    # Where the two patches part: one reads the object alone.
    assert reg.object_only() == ['api', None]
    out = probe._in_child(Registry.object_only, (reg,), {}, 1, got[what])
    assert out['value']['items'] == [None, None]
    assert made_with.prefix == 'api' and reg._parts[0][1] == {}
    # A setting the changed function does not read is left alone.
    assert not probe._registered_settings((reg,), {},
                                          probe.Hints([], ['get']))
    # The call's own options give one that a registered object leaves
    # unset: that object registered with another value of it.
    bare = Registry()
    bare.add(Part())
    got = {w: s for w, _, _, _, s in probe._variants(
        Registry.under, (bare, {'prefix': 'top'}), {}, hints)}
    (what,) = [w for w in got if 'registered with' in w and
               not w.startswith(AFTER)]
    assert bare.under({'prefix': 'top'}) == ['top']
    out = probe._in_child(Registry.under, (bare, {'prefix': 'top'}), {}, 1,
                          got[what])
    (value,) = out['value']['items']
    assert value and value != 'top', value
    assert bare._parts[0][1] == {}


def test_a_sequence_attribute_is_also_the_other_sequence_type():
    class Path:
        def __init__(self, parts):
            self.parts = parts

    class Base:
        def __init__(self):
            self.parts = ('a', 'b')

        def join(self, other):
            return list(self.parts[:-1]) + other.parts

    base, dest = Base(), Path(['c'])
    got = {w: s for w, _, _, _, s in probe._variants(Base.join, (base, dest),
                                                     {})}
    assert got["self.parts = ['a', 'b']"] == (base, 'parts', ['a', 'b'],
                                              'attr')
    setting = got["argument 1.parts = ('c',)"]
    out = probe._in_child(Base.join, (base, dest), {}, 1, setting)
    assert out['raise'] == 'builtins.TypeError' and dest.parts == ['c']


def test_a_hook_the_receivers_class_overrides_is_made_to_fail():
    class Sitemap:
        def items(self):
            return []

        def lastmod(self, item):
            return None

        def latest(self):
            try:
                return max([self.lastmod(x) for x in self.items()])
            except TypeError:
                return None

        def latest_quiet(self):
            try:
                return max([self.lastmod(x) for x in self.items()])
            except Exception:
                return None

    class Mine(Sitemap):
        def items(self):
            return [1, 2]

        def lastmod(self, item):
            return item

    site = Mine()
    hints = probe.Hints([], ['lastmod', 'items', 'max'])
    got = {w: s for w, _, _, _, s in probe._variants(Sitemap.latest, (site,),
                                                     {}, hints)}
    names = [w for w in got if 'failing' in w and not w.startswith(AFTER)]
    assert names == ['self.items = <items failing from its call 1>',
                     'self.items = <items failing from its call 2>',
                     'self.lastmod = <lastmod failing from its call 1>',
                     'self.lastmod = <lastmod failing from its call 2>']
    setting = got['self.lastmod = <lastmod failing from its call 1>']
    loud = probe._in_child(Sitemap.latest, (site,), {}, 1, setting)
    quiet = probe._in_child(Sitemap.latest_quiet, (site,), {}, 1, setting)
    assert loud['raise'].endswith('CallbackError')
    assert quiet['value'] is None and site.latest() == 2
    # The library's own methods are not hooks: a plain Sitemap has none.
    assert not probe._raising_hooks(Sitemap.latest, (Sitemap(),), {}, hints)


def bag_class():
    """A fresh class per test (the probes rebind its methods)."""
    class Bag:
        def __init__(self):
            self.items = []

        def add(self, x):
            self.items.append(x)

        def pop_last(self, default=KeyError):
            if not self.items:
                if default is KeyError:
                    raise KeyError('empty')
                return default
            return self.items.pop()

        def find(self, item):
            return item in self.items
    return Bag


def test_a_changed_method_the_tests_never_call_is_called_on_their_receiver():
    Bag = bag_class()
    probe._CHANGED_METHODS[Bag] = ['add', 'pop_last', 'find']
    try:
        bag = Bag()
        got = {w: (f, a, k) for w, f, a, k, _ in
               probe._variants(Bag.add, (bag, 1), {})}
    finally:
        del probe._CHANGED_METHODS[Bag]
    # find needs an argument the tests never gave: not called.
    assert not any('find' in w for w in got)
    # One with the same parameters as the probed method is called with
    # this call's (a comparison's mirror: __ge__ beside __le__).
    Bag.has = Bag.find
    Bag.holds = lambda self, x: x in self.items
    probe._CHANGED_METHODS[Bag] = ['add', 'holds']
    try:
        mirror = {w: (f, a, k) for w, f, a, k, _ in
                  probe._variants(Bag.add, (bag, 1), {})}
    finally:
        del probe._CHANGED_METHODS[Bag]
    f, a, k = mirror['then self.holds(1)']
    assert f is Bag.holds and a == (bag, 1) and k == {}
    # A private one is its callers' contract: never called on its own.
    Bag._holds = Bag.holds
    probe._CHANGED_METHODS[Bag] = ['add', '_holds']
    try:
        private = [w for w, _, _, _, _ in probe._variants(Bag.add, (bag, 1),
                                                          {})]
    finally:
        del probe._CHANGED_METHODS[Bag]
    assert not any('_holds' in w for w in private), private
    # Once a test called it with plain arguments, it is called with
    # them on the receiver another call left (a static method's are not
    # kept: no receiver).
    probe._remember_arguments(Bag.__qualname__ + '.find', (bag, 7), {})
    probe._remember_arguments(Bag.__qualname__ + '.find', (bag, 8), {})
    probe._remember_arguments('Other.static', (3, 4), {})
    probe._CHANGED_METHODS[Bag] = ['add', 'pop_last', 'find']
    try:
        bag.items.append(7)
        again = {w: (f, a) for w, f, a, _, _ in
                 probe._sibling_calls(Bag.add, bag)}
    finally:
        del probe._CHANGED_METHODS[Bag]
        probe._ARGS_SEEN.clear()
        bag.items.pop()
    f, a = again['then self.find(7)']
    assert f is Bag.find and a == (bag, 7)
    assert 'Other.static' not in probe._ARGS_SEEN
    f, a, k = got['then self.pop_last(default = None)']
    assert f is Bag.pop_last and a == (bag,) and k == {'default': None}
    assert probe._in_child(f, a, k, 1)['value'] is None
    assert 'then self.pop_last()' in got


def watched_test(cls, changed, body):
    """The records sent while body() runs as test 0, with cls's changed
    methods (changed) and its other methods watched."""
    probe._CHANGED_METHODS[cls] = list(changed)
    sent = []
    saved = probe._send
    probe._send = lambda *a: sent.append(a)
    try:
        probe._observe_class(cls)
        probe.begin_test(0)
        body()
        probe.end_test()
    finally:
        probe._send = saved
        del probe._CHANGED_METHODS[cls]
        probe._kinds.clear()
    return sent


def test_a_class_with_a_changed_method_has_its_other_methods_watched():
    Bag = bag_class()
    made = []

    def body():
        made.append(Bag())
        made[0].add(1)
        made[0].add(2)     # only the first call of a test is watched
    sent = watched_test(Bag, ['pop_last'], body)
    bag = made[0]
    assert bag.items == [1, 2]     # the test's own calls ran once
    q = Bag.__qualname__
    by = {(name, what): o for _, name, _, _, what, o in sent}
    assert sorted({name for name, _ in by}) == [q + '.__init__', q + '.add']
    # On the receiver as each call left it: empty after __init__, [1]
    # after the first add.
    assert by[(q + '.__init__', 'then self.pop_last()')]['raise'] == \
        'builtins.KeyError'
    assert by[(q + '.__init__', 'then self.pop_last(default = None)')][
        'value'] is None
    assert by[(q + '.add', 'then self.pop_last()')]['value'] == 1
    left = Bag()
    left.items.append(1)
    assert by[(q + '.add', 'as the test left it')]['in']['args'] == \
        probe.summary([left])


def test_a_setting_behind_a_property_tells_calls_apart_and_is_varied():
    class App:
        def __init__(self):
            self.config = {'DEBUG': False}
            self.method = 'POST'

        @property
        def debug(self):
            return self.config['DEBUG']

        @debug.setter
        def debug(self, value):
            self.config['DEBUG'] = value

        @property
        def computed(self):
            raise AssertionError('a property not read is never run')

    app = App()
    hints = probe.Hints([], ['debug', 'method'])
    quiet = probe._read_values((app,), hints)
    app.debug = True
    assert probe._read_values((app,), hints) != quiet
    assert probe._read_values((app,), hints) == \
        (('debug', True), ('method', 'POST'))
    got = {w: s for w, _, _, _, s in probe._variants(
        lambda self: None, (app,), {}, hints)}
    assert 'self.debug = False' in got
    assert not any('computed' in w for w in got)


def test_an_exception_a_changed_files_raise_statement_raises_is_marked():
    path = '/tmp/litmus-test-program/register.py'
    code = compile('''
def register(exc):
    if isinstance(exc, Exception):
        raise TypeError("an instance, not a class")
    return issubclass(exc, Exception)

def checked(exc):
    assert issubclass(exc, Exception), "not an exception class"

def again(exc):
    try:
        return register(exc)
    except TypeError:
        raise
''', path, 'exec')
    ns = {}
    exec(code, ns)
    probe._CHANGED_PATHS.add(path)
    try:
        def outcome(fn, arg):
            try:
                fn(arg)
            except TypeError as exc:
                return probe._result('raise', exc, (arg,), {})
        mine = outcome(ns['register'], KeyError())
        pythons = outcome(ns['register'], 3)      # issubclass(3, ...)
        reraised = outcome(ns['again'], KeyError())
        try:
            ns['checked'](int)
        except AssertionError as exc:
            asserted = probe._result('raise', exc, (int,), {})
    finally:
        probe._CHANGED_PATHS.discard(path)
    assert mine['raise'] == 'builtins.TypeError' and mine['raised_here']
    assert pythons['raise'] == 'builtins.TypeError'
    assert 'raised_here' not in pythons
    # A bare raise passes on what another frame raised: the deeper frame
    # (register's own raise) decides.
    assert reraised['raised_here']
    # An assert states the function's contract: a refusal.
    assert 'raised_here' not in asserted


def test_watched_methods_keep_to_their_share_of_the_budget():
    Bag = bag_class()
    probe._watched[0] = probe.WATCHED_SHARE * probe.SPENT_MAX
    try:
        sent = watched_test(Bag, ['pop_last'], lambda: Bag().add(1))
    finally:
        probe._watched[0] = 0.0
    assert sent == []


class Flag:
    def __init__(self, name, is_flag=False, count=None):
        self.name = name
        self.is_flag = is_flag
        self.count = count if count is not None else 0
        self.is_bool_flag = False
        # Computed from the others: no caller sets it alone.
        self.is_bool_flag: bool = is_flag and name.startswith('--')
        self.width = len(name)


def test_an_attribute_init_computes_from_others_is_not_varied():
    names = {k for k, _ in probe._settable(Flag('--x', True, 2))}
    assert names == {'name', 'is_flag', 'count'}, names
    # Also when __init__ is watched (another method of its class changed).
    class Watched:
        def __init__(self, name, is_flag=False):
            self.name = name
            self.is_bool_flag = is_flag and name.startswith('--')
    Watched.__init__ = probe._observer(Watched.__init__, 'Watched.__init__',
                                       Watched)
    names = {k for k, _ in probe._settable(Watched('--x', True))}
    assert names == {'name'}, names
    got = [w for w, _ in probe._attribute_variants(Flag('--x'), 'self')]
    assert not any('is_bool_flag' in w or 'width' in w for w in got), got
    assert any(w.startswith('self.is_flag = ') for w in got), got



class Fields:
    """A list of fields whose == ignores their order (as a headers
    object's)."""

    def __init__(self, items):
        self._list = list(items)

    def __eq__(self, other):
        return type(other) is type(self) and \
            sorted(self._list) == sorted(other._list)


class Row:
    def __init__(self, items):
        self.cells = list(items)

    def __eq__(self, other):
        return type(other) is type(self) and self.cells == other.cells


def test_a_list_whose_order_its_owners_equality_ignores_is_unordered():
    a = probe.summary(Fields([('Vary', 'Cookie'), ('Set-Cookie', 's=1')]))
    b = probe.summary(Fields([('Set-Cookie', 's=1'), ('Vary', 'Cookie')]))
    assert a == b and a['attrs']['_list']['set'] == 'list', a
    # An order the class's == keeps is kept.
    assert probe.summary(Row([1, 2])) != probe.summary(Row([2, 1]))


def test_a_variant_of_another_type_than_the_tests_is_marked():
    def split(text, maxsplit=-1, strict=False):
        return text.split(maxsplit=maxsplit)
    given = (('a b',), {})
    assert probe._retyped(split, given, (None,), {})
    assert not probe._retyped(split, given, ('a',), {})
    assert probe._retyped(split, given, ('a b',), {'maxsplit': None})
    assert not probe._retyped(split, given, ('a b',), {'strict': True})
    assert not probe._retyped(split, (('a b',), {'maxsplit': 1}),
                              ('a b',), {'maxsplit': 2})


def test_code_that_checks_types_gets_a_value_of_another_type():
    checks = probe.Hints((), {'isinstance', 'str'})
    assert probe._other_type('nope', checks) == [0]
    assert probe._other_type(3, checks) == []        # int is not named
    assert probe._other_type('nope', probe.Hints((), {'str'})) == []
    assert probe._setting_retyped((Flag('--x'), 'name', 0, 'attr'))
    assert not probe._setting_retyped((Flag('--x'), 'name', '-y', 'attr'))


def test_an_exception_s_message_is_recorded_without_addresses():
    out = probe._result('raise', ValueError('bad <X at 0x7f00aa>'), (), {})
    assert out['raise'] == 'builtins.ValueError'
    assert '0x7f00aa' not in out['message'] and out['message'].startswith(
        'bad <X')
    # A key shown with !r and without: the same message.
    assert probe._message_key("not allowed: 'a\\tb'") == \
        probe._message_key("not allowed: a\tb") == 'notallowed:ab'
    assert probe._message_key('bad value: nope') != probe._message_key('0')


CATCHES = '''
def to_int(value, default=0):
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


def plain(value):
    return value + 1
'''


def test_code_with_a_handler_gets_a_value_that_fails_when_used():
    hints = probe.function_hints('/virtual/c.py', CATCHES, CATCHES)
    assert hints['to_int'].catches and not hints['plain'].catches
    (poisoned,) = probe._poisoned('3', hints['to_int'])
    assert probe._poisoned('3', hints['plain']) == []
    ns = {}
    exec(CATCHES, ns)
    import pytest
    with pytest.raises(probe.litmus_inputs.CallbackError):
        ns['to_int'](poisoned)      # a narrow handler lets it through


class Converter:
    def __init__(self, func):
        self.func = func


def test_a_function_an_object_holds_is_made_to_fail():
    hints = probe.Hints((), {'func'})
    def parse(text):
        return int(text)
    got = probe._raising_attributes(Converter(parse), 'self', hints)
    assert [w for w, _ in got] == [
        'self.func = <parse failing from its call 1>',
        'self.func = <parse failing with ValueError from its call 1>']
    _, (holder, name, hook, how) = got[1]
    import pytest
    with pytest.raises(ValueError):
        hook('3')
    assert probe._raising_attributes(Converter(parse), 'self',
                                     probe.Hints((), {'other'})) == []


class ParamType:
    def __init__(self, name):
        self.name = name


class Choice(ParamType):
    pass


class IntType(ParamType):
    pass


class Opt:
    def __init__(self, kind):
        self.kind = kind


def test_an_object_attribute_is_also_an_object_of_a_sibling_class_seen():
    probe._OBJECTS_SEEN.clear()
    try:
        held = [Opt(IntType('INT')), Opt(Choice('CHOICE'))]
        for o in held:
            probe._remember_objects((o,), {})
        assert set(probe._OBJECTS_SEEN) == {Opt, IntType, Choice}
        opt = Opt(Choice('x'))
        (sibling,) = probe._siblings(opt.kind)
        assert type(sibling) is IntType
        got = [w for w, _ in probe._attribute_variants(
            opt, 'self', probe.Hints((), {'kind'}))]
        assert any(w.startswith('self.kind = <test_probe.IntType') for w in
                   got), got
        assert probe._siblings(opt) == []   # no base class of the program
        # Only weakly held: an object the tests let go is not offered.
        del held[:], sibling
        import gc
        gc.collect()
        assert probe._siblings(opt.kind) == []
    finally:
        probe._OBJECTS_SEEN.clear()


def test_an_object_is_also_a_stand_in_of_another_class():
    # A fix that tests the class of what it is given (isinstance) where
    # the reference reads what the object offers differs on a stand-in
    # that forwards to the tests' object: an attribute the function reads,
    # one it reads through a getter, and an object argument.
    class Bracketed(ParamType):
        def metavar(self):
            return '[a|b]'

    class Arg:
        def __init__(self):
            self.kind = Bracketed('k')
            self.default = Bracketed('d')

        def get_default(self):
            return self.default

        def reference(self):
            v = self.kind.metavar()
            return v if v.startswith('[') else '[%s]' % v

        def candidate(self):
            v = self.kind.metavar()
            return v if isinstance(self.kind, Bracketed) else '[%s]' % v

    arg = Arg()
    got = {w: s for w, s in probe._stand_ins(
        arg, 'self', probe.Hints((), {'kind', 'metavar'}))}
    # The attribute the function reads first.
    assert list(got) == [
        "self.kind = a stand-in of another class for " +
        probe._told(arg.kind),
        "self.default = a stand-in of another class for " +
        probe._told(arg.default)]
    what = list(got)[:1]
    sides = [probe._in_child(f, (arg,), {}, 1, got[what[0]])['value']
             for f in (Arg.reference, Arg.candidate)]
    assert sides[0] != sides[1]
    assert type(arg.kind) is Bracketed     # set in the child only
    # In a call's variants, after every other kind and beyond their cap.
    got = [w for w, _, _, _, _ in probe._variants(
        Arg.reference, (arg, Bracketed('x')), {}, probe.Hints((), set()))]
    stand = [w for w in got if 'a stand-in of another class' in w]
    assert stand == got[-len(stand):] and \
        len(stand) == probe.STAND_INS_PER_CALL, got
    assert 'argument 1 = a stand-in of another class for ' + \
        probe._told(Bracketed('x')) in stand, got


def test_an_object_a_private_attribute_holds_is_also_a_stand_in():
    # A block's context's environment: the context is private (left as
    # it is), the environment it holds is wrapped.  A stand-in is the
    # same value: no variant of another type.
    class Env(ParamType):
        def concat(self, parts):
            return '|'.join(parts)

    class Context:
        def __init__(self):
            self.environment = Env('e')
            self.name = 'c'

    class Block:
        def __init__(self):
            self._context = Context()

        def reference(self):
            return self._context.environment.concat(['a', 'b'])

        def candidate(self):
            env = self._context.environment
            return env.concat(['a', 'b']) if isinstance(env, Env) else \
                ''.join(['a', 'b'])

    block = Block()
    hints = probe.Hints((), {'_context', 'environment', 'concat'})
    (row,) = probe._held_stand_ins(block, 'self', hints)
    assert row[0] == 'self._context.environment = a stand-in of another ' \
        'class for ' + probe._told(block._context.environment)
    assert probe._held_stand_ins(block, 'self', probe.Hints((), {
        'environment'})) == []          # the private attribute not read
    sides = [probe._in_child(f, (block,), {}, 1, row[1])['value']
             for f in (Block.reference, Block.candidate)]
    assert sides == ['a|b', 'ab']
    assert not probe._setting_retyped(row[1])
    assert probe._setting_retyped((block._context, 'name', 1, 'attr'))
    env = block._context.environment
    (stand_in,) = probe.litmus_inputs.forwarding(env)
    assert not probe._retyped(Block.reference, ((env,), {}), (stand_in,), {})
    assert probe._retyped(Block.reference, ((env,), {}), (1,), {})


class Kind:
    splitter = None
    name = None


class IntKind(Kind):
    name = 'integer'


class CountKind(IntKind):
    name = 'count'


class PathKind(Kind):
    name = 'path'
    splitter = ':'


class PairKind(Kind):
    def __init__(self, first):
        self.first = first


class _SecretKind(Kind):
    splitter = ','


def test_an_object_attribute_is_also_made_of_a_sibling_class_no_test_made():
    # The tests gave an integer kind; a path kind with a splitter of its
    # own takes another path through the root class's methods.  Classes
    # that need an argument, private ones and the tested one are left
    # out; the one that sets more of the root's settings comes first.
    probe._OBJECTS_SEEN.clear()
    got = probe._buildable_siblings(IntKind())
    assert got == [PathKind, CountKind], got
    opt = Opt(IntKind())
    rows = dict(probe._attribute_variants(
        opt, 'self', probe.Hints((), {'kind'})))
    setting = rows['self.kind = PathKind()']
    probe._apply_setting(setting)
    assert type(opt.kind) is PathKind
    assert probe._buildable_siblings(opt) == []   # no base of the program


def test_a_receiver_is_built_again_with_a_constructor_argument_changed():
    # The test built Span(0, 3) and checked its reversal; the changed
    # method is also called on spans built with a neighbouring start or
    # stop (an empty one among them), each in a child.
    class Span:
        def __init__(self, start, stop, label='s'):
            self._start, self._stop = start, stop
            self._label = label

        def reversed_items(self):
            if self._start >= self._stop:
                raise IndexError('empty')
            return list(range(self._stop - 1, self._start - 1, -1))

    sent = watched_test(Span, ['reversed_items'],
                        lambda: Span(0, 3, label='x'))
    by = {what: o for _, _, _, _, what, o in sent}
    assert by['then self.reversed_items()']['value']['items'] == [2, 1, 0]
    rebuilt = [w for w in by if w.startswith('self = Span(')]
    assert 'self = Span(0, 3, label=%s); then self.reversed_items()' % \
        probe._told('x') not in rebuilt    # the test's own is no variant
    empty = 'self = Span(0, 0, label=%s); then self.reversed_items()' % \
        probe._told('x')
    assert by[empty]['raise'] == 'builtins.IndexError', sorted(by)
    # Only plain values are changed, a few each, the keyword's too.
    assert any(w.startswith('self = Span(0, 3, label=') for w in rebuilt)
    assert len(rebuilt) <= 3 * probe.REBUILT_VALUES


def test_a_changed_method_the_test_calls_runs_on_rebuilt_receivers_too():
    # The test built Opt('--x', default='') and called help(ctx) with a
    # context no child can rebuild: the call is also made on options
    # built with a neighbouring default (a blank one among them).
    class Ctx:
        pass

    class Opt:
        def __init__(self, name, default='', show=True):
            self.name, self.default, self.show = name, default, show

        def help(self, ctx):
            if self.show and not self.default.strip():
                return '[default: ""]'
            return '[default: %s]' % self.default

    raw = Opt.help
    Opt.help = probe._probe(raw, 'Opt.help')
    try:
        sent = watched_test(Opt, ['help'],
                            lambda: Opt('--x', default='').help(Ctx()))
    finally:
        Opt.help = raw
        probe._BUILT.clear()
    by = {what: o for _, _, _, _, what, o in sent}
    blank = [w for w in by if w.startswith(
        "self = Opt(%s, default=%s); then self.help(<" %
        (probe._told('--x'), probe._told(' ')))]
    assert blank, sorted(by)
    assert by[blank[0]]['value'] == '[default: ""]'
    # The name is varied too; the test's own receiver is no variant.
    assert any(w.startswith("self = Opt(%s, default=%s)" % (
        probe._told('--X'), probe._told(''))) for w in by), sorted(by)
    assert not any(w.startswith("self = Opt(%s, default=%s);" % (
        probe._told('--x'), probe._told(''))) for w in by)


def test_what_a_call_prints_to_an_in_memory_stream_is_recorded():
    # A command runner's output is in memory: a variant's record holds
    # what its call printed, and the test's own call's record what it
    # printed (read from the stream, which stays the test's), for the
    # engine to compare where the tests' call prints alike on both sides.
    import io

    def greet(name):
        print('hello', name)
        return len(name)

    saved, sent = sys.stdout, []
    sys.stdout = io.StringIO()
    send = probe._send
    probe._send = lambda *a: sent.append(a)
    try:
        print('earlier output')
        out = probe._in_child(greet, ('ann',), {}, 1)
        probe.begin_test(0)
        probe._probe(greet, 'm.greet')('bob')
        probe.end_test()
        shown = sys.stdout.getvalue()
    finally:
        sys.stdout = saved
        probe._send = send
        probe._kinds.clear()
    assert out['printed']['out'] == 'hello ann\n' and out['value'] == 3
    by = {what: o for _, _, _, _, what, o in sent}
    assert by['as the test called it']['printed']['out'] == 'hello bob\n'
    assert any(o.get('printed', {}).get('out', '').startswith('hello ') and
               w != 'as the test called it' for w, o in by.items())
    # The test's own call printed once, in the test: the children's
    # output stays in their copies of the stream.
    assert shown == 'earlier output\nhello bob\n'
    with open(os.devnull, 'w') as real:
        assert probe._stream_text(real) is None


def test_an_attribute_gets_a_constant_of_the_code_and_its_own_neighbour():
    # The test's redirect has code 301; the code names 307 and 308: one
    # of those, and a code it does not name.
    assert probe._attribute_values(301, [307, 308, 'GET']) == [307, 302]
    assert probe._attribute_values('', ['  [']) == ['  [', ' ']
    assert probe._attribute_values(5, []) == probe._near(5)[:2]


def test_a_binary_operator_no_test_calls_is_called_with_the_receiver():
    # __ge__ is changed, the tests compare with <= only: a receiver the
    # test built is compared with itself (the branch of its own form).
    class Sets:
        def __init__(self, included=None):
            self._included = included

        def __le__(self, other):
            return self._included <= other._included

        def __ge__(self, other):
            return self._included.issupserset(other._included)

    probe._CHANGED_METHODS[Sets] = ['__le__', '__ge__']
    try:
        a = Sets({1})
        got = {w: (f, args) for w, f, args, _, _ in
               probe._sibling_calls(Sets.__init__, a)}
    finally:
        del probe._CHANGED_METHODS[Sets]
    f, args = got['then self.__ge__(self)']
    assert f is Sets.__ge__ and args == (a, a)
    assert probe._in_child(f, args, {}, 1)['raise'] == \
        'builtins.AttributeError'


def test_the_last_positional_argument_is_also_given_by_name():
    # url_for(app, "index") is also made as url_for(app, endpoint=
    # "index"): a fix that makes endpoint positional-only refuses it.
    class App:
        def url_for(self, endpoint, **values):
            return endpoint, values

        def strict(self, endpoint, /, **values):
            return endpoint, values

    app = App()
    got = {w: (a, k) for w, _, a, k, _ in
           probe._variants(App.url_for, (app, 'index'), {'x': 1})}
    assert got['endpoint given by name'] == ((app,), {'x': 1,
                                                      'endpoint': 'index'})
    (w, _, a, k, _), = probe._by_name(App.strict, (app, 'index'), {}, 1)
    assert w == 'endpoint given by name'
    assert probe._in_child(App.strict, a, k, 1)['raise'] == \
        'builtins.TypeError'
    assert probe._by_name(App.url_for, (app,), {}, 1) == []


def test_an_operator_one_fix_leaves_to_python_is_observed_through_a_stand_in():
    # One fix defines __contains__; the other's class leaves `in` to
    # Python (iteration): a stand-in with Python's own results is set on
    # it, so both sides' calls are observed and compared.
    class Empty:
        def __iter__(self):
            return iter(())

        def __eq__(self, other):
            return other is self

    fn = probe._stand_in(Empty, '__contains__', '/virtual/m.py')
    assert fn is Empty.__contains__ and fn.__code__.co_filename == \
        '/virtual/m.py'
    assert 'a' not in Empty() and fn.__qualname__.endswith(
        'Empty.__contains__')
    e = Empty()
    assert (e != e) is False and (e != 1) is True
    assert probe._stand_in(Empty, '__ne__', '/virtual/m.py') is not None
    assert (Empty() != 1) is True
    # A class that defines it, or another name: none.
    assert probe._stand_in(Empty, '__contains__', '/virtual/m.py') is None
    assert probe._stand_in(Empty, '__len__', '/virtual/m.py') is None


def test_a_call_with_a_constant_of_the_code_is_a_kind_of_its_own():
    hints = probe.Hints(constants=['clear', 'pop', 3])
    assert probe._constants_given(([], 'append'), {}, hints) == ()
    assert probe._constants_given(([], 'clear'), {}, hints) == \
        ((1, 'clear'),)
    assert probe._constants_given((), {'n': 3, 'm': 'pop'}, hints) == \
        (('m', 'pop'),)


def test_a_binary_operator_that_takes_any_arguments_gets_an_operand_too():
    # One side's __lt__ is an alias of a function of *args (an error for
    # every operator); the other's takes an operand: both are described,
    # and compared, as self.__lt__(self).
    class Undef:
        def _fail(self, *args, **kwargs):
            raise RuntimeError('undefined')
        __lt__ = _fail

    probe._CHANGED_METHODS[Undef] = ['__lt__']
    try:
        u = Undef()
        got = [w for w, _, _, _, _ in probe._sibling_calls(Undef.__init__, u)]
    finally:
        del probe._CHANGED_METHODS[Undef]
    assert got == ['then self.__lt__(self)'], got


def test_an_empty_container_of_the_program_is_another_kind_of_call():
    # A session that is a dict of the program's own: the test's call with
    # an emptied one (`if not session:`) is observed apart from the call
    # with a full one; a plain dict's items already tell them apart.
    class Session(dict):
        pass

    assert probe._kind(Session()) != probe._kind(Session(a=1))
    assert probe._kind(Session(a=1)) == probe._kind(Session(b=2))
    assert probe._kind({}) != probe._kind({'a': 1})
    assert probe._kind(Session(), 1) == 'Session'   # one level only


def test_copying_an_object_calls_its_class_changed_methods_on_it():
    # The tests only copy a sentinel; the class's changed __bool__ is
    # still called on the object they copied.  An object whose class
    # declares no slots and has no dictionary is summarised as having no
    # data, like one with an empty dictionary.
    class Sentinel:
        __slots__ = ()

        def __reduce__(self):
            return 'SENTINEL'

        def __bool__(self):
            return False

    import copy
    sent = watched_test(Sentinel, ['__bool__'],
                        lambda: copy.copy(Sentinel()))
    by = {what: o for _, _, _, _, what, o in sent}
    assert by['then self.__bool__()']['value'] is False, sorted(by)
    assert probe.summary(Sentinel()) == {
        'obj': probe._name(Sentinel), 'attrs': {}}
    assert probe.summary(__import__('threading').Lock())['other']


def test_attributes_the_function_does_not_read_come_after_other_variants():
    # An application with many settings and a session whose flag the
    # changed code reads: the flag's variant is among the first, the
    # application's unread settings only after every other kind.
    class App:
        def __init__(self):
            for k in 'abcdefghijklmnop':
                setattr(self, 'setting_' + k, True)

    class Session:
        def __init__(self):
            self.accessed = True

    class Interface:
        def save(self, app, session):
            return session.accessed

    got = [w for w, *_ in probe._variants(
        Interface.save, (Interface(), App(), Session()), {},
        probe.Hints((), {'accessed'})) if not w.startswith(AFTER) and
        'a stand-in of another class' not in w]    # beyond the cap
    assert 'argument 2.accessed = False' in got[:4], got
    unread = [i for i, w in enumerate(got) if w.startswith('argument 1.')]
    others = [i for i, w in enumerate(got)
              if not w.startswith('argument 1.')]
    assert unread and min(unread) > max(others), got


def test_a_renamed_parameter_is_given_as_a_gathered_keyword_too():
    # The reference makes `self` positional-only so that a URL variable
    # named "self" reaches **values; the patch renames it `app`, which
    # only moves the collision.  Both sides try the call with `app` given
    # too; a function whose keywords both texts take alike gets none.
    ref = ('class App:\n'
           '    def url_for(self, /, endpoint, **values):\n'
           '        return endpoint, sorted(values)\n')
    cand = ref.replace('self, /,', 'app,')
    hints = probe.function_hints('m.py', ref, cand)['App.url_for']
    assert hints.keywords == {'app'}
    ns = {}
    exec(ref, ns)
    fn = ns['App'].url_for
    (what, _, args, kwargs, _), = probe._colliding_keywords(
        fn, (ns['App'](), 'index'), {'self': '2'}, hints)
    assert what == "app = %s given too" % probe._told('2')
    assert fn(*args, **kwargs) == ('index', ['app', 'self'])
    same = probe.function_hints('m.py', ref, ref)['App.url_for']
    assert probe._colliding_keywords(
        fn, (ns['App'](), 'index'), {'self': '2'}, same) == []
    # Nothing gathered by the test's call: nothing to collide.
    assert probe._colliding_keywords(
        fn, (ns['App'](), 'index'), {}, hints) == []


def test_a_read_list_attribute_gets_its_first_and_last_item_changed():
    # Help names ['-h', '--help']: a fix that prefers "--help" by name
    # differs from one that picks the longest on ['-h', '--HELP'].
    class Ctx:
        def __init__(self):
            self.help_option_names = ['-h', '--help']
            self.other_names = ['a', 'b']

    got = [w for w, _ in probe._attribute_variants(
        Ctx(), 'ctx', probe.Hints((), {'help_option_names'}))]
    assert "ctx.help_option_names = %s" % probe._told(
        ['-h', '--HELP']) in got, got
    assert "ctx.help_option_names = %s" % probe._told(
        ['-H', '--help']) in got, got
    # An unread list keeps only its other sequence type.
    assert [w for w in got if w.startswith('ctx.other_names')] == [
        "ctx.other_names = %s" % probe._told(('a', 'b'))]


def test_a_read_setting_left_none_is_given_a_text():
    # A context's auto_envvar_prefix left None: a fix that makes an
    # environment variable's name from it where the reference names none
    # differs once a user sets it.  A text where None was counts as a
    # value of another type: Python refusing it is no difference.
    class Ctx:
        def __init__(self):
            self.auto_envvar_prefix = None
            self.other = None
            self._private = None

    ctx = Ctx()
    rows = probe._attribute_variants(
        ctx, 'ctx', probe.Hints((), {'auto_envvar_prefix', '_private'}))
    got = [w for w, _ in rows]
    assert "ctx.auto_envvar_prefix = 'x'" in got, got
    assert not [w for w in got if 'other' in w or '_private' in w], got
    setting = dict(rows)["ctx.auto_envvar_prefix = 'x'"]
    assert probe._setting_retyped(setting)


def test_a_construction_kept_for_rebuilding_holds_no_object_alive():
    # Opt(parent, 'x'): the parent is kept weakly, so a test that checks
    # it is collected still sees it go, and the receiver is then not
    # rebuilt; a list of names is kept as a copy.
    import gc

    class Parent:
        pass

    class Opt:
        def __init__(self, parent, name, decls=()):
            self.parent, self.name = parent, name

    parent, decls = Parent(), ['--x']
    opt = Opt(parent, 'x', decls=decls)
    try:
        probe._remember_construction(Opt, (opt, parent, 'x'),
                                     {'decls': decls})
        decls.append('-y')
        cls, args, kwargs = probe._construction(opt)
        assert cls is Opt and args == (parent, 'x')
        assert kwargs == {'decls': ['--x']}
        gone = weakref.ref(parent)
        del parent, args
        opt.parent = None
        gc.collect()
        assert gone() is None
        assert probe._construction(opt) is None
    finally:
        probe._BUILT.clear()
