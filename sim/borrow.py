"""Leaner game loops: borrowed array views, no reference counts, no negative-index wraparound,
whole-program compilation.

Numba counts references to every array with atomic increments and decrements, and many of them
survive its pruning pass at call boundaries: a kernel that passes a few arrays through
thousands of small calls per game pays for them on every call (``perf`` attributed about half of
the Flower Shop and most of the Rattlebones kernel samples to ``NRT_incref``/``NRT_decref``;
borrowing made Rattlebones 1.8x and Flower Shop 1.15x faster per thread, with identical results).

``borrowed(x)`` returns the same array (or tuple of arrays) without its memory-info pointer:
same data, shape, strides and type, but Numba's reference counting skips it (a null
memory-info is a no-op). It is only safe while the owner of the memory outlives every use of
the view, so it is used in exactly one pattern: a game's one-game function borrows its own
*arguments* (which its caller keeps alive for the whole call) and passes the views down; the
views never escape (results are written into the caller's arrays, by value).

Under ``NUMBA_DISABLE_JIT=1`` it is the identity, so the pure-Python run executes the same
code.

Borrowing makes the counts no-ops at run time, but Numba still emits a call to
``NRT_incref``/``NRT_decref`` for every array variable, about 15,000 calls in a 4-player Flower
Shop game, and the calls cost registers and spills around them too. ``no_refcount_module``
declares a kernel module whose functions never own an array, so no count is emitted in them at
all (Flower Shop ran 31-35% faster with 4 players and 39% solo, Rattlebones 70-80%; identical
results). A function owns an array when it allocates one (``np.empty``, ``.copy()``, ...), or
receives one that a callee allocated; such functions must be listed in ``exclude`` or live in
another module.
``tests/test_borrow.py`` checks that games allocate and free the same number of arrays.

``no_wraparound_module`` declares a kernel module whose array indices are never negative, so
Numba emits no wraparound (``i < 0 ? i + n : i``) for ``a[i]`` with a signed ``i``: a compare,
an add and a select on every one of the kernels' many index operations (per thread, Flower Shop
ran 17-22% faster with 4 players and 10% solo, Rattlebones 11-19%; identical results). A
negative index in such a module would read outside the array, so ``tests/test_borrow.py`` plays
games of every game with ``NUMBA_BOUNDSCHECK=1``, where it raises an IndexError instead.

``whole_program`` declares a game's entry functions (``play_many`` of a run, ``play_one`` of a
replay: each plays whole games and is optimised as one program). Numba
links every function a caller uses into the caller's compiled module as an exported
(``linkonce_odr``) copy, which LLVM must keep callable from outside: it inlines only small
ones, so each of the ~900 calls of a 4-player Flower Shop game passes every array as 7-9 words
and saves and restores registers. In the entry's module the copies become private
(``internal``): the module is the whole program, and LLVM inlines the functions called from one
place (most rules and policies) whatever their size (per thread, Flower Shop ran 22-24% faster
with 4 players and 35% solo, Rattlebones 7-9%; identical results). Only the entry's own module
changes: every function stays callable on its own, as the scenario tests call them. The private
copies are renamed (``.private``): Numba's JIT looks symbols up by name across modules, and a
private copy under the exported name made a function compiled later crash. The entry's module
then runs LLVM's full pipeline a second time: it is not idempotent, and the second run over the
inlined program made the 4-player kernels faster per thread (Cupcake Empire +4%, Waggle Dance
+4.5%, Rattlebones +7%, Flower Shop -1%, within the noise; identical results) for about 6% more
cold compile time.

Six more make a first run compile fast:

- *Only entries are optimised.* Every whole-program entry is optimised at full level, with
  its callees linked in; our other jitted functions stay unoptimised (O0). They reach the
  games' loops only as IR linked into an entry, which optimises the whole program, so
  optimising each of them (and, in each caller, its copies of all their callees again) was
  wasted. Libraries that are not ours (``_ZN3sim`` symbols) are optimised as before.
- *Each of our other functions is compiled to machine code alone.* Numba links a copy of every
  callee (and of the callees' callees) into a caller's module and compiles the whole module:
  the machine code of the games' deep call trees was generated again at every level. Ours
  mark the linked copies ``available_externally`` (LLVM compiles calls to the callees' own
  code, already in this process, and not the copies), are compiled by a target machine at
  codegen level 0, and give the copies back (``linkonce_odr``) to a caller that links them in:
  an entry still receives the whole program. Their machine code calls code compiled in this
  process, so they are not cached on disk. The entries are, and so is a function of ours that
  calls one (the search's ``play_many``): it keeps the entry whole in its module, so a warm
  start loads it alone.
- *No LLVM lock events.* Numba broadcasts an event around each of its hundreds of thousands
  of LLVM calls to the timer of every compilation under way (nested ones too), 3-14% of a
  first run; its compile-time reports lose their ``llvm_lock`` timings.
- *One function pass pipeline per module.* Numba builds a pipeline for every function of a
  module, declarations included, before its function passes; one pipeline for the module's
  definitions runs the same passes (the entries' IR is unchanged).
- *Python-callable wrappers only for what Python calls.* Numba builds two wrappers (CPython
  and C) for every function it compiles, IR that is lowered, optimised and emitted too, though
  the games' functions are called from Python only by tests and the entries. A function of
  ours compiled for a jitted caller (not an entry) gets none, and is left out of its
  dispatcher's table of Python calls; the first call from Python builds the CPython wrapper
  alone, in a library of its own that calls the function's code already in this process. Such
  a function is not cached on disk (what is there always has its wrapper).
- *One compiled version per argument type.* A call of one of our functions from jitted code
  compiles it for the arguments' types without their constant values (``Literal[int](3)`` ->
  ``int64``) and with omitted defaults passed as values: ``emit`` was compiled 28 times per
  game, now once.

With them a first ``playtest run`` with an empty JIT cache (whole process) compiles in about
half the time it took before the first of them; kernel speed stayed within the noise of
concurrent A/B runs (the closing notes of issue 13 give the figures; ``tests/test_borrow.py``
shows the mechanisms).

Numba's own cache would not see a change of this file; ``sim/__init__.py`` keys the cache
directory on every source file of ``sim/``, so a change here recompiles the kernels.

The off-switch: these are patches of Numba's internals, written for one Numba version
(``PINNED_NUMBA``). ``PLAYTEST_NUMBA_PATCHES=0`` turns all of them off (the declarations become
no-ops and ``borrowed`` an identity), and on any other Numba version (or if an internal they
wrap is missing) they turn themselves off with one warning; the games then run on plain Numba,
slower but with the same results (``tests/test_borrow.py`` checks it). ``ENABLED`` tells which
is in force; it is part of the JIT cache key (``sim/__init__.py``). The names a declaration
lists are checked against its module's source when declared, so a renamed function cannot
silently fall out of an ``exclude`` list.
"""
import ast
import functools
import os
import sys
import threading
import warnings

import llvmlite.binding as _ll
import numba
from numba import config, njit, types
from numba.core import base as _base  # noqa: F401 (registers the lock events unregistered here)
from numba.core import caching as _caching
from numba.core import codegen as _codegen
from numba.core import compiler_lock as _compiler_lock
from numba.core import dispatcher as _dispatcher
from numba.core import sigutils as _sigutils
from numba.core.runtime import context as _nrt_context
from numba.extending import intrinsic
from numba.np import arrayobj as _arrayobj

PINNED_NUMBA = "0.68.1"  # the version these patches were written and tested for
SWITCH = "PLAYTEST_NUMBA_PATCHES"
_OFF_WORDS = ("0", "off", "false", "no")
_ON_WORDS = ("", "1", "on", "true", "yes")


def _in_force() -> tuple[bool, str]:
    """(patches on?, why not): off when switched off, on another Numba version, or when an
    internal they wrap is missing."""
    setting = os.environ.get(SWITCH, "1").strip().lower()
    if setting in _OFF_WORDS:
        return False, f"{SWITCH}={setting}"
    if setting not in _ON_WORDS:
        warnings.warn(f"{SWITCH}={setting!r} is not one of 0/1 (off/on); the patches stay on",
                      RuntimeWarning, stacklevel=2)
    if numba.__version__ != PINNED_NUMBA:
        return False, f"Numba {numba.__version__} is not the version they were written for " \
                      f"({PINNED_NUMBA})"
    wrapped = ((_nrt_context.NRTContext, "incref"), (_nrt_context.NRTContext, "decref"),
               (_arrayobj, "fix_integer_index"), (_codegen.CPUCodeLibrary, "_optimize_final_module"),
               (_codegen.CPUCodeLibrary, "_get_module_for_linking"),
               (_codegen.CPUCodeLibrary, "_optimize_functions"),
               (_codegen.CPUCodegen, "_module_pass_manager"),
               (_caching.Cache, "save_overload"),
               (_dispatcher.Dispatcher, "get_call_template"),
               (_dispatcher.Dispatcher, "add_overload"), (_dispatcher.Dispatcher, "compile"),
               (_dispatcher._FunctionCompiler, "_customize_flags"),
               (_ll.ffi, "unregister_lock_callback"), (_ll.ffi.lib._lock, "_cblist"))
    missing = [f"{getattr(o, '__name__', o)}.{a}" for o, a in wrapped if not hasattr(o, a)]
    if missing:
        return False, f"Numba lacks {', '.join(missing)}"
    return True, ""


ENABLED, WHY_OFF = _in_force()
if not ENABLED and not WHY_OFF.startswith(SWITCH):
    warnings.warn(f"playtest's Numba speed patches (sim.borrow) are off: {WHY_OFF}; games run "
                  f"on plain Numba, slower, with the same results", RuntimeWarning, stacklevel=2)

# mangled module prefix -> excluded functions
_NO_REFCOUNT: dict[str, frozenset[str]] = {}
_NO_WRAPAROUND: dict[str, frozenset[str]] = {}
# mangled name prefixes of whole-program entry functions
_WHOLE_PROGRAM: set[str] = set()


def _mangled_prefix(module_name: str) -> str:
    """The start of the Itanium-mangled names Numba gives the module's functions."""
    return "_ZN" + "".join(f"{len(p)}{p}" for p in module_name.split("."))


@functools.lru_cache(maxsize=None)
def _top_level_names(path: str) -> frozenset:
    """Functions, classes and assigned names at the top level of the source file ``path``
    (parsed once per file: a module makes several declarations)."""
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read())
    defined = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            defined.add(node.name)
        elif isinstance(node, ast.Assign):
            defined.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return frozenset(defined)


def _check_names(module_name: str, names, what: str) -> None:
    """Raise ValueError if a name is not defined at the top level of the module's source (a
    module without a source file, such as ``__main__`` of ``python -c``, is not checked)."""
    module = sys.modules.get(module_name)
    path = getattr(module, "__file__", None)
    if not names or not path or not path.endswith(".py"):
        return
    unknown = sorted(set(names) - _top_level_names(path))
    if unknown:
        raise ValueError(f"{what} of {module_name} names {', '.join(unknown)}, not defined in "
                         f"{path}")


def no_refcount_module(module_name: str, exclude: tuple[str, ...] = ()) -> None:
    """Compile the jitted functions of ``module_name`` (except ``exclude``) without any
    reference counting: they only ever see arrays their callers own (arguments and views of
    arguments), never allocate one and never return one. See the module docstring."""
    _check_names(module_name, exclude, "no_refcount_module's exclude list")
    if ENABLED:
        _NO_REFCOUNT[_mangled_prefix(module_name)] = frozenset(exclude)


def no_wraparound_module(module_name: str, exclude: tuple[str, ...] = ()) -> None:
    """Compile the jitted functions of ``module_name`` (except ``exclude``) without the
    wraparound of negative array indices: their indices are never negative. See the module
    docstring."""
    _check_names(module_name, exclude, "no_wraparound_module's exclude list")
    if ENABLED:
        _NO_WRAPAROUND[_mangled_prefix(module_name)] = frozenset(exclude)


def whole_program(module_name: str, function_name: str, generated: bool = False) -> None:
    """Compile the jitted ``function_name`` of ``module_name`` as a whole program: the functions
    it calls become private to its compiled module, so LLVM inlines those called from one place
    whatever their size, and it is the only kind of function optimised at full level. See the
    module docstring. ``generated``: a function built at run time (``sim.search``), whose name
    is not in the module's source."""
    if not generated:
        _check_names(module_name, (function_name,), "whole_program's entry")
    if ENABLED:
        _WHOLE_PROGRAM.add(_symbol_start(module_name, function_name))


def _is_entry(names) -> bool:
    """Is one of the functions ``names`` (a library's own) a whole-program entry?"""
    return any(name.startswith(prefix) for name in names for prefix in _WHOLE_PROGRAM)


def _symbol_start(module_name: str, function_name: str) -> str:
    """The start of the mangled names Numba gives ``module_name.function_name``."""
    return f"{_mangled_prefix(module_name)}{len(function_name)}{function_name}B"


def _is_entry_function(py_func) -> bool:
    """Is the Python function ``py_func`` declared a whole-program entry?"""
    return _symbol_start(py_func.__module__, py_func.__qualname__) in _WHOLE_PROGRAM


def _ours(dispatcher) -> bool:
    return getattr(dispatcher.py_func, "__module__", "").startswith(_OWN_PACKAGE)


def _declared(modules: dict[str, frozenset[str]], builder) -> bool:
    """Is the function being compiled by ``builder`` in one of ``modules`` and not excluded?"""
    name = builder.function.name
    for prefix, exclude in modules.items():
        if name.startswith(prefix):
            rest = name[len(prefix):]
            digits = len(rest) - len(rest.lstrip("0123456789"))
            if digits == 0:
                return False
            n = int(rest[:digits])
            func = rest[digits:digits + n]
            return rest[digits + n:digits + n + 1] == "B" and func not in exclude
    return False


_OWN_PACKAGE = __name__.split(".")[0] + "."  # "sim."
_OWN_MANGLED = _mangled_prefix(_OWN_PACKAGE[:-1])  # "_ZN3sim", in our functions' symbols


_PRIVATE = ".private"  # suffix of an entry's private copies of its callees


def _linked_copy(f) -> bool:
    """Is the defined LLVM function ``f`` a copy linked in from another library (a callee's
    exported copy, or an entry's private one)?"""
    return (f.linkage == _ll.Linkage.linkonce_odr
            or (f.linkage == _ll.Linkage.internal and f.name.endswith(_PRIVATE)))


@functools.lru_cache(maxsize=None)
def _quick_machine(codegen):
    """A target machine like the JIT's, at codegen level 0 (fast instruction selection)."""
    options = dict(opt=0)
    codegen._customize_tm_options(options)
    return _ll.Target.from_triple(_ll.get_process_triple()).create_target_machine(**options)


def _plain(t):
    """The argument type a call of one of our functions compiles for: a constant's type without
    its value (``Literal[int](3)`` -> ``int64``), an omitted argument's default as a value of its
    type (``omitted(default=0)`` -> ``int64``; the caller then passes the default)."""
    if isinstance(t, types.Literal):
        return types.unliteral(t)
    if isinstance(t, types.Omitted) and type(t.value) in (bool, int, float):
        return numba.typeof(t.value)
    return t


def _install() -> None:
    """Wrap Numba's emission of reference counts and of index wraparound, its optimization of
    a library's final module and the signatures its dispatchers compile, once per process."""
    ctx = _nrt_context.NRTContext
    if getattr(ctx, "_playtest_installed", False):
        return
    incref, decref = ctx.incref, ctx.decref

    def maybe_incref(self, builder, typ, value):
        if not _declared(_NO_REFCOUNT, builder):
            incref(self, builder, typ, value)

    def maybe_decref(self, builder, typ, value):
        if not _declared(_NO_REFCOUNT, builder):
            decref(self, builder, typ, value)

    ctx.incref, ctx.decref = maybe_incref, maybe_decref
    ctx._playtest_installed = True
    fix_integer_index = _arrayobj.fix_integer_index

    def maybe_fix_integer_index(context, builder, idxty, idx, size):
        if idxty.signed and _declared(_NO_WRAPAROUND, builder):
            return context.cast(builder, idx, idxty, types.intp)
        return fix_integer_index(context, builder, idxty, idx, size)

    _arrayobj.fix_integer_index = maybe_fix_integer_index
    library = _codegen.CPUCodeLibrary
    optimize_final_module = library._optimize_final_module

    def optimize_whole_program(self):
        # After finalize() has linked the callees in, before LLVM optimizes the module: the
        # library's own functions are the external ones, the linked-in copies linkonce_odr.
        defined = [f for f in self._final_module.functions if not f.is_declaration]
        own = [f.name for f in defined if f.linkage == _ll.Linkage.external]
        if _is_entry(own):
            for f in defined:
                if f.linkage == _ll.Linkage.linkonce_odr:
                    # renamed too: the JIT resolves other modules' symbols by name
                    f.name = f.name + _PRIVATE
                    f.linkage = _ll.Linkage.internal
            optimize_final_module(self)
            # and the full pipeline once more over the inlined whole program (module docstring)
            mpm_full, mpb_full = self._codegen._module_pass_manager()
            mpm_full.run(self._final_module, mpb_full)
        elif not any(_OWN_MANGLED in name for name in own):
            optimize_final_module(self)  # not ours (Numba's helpers, a notebook's functions)
        elif not _is_entry(f.name for f in defined if _linked_copy(f)):
            # Our other functions stay unoptimised (O0): they reach the games' loops only as IR
            # linked into an entry, which optimises the whole program. Only their own code is
            # compiled to machine code: the linked-in copies of their callees become
            # available_externally (calls go to the callees' own compiled code), and
            # _module_for_linking gives callers the copies back.
            for f in defined:
                if _linked_copy(f):
                    f.linkage = _ll.Linkage.available_externally
            # and that code, unoptimised, is emitted by a target machine at codegen level 0
            if not self._object_caching_enabled:
                self.enable_object_caching()
            self._set_compiled_object(_quick_machine(self._codegen).emit_object(self._final_module))
            self._disable_inspection = False  # its IR stays what was compiled
            self._playtest_partial = True  # calls code of this process: not cached on disk
        # otherwise ours and calling an entry (the search's play_many): the optimised entry stays
        # whole in its module, unoptimised around it, and it is cached: a warm start loads it

    library._optimize_final_module = optimize_whole_program
    optimize_functions_ = library._optimize_functions

    def optimize_functions(self, ll_module):
        # Numba's own version builds a pass pipeline for every function of the module,
        # declarations included; one pipeline runs the same passes on each definition
        if config.LLVM_PASS_TIMINGS:  # a pipeline records its pass timings only once
            return optimize_functions_(self, ll_module)
        ll_module.data_layout = self._codegen._data_layout
        fpm = pb = None
        for func in ll_module.functions:
            if func.is_declaration:
                continue
            if fpm is None:
                fpm, pb = self._codegen._function_pass_manager()
            with self._recorded_timings.record(f"Function passes on {func.name!r}", pb):
                fpm.run(func, pb)

    library._optimize_functions = optimize_functions
    get_module_for_linking = library._get_module_for_linking

    def module_for_linking(self):
        relink = getattr(self, "_playtest_partial", False) and self._shared_module is None
        mod = get_module_for_linking(self)  # a clone of the final module, kept by the library
        if relink:  # the copies this library's own machine code left out, back for callers
            for f in mod.functions:
                if f.linkage == _ll.Linkage.available_externally:
                    f.linkage = (_ll.Linkage.internal if f.name.endswith(_PRIVATE)
                                 else _ll.Linkage.linkonce_odr)
        return mod

    library._get_module_for_linking = module_for_linking
    cache = _caching.Cache
    save_overload = cache.save_overload

    def maybe_save_overload(self, sig, data):
        # what is on disk is whole, so anything found there loads
        library = getattr(data, "library", None)
        if not (getattr(library, "_playtest_partial", False)
                or getattr(library, "_playtest_unwrapped", False)):
            save_overload(self, sig, data)

    cache.save_overload = maybe_save_overload

    dispatcher = _dispatcher.Dispatcher
    get_call_template = dispatcher.get_call_template

    def plain_call_template(self, args, kws):
        # One compiled version per argument *type* of our own functions, not one per constant
        # value or per set of omitted defaults (emit alone was compiled 28 times).
        if not _ours(self):
            return get_call_template(self, args, kws)
        _, args = self._compiler.fold_argument_types(args, kws)
        stack = _callees()
        stack.append([self, False])  # compiled for a jitted caller (see customize_flags)
        try:
            return get_call_template(self, tuple(_plain(a) for a in args), {})
        finally:
            stack.pop()

    dispatcher.get_call_template = plain_call_template
    function_compiler = _dispatcher._FunctionCompiler
    customize_flags = function_compiler._customize_flags

    def callee_flags(self, flags):
        # Python-callable wrappers (CPython and C) are built for a function of ours that a
        # jitted caller needs compiled, not an entry, only once Python calls it (_wrap)
        flags = customize_flags(self, flags)
        stack = _callees()
        if stack and stack[-1][0].py_func is self.py_func and not _is_entry_function(self.py_func):
            flags.no_cpython_wrapper = flags.no_cfunc_wrapper = True
            stack[-1][1] = True
        return flags

    function_compiler._customize_flags = callee_flags
    add_overload = dispatcher.add_overload

    def add_unwrapped_overload(self, cres):
        stack = _callees()
        if stack and stack[-1][0] is self and stack[-1][1]:
            # no wrapper yet: callable from jitted code only, so not in the dispatcher's table
            # of Python calls (compile_with_wrapper adds it there)
            self.overloads[tuple(cres.signature.args)] = cres
            cres.library._playtest_unwrapped = True
        else:
            add_overload(self, cres)

    dispatcher.add_overload = add_unwrapped_overload
    compile_ = dispatcher.compile

    def compile_with_wrapper(self, sig):
        args = tuple(_sigutils.normalize_signature(sig)[0])
        cres = self.overloads.get(args)
        if (cres is not None and getattr(cres.library, "_playtest_unwrapped", False)
                and not (_callees() and _callees()[-1][0] is self)):
            with _compiler_lock.global_compiler_lock:
                return _wrap(self, args, add_overload)
        return compile_(self, sig)

    dispatcher.compile = compile_with_wrapper
    for callbacks in _lock_event_callbacks():
        # Numba times its LLVM lock with an event around every LLVM call, broadcast to the
        # timer of every compilation under way (nested ones too): 3-14% of a first run
        _ll.ffi.unregister_lock_callback(*callbacks)


_STATE = threading.local()


def _callees() -> list:
    """This thread's stack of [dispatcher, compiled without wrapper] of our functions being
    typed or compiled for a jitted caller."""
    stack = getattr(_STATE, "callees", None)
    if stack is None:
        stack = _STATE.callees = []
    return stack


def _wrap(dispatcher, args, add_overload):
    """Build the Python-callable wrapper of the overload ``args`` of ``dispatcher``, compiled
    without one for a jitted caller, now that Python calls it: only the wrapper is compiled, in
    a library of its own that calls the function's code already in this process.
    ``add_overload``: Numba's own, which lists it for Python calls."""
    cres = dispatcher.overloads[args]
    if not getattr(cres.library, "_playtest_unwrapped", False):
        return cres.entry_point  # another thread wrapped it
    ctx = cres.target_context
    library = ctx.codegen().create_library(f"{cres.fndesc.qualname}.wrapper")
    ctx.create_cpython_wrapper(library, cres.fndesc, cres.environment, cres.call_helper,
                               release_gil=bool(dispatcher.targetoptions.get("nogil")))
    entry = ctx.get_executable(library, cres.fndesc, cres.environment)
    ctx.insert_user_function(entry, cres.fndesc, [cres.library])  # jitted callers' key
    cres.library._playtest_wrapper = library  # alive as long as the function's own code
    cres = cres._replace(entry_point=entry)
    cres.library._playtest_unwrapped = False
    add_overload(dispatcher, cres)
    return entry


def _lock_event_callbacks():
    """The callbacks by which Numba broadcasts ``numba:llvm_lock`` events (``numba.core.base``)."""
    return [(acquire, release) for acquire, release in list(_ll.ffi.lib._lock._cblist)
            if getattr(acquire, "__module__", "") == "numba.core.base"
            and "llvm_lock_event" in getattr(acquire, "__qualname__", "")]


if ENABLED:
    _install()


def _borrow_array(context, builder, arrty, value):
    src = context.make_array(arrty)(context, builder, value=value)
    dst = context.make_array(arrty)(context, builder)
    context.populate_array(dst, data=src.data, shape=src.shape, strides=src.strides,
                           itemsize=src.itemsize, meminfo=None)
    return dst._getvalue()


if config.DISABLE_JIT:
    def borrowed(x):
        """Identity without the JIT (the pure-Python run has no reference counts to skip)."""
        return x
elif not ENABLED:
    @njit(inline="always")
    def borrowed(x):
        """Identity with the patches off: plain, reference-counted arrays."""
        return x
else:
    @intrinsic
    def borrowed(typingctx, x):
        """View of the array ``x`` (or of each array of the tuple ``x``) without reference
        counting; valid while the caller's ``x`` is alive (see the module docstring)."""
        if isinstance(x, types.Array):
            def codegen(context, builder, signature, args):
                return _borrow_array(context, builder, x, args[0])
            return x(x), codegen
        if isinstance(x, types.BaseTuple) and all(isinstance(t, types.Array) for t in x):
            def codegen(context, builder, signature, args):
                items = [_borrow_array(context, builder, t, builder.extract_value(args[0], i))
                         for i, t in enumerate(x)]
                return context.make_tuple(builder, x, items)
            return x(x), codegen
        return None
