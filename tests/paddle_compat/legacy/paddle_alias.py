"""Test-side alias: makes ``import paddle`` resolve to opsdk for Paddle's own unit tests.

Every public name comes from opsdk itself (``paddle.X`` is ``opsdk.X``, ``paddle.nn.utils`` is
``opsdk.nn.utils``, ...). Only Paddle's internals, which opsdk deliberately does not mirror,
are stood in for here, each built on opsdk's public API:

- ``paddle.base``: ``dygraph.guard`` (a no-op: dynamic mode is the only mode),
  ``dygraph.grad`` (``paddle.grad``), ``CPUPlace``, ``ParamAttr``, ``set_flags``,
  ``core.CPUPlace``, ``framework.EagerParamBase`` (a Parameter whose
  ``value().get_tensor().set(array)`` is ``set_value``), ``framework._dygraph_tracer()`` (its
  ``_has_grad`` is opsdk's grad mode, read and set), ``framework.dygraph_not_support`` (a
  decorator refusing dynamic mode by an assertion) and ``wrapped_decorator.wrap_decorator`` (a
  decorator factory keeping the wrapped function's name and signature);
  Also ``is_compiled_with_cuda``, ``cpu_places()``, the mode switches ``enable_dygraph`` /
  ``enable_imperative`` (and their ``disable_``), ``unique_name.guard`` (a no-op),
  ``core.eager.Tensor`` (opsdk's Tensor), ``framework._dygraph_guard`` (dynamic mode for its
  block) and ``wrapped_decorator.signature_safe_contextmanager``;
- the internals that Paddle's test/legacy_test/utils.py and its recurrent, transformer and
  io tests reach: ``paddle.pir_utils``' guards (which IR static programs are built in: no-ops),
  ``paddle.utils.environments``' boolean environment variable and its guard,
  ``paddle.framework.random._manual_program_seed`` (the static program's seed: a no-op, so a
  test relying on it to give two layers the same weights still fails),
  ``paddle.hapi.model.to_list``, ``paddle.io.dataloader.worker._worker_loop`` (static-only:
  only a CUDA test calls it) and the module paths ``paddle.nn.layer.transformer`` (the
  attention and transformer layers of paddle.nn) and ``paddle.static.nn.sequence_lod``
  (its ``sequence_mask`` is paddle.nn.functional.sequence_mask itself);
- the ``paddle.tensor.random`` module path (opsdk's ``opsdk.tensor`` is the module of the
  Tensor class; the random functions live at opsdk's top level);
- two private Tensor methods Paddle's tests call: ``_grad_ivar()`` (the gradient or None, i.e.
  ``.grad``) and ``_register_backward_hook(fn)`` (a hook with no arguments run when a leaf's
  gradient arrives, i.e. ``register_hook`` on a leaf, with Paddle's ValueError otherwise).

Static-graph mode, which the count leaves aside: ``paddle.enable_static()`` only records that
the program is now in static mode (``disable_static()`` records it left), and every
static-only name (``paddle.static.Program``, ``program_guard``, ``Executor``, ``data``, ...,
``base.Program``, ...) raises ``StaticGraphUsed`` when called. ``in_static_mode()`` tells the
runner whether a test that failed was running in static mode under Paddle at that point, or
switched to it itself (``start_test()`` marks where a test begins).

``install()`` puts the alias in ``sys.modules`` and adds the two methods; use it only in a
process of its own.
"""
import contextlib
import functools
import importlib
import importlib.abc
import importlib.util
import inspect
import os
import sys
import types

import numpy as np

import opsdk
from opsdk.tensor_module import SUBMODULES


class StaticGraphUsed(Exception):
    """A Paddle test reached static-graph mode, which opsdk does not have (not counted)."""


_MODE = {"static": False, "entered": False}


def in_static_mode():
    """True while Paddle would be in static mode, or if the running test switched to it."""
    return _MODE["static"] or _MODE["entered"]


def start_test():
    _MODE["entered"] = False


def _enable_static():
    _MODE["static"] = _MODE["entered"] = True


def _disable_static(place=None):
    _MODE["static"] = False


def _static_only(name):
    def refuse(*args, **kwargs):
        raise StaticGraphUsed(f"{name}: static-graph mode")
    refuse.__name__ = name.rsplit(".", 1)[-1]
    return refuse


def _static_getattr(prefix, source):
    """A module __getattr__: ``source``'s names, any other one static-graph only."""
    def getattr_(name):
        if name.startswith("__"):
            raise AttributeError(name)
        found = getattr(source, name, None)
        return found if found is not None else _static_only(prefix + name)
    return getattr_


def _static_module():
    """paddle.static: opsdk's (InputSpec); any other name is static-graph only, but for
    paddle.static.nn.sequence_lod.sequence_mask, which is Paddle's F.sequence_mask itself."""
    sequence_lod = _module("paddle.static.nn.sequence_lod",
                           sequence_mask=opsdk.nn.functional.sequence_mask,
                           __getattr__=_static_getattr("paddle.static.nn.sequence_lod.", None))
    nn = _module("paddle.static.nn", sequence_lod=sequence_lod,
                 __getattr__=_static_getattr("paddle.static.nn.", None))
    return _module("paddle.static", nn=nn,
                   __getattr__=_static_getattr("paddle.static.", opsdk.static))


_STATIC_BASE_NAMES = ("Program", "program_guard", "Executor", "default_main_program",
                      "default_startup_program", "global_scope", "scope_guard",
                      "CompiledProgram", "data")


class _CallableModule(types.ModuleType):
    """paddle.tensor, which Paddle 3 made callable: ``paddle.tensor([1, 2])`` makes a tensor."""

    def __call__(self, *args, **kwargs):
        return opsdk.tensor(*args, **kwargs)


def _module(name, **attrs):
    mod = types.ModuleType(name)
    mod.__dict__.update(attrs)
    return mod


def _eager_param_base(dtype, shape, name=None, optimize_attr=None, **kwargs):
    """paddle.base.framework.EagerParamBase: a Parameter whose value().get_tensor().set() fills it."""
    param = opsdk.nn.Parameter(np.zeros(shape, dtype=dtype), name=name,
                               optimize_attr=optimize_attr or {"learning_rate": 1.0})

    class _Holder:
        def get_tensor(self):
            return self

        def set(self, array, place=None):
            param.set_value(np.asarray(array, dtype=dtype))

    param.value = _Holder
    return param


def _final_hooks():
    return _module("paddle.base.core.eager", Tensor=opsdk.Tensor)


def _mode_guard(static):
    """A context manager that puts the alias in static mode (or out of it), then back."""
    @contextlib.contextmanager
    def guard(*args, **kwargs):
        before = _MODE["static"]
        _MODE["static"] = static
        _MODE["entered"] = _MODE["entered"] or static
        try:
            yield
        finally:
            _MODE["static"] = before
    return guard


class _BooleanEnvironmentVariable:
    """paddle.utils.environments.BooleanEnvironmentVariable: a flag read from os.environ."""

    def __init__(self, name, default):
        self.name, self.default = name, default

    def get(self):
        value = os.environ.get(self.name)
        return self.default if value is None else value.lower() in ("1", "true", "on")

    def set(self, value):
        os.environ[self.name] = str(bool(value))


@contextlib.contextmanager
def _environment_variable_guard(variable, value):
    before = os.environ.get(variable.name)
    variable.set(value)
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(variable.name, None)
        else:
            os.environ[variable.name] = before


def _to_list(value):
    """paddle.hapi.model.to_list: None as is, a list or tuple as a list, else a list of it."""
    if value is None or isinstance(value, list):
        return value
    return list(value) if isinstance(value, tuple) else [value]


def _no_ir_choice():
    """paddle.pir_utils' guards choose the IR static programs are built in: none in dygraph."""
    return contextlib.nullcontext()


def _internals():
    """Stand-ins for the Paddle internals that test/legacy_test/utils.py and the recurrent,
    transformer and io tests reach (see the module docstring)."""
    environments = _module(
        "paddle.utils.environments", BooleanEnvironmentVariable=_BooleanEnvironmentVariable,
        EnvironmentVariableGuard=_environment_variable_guard)
    utils = _module("paddle.utils", environments=environments)
    utils.__path__ = []
    model = _module("paddle.hapi.model", to_list=_to_list)
    hapi = _module("paddle.hapi", model=model)
    hapi.__path__ = []
    random = _module("paddle.framework.random", _manual_program_seed=lambda seed: None)
    framework = _module("paddle.framework", random=random,
                        __getattr__=lambda name: getattr(opsdk.framework, name))
    framework.__path__ = []
    pir_utils = _module("paddle.pir_utils", IrGuard=_no_ir_choice, OldIrGuard=_no_ir_choice,
                        DygraphOldIrGuard=_no_ir_choice)
    from opsdk.io.dataloader import worker as opsdk_worker
    worker = _module("paddle.io.dataloader.worker", _worker_loop=_static_only(
        "paddle.io.dataloader.worker._worker_loop (Paddle's worker-process loop)"),
        __getattr__=lambda name: getattr(opsdk_worker, name))
    # paddle.nn.layer.transformer holds the attention and transformer layers of paddle.nn
    transformer = _module("paddle.nn.layer.transformer",
                          __getattr__=lambda name: getattr(opsdk.nn, name))
    layer = _module("paddle.nn.layer", transformer=transformer,
                    __getattr__=lambda name: getattr(opsdk.nn.layer, name))
    layer.__path__ = []
    return {"paddle.nn.layer": layer, "paddle.nn.layer.transformer": transformer,
            "paddle.utils": utils, "paddle.utils.environments": environments,
            "paddle.hapi": hapi, "paddle.hapi.model": model, "paddle.framework": framework,
            "paddle.framework.random": random, "paddle.pir_utils": pir_utils,
            "paddle.io.dataloader.worker": worker}


class _Tracer:
    """paddle.base.framework._dygraph_tracer(): ``_has_grad`` is opsdk's grad mode."""

    _train_mode = True

    @property
    def _has_grad(self):
        return opsdk.is_grad_enabled()

    @_has_grad.setter
    def _has_grad(self, value):
        opsdk.set_grad_enabled(bool(value))


_TRACER = _Tracer()


def _wrap_decorator(decorator):
    """paddle.base.wrapped_decorator.wrap_decorator: a decorator factory whose results keep the
    decorated function's name, docstring and signature."""
    @functools.wraps(decorator)
    def apply(fn):
        decorated = decorator(fn)

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            return decorated(*args, **kwargs)
        wrapper.__signature__ = inspect.signature(fn)
        return wrapper
    return apply


def _dygraph_not_support(fn):
    def refuse(*args, **kwargs):
        assert _MODE["static"], f"We don't support {fn.__name__} in dynamic graph mode"
        return fn(*args, **kwargs)
    return refuse


def _build():
    static_base = {name: _static_only("paddle.base." + name) for name in _STATIC_BASE_NAMES}
    core = _module("paddle.base.core", eager=_final_hooks(),
                   is_compiled_with_cuda=opsdk.is_compiled_with_cuda,
                   CPUPlace=opsdk.CPUPlace, CUDAPlace=opsdk.CUDAPlace,
                   **{name: _static_only("paddle.base.core." + name)
                      for name in ("VarDesc", "Scope")})
    wrapped = _module("paddle.base.wrapped_decorator", wrap_decorator=_wrap_decorator,
                      signature_safe_contextmanager=_wrap_decorator(contextlib.contextmanager))
    framework = _module(
        "paddle.base.framework",
        EagerParamBase=_eager_param_base,
        _current_expected_place=lambda: opsdk.CPUPlace(),
        _dygraph_tracer=lambda: _TRACER,
        _dygraph_guard=lambda tracer: _mode_guard(False)(),
        dygraph_not_support=_wrap_decorator(_dygraph_not_support),
        in_dygraph_mode=lambda: not _MODE["static"],
        extract_plain_list=_static_only("paddle.base.framework.extract_plain_list"),
        **static_base,
    )
    dygraph = _module("paddle.base.dygraph", guard=lambda place=None: contextlib.nullcontext(),
                      no_grad=opsdk.no_grad, grad=opsdk.grad)
    base = _module(
        "paddle.base", core=core, framework=framework, dygraph=dygraph, wrapped_decorator=wrapped,
        CPUPlace=opsdk.CPUPlace, CUDAPlace=opsdk.CUDAPlace, ParamAttr=opsdk.ParamAttr,
        in_dygraph_mode=lambda: not _MODE["static"],
        set_flags=lambda flags: opsdk.framework.set_flags(flags),
        get_flags=lambda flags: opsdk.framework.get_flags(flags),
        is_compiled_with_cuda=opsdk.is_compiled_with_cuda,
        cpu_places=lambda device_count=None: [opsdk.CPUPlace()] * (device_count or 1),
        enable_dygraph=_disable_static, enable_imperative=_disable_static,
        disable_dygraph=_enable_static, disable_imperative=_enable_static,
        unique_name=_module("paddle.base.unique_name",
                            guard=lambda new_generator=None: contextlib.nullcontext()),
        **static_base,
    )
    base.__path__ = []
    # paddle.tensor.random holds the random creation functions: opsdk has them at the top
    random = _module("paddle.tensor.random", __getattr__=lambda name: getattr(opsdk, name))
    # paddle.tensor re-exports Paddle's tensor functions (fill_constant among them): opsdk's are
    # at its top level; its submodule names (paddle.tensor.math) and calling it are opsdk.tensor's
    tensor = _module("paddle.tensor", random=random, __getattr__=lambda name: getattr(
        opsdk.tensor if name in SUBMODULES else opsdk, name))
    tensor.__class__ = _CallableModule
    tensor.__path__ = []
    return {"paddle.base": base, "paddle.base.core": core, "paddle.base.framework": framework,
            "paddle.base.wrapped_decorator": wrapped,
            "paddle.base.dygraph": dygraph, "paddle.tensor": tensor,
            "paddle.tensor.random": random, "paddle.static": _static_module(), **_internals()}


# the mode switches of the alias's top level (see the module docstring)
_TOP_NAMES = {"enable_static": _enable_static, "disable_static": _disable_static,
              "in_dynamic_mode": lambda: not _MODE["static"]}


class _Top(types.ModuleType):
    """The ``paddle`` module: opsdk's names, plus the stand-ins above."""

    def __init__(self, stand_ins):
        super().__init__("paddle", opsdk.__doc__)
        self.__path__ = []
        self._stand_ins = stand_ins

    def __getattr__(self, name):
        full = "paddle." + name
        if full in self._stand_ins:
            return self._stand_ins[full]
        if name in _TOP_NAMES:
            return _TOP_NAMES[name]
        return getattr(opsdk, name)


class _Finder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """``paddle.a.b`` imports as the stand-in of that name, else as ``opsdk.a.b``."""

    def __init__(self, stand_ins):
        self._stand_ins = stand_ins
        self._own_specs = {}

    def find_spec(self, fullname, path=None, target=None):
        if not fullname.startswith("paddle."):
            return None
        if fullname not in self._stand_ins:
            try:
                importlib.import_module("opsdk" + fullname[len("paddle"):])
            except ImportError:
                return None
        return importlib.util.spec_from_loader(fullname, self)

    def create_module(self, spec):
        name = spec.name
        if name in self._stand_ins:
            return self._stand_ins[name]
        module = importlib.import_module("opsdk" + name[len("paddle"):])
        self._own_specs[id(module)] = module.__spec__
        _seed_aliases(skip=name)
        return module

    def exec_module(self, module):
        # the import system stamps the alias's spec on the module: give opsdk's back
        spec = self._own_specs.pop(id(module), None)
        if spec is not None:
            module.__spec__ = spec


def _seed_aliases(skip=None):
    """Register 'paddle.X' for every loaded 'opsdk.X' module, so importing one never goes
    through the finder again (which would set the submodule as an attribute of its package,
    hiding a function of the same name, as opsdk.nn.utils.clip_grad_norm_)."""
    for name, module in list(sys.modules.items()):
        if name.startswith("opsdk.") and module is not None:
            alias = "paddle" + name[len("opsdk"):]
            if alias != skip and alias not in sys.modules:
                sys.modules[alias] = module


def _grad_ivar(self):
    return self.grad


def _register_backward_hook(self, hook):
    if self.stop_gradient or not self.is_leaf:
        raise ValueError("_register_backward_hook: only a leaf tensor that needs a gradient "
                         "takes a backward hook")

    def run(grad):
        hook()
    return self.register_hook(run)


def install():
    """Make ``import paddle`` (and ``paddle.*``) resolve to opsdk in this process."""
    opsdk.Tensor._grad_ivar = _grad_ivar
    opsdk.Tensor._register_backward_hook = _register_backward_hook
    stand_ins = _build()
    sys.modules["paddle"] = _Top(stand_ins)
    sys.modules.update(stand_ins)
    importlib.import_module("opsdk.nn")
    _seed_aliases()
    sys.meta_path.insert(0, _Finder(stand_ins))
