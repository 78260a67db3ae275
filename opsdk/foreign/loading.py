"""Finding declared foreign ops: ``module:attr`` (one ForeignOp or a list of them) and the
``[tool.opsdk.ops]`` table of a pyproject.toml, which declares them without Python."""
import importlib
import os
import sys

from ..errors import OpArgumentError

# the keys of a [tool.opsdk.ops."pack.op"] table that name Python objects ("module:attr")
_OBJECTS = ("function", "reference")
# the keys whose TOML arrays are tuples to register(...)
_TUPLES = ("dtypes", "sizes", "devices")


def _on_path(directory):
    """Let ``import`` find the user's modules in ``directory`` (the project they run in)."""
    directory = os.path.abspath(directory)
    if directory not in sys.path:
        sys.path.insert(0, directory)


def resolve(spec, where):
    """The object ``spec`` (``module:attr.attr``) names; OpArgumentError saying what is wrong."""
    module_name, sep, attr = spec.partition(":")
    if not sep or not module_name or not attr:
        raise OpArgumentError(f"{where}: expected MODULE:ATTR (e.g. mylib.checks:myop); "
                              f"got: '{spec}'")
    try:
        value = importlib.import_module(module_name)
    except Exception as error:  # noqa: BLE001 - the user's module: any error is reported
        raise OpArgumentError(f"{where}: importing module '{module_name}' failed: "
                              f"{type(error).__name__}: {error}") from error
    for part in attr.split("."):
        try:
            value = getattr(value, part)
        except AttributeError:
            raise OpArgumentError(f"{where}: '{module_name}' has no attribute '{attr}' "
                                  f"('{part}' is missing)") from None
    return value


def from_attribute(spec):
    """The foreign ops ``module:attr`` holds (one, or a list or tuple of them)."""
    from .declare import ForeignOp

    _on_path(os.getcwd())
    where = f"--op '{spec}'"
    value = resolve(spec, where)
    ops = list(value) if isinstance(value, (list, tuple)) else [value]
    for i, op in enumerate(ops):
        if not isinstance(op, ForeignOp):
            label = "" if ops == [value] else f"[{i}]"
            raise OpArgumentError(f"{where}: {spec}{label} is a {type(op).__name__}; expected: "
                                  "an op from opsdk.foreign_op(...) (or a list of them)")
        op.origin = spec
    if not ops:
        raise OpArgumentError(f"{where}: {spec} is an empty list; expected: foreign ops")
    return ops


def _load_toml(path):
    try:
        import tomllib
    except ImportError:  # Python 3.10
        try:
            import tomli as tomllib
        except ImportError:
            raise OpArgumentError(f"reading {path} needs Python 3.11 or the tomli package "
                                  "(pip install tomli)") from None
    try:
        with open(path, "rb") as f:
            return tomllib.load(f)
    except OSError as error:
        raise OpArgumentError(f"--op '{path}': cannot read it: {error.strerror}") from None
    except tomllib.TOMLDecodeError as error:
        raise OpArgumentError(f"--op '{path}': not valid TOML: {error}") from None


def _declaration(name, table, where):
    """foreign_op's arguments from one table: TensorSpecs, tuples, objects imported."""
    from ..packs.registry import TensorSpec

    if not isinstance(table, dict):
        raise OpArgumentError(f"{where}: expected a table of foreign_op arguments; got: "
                              f"{type(table).__name__}")
    options = dict(table)
    missing = [k for k in ("function", "framework") if k not in options]
    if missing:
        raise OpArgumentError(f"{where}: needs {' and '.join(missing)} (e.g. function = "
                              "\"mylib.ops:MyFunction.apply\", framework = \"torch\")")
    for key in _OBJECTS:
        if key in options:
            if not isinstance(options[key], str):
                raise OpArgumentError(f"{where}: {key} must be a \"module:attr\" string; got: "
                                      f"{options[key]!r}")
            options[key] = resolve(options[key], f"{where} {key}")
    specs = options.pop("inputs", None)
    if specs is not None:
        if not isinstance(specs, list) or not all(isinstance(s, dict) for s in specs):
            raise OpArgumentError(f"{where}: inputs must be an array of tables, e.g. "
                                  "inputs = [{shape = [3, 4], domain = [-3.0, 3.0]}]")
        try:
            options["inputs"] = [TensorSpec(**{k: tuple(v) if isinstance(v, list) else v
                                                for k, v in s.items()}) for s in specs]
        except TypeError as error:
            raise OpArgumentError(f"{where}: inputs: {error}") from None
    for key in _TUPLES:
        if isinstance(options.get(key), list):
            options[key] = tuple(options[key])
    if isinstance(options.get("attr_ranges"), dict):
        options["attr_ranges"] = {k: tuple(v) for k, v in options["attr_ranges"].items()}
    fn = options.pop("function")
    return fn, dict(options, name=name)


def from_pyproject(path):
    """The foreign ops the ``[tool.opsdk.ops]`` table of ``path`` declares, one table each::

        [tool.opsdk.ops."mylib.swish"]
        function = "mylib.ops:Swish.apply"
        framework = "torch"
        inputs = [{shape = [3, 4], domain = [-3.0, 3.0]}]
        attrs = {beta = 1.5}
        double_backward = true
    """
    from .declare import foreign_op

    root = os.path.dirname(os.path.abspath(path))
    for directory in (os.path.join(root, "src"), root):
        if os.path.isdir(directory):
            _on_path(directory)
    tables = _load_toml(path).get("tool", {}).get("opsdk", {}).get("ops")
    if not isinstance(tables, dict) or not tables:
        raise OpArgumentError(f"--op '{path}': no [tool.opsdk.ops] table; expected: "
                              "[tool.opsdk.ops.\"pack.op\"] tables, one per foreign op")
    ops = []
    for name, table in tables.items():
        where = f"{path} [tool.opsdk.ops.\"{name}\"]"
        fn, options = _declaration(name, table, where)
        try:
            op = foreign_op(fn, **options)
        except (TypeError, ValueError) as error:
            raise OpArgumentError(f"{where}: {error}") from None
        op.origin = path
        ops.append(op)
    return ops


def load(spec):
    """The foreign ops of one ``--op`` value: a pyproject.toml path or ``module:attr``."""
    if spec.endswith(".toml"):
        return from_pyproject(spec)
    return from_attribute(spec)


def select(specs, names=()):
    """The foreign ops of every ``--op`` value, limited to ``names`` (qualified or short) when
    given; OpArgumentError for a name none of them has."""
    ops, seen = [], set()
    for spec in specs:
        for op in load(spec):
            if op.qualname not in seen:
                seen.add(op.qualname)
                ops.append(op)
    if not names:
        return ops
    chosen = [op for op in ops if op.qualname in names or op.name in names]
    unknown = [n for n in names if not any(n in (op.qualname, op.name) for op in ops)]
    if unknown:
        raise OpArgumentError(f"no foreign op named '{unknown[0]}' in --op "
                              f"{' '.join(specs)}; expected: one of "
                              f"{', '.join(op.qualname for op in ops)}")
    return chosen
