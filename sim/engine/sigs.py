"""Numba types of the engine's arguments, for explicit signatures, and the ``jit`` decorator.

Every engine function is compiled once, for exactly these types. Without
explicit signatures numba compiles a separate copy for each combination of
literal constants a function is called with (``decide(..., D_MAY, ...)``,
``log_ev(..., EV_MOVE, ...)``), which made the first compile take minutes.
The signatures are compiled lazily (see :func:`jit`): a process loads from the
cache only the entry points it calls.
"""
import inspect
import re
import types as pytypes

import numba
import numpy as np
from numba import njit, types
from numba.core.typing.typeof import typeof_impl

from .tables import Tables

I = types.int64                      # every integer
B = types.boolean
F = types.float64
FA1 = types.Array(types.float64, 1, "C")   # AI scores
FA2 = types.Array(types.float64, 2, "C")   # AI scores of many records (sim.engine.capture)
V = types.void
A1 = types.Array(types.int64, 1, "C")   # state, control, option lists, rows
A2 = types.Array(types.int64, 2, "C")   # log, result table
A3 = types.Array(types.int64, 3, "C")   # per-game card-play counts
INS = types.Array(types.int32, 1, "C")  # one instruction of an effect program (a row of ``Tables.code``)
ST = A1
CTL = A1
LOG = A2


class TablesRef(types.Type):
    """The numba type of :class:`Tables` in the engine: a pointer to the tuple of the twelve
    table arrays, not the tuple itself.

    numba passes a tuple argument as its members' fields, one machine word each: the
    twelve arrays were ~100 words copied onto the stack at every engine call (a quarter
    of a scripted game's instructions). A pointer is one word; ``tb.cards`` loads that
    array's fields from the tuple where it lies (the frame of the compiled function that
    Python called, or of ``play_games``: see :func:`unmanaged_tables`), which lives for
    the whole call. ``tup``: the numba type of the tuple itself."""

    def __init__(self, tup):
        self.tup = tup
        super().__init__(name=f"ref({tup})")


TB = TablesRef(typeof_impl.dispatch(tuple)(Tables(
    cards=np.zeros((1, 1), np.int32), code=np.zeros((1, 1), np.int32),
    heroes=np.zeros((1, 1), np.int64), decks=np.zeros(1, np.int64),
    rules=np.zeros(1, np.int64), adj=np.zeros((1, 1), np.int8),
    move=np.zeros((1, 1), np.int8), dist=np.zeros((1, 1), np.int8), adist=np.zeros((1, 1), np.int8),
    zmask=np.zeros(1, np.int64), starts=np.zeros(1, np.int64), mmask=np.zeros(1, np.int64),
), None))


@typeof_impl.register(Tables)
def _typeof_tables(val, c):
    """A ``Tables`` passed from Python to the engine is a :class:`TablesRef`."""
    tup = typeof_impl.dispatch(tuple)(val, c)
    return None if tup is None else TablesRef(tup)


# Array allocations in a function's source: such functions need numba's reference counting
_ALLOCATES = re.compile(r"\bnp\.(empty|zeros|full|ones|array|arange|empty_like|zeros_like|full_like|copy)\b|\.copy\(\)")
_ARRAY_RETURNING = {}   # name -> function, for engine functions that return a new array
_NO_NRT = {}            # name -> source, for engine functions compiled without reference counting


def _returns_array(sig):
    rt = sig.return_type
    return isinstance(rt, (types.Array, types.BaseTuple)) and any(
        isinstance(t, types.Array) for t in (getattr(rt, "types", None) or (rt,)))


def _needs_nrt(fn, sig):
    """Whether ``fn`` allocates arrays (directly or by calling an engine function that
    returns one), or returns one: then it keeps numba's reference counting (NRT)."""
    src = inspect.getsource(fn)
    if _returns_array(sig) or _ALLOCATES.search(src):
        return True
    return any(re.search(rf"\b{name}\(", src) for name in _ARRAY_RETURNING)


def jit(sig, inline=False, entry=False):
    """``numba.njit`` with an explicit signature and the on-disk cache, compiled lazily.

    The function is compiled for ``sig`` only (literal constants at call sites are
    converted, as with an eager signature), but not at import: it is loaded from the
    cache or compiled the first time it is called from Python, or the first time a
    function that calls it is compiled. A cached entry point (``play_games_plain``) holds its
    whole call tree, so with a warm cache a process loads only the few entry points it
    calls, not every engine function: start-up and resident memory stay small. With
    ``NUMBA_DISABLE_JIT=1`` the plain Python function is returned.

    ``entry=True`` marks a function that Python calls to play (``play_duel_plain``, ``setup_game``
    ...): it is built self-contained and fully optimised, as numba builds every function.
    The others are built as *parts* of the entry points that call them (see
    :class:`_EngineLibrary`), which compiles the engine about three times faster; called
    from Python (tests, ``sim.play.scenario``) a part still works, but its own code is
    optimised function by function only.

    ``inline=True`` (for a few tiny, hot helpers) also copies the function's body into
    every compiled caller (numba's ``inline="always"``), saving a call.

    A function that neither allocates an array nor returns one is compiled without
    numba's reference counting (``_nrt=False``): otherwise every call increments and
    decrements the count of each array it is passed (the dozen table arrays, the state,
    the control array), two calls per array per call, which was an eighth of the time of
    a game. The caller owns the arrays for the duration of the call, so nothing is freed
    early. Functions that allocate are found from their source (``np.empty`` and the like,
    or a call to an engine function that returns an array) and keep the counting.

    Raises RuntimeError at import if an array-returning engine function is defined after
    a function that calls it and was compiled without counting (reorder the definitions).
    """
    def wrap(fn):
        if numba.config.DISABLE_JIT:
            return njit(sig, cache=True)(fn)
        nrt = _needs_nrt(fn, sig)
        if _returns_array(sig) and not inline:   # (an inlined function's body joins its caller's)
            for name, src in _NO_NRT.items():
                if re.search(rf"\b{fn.__name__}\(", src):
                    raise RuntimeError(f"{name} calls {fn.__name__}, which returns an array and is defined "
                                       f"after it: define {fn.__name__} first")
            _ARRAY_RETURNING[fn.__name__] = fn
        # explicit both ways: numba otherwise inherits the flag from the function being
        # compiled when this one is compiled (lazily, while typing a call to it)
        opts = {"_nrt": bool(nrt)}
        if not entry:
            opts["no_cpython_wrapper"] = True   # (a call from Python goes to the part's twin)
        if not nrt:
            _NO_NRT[f"{fn.__module__}.{fn.__name__}"] = inspect.getsource(fn)
        # (no cfunc wrapper: the engine never takes a function's address; each wrapper was ~3% of a compile)
        disp = njit(cache=True, inline="always" if inline else "never", no_cfunc_wrapper=True, **opts)(fn)
        _make_lazy(disp, sig, entry, inline)
        return disp
    return wrap


def _make_lazy(disp, sig, entry, inline=False):
    """Give dispatcher ``disp`` exactly one signature, compiled (or loaded) on first need.

    A function that is not an ``entry`` is compiled as a *part* (see :class:`_EngineLibrary`):
    its machine code refers to the engine functions it calls instead of holding copies,
    so before it is compiled or loaded from the cache, those are made ready first. An
    ``inline`` function is not among them (its callers hold its body, not a call to it:
    only a call from Python compiles it), but the functions it calls are.

    A part is compiled without numba's Python wrapper (the code that converts Python
    arguments, ~15% of a part's compile; only the entry points' are used in a game). A
    call from Python to a part compiles, once, its *twin* (:func:`_python_twin`: the same
    function as a part with the wrapper) and dispatches to it from then on."""
    get_call_template = disp.get_call_template
    compile_for_args = disp._compile_for_args
    state = {"ready": False, "deps": None, "twin": None}
    disp._entry = entry
    disp._inline = inline

    def ensure_deps():
        if state["deps"] is None:
            state["deps"] = ()
            fn = disp.py_func
            deps = [fn.__globals__.get(n) for n in fn.__code__.co_names]
            state["deps"] = tuple(d for d in deps if d is not disp and hasattr(d, "ensure_compiled"))
            for d in state["deps"]:
                if d._inline:
                    d.ensure_deps()
                else:
                    d.ensure_compiled()

    def ensure():
        if state["ready"]:
            return
        if not entry and state["deps"] is None:
            ensure_deps()
            if state["ready"]:
                return
        _compile(disp, sig)
        if entry:
            disp.disable_compile()
        # (a part keeps numba's compile flag for the call from Python that compiles its twin;
        # numba's typing of a jitted call to it, which would compile another signature, sees
        # it off: lazy_get_call_template)
        state["ready"] = True

    def ensure_python():
        """Make the function callable from Python (a part: its twin, compiled or loaded)."""
        ensure()
        if entry or state["twin"] is not None:
            return
        twin = _python_twin(disp, sig)
        args = tuple(twin.overloads)[0]
        disp._insert([a._code for a in args], twin.overloads[args].entry_point, False)
        state["twin"] = twin

    def lazy_get_call_template(args, kws):    # a jitted caller is being typed
        ensure()
        if entry:
            return get_call_template(args, kws)
        disp._can_compile = False
        try:
            return get_call_template(args, kws)
        finally:
            disp._can_compile = True

    def lazy_compile_for_args(*args, **kws):  # a call from Python found no compiled version
        if not state["ready"] or (not entry and state["twin"] is None):
            ensure_python()
            return disp       # the caller calls what this returns: dispatch again, now compiled
        if not entry:
            disp._explain_matching_error(*args, **kws)   # (raises TypeError: no matching definition)
        return compile_for_args(*args, **kws)

    if not entry:
        def add_overload(cres):   # a part's code has no Python entry: not in the table Python calls use
            disp.overloads[tuple(cres.signature.args)] = cres
        disp.add_overload = add_overload

    _announce_compiles(disp)
    disp.get_call_template = lazy_get_call_template
    disp._compile_for_args = lazy_compile_for_args
    disp.ensure_compiled = ensure
    disp.ensure_deps = ensure_deps
    disp.ensure_python = ensure_python
    disp.is_ready = lambda: state["ready"]


def _compile(disp, sig):
    _COMPILING.append(disp)
    try:
        disp.compile(sig)
    finally:
        _COMPILING.pop()


def _announce_compiles(disp):
    """Count ``disp``'s compiles (COMPILE_STATS) and announce the process's first
    (:func:`on_first_compile`); a stale cached part (:class:`_StalePart`) is compiled again."""
    load_overload = disp._cache.load_overload

    def load_or_announce(*args, **kws):       # numba's cache look-up: None = it compiles now
        try:
            cres = load_overload(*args, **kws)
        except _StalePart:
            cres = None
        if cres is None:
            COMPILE_STATS["compiled"] += 1
            announce_first_compile()
        return cres

    disp._cache.load_overload = load_or_announce


def _python_twin(disp, sig):
    """The part ``disp`` compiled (or loaded from the cache) with numba's Python wrapper, for
    calls from Python: the same code under the name ``<name>__py`` (its own cache entry); it
    calls the other engine functions' code as ``disp`` does."""
    fn = disp.py_func
    twin_fn = pytypes.FunctionType(fn.__code__, fn.__globals__, fn.__name__, fn.__defaults__, fn.__closure__)
    twin_fn.__qualname__ = fn.__qualname__ + "__py"
    twin_fn.__module__ = fn.__module__
    twin_fn.__doc__ = fn.__doc__
    opts = {k: v for k, v in disp.targetoptions.items() if k not in ("no_cpython_wrapper", "inline", "nopython")}
    twin = njit(cache=True, **opts)(twin_fn)
    twin._entry = False
    _announce_compiles(twin)
    _compile(twin, sig)
    twin.disable_compile()
    return twin


COMPILE_STATS = {"compiled": 0}   # engine functions compiled (not loaded from the cache) in this process
_ON_FIRST_COMPILE = []


def on_first_compile(callback):
    """Call ``callback()`` once, just before the first engine function of this process is
    compiled rather than loaded from the cache (the CLI's one-line notice); a callback already
    waiting is not added twice."""
    if callback not in _ON_FIRST_COMPILE:
        _ON_FIRST_COMPILE.append(callback)


def announce_first_compile():
    """Call the callbacks of :func:`on_first_compile` now (each once): an engine function is
    about to be compiled, in this process or in a child compiling for it (``sim.runs.apart``)."""
    while _ON_FIRST_COMPILE:
        try:
            callback = _ON_FIRST_COMPILE.pop(0)
        except IndexError:    # (another thread took the last one: sim.runs.apart's listener)
            return
        callback()


_COMPILING = []   # engine dispatchers being compiled or loaded by ``ensure``, innermost last


def _engine_function(name):
    """The engine dispatcher whose library named ``name`` is being built or loaded, or None."""
    top = _COMPILING[-1] if _COMPILING else None
    return top if top is not None and top.py_func.__qualname__ == name else None


if not numba.config.DISABLE_JIT:
    import llvmlite.binding as ll
    from numba.core import targetconfig

    def _config_values(self):
        """``TargetConfig.values`` without a property call per option (the same dict): numba
        compares and hashes compile flags this way at every typed call of an overloaded
        function, ~250,000 times in a first compile of the duel code (a tenth of its time)."""
        vals = self._values
        return {k: vals.get(k, opt.default) for k, opt in self.options.items()}

    def _config_eq(self, other):
        if self is other or (type(self) is type(other) and self._values == other._values):
            return True
        if isinstance(other, targetconfig.TargetConfig):
            return self.values() == other.values()
        return NotImplemented

    targetconfig.TargetConfig.values = _config_values
    targetconfig.TargetConfig.__eq__ = _config_eq
    targetconfig.TargetConfig.__hash__ = lambda self: hash(tuple(sorted(self.options)))   # (numba's: the names)
    from numba.core.codegen import JITCodeLibrary
    from numba.core.registry import cpu_target

    class _EngineLibrary(JITCodeLibrary):
        """numba's code library, except for the engine's *parts* (functions that are not entry
        points): numba gives every compiled function a copy of everything it calls, optimises
        it with LLVM's full pipeline and generates machine code for it, so with ~150 engine
        functions most of the engine was optimised and code-generated dozens of times (a
        first compile of ~160 s, two thirds in LLVM). A part's library keeps the copy only as
        the module its callers link (``_shared_module``), skips the module-level optimisation
        (its callers' entry point runs it once over the whole call tree) and generates machine
        code for its own functions only; those call the other engine functions' code by symbol.
        Entry points (``jit(..., entry=True)``) are built as numba builds them: self-contained.
        """
        _engine_lib = False   # an engine function's library (its symbols are loaded in the JIT)

        def finalize(self):
            disp = _engine_function(self.name)
            if disp is None:
                return super().finalize()
            if disp._entry:
                self._engine_lib = True
                return self._finalize_entry()
            self._engine_lib = True
            self._codegen._check_llvm_bugs()
            self._raise_if_finalized()
            seen, parts = set(), []
            for library in self._linking_libraries:
                if library in seen:
                    continue
                seen.add(library)
                self._reload_init.update(library._reload_init)
                if library._engine_lib:
                    parts.append(library)
                else:    # numba's own helpers (array allocation ...): linked in as usual
                    self._final_module.link_in(library._get_module_for_linking(), preserve=True)
            own = self._final_module.clone()
            for library in parts:
                self._final_module.link_in(library._get_module_for_linking(), preserve=True)
            defined = {fn.name for fn in self._final_module.functions if not fn.is_declaration}
            self._part_symbols = ([fn.name for fn in own.functions if fn.is_declaration and fn.name in defined],
                                  [fn.name for fn in own.functions if not fn.is_declaration])
            shared = self._final_module    # what callers link: the whole call tree, as numba shares it
            shared.verify()
            for fn in shared.functions:
                if not fn.is_declaration and fn.linkage == ll.Linkage.external:
                    fn.linkage = "linkonce_odr"
            self._shared_module = shared
            self._final_module = own
            self._final_module.verify()
            self._finalize_final_module()

        def _finalize_entry(self):
            """numba's ``finalize`` for an entry point, with its copies of the parts made its own.

            The entry's module holds a copy of every engine function of its call tree, linked
            from the parts' shared modules as ``linkonce_odr``. Left so, (1) a process that had
            loaded a part's own machine code first (it compiled the engine) ran its games on
            that code, optimised function by function only, instead of the entry's copies
            (the dynamic linker binds a weak symbol to the definition it already holds): 3-4
            times slower duels in such a process (a first duel, the test suite, a matrix run
            right after an install); (2) LLVM had to keep each copy callable from outside,
            with its full argument list. Each copy is renamed (``<symbol>.<entry>``: no other
            module defines that name, so no look-up by name can find it in place of the part's
            code) and made internal before the module is optimised. Numba's own helpers and
            the entry's functions keep their names and linkage."""
            self._codegen._check_llvm_bugs()
            self._raise_if_finalized()
            own = {fn.name for fn in self._final_module.functions if not fn.is_declaration}
            seen, copies = set(), set()
            for library in self._linking_libraries:
                if library in seen:
                    continue
                seen.add(library)
                self._reload_init.update(library._reload_init)
                mod = library._get_module_for_linking()
                if library._engine_lib:
                    copies.update(fn.name for fn in mod.functions if not fn.is_declaration)
                self._final_module.link_in(mod, preserve=True)
            tag = "." + re.sub(r"\W", "_", self.name)
            for fn in self._final_module.functions:
                if not fn.is_declaration and fn.name in copies and fn.name not in own:
                    fn.name = fn.name + tag
                    fn.linkage = "internal"
            self._optimize_final_module()
            self._final_module.verify()
            self._finalize_final_module()

        _part_symbols = None   # a part's (engine symbols it calls, symbols it defines)

        def serialize_using_object_code(self):
            if self._part_symbols is None:
                return super().serialize_using_object_code()
            name, _, (obj, bitcode) = super().serialize_using_object_code()
            return name, "engine-part", (obj, bitcode) + self._part_symbols

        @classmethod
        def _unserialize(cls, codegen, state):
            name, kind, data = state
            if kind != "engine-part":
                lib = super()._unserialize(codegen, state)
                lib._engine_lib = _engine_function(lib.name) is not None
                return lib
            obj, bitcode, needs, provides = data
            # the callees' code must be loaded, from the same build (a numba symbol names the
            # process that compiled it): else this cached part is stale and is compiled again
            if not all(codegen._engine.is_symbol_defined(n) for n in needs):
                raise _StalePart(name)
            lib = codegen.create_library(name)
            lib.enable_object_caching()
            lib._set_compiled_object(obj)
            lib._shared_module = ll.parse_bitcode(bitcode)
            lib._finalize_final_module()
            codegen._engine._defined_symbols |= set(provides)   # (its object defines only these)
            lib._engine_lib = True
            lib._part_symbols = (needs, provides)
            return lib

    class _StalePart(Exception):
        """A cached part refers to callee code that is not the one loaded (see above)."""

    cpu_target.target_context.codegen()._library_class = _EngineLibrary


if numba.config.DISABLE_JIT:
    def unmanaged(arr):
        """Plain Python: the array itself."""
        return arr

    def unmanaged_tables(tb):
        """Plain Python: the tables themselves."""
        return tb

    def stack_i64(n):
        """Plain Python: a new int64 array of ``n`` (uninitialised) items."""
        return np.empty(n, np.int64)

    def f64_view(arr, off, n):
        """Plain Python: ``arr[off:off + n]`` seen as float64."""
        return arr[off:off + n].view(np.float64)

    def f64_view2(arr, off, r, c):
        """Plain Python: ``arr[off:off + r * c]`` seen as float64 of shape (r, c)."""
        return arr[off:off + r * c].view(np.float64).reshape((r, c))
else:
    from llvmlite import ir
    from numba.core import cgutils
    from numba.extending import intrinsic

    @intrinsic
    def unmanaged(typingctx, arr):
        """A view of ``arr`` (same data, shape and type) that numba does not reference-count.

        Every compiled call that passes an array increments and decrements the array's
        reference count with atomic instructions; an engine call passes a dozen arrays
        (the tables, the state, the control array), so this bookkeeping was close to half
        of the engine's time. A view without a memory-info pointer skips it. The caller
        must keep ``arr`` itself alive while the view is in use, and the view must never
        be returned to Python.
        """
        if not isinstance(arr, types.Array):
            return None

        def codegen(context, builder, sig, args):
            src = context.make_array(sig.args[0])(context, builder, value=args[0])
            out = context.make_array(sig.return_type)(context, builder)
            out.meminfo = cgutils.get_null_value(out.meminfo.type)
            out.parent = cgutils.get_null_value(out.parent.type)
            out.nitems = src.nitems
            out.itemsize = src.itemsize
            out.data = src.data
            out.shape = src.shape
            out.strides = src.strides
            return out._getvalue()

        return arr(arr), codegen


    from numba.core.datamodel import models, register_default
    from numba.core.imputils import impl_ret_borrowed, lower_getattr_generic
    from numba.core.typing.templates import AttributeTemplate, infer_getattr
    from numba.extending import NativeValue, unbox

    @register_default(TablesRef)
    class _TablesRefModel(models.PrimitiveModel):
        def __init__(self, dmm, fe_type):
            super().__init__(dmm, fe_type, dmm.lookup(fe_type.tup).get_value_type().as_pointer())

    @unbox(TablesRef)
    def _unbox_tables(typ, obj, c):
        # the tuple is unboxed as before, into the frame of the wrapper that calls the engine
        nv = c.unbox(typ.tup, obj)
        ptr = cgutils.alloca_once(c.builder, c.context.get_value_type(typ.tup))
        c.builder.store(nv.value, ptr)
        return NativeValue(ptr, is_error=nv.is_error, cleanup=nv.cleanup)

    @infer_getattr
    class _TablesRefAttrs(AttributeTemplate):
        key = TablesRef

        def generic_resolve(self, typ, attr):
            if attr in typ.tup.fields:
                return typ.tup.types[typ.tup.fields.index(attr)]

    @lower_getattr_generic(TablesRef)
    def _tables_getattr(context, builder, typ, value, attr):
        i = typ.tup.fields.index(attr)
        v = builder.load(cgutils.gep_inbounds(builder, value, 0, i))
        return impl_ret_borrowed(context, builder, typ.tup.types[i], v)

    @intrinsic
    def unmanaged_tables(typingctx, tb):
        """``tb`` with every table array a view numba does not reference-count (see
        :func:`unmanaged`), in the calling function's stack frame: it lives until that
        function returns and must not outlive it (``play_games`` keeps it for its games)."""
        if not isinstance(tb, TablesRef):
            return None

        def codegen(context, builder, sig, args):
            tup = sig.args[0].tup
            val = builder.load(args[0])
            for i, aty in enumerate(tup.types):
                arr = context.make_array(aty)(context, builder, value=builder.extract_value(val, i))
                arr.meminfo = cgutils.get_null_value(arr.meminfo.type)
                arr.parent = cgutils.get_null_value(arr.parent.type)
                val = builder.insert_value(val, arr._getvalue(), i)
            ptr = cgutils.alloca_once(builder, val.type)
            builder.store(val, ptr)
            return ptr

        return tb(tb), codegen

    @intrinsic(prefer_literal=True)
    def stack_i64(typingctx, n):
        """An int64 work array of ``n`` items (uninitialised) in the calling function's
        stack frame: no allocation, no reference counting, freed when the function
        returns. ``n`` must be a constant (a module-level integer, not an expression);
        use an upper bound (``MAX_CARDS + 1`` as a named constant, ``MAX_SPACES``). The
        array must not outlive the call: never return it or store it. Compiling with it
        keeps a function free of numba's reference counting (see :func:`jit`)."""
        if not isinstance(n, types.IntegerLiteral) or n.literal_value <= 0:
            return None
        size = n.literal_value
        arrty = types.Array(types.int64, 1, "C")

        def codegen(context, builder, sig, args):
            intp = context.get_value_type(types.intp)
            elt = context.get_value_type(types.int64)
            with builder.goto_entry_block():   # once per frame, however often this line runs
                ptr = builder.alloca(elt, size=ir.Constant(intp, size))
            out = context.make_array(arrty)(context, builder)
            context.populate_array(out, data=ptr, shape=[ir.Constant(intp, size)],
                                   strides=[ir.Constant(intp, 8)], itemsize=ir.Constant(intp, 8), meminfo=None)
            return out._getvalue()

        return arrty(n), codegen

    def _f64_view_codegen(ndim):
        def codegen(context, builder, sig, args):
            src = context.make_array(sig.args[0])(context, builder, value=args[0])
            intp = context.get_value_type(types.intp)
            dptr = context.get_value_type(types.float64).as_pointer()
            data = builder.bitcast(builder.gep(src.data, [args[1]]), dptr)
            eight = ir.Constant(intp, 8)
            if ndim == 1:
                shape, strides = [args[2]], [eight]
            else:
                shape, strides = [args[2], args[3]], [builder.mul(args[3], eight), eight]
            out = context.make_array(sig.return_type)(context, builder)
            context.populate_array(out, data=data, shape=shape, strides=strides, itemsize=eight, meminfo=None)
            return out._getvalue()
        return codegen

    @intrinsic
    def f64_view(typingctx, arr, off, n):
        """float64 view (n,) of ``arr[off:off + n]`` (an int64 array; no bounds check, no
        reference counting: ``arr`` must outlive the view). The AI's work space in ``ctl``."""
        if arr != A1:
            return None
        return FA1(arr, types.int64, types.int64), _f64_view_codegen(1)

    @intrinsic
    def f64_view2(typingctx, arr, off, r, c):
        """float64 view (r, c) of ``arr[off:off + r * c]``, like :func:`f64_view`; builds the
        view directly (``.reshape`` calls a C helper on every use)."""
        if arr != A1:
            return None
        return types.Array(types.float64, 2, "C")(arr, types.int64, types.int64, types.int64), _f64_view_codegen(2)
