"""``opsdk.foreign_op``: a differentiable callable of torch, JAX or Paddle declared as an op."""
import inspect

from ..errors import RegistrationError
from ..packs.registry import OpInfo, build_opinfo
from ..verification.check.layouts import NEGATIVE
from .bridges import FRAMEWORKS, bridge
from .device import BACKENDS, CPU, CUDA, DEVICES, availability, devices_of
from .function import make_function

# what a foreign op cannot take from register(...): it runs in its framework, not on kernels
_REFUSED = {"kernels": "a foreign op runs in its framework; it has no opsdk kernels"}

# checks a framework's tensors keep from applying, and why (per sample layout, or whole)
_NO_NEGATIVE = ("{fw} tensors cannot have negative strides, so a reversed input reaches the op "
                "as a contiguous copy: the reversed layout is not verified (the transposed, "
                "permuted and strided ones are)")
_NO_LAYOUT = ("JAX arrays have no memory layout: every input reaches the op as a fresh "
              "contiguous JAX array, so no layout can differ")


class ForeignOp(OpInfo):
    """An op written in another framework (``framework``), verified through it.

    ``foreign`` is the callable declared, ``origin`` the ``module:attr`` it was loaded from
    (``opsdk check --op``), which the replay line of a failure names. ``devices``: where the
    framework runs it, each a backend: ``cpu`` is ``python`` (the reference), ``cuda`` is
    ``cuda`` (the framework on the GPU, fed CuPy arrays by DLPack: see device.py).
    """

    framework = None
    foreign = None
    origin = None
    devices = DEVICES

    @property
    def backends(self):
        """``python`` (the framework on the CPU), then ``cuda`` where the op is declared for it."""
        return tuple(BACKENDS[d] for d in self.devices)

    def backend_availability(self, backend):
        """``(True, '')`` when the framework can run the op on ``backend`` here, else
        ``(False, why)``: on ``cuda``, the framework's CUDA build and device and real CuPy."""
        if backend not in self.backends:
            return False, f"the op is declared for devices {', '.join(self.devices)} only"
        if backend == BACKENDS[CUDA]:
            return availability(bridge(self.framework))
        return True, ""

    def compiled_here(self):
        """Whether a backend other than the reference runs here (the verifier then derives the
        sizes, long rows and ties it holds such a backend to)."""
        return any(self.backend_availability(b)[0] for b in self.backends if b != BACKENDS[CPU])

    def inapplicable(self, check, sample):
        """Why ``check`` cannot apply to this framework on ``sample`` (None when it does)."""
        if check != "layout":
            return None
        if self.framework == "jax":
            return _NO_LAYOUT
        if any(slot.layout == NEGATIVE for _, slot in sample.slots()):
            return _NO_NEGATIVE.format(fw=self.framework)
        return None

    def __repr__(self):
        return f"<foreign op {self.qualname} ({self.framework}): {self.function.__name__}>"


def _own_name(fn):
    """The name the foreign callable goes by: a Function's class for its ``apply``."""
    owner = getattr(fn, "__self__", None)
    if isinstance(owner, type):
        return owner.__name__
    for attr in ("__name__", "_name"):
        value = getattr(fn, attr, None)
        if isinstance(value, str) and value.isidentifier():
            return value
    inner = getattr(fn, "fun", None)  # jax.custom_vjp wraps the function
    return getattr(inner, "__name__", type(fn).__name__)


def _signature(fn):
    """``(what, parameters)`` of the foreign callable (an autograd Function's forward after
    ctx); parameters None where the signature cannot be read (a builtin)."""
    owner = getattr(fn, "__self__", None)
    target = owner.forward if isinstance(owner, type) and hasattr(owner, "forward") else \
        getattr(fn, "_init_fn", None) or getattr(fn, "fun", None) or fn  # torch.library, jax
    try:
        signature = inspect.signature(target)
    except (TypeError, ValueError):
        signature = None
    named = signature is not None and any(
        p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in signature.parameters.values())
    if not named:  # a builtin or torch.ops op: its schema has the names
        signature = _schema_signature(fn) or signature
    if signature is None:
        return "", None
    params = list(signature.parameters.values())
    if target is not fn and isinstance(owner, type):
        params = params[1:]  # ctx
    return f"{getattr(target, '__qualname__', _own_name(fn))}{signature}", params


def _schema_signature(fn):
    """The signature a torch.ops op's schema declares (``torch.ops.ns.op`` or an overload)."""
    schema = getattr(getattr(fn, "default", fn), "_schema", None)
    arguments = getattr(schema, "arguments", None)
    if not arguments:
        return None
    kind = inspect.Parameter.POSITIONAL_OR_KEYWORD
    try:
        return inspect.Signature([inspect.Parameter(a.name, kind) for a in arguments])
    except (TypeError, ValueError):
        return None


def _check_attrs(fn, attrs, name):
    """Every attribute must be a parameter of the callable (unless it takes ``**kwargs``)."""
    what, params = _signature(fn)
    if params is None or any(p.kind == p.VAR_KEYWORD for p in params):
        return
    names = {p.name for p in params if p.kind != p.POSITIONAL_ONLY}
    for key in attrs:
        if key not in names:
            known = ", ".join(sorted(names)) or "(none)"
            raise RegistrationError(f"foreign op '{name}': attrs['{key}'] is not a parameter of "
                                    f"{what}; expected: one of {known}")


# the frameworks' own packages: never the op's code (the verifier restores the op's modules)
_FRAMEWORK_PACKAGES = {"torch", "jax", "jaxlib", "paddle", "functools"}


def _code_module(fn):
    """The module of the foreign op's own code (a Function class's, a torch.library op's or a
    custom_vjp's function), never the framework's; None when there is none."""
    for value in (getattr(fn, "__self__", None), getattr(fn, "_init_fn", None),
                  getattr(fn, "fun", None), getattr(fn, "__wrapped__", None), fn):
        module = getattr(value, "__module__", None)
        if isinstance(module, str) and module.split(".", 1)[0] not in _FRAMEWORK_PACKAGES:
            return module
    return None


def _input_names(fn, count, attrs):
    _, params = _signature(fn)
    positional = [p.name for p in params or () if p.kind in (p.POSITIONAL_ONLY,
                                                              p.POSITIONAL_OR_KEYWORD)]
    names = [n for n in positional if n not in attrs][:count]
    names += [f"x{i}" for i in range(len(names), count)]
    return names


def _split_name(name, framework, fn):
    name = name if name is not None else _own_name(fn)
    if not isinstance(name, str) or not name:
        raise RegistrationError(f"foreign op: name must be a non-empty str ('pack.op'); got: "
                                f"{name!r}")
    pack, _, short = name.rpartition(".")
    return pack or framework, short


def _reference(bridge_, reference, cls_name, input_names, attrs, module):
    """The reference, written in the framework's ops, as the opsdk callable the check expects."""
    if reference is None:
        return None
    if not callable(reference):
        raise RegistrationError(f"foreign op '{cls_name}': reference must be a callable of the "
                                f"framework's tensors; got: {type(reference).__name__}")
    ref = make_function(bridge_, reference, f"{cls_name}_reference", input_names, attrs, True,
                        module)

    def call(*args, **kwargs):
        return ref.apply(*args, **kwargs)

    params = list(inspect.signature(ref.forward).parameters.values())
    call.__signature__ = inspect.Signature(params[1:])  # forward's, without ctx
    call.__module__ = module or __name__
    return call


def foreign_op(fn, *, framework, name=None, inputs=None, attrs=None, double_backward=False,
               reference=None, devices=DEVICES, **options):
    """Declare a differentiable callable of torch, JAX or Paddle as an op `opsdk check` verifies.

    Forward values and gradients (every order) are computed by the framework itself
    (``torch.autograd.grad``, ``jax.vjp``, ``paddle.grad``) on its tensors over the samples'
    memory, so inputs written in place, outputs aliasing inputs and non-contiguous inputs reach
    the foreign code as they would from a user.

    Args:
        fn: a ``torch.autograd.Function``'s ``apply``, a ``torch.library`` op, a
            ``jax.custom_vjp`` function, a Paddle ``PyLayer``'s ``apply``, or any differentiable
            function of that framework's tensors; called as ``fn(*tensors, **attrs)``.
        framework: ``"torch"``, ``"jax"`` or ``"paddle"``.
        name: ``"pack.op"`` (default: the framework as the pack, the callable's name).
        inputs: one ``opsdk.TensorSpec`` per tensor argument, in order.
        attrs: the non-tensor arguments, passed as keywords (``{"beta": 1.5}``).
        double_backward: True claims second derivatives (gradgradcheck runs them).
        reference: the same maths in the framework's ops, ``reference(*tensors, **attrs)``.
        devices: where the framework runs the op, ``("cpu", "cuda")`` (the default) or
            ``("cpu",)``: ``cpu`` is the ``python`` backend, the reference; ``cuda`` the
            ``cuda`` backend, the framework on the GPU held to the CPU, run where the
            framework has a CUDA build and a device and CuPy is installed (else its checks
            are skipped, with the reason).
        **options: the other arguments of a pack's ``register`` (dtypes, atol, rtol,
            attr_ranges, samples, doc, max_size, cost, ...).

    Returns:
        ForeignOp: an OpInfo; ``opsdk.check.plan_cases([op])`` and ``opsdk check --op
        module:attr`` verify it.

    Example::

        myop = opsdk.foreign_op(MyFunction.apply, framework="torch", name="mylib.myop",
                                inputs=[opsdk.TensorSpec(shape=(3, 4))], attrs={"beta": 1.5})
    """
    if framework not in FRAMEWORKS:
        raise RegistrationError(f"foreign op {name or ''}: framework must be one of "
                                f"{', '.join(FRAMEWORKS)}; got: {framework!r}")
    if not callable(fn):
        raise RegistrationError(f"foreign op {name or ''}: fn must be a callable of {framework} "
                                f"tensors; got: {type(fn).__name__}")
    for key, why in _REFUSED.items():
        if key in options:
            raise RegistrationError(f"foreign op {name or _own_name(fn)}: {key}= does not apply: "
                                    f"{why}")
    pack, short = _split_name(name, framework, fn)
    devices = devices_of(devices, f"{pack}.{short}")
    attrs = dict(attrs or {})
    _check_attrs(fn, attrs, f"{pack}.{short}")
    samples = options.get("samples")
    count = len(inputs) if inputs is not None else (0 if samples is None else None)
    input_names = _input_names(fn, count, attrs) if count is not None else None
    module = _code_module(fn)
    bridge_ = bridge(framework)
    cls_name = _own_name(fn)
    cls = make_function(bridge_, fn, cls_name, input_names, attrs, double_backward, module)
    info = build_opinfo(pack, None, None, cls, dict(
        options, name=short, inputs=inputs, attrs=attrs or None, double_backward=double_backward,
        reference=_reference(bridge_, reference, cls_name, input_names, attrs, module),
        doc=options.get("doc", cls.__doc__)))
    op = ForeignOp.__new__(ForeignOp)
    op.__dict__.update(vars(info))
    op.framework = framework
    op.foreign = fn
    op.devices = devices
    return op
