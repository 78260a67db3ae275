"""Every error opsdk raises, in one place.

Messages follow one shape: what failed, where (op, argument, plugin), ``expected: ...`` /
``got: ...``, and what to do about it.
"""


class OpsdkError(Exception):
    """Base class of every opsdk error."""


class OpArgumentError(OpsdkError, ValueError):
    """An op was called with an argument of the wrong shape, dtype, type or value."""


class ShapeError(OpArgumentError):
    """Shapes of an op's arguments do not fit together."""


class PreconditionShapeError(ShapeError, RuntimeError):
    """Shapes Paddle checks as a precondition (``PreconditionNotMet``, a RuntimeError): isclose
    and allclose of shapes that differ, dot, masked_select, searchsorted."""


class AssertedShapeError(ShapeError, AssertionError):
    """A shape Paddle refuses by an assertion (cdist's last axes, batch_norm of a 1-D input,
    prelu's weight length, cholesky's square input, einsum's label count): a ValueError and
    Paddle's AssertionError, so either ``except`` catches it."""


class MissingAxesError(ShapeError, IndexError):
    """A tensor with fewer axes than the op needs, which Paddle reports as an axis out of range
    (an IndexError: diagonal or trace of a 1-D tensor)."""


class SetValueShapeError(ShapeError, AssertionError):
    """Tensor.set_value (or copy_) given values of another shape. Paddle raises an
    AssertionError there; this class is both, so either ``except`` catches it."""


class DTypeError(OpArgumentError, TypeError):
    """An argument has a dtype the op does not accept."""


class NoKernelDTypeError(DTypeError, NotImplementedError):
    """An argument has a dtype Paddle has no kernel for (an activation or softmax of an integer
    tensor, a running sum of bools, embedding of float ids): Paddle raises RuntimeError
    (NotFound) or NotImplementedError there; a NotImplementedError is both."""


class WrittenShapeError(ShapeError, RuntimeError, AssertionError):
    """A value whose shape differs from the region it replaces (Paddle raises RuntimeError
    from select_scatter, AssertionError from diagonal_scatter, ValueError from
    slice_scatter)."""


class IndexOutOfRangeError(OpArgumentError, IndexError):
    """An index argument (scatter, take_along_axis, index_add, ...) points outside the tensor."""


class GraphFreedError(OpsdkError, RuntimeError, SystemError):
    """Backward ran through a graph whose saved tensors were already freed (Paddle raises
    SystemError there, a "(Fatal)" error)."""


class InplaceModifiedError(OpsdkError, RuntimeError):
    """A tensor saved for backward was modified in place before backward ran."""


class LeafInplaceError(OpsdkError, RuntimeError, ValueError):
    """An in-place op on a leaf tensor that needs a gradient, outside no_grad (Paddle raises
    ValueError there, so ``except ValueError`` catches it too)."""


class ViewInplaceError(OpsdkError, RuntimeError):
    """An in-place op in grad mode on a view whose graph opsdk cannot route (made under no_grad)."""


class BackwardError(OpsdkError, RuntimeError):
    """Backward cannot run: nothing needs a gradient, wrong grad_tensor, unused input, ..."""


class UnreachableInputError(BackwardError, ValueError):
    """opsdk.grad: an input (or output) is not part of the backward graph; Paddle raises
    ValueError there."""


class GradArgumentError(BackwardError, AssertionError):
    """backward / opsdk.grad called with arguments Paddle refuses by an assertion (a NumPy array
    as a gradient, one gradient too many or too few, ``only_inputs=False``): also an
    AssertionError, so Paddle code catching it keeps working."""


class ScalarConversionError(OpsdkError, TypeError, AssertionError):
    """float(), int(), complex(), bool() or an index made of a tensor that is not one value.
    Paddle 3.3.1 (with NumPy 2.4) raises TypeError for a one-element tensor with dims and
    AssertionError for several elements; this class is both, so either ``except`` catches it."""


class OpsdkWarning(UserWarning):
    """Something works, but not the way the user probably wanted (a fallback, a no-op)."""


class KernelBuildError(OpsdkError, RuntimeError):
    """A kernel's C source could not be compiled or loaded."""


class CudaCompileError(KernelBuildError):
    """nvcc rejected a kernel's CUDA source."""


class CudaSimulatorError(OpsdkError, RuntimeError):
    """A kernel run by the CUDA simulator did what faults, hangs or corrupts a GPU: an out-of-bounds
    access, a read of uninitialised shared memory, a shared-memory race, a barrier or warp
    collective not reached by every thread that must reach it; the message names the kernel,
    the thread and the argument."""


class SimulatedOutOfMemoryError(OpsdkError, MemoryError):
    """The CUDA simulator could not allocate device memory (it is the host's); the simulated
    CuPy names it ``cupy.cuda.memory.OutOfMemoryError``, as CuPy does."""

    def __init__(self, size, total=0, limit=0):
        super().__init__(f"Out of memory allocating {size:,} bytes (simulated device memory is the host's)")


class PinMemoryError(OpsdkError, RuntimeError):
    """pin_memory=True: Paddle's CPU build refuses it ("Pinning memory is not supported for
    Place(cpu)", a RuntimeError); opsdk has no pinned host memory on any machine."""


class BackendUnavailableError(OpsdkError, RuntimeError):
    """A forced or requested kernel backend cannot run here (not implemented, no compiler, no GPU)."""


class CacheUnusableError(BackendUnavailableError):
    """The kernel cache directory cannot be used (not a directory, not writable): C kernels that
    are not already built there fall back to python until it is fixed."""


class CacheUntrustedError(CacheUnusableError):
    """The kernel cache, or an entry in it, could have been written by someone else (another
    user owns it, group or others may write it, or it is a symbolic link): nothing in it is
    loaded."""


class CacheNotOursError(CacheUnusableError):
    """``OPSDK_CACHE_DIR`` names a directory that holds other files and no opsdk cache tag:
    opsdk neither writes into it nor clears it."""


class CompilerSettingError(BackendUnavailableError, ValueError):
    """``$CC`` cannot be read as a command line (an unterminated quote): C kernels fall back to
    python, and the CLI refuses it as a usage error."""


class KernelArgumentError(OpArgumentError, TypeError):
    """A kernel got an array of the wrong dtype, device or layout for its C or CUDA implementation."""


class PluginLoadError(OpsdkError, RuntimeError):
    """An op pack could not be loaded: not installed, failed to import, hook raised, bad registration."""


class PackNotInstalledError(PluginLoadError):
    """OPSDK_LOAD_PLUGINS names a pack that no installed distribution provides; ``.name`` is the
    name asked for, ``.installed`` the pack names that are installed."""

    def __init__(self, message, name="", installed=()):
        super().__init__(message)
        self.name, self.installed = name, tuple(installed)


class PluginTimeoutError(PluginLoadError):
    """A pack's import (or its register_ops) did not finish within OPSDK_PLUGIN_TIMEOUT seconds; it
    was stopped in a child process and left out. ``.seconds`` is the limit."""

    def __init__(self, message, seconds=None):
        super().__init__(message)
        self.seconds = seconds


class PluginCrashError(PluginLoadError):
    """A pack ended the process while loading (``os._exit``, a signal such as SIGSEGV); it was
    left out. ``.exit_code`` is the exit status, or ``-signal`` for a signal."""

    def __init__(self, message, exit_code=None):
        super().__init__(message)
        self.exit_code = exit_code


class PluginTamperError(PluginLoadError):
    """A pack replaced or wrapped opsdk's own names while loading (``opsdk.sigmoid = ...``); they
    were put back and the pack left out. ``.names`` are the names it changed."""

    def __init__(self, message, names=()):
        super().__init__(message)
        self.names = tuple(names)


class RegistrationError(OpsdkError, ValueError):
    """A pack registered an op (or itself) wrongly: name, Function, specs, tolerances, kernels, clash."""


class PackNameClashError(RegistrationError):
    """Two packs use one name (their entry-point name in group ``opsdk``); the second is not loaded."""


class OpNotFoundError(OpsdkError, AttributeError, LookupError):
    """No registered op has that name; the message suggests close names and lists failed packs."""


class AmbiguousOpError(OpsdkError, LookupError):
    """A short op name is registered by several packs; the message lists the qualified names."""


class PackNotFoundError(OpsdkError, LookupError):
    """No op pack, loaded or failed, has that name."""


class SampleError(OpsdkError, ValueError):
    """An op's verification samples could not be drawn, or its samples callable returned garbage."""


class ScaffoldError(OpsdkError):
    """`opsdk new-pack` / `opsdk new-op` refused or failed; nothing was written."""


class InvalidNameError(ScaffoldError, ValueError):
    """A pack or op name that cannot be used: not an identifier, a keyword, taken, reserved."""


class ExistingFilesError(ScaffoldError, FileExistsError):
    """Scaffolding would overwrite files that exist; the message lists them and names --force."""


class InvalidPathError(ScaffoldError, ValueError):
    """A directory given to `opsdk new-pack` / `opsdk new-op` cannot be used: empty, or a path the
    file system would refuse for its length."""


class AnswersFileError(ScaffoldError, ValueError):
    """A pack's ``.opsdk-answers.json`` holds a value the scaffolding cannot use (a name that is not
    an identifier, a malformed version): it is checked like command-line input."""


class NotAPackError(ScaffoldError):
    """`opsdk new-op` was pointed at a directory that is not a pack made by `opsdk new-pack`."""


class TemplateError(ScaffoldError):
    """The templates `opsdk new-pack` / `opsdk new-op` render are missing or broken."""


class FormulaError(ScaffoldError, ValueError):
    """`opsdk new-op --formula` cannot use the formula: unparseable, an unsupported function or
    symbol, or no domain where it and its derivatives are finite; the message names the token."""


class SignatureError(ScaffoldError, ValueError):
    """`opsdk new-op --signature` cannot use the signature: the message names the part that is
    wrong (its column), expected vs got."""


class FrameworkNotInstalledError(OpsdkError, ImportError):
    """``opsdk.interop.<framework>`` was used where that framework is not installed; the message
    names the extra to install (``opsdk[torch]``, ``opsdk[jax]``, ``opsdk[paddle]``)."""


class InteropError(OpsdkError, TypeError):
    """An op cannot be exported to a framework, or its exported form was called wrongly: an
    attribute of a type the framework has no name for, a tensor where an attribute belongs."""


class PyLayerError(OpsdkError, TypeError, ValueError):
    """A PyLayer was defined or applied wrongly: forward returned no Tensor, or a non-Tensor
    (Paddle raises ValueError there)."""


class PyLayerNotImplementedError(PyLayerError, NotImplementedError):
    """A PyLayer subclass was used without defining forward (or backward), as Paddle's
    NotImplementedError."""


class BackwardReturnError(BackwardError, ValueError):
    """An op's backward returned the wrong number, type, shape, dtype or device of gradients
    (Paddle raises ValueError for a wrong count or type)."""


class OpBackwardError(BackwardError, OSError):
    """An op's backward raised; the message names the op and where its forward was called, and
    ``__cause__`` holds the original exception (Paddle raises OSError, an "(External)" error,
    for any exception from a PyLayer's backward)."""


class DoubleBackwardError(BackwardError):
    """A higher-order gradient was asked through an op whose backward is first-order only."""


class ForwardModeError(DoubleBackwardError):
    """Forward mode (a jvp, jacfwd, a Hessian by forward over reverse) reached an op that has
    neither its own jvp nor a backward differentiable in its incoming gradient; the message
    names the op."""


class TangentError(OpArgumentError, RuntimeError):
    """jvp/vjp (paddle.incubate.autograd) got tangents or cotangents ``v`` that do not match the
    inputs or outputs in count or shape (Paddle raises RuntimeError)."""


class GradcheckError(OpsdkError, AssertionError):
    """gradcheck/gradgradcheck found analytic gradients that disagree with numeric ones;
    ``.report`` holds the full GradcheckReport."""

    def __init__(self, report):
        super().__init__(str(report))
        self.report = report


class CheckAborted(OpsdkError):
    """gradcheck internals: backward cannot run at all (a first-order-only op under a second
    derivative); the runner turns it into a report entry."""


class CheckFailed(OpsdkError, AssertionError):
    """Raised by a pytest item of ``op_checks`` whose check failed; carries the CheckResult."""

    def __init__(self, result):
        super().__init__(result.detail)
        self.result = result


class ArgumentTypeError(OpArgumentError, TypeError):
    """An argument has the wrong Python type (a Tensor where a list is expected, a float where an
    int is); a TypeError too, as Paddle raises there."""


class AxisOutOfRangeError(OpArgumentError, IndexError, AssertionError):
    """An axis outside [-ndim, ndim). Paddle 3.3.1 raises ValueError for most ops, IndexError
    (OutOfRange) for gather, index_select, diagonal, repeat_interleave, chunk, diff, trace and
    the scans, and AssertionError for take_along_axis and moveaxis; this class is all three (as
    NumPy's AxisError is both a ValueError and an IndexError), so the ``except`` written for any
    of them catches it."""


class NoneArgumentError(ArgumentTypeError, AttributeError):
    """None where an op needs a tensor. Paddle 3.3.1 raises TypeError, ValueError or
    AttributeError there (``'NoneType' object has no attribute 'shape'``), depending on the op;
    this class is all three."""


class DuplicateAxisError(OpArgumentError):
    """An axis list naming one axis twice (a reduction's ``axis=[0, 0]``); Paddle raises
    ValueError there."""


class ZeroDimLengthError(OpArgumentError, TypeError, AssertionError):
    """len() of (or iteration over) a 0-d tensor: Paddle asserts there (AssertionError), Python
    raises TypeError for len() of a scalar; this class is both."""


class RequiredArgumentError(OpArgumentError, AttributeError):
    """A required argument was None (an optimizer's ``parameters``); an AttributeError too, as
    Paddle raises there."""


class ArgumentCombinationError(OpArgumentError, AttributeError):
    """Two arguments that cannot be used together (Paddle raises AttributeError for
    Embedding's scale_grad_by_freq with sparse)."""


class AssertedArgumentError(OpArgumentError, AssertionError):
    """An op got an argument Paddle refuses by an assertion (narrow's start and length,
    unflatten's axis); an AssertionError too, as Paddle asserts there."""


class LayerArgumentError(OpArgumentError, AssertionError):
    """A layer or an nn function got an argument Paddle refuses by an assertion
    (``LayerDict.update(1)``, InstanceNorm's weight_attr and bias_attr not False together,
    ``F.pad``'s mode, layout or rank); an AssertionError too, as Paddle asserts there."""


class StateError(OpsdkError, RuntimeError):
    """A call the current state forbids: set_lr on a scheduler-driven optimizer, clipping by a
    non-finite norm with error_if_nonfinite=True; a RuntimeError too, as Paddle raises there."""


class UnsupportedError(OpsdkError, NotImplementedError):
    """A Paddle API opsdk deliberately does not provide (static graphs, collective
    communication, ...); the message says why and what to use instead."""


class DatasetNotImplementedError(OpsdkError, NotImplementedError):
    """A paddle.io Dataset subclass was used without the method it must define
    (``__getitem__``/``__len__``, or an IterableDataset's ``__iter__``), as Paddle's
    NotImplementedError."""


class DatasetAccessError(OpsdkError, RuntimeError):
    """An IterableDataset was indexed or asked its len(): it is a stream (Paddle raises
    RuntimeError there)."""


class BatchFieldsError(OpsdkError, RuntimeError):
    """default_collate_fn got samples with differing numbers of fields (Paddle raises
    RuntimeError there)."""


class NoDeviceError(UnsupportedError, ValueError, AttributeError):
    """A device query or action that needs a GPU (memory statistics, stream capture) on a
    machine where opsdk runs on the CPU only; Paddle's CPU build raises ValueError there
    (AttributeError for the names it lacks: memory_allocated, memory_reserved)."""


class SubclassMemberError(OpsdkError, NotImplementedError):
    """A member a subclass must define and has not (RNNCellBase's state_shape and state_dtype);
    a NotImplementedError, as Paddle raises there."""
