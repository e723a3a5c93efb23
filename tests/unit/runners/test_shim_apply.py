# Tests of runners/shim.py's application of a patch's whole files, outside
# a zygote (a stand-in `_litmus` module): a re-executed module's classes
# keep their identity so that subclasses made at import inherit the patch
# (slots, super() and properties included); classes that cannot be one
# (another base) are replaced; parametrized tests' values follow.
#   /usr/bin/python3 -m pytest tests/unit/runners/test_shim_apply.py
# SPDX-License-Identifier: MIT
import types

from shim_stub import apply, shared  # noqa: E402
from litmus_codediff import imported_names  # noqa: E402

OLD = '''
class Base:
    __slots__ = ("x",)

    def __init__(self, x):
        self.x = x

    def size(self):
        return self.x

    @property
    def double(self):
        return 2 * self.x


class Other:
    def go(self):
        return "old"
'''

NEW = OLD.replace("return self.x", "return self.x + 1").replace(
    "return 2 * self.x", "return 3 * self.x")


def reexec(mod, text):
    old = dict(mod.__dict__)
    for name in list(mod.__dict__):
        if name not in apply._IMPORT_DUNDERS:
            del mod.__dict__[name]
    exec(compile(text, "<patched>", "exec"), mod.__dict__)
    apply._keep_classes(old, mod.__dict__)
    return old


def module(text):
    mod = types.ModuleType("patched_mod")
    exec(compile(text, "<orig>", "exec"), mod.__dict__)
    return mod


def test_a_subclass_made_at_import_inherits_the_patch():
    mod = module(OLD)
    Base = mod.Base

    class Sub(Base):          # a conftest's subclass, made before the patch
        __slots__ = ()

        def size(self):
            return super().size() * 10

    reexec(mod, NEW)
    assert mod.Base is Base
    s = Sub(4)
    assert s.size() == 50     # the patched Base.size under super()
    assert s.double == 12     # the patched property
    assert s.x == 4           # the kept slot


def test_super_in_the_patched_class_itself():
    text = OLD + '''
class Kid(Base):
    __slots__ = ()

    def size(self):
        return super().size() + 100
'''
    mod = module(text)
    Kid = mod.Kid
    reexec(mod, text.replace("+ 100", "+ 200"))
    assert mod.Kid is Kid
    assert Kid(1).size() == 201


def test_a_class_with_other_bases_is_replaced():
    mod = module(OLD)
    Other = mod.Other
    reexec(mod, OLD.replace("class Other:", "class Other(dict):"))
    assert mod.Other is not Other
    assert issubclass(mod.Other, dict)


def test_parametrized_values_follow_the_new_objects():
    class Callspec:
        def __init__(self, params):
            self.params = params

    class Item:
        def __init__(self, params):
            self.callspec = Callspec(params)

    old_f, new_f = (lambda: 1), (lambda: 2)
    item = Item({"fn": old_f, "pair": (old_f, 3), "n": 7})
    session = types.SimpleNamespace(items=[item])
    saved, shared.PYTEST_SESSION = shared.PYTEST_SESSION, session
    try:
        apply._rebind_params({id(old_f): new_f})
    finally:
        shared.PYTEST_SESSION = saved
    assert item.callspec.params == {"fn": new_f, "pair": (new_f, 3), "n": 7}


SETTINGS = '''
from threading import local


class _Settings(local):
    def __init__(self, **kw):
        self.__dict__.update(kw)

    def __setattr__(self, name, value):
        return super().__setattr__(name, value)


class Plain:
    def __setattr__(self, name, value):
        super().__setattr__(name, value)


settings = _Settings(evaluate=True)
registry = [Plain()]


def flip():
    settings.evaluate = not settings.evaluate
    registry[0].seen = True
    return settings.evaluate
'''


def test_module_level_instances_become_the_kept_class():
    # A module-level object made by the re-executed module is of the new
    # class, which is dropped for the kept one; its super() names the kept
    # one, so without retyping it raises "obj must be an instance or
    # subtype of type" (sympy's global_parameters).
    mod = module(SETTINGS)
    Settings = mod._Settings
    reexec(mod, SETTINGS.replace("not settings.evaluate",
                                 "(not settings.evaluate)"))
    assert mod._Settings is Settings
    assert type(mod.settings) is Settings
    assert type(mod.registry[0]) is mod.Plain
    assert mod.flip() is False and mod.registry[0].seen


META = '''
class Meta(type):
    def __new__(cls, name, bases, attrs):
        made = super().__new__(cls, name, bases, attrs)
        made.registered = True
        return made


class Cache:
    def __get__(self, obj, owner):
        return {}


class Model(metaclass=Meta):
    cache = Cache()

    def check(self):
        return "old"
'''


def test_a_class_of_the_modules_own_metaclass_keeps_its_identity():
    # Django's Model and ModelBase: both defined again; the metaclass is
    # kept, so the class of it is too, and a model made at import (a test
    # app's) inherits the patch; a model a test makes afterwards goes
    # through the kept metaclass, whose super() names it.
    mod = module(META)
    Model, Meta = mod.Model, mod.Meta

    class Song(Model):
        pass

    reexec(mod, META.replace('return "old"', 'return "new"'))
    assert mod.Meta is Meta and mod.Model is Model
    assert Song().check() == "new"

    class Album(mod.Model):    # made by a test, after the patch
        pass
    assert Album.registered and Album().check() == "new"
    # The descriptor the class body made is of the kept class.
    assert isinstance(vars(mod.Model)["cache"], mod.Cache)


VIEWS = '''
import functools


def tagged(view):
    @functools.wraps(view)
    def inner(request):
        return view(request) + "!"
    return inner


@tagged
def index(request):
    return "old " + request


def plain(x=1):
    return x
'''


def test_a_function_taken_at_import_runs_the_patch():
    # A URL pattern holds the decorated view it got at import: the patched
    # view is what it calls, as after a fresh import.
    mod = module(VIEWS)
    urlpatterns = [("", mod.index), ("plain", mod.plain)]
    new = VIEWS.replace('"old "', '"new "').replace("x=1", "x=2")
    old = reexec(mod, new)
    apply._keep_functions(old, mod.__dict__)
    assert urlpatterns[0][1]("r") == "new r!"
    assert urlpatterns[1][1]() == 2
    assert mod.index is urlpatterns[0][1]


def virtual_module(name, text):
    """A module made from text, as if imported from /virtual/NAME.py."""
    mod = types.ModuleType(name)
    mod.__file__ = "/virtual/%s.py" % name
    exec(compile(text, mod.__file__, "exec"), mod.__dict__)
    return mod


def fresh_reexec(mod, text):
    """A patch's module re-executed as apply_mutant(fresh=True) does it;
    returns the namespace before."""
    old = dict(mod.__dict__)
    for name in list(mod.__dict__):
        if name not in apply._IMPORT_DUNDERS:
            del mod.__dict__[name]
    exec(compile(text, mod.__file__, "exec"), mod.__dict__)
    apply.keep_after_reexec(old, mod.__dict__, mod.__file__)
    return old


MARKS = '''
import enum


class Pass(enum.Enum):
    context = enum.auto()
    environment = enum.auto()


def pass_context(f):
    f.pass_arg = Pass.context
    return f


class _Missing:
    def __repr__(self):
        return "missing"


missing = _Missing()
join = "".join
internal = set()


def internalcode(f):
    internal.add(f.__code__)
    return f


@pass_context
def here(ctx):
    return ctx


class Undefined:
    pass


def make_undefined(base=Undefined):
    return type("Logging", (base,), {})
'''


def test_what_other_modules_hold_of_a_reexecuted_module_stays_itself():
    # A template engine's marks, sentinel and registry: other modules took
    # them at their import; the patch adds a regex and changes `here`.
    mod = virtual_module("marks_mod", MARKS)
    other = types.ModuleType("user_mod")
    exec(compile("def helper(x, default=None):\n    return x\n",
                 "/virtual/user_mod.py", "exec"), other.__dict__)
    other.helper = mod.pass_context(other.helper)
    mod.internalcode(other.helper)
    held = (mod.Pass, mod.Pass.context, mod.missing, mod.join)
    Undefined = mod.Undefined
    patched = MARKS.replace('import enum\n', 'import enum\nimport re\n'
                            'HANDLE = re.compile("@")\n').replace(
        '    return ctx\n', '    return [ctx]\n')
    old = fresh_reexec(mod, patched)
    assert (mod.Pass, mod.Pass.context, mod.missing, mod.join) == held
    assert all(a is b for a, b in zip(
        (mod.Pass, mod.Pass.context, mod.missing, mod.join), held))
    # The kept sentinel is of the module's class (kept too).
    assert type(mod.missing) is mod._Missing
    # Marks set by the new definitions are the kept members.
    assert mod.here.pass_arg is held[1] and mod.here(1) == [1]
    assert other.helper.pass_arg is held[1]
    # What the other module registered is in the new registry too.
    assert other.helper.__code__ in mod.internal
    # A default made of a class the re-execution defined again is the
    # kept class.
    assert mod.Undefined is Undefined and \
        issubclass(mod.make_undefined(), Undefined)
    assert mod.here.__code__ not in old['internal']


def test_a_changed_constant_container_is_the_patchs():
    # A fix that drops an item from a module's own set keeps it dropped.
    src = 'SAFE = {"a", "b", "c"}\nLIMITS = [1, 2]\n'
    mod = virtual_module("consts_mod", src)
    fresh_reexec(mod, 'SAFE = {"a", "b"}\nLIMITS = [1, 2]\n')
    assert mod.SAFE == {"a", "b"}


def test_a_sentinel_whose_class_the_patch_redefines_is_the_patchs():
    # The fix makes the sentinel a singleton that survives copies: its
    # class is another definition, so the new object stands.
    src = 'class _Missing:\n    pass\n\n\nmissing = _Missing()\n'
    fix = src.replace('    pass\n', '    def __reduce__(self):\n'
                      '        return "missing"\n')
    mod = virtual_module("sentinel_mod", src)
    was = mod.missing
    fresh_reexec(mod, fix)
    # The class is kept with the patch's methods, so the kept sentinel
    # has them.
    assert mod.missing.__reduce__() == "missing"
    # A sentinel of a class made on the spot, defined anew by the patch,
    # is the patch's own.
    src = 'missing = type("M", (), {})()\n'
    mod = virtual_module("anon_mod", src)
    was = mod.missing
    fresh_reexec(mod, 'missing = type("M", (), {"__reduce__": '
                      'lambda self: "missing"})()\n')
    assert mod.missing is not was and mod.missing.__reduce__() == "missing"


def test_a_key_of_slots_made_again_alike_stays_the_one_held():
    # A typed key with no state (`StashKey()`, `__slots__ = ()`): the
    # program's stores are keyed by the object it already holds.
    src = ('class Key:\n    __slots__ = ()\n\n\nSTATE = Key()\n'
           'class Named:\n    __slots__ = ("name",)\n\n'
           '    def __init__(self, name):\n        self.name = name\n\n\n'
           'A = Named("a")\n')
    mod = virtual_module("keys_mod", src)
    key, a = mod.STATE, mod.A
    fresh_reexec(mod, src + "\n\ndef added():\n    return 1\n")
    assert mod.STATE is key and mod.A is a
    # Another state is another object.
    fresh_reexec(mod, src.replace('Named("a")', 'Named("b")'))
    assert mod.A is not a and mod.A.name == "b"


FILTERS = '''
def upper(s):
    return s.upper()


FILTERS = {"upper": upper}
HANDLERS = [upper]
'''


def test_a_table_the_module_makes_again_holds_the_kept_functions():
    # jinja's FILTERS: another module copied the table at import; after
    # the re-execution it is rebound to the new one, whose entries must
    # be the function objects the program already holds (which the
    # probes and the call capture watch).
    mod = module(FILTERS)
    held = mod.upper
    old = dict(mod.__dict__)
    for name in list(mod.__dict__):
        if name not in apply._IMPORT_DUNDERS:
            del mod.__dict__[name]
    exec(compile(FILTERS.replace("s.upper()", "s.upper() + '!'"),
                 "<patched>", "exec"), mod.__dict__)
    apply.keep_after_reexec(old, mod.__dict__, "<patched>")
    assert mod.upper is held and held("a") == "A!"
    assert mod.FILTERS["upper"] is held and mod.HANDLERS[0] is held


def test_the_names_a_text_imports_relative_ones_resolved():
    text = ("import os.path\n"
            "from .constants import LIMIT\n"
            "from .. import util\n"
            "def f():\n"
            "    from pkg.sub import late\n")
    names = imported_names(text, "pkg.sub")
    assert {"os.path", "pkg.sub.constants", "pkg.sub.constants.LIMIT",
            "pkg", "pkg.util", "pkg.sub", "pkg.sub.late"} <= names
    assert imported_names("def (:", "pkg") == set()


class _Subject:
    def __init__(self, name, package):
        mod = types.ModuleType(name)
        mod.__package__ = package
        self.modules = [mod]


def test_a_module_another_imports_from_is_put_in_place_first():
    saved = list(shared.SUBJECTS)
    try:
        shared.SUBJECTS[:] = [_Subject("pkg.checks", "pkg"),
                              _Subject("pkg.constants", "pkg"),
                              _Subject("pkg.other", "pkg")]
        order = apply._import_order([
            (0, "from .constants import NEW\n"),
            (None, "x = 1\n"),                  # no subject: dropped
            (1, "NEW = 1\n"),
            (2, "import pkg.checks\n")])
        assert [i for i, _ in order] == [1, 0, 2]
        # Modules that import each other keep the diff's order.
        order = apply._import_order([(0, "from pkg import constants\n"),
                                     (1, "from pkg.checks import x\n")])
        assert [i for i, _ in order] == [0, 1]
    finally:
        shared.SUBJECTS[:] = saved
