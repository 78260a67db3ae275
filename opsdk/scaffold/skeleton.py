"""The code of an op skeleton from its signature (``opsdk new-op NAME --signature ...``).

The skeleton's maths is a placeholder of the right shapes, written where the op's maths lives
(the python kernels, the C and CUDA kernels where asked for, and ``reference``):

- each float output is the product of the float attributes and the sum, over the float inputs,
  of tanh(input) summed over the input's axes the output lacks and broadcast over those it has;
- each integer output is the argmax of the first float input over its axes the output lacks
  (flattened in the input's order, the first of ties), or ``input > 0`` where it lacks none;
- the gradient of each float input follows from the first rule; integer inputs take no part.

Axes are matched by symbol (a fixed size by its value and place among the tensor's fixed sizes).
"""
from .signature import FLOAT


def _keys(tensor):
    """One name per dimension: the symbol, or ``dim<size>`` for a fixed size (``dim<size>_<k>`` for
    the k-th of that size in the tensor); the code reads every size from a shape, fixed ones too."""
    keys, seen = [], {}
    for d in tensor.dims:
        if isinstance(d, str):
            keys.append(d)
        else:
            k = seen.get(d, 0)
            keys.append(f"dim{d}" if k == 0 else f"dim{d}_{k}")
            seen[d] = k + 1
    return keys


def _fixed(sig, key):
    """The fixed size of ``key`` where no input has it (``dim3`` of an output only), else None."""
    if _holder(sig, key) is not None or not key.startswith("dim") or key in sig.symbols():
        return None
    return key[3:].split("_")[0]


def _holder(sig, key, tensors=None):
    """(tensor, axis) of the first of ``tensors`` (default: the inputs) with ``key``, or None."""
    for tensor in sig.inputs if tensors is None else tensors:
        if key in _keys(tensor):
            return tensor, _keys(tensor).index(key)
    return None


def _size(key):
    return key


def _product(keys):
    return " * ".join(_size(k) for k in keys) or "1"


class _Python:
    """Array expressions on NumPy/CuPy arrays (``xp``) or opsdk Tensors (``opsdk``)."""

    def __init__(self, tensors):
        self.tensors = tensors  # True: opsdk Tensors (lists for shapes)

    def shape(self, keys):
        inner = ", ".join(_size(k) for k in keys)
        return f"[{inner}]" if self.tensors else (f"({inner},)" if len(keys) == 1 else f"({inner})")

    def tanh(self, name):
        return f"opsdk.tanh({name})" if self.tensors else f"xp.tanh({name})"

    def to(self, expr, source, target):
        """``expr`` (dims ``source``) summed over the keys ``target`` lacks, its other axes put in
        ``target``'s order, with size-1 axes where ``target`` has keys it lacks. Returns (expr,
        whether it has all of target's axes)."""
        axes = [a for a, k in enumerate(source) if k not in target]
        kept = [k for k in source if k in target]
        if axes and not kept:
            expr = f"{expr}.sum()"
        elif axes:
            listed = ", ".join(map(str, axes))
            expr = f"{expr}.sum(axis={'[' + listed + ']' if self.tensors else '(' + listed + (',)' if len(axes) == 1 else ')')})"
        order = [k for k in target if k in kept]
        if order != kept:
            perm = ", ".join(str(kept.index(k)) for k in order)
            expr = f"{expr}.transpose([{perm}])" if self.tensors else f"{expr}.transpose({perm})"
        if len(order) < len(target) and order:
            expr = f"{expr}.reshape({self.shape([k if k in kept else '1' for k in target])})"
        return expr, len(order) == len(target)

    def broadcast(self, expr, keys):
        if self.tensors:
            return f"opsdk.broadcast_to({expr}, {self.shape(keys)})"
        return f"xp.broadcast_to({expr}, {self.shape(keys)}).copy()"

    def argmax(self, name, source, target, int_dtype):
        """The integer placeholder: argmax of ``name`` over its keys ``target`` lacks."""
        reduced = [k for k in source if k not in target]
        kept = [k for k in target if k in source]  # in target's order
        if not reduced:
            expr = f"({name} > 0)"
            expr, full = self.to(expr, source, target)
        else:
            perm = [source.index(k) for k in (*kept, *reduced)]
            expr = name
            if perm != sorted(perm):
                listed = ", ".join(map(str, perm))
                expr = f"{expr}.transpose([{listed}])" if self.tensors else f"{expr}.transpose({listed})"
            flat = [*(_size(k) for k in kept), _product(reduced)]
            inner = ", ".join(flat)
            expr = f"{expr}.reshape([{inner}])" if self.tensors else f"{expr}.reshape({inner})"
            expr = f"{expr}.argmax(axis={len(kept)})"
            if len(kept) < len(target) and kept:
                expr = f"{expr}.reshape({self.shape([k if k in kept else '1' for k in target])})"
            full = len(kept) == len(target)
        cast = f'.astype("{int_dtype}")' if self.tensors else f".astype(xp.{int_dtype})"
        if not full:
            expr = self.broadcast(expr, target)
        return expr + cast


def _size_lines(signature, used, indent="    "):
    """``N, C, L = x.shape``-style lines binding the sizes in ``used`` (size attributes are
    parameters already; a fixed size no input has is its value)."""
    lines, bound = [], set(a.name for a in signature.size_attrs())
    for tensor in signature.inputs:
        keys = _keys(tensor)
        wanted = [d for d in keys if d in used and d not in bound]
        if not wanted:
            continue
        if keys == wanted:
            lines.append(f"{indent}{', '.join(wanted)}{',' if len(wanted) == 1 else ''} = {tensor.name}.shape")
        else:
            names = ", ".join(wanted)
            values = ", ".join(f"{tensor.name}.shape[{keys.index(d)}]" for d in wanted)
            lines.append(f"{indent}{names} = {values}")
        bound.update(wanted)
    for key in sorted(used - bound):
        if _fixed(signature, key) is not None:
            lines.append(f"{indent}{key} = {_fixed(signature, key)}")
    return lines


def _uses(code):
    import re

    return set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", code))


def _scale(signature):
    factors = [a.name for a in signature.attrs if a.type == FLOAT]
    return "".join(f"{f} * " for f in factors)


def python_forward(signature, tensors=False):
    """The body of the python forward kernel (``tensors=False``) or of ``reference`` (True)."""
    ns = _Python(tensors)
    floats = signature.float_inputs
    lines = []
    tanhs = [f"t_{t.name}" for t in floats]
    assign = f"    {', '.join(tanhs)} = {', '.join(ns.tanh(t.name) for t in floats)}"
    results = []
    for out in signature.outputs:
        target = _keys(out)
        if out.is_float:
            terms, full = [], False
            for t in floats:
                expr, covers = ns.to(f"t_{t.name}", _keys(t), target)
                terms.append(expr)
                full = full or covers
            expr = " + ".join(terms)
            scale = _scale(signature)
            if scale and len(terms) > 1:
                expr = f"{scale}({expr})"
            elif scale:
                expr = f"{scale}{expr}"
            if not full:
                expr = ns.broadcast(expr, target)
        else:
            lead = floats[0]
            expr = ns.argmax(lead.name, _keys(lead), target, out.dtype)
        if not out.dims and not tensors:
            expr = f"xp.asarray({expr})"
        results.append(f"    {out.name} = {expr}")
    body = [assign, *results]
    used = _uses("\n".join(body))
    head = ([] if tensors else [f"    xp = array_module({floats[0].name})"]) + _size_lines(signature, used)
    lines = head + body
    lines.append(f"    return {', '.join(o.name for o in signature.outputs)}")
    return "\n".join(lines)


def python_backward(signature):
    """The body of the python backward kernel: d_<float input> from d_<float output>."""
    ns = _Python(False)
    floats = signature.float_inputs
    body = [f"    {', '.join(f't_{t.name}' for t in floats)} = {', '.join(ns.tanh(t.name) for t in floats)}"]
    for t in floats:
        source = _keys(t)
        terms = [ns.to(f"d_{o.name}", _keys(o), source)[0] for o in signature.float_outputs]
        grad = " + ".join(terms)
        if len(terms) > 1:
            grad = f"({grad})"
        expr = f"{_scale(signature)}(1 - t_{t.name} * t_{t.name}) * {grad}"
        if not t.dims:
            expr = f"xp.asarray({expr})"
        body.append(f"    d_{t.name} = {expr}")
    used = _uses("\n".join(body))
    head = [f"    xp = array_module({floats[0].name})"] + _size_lines(signature, used)
    return "\n".join([*head, *body, f"    return {', '.join(f'd_{t.name}' for t in floats)}"])


# ---- C and CUDA -------------------------------------------------------------------------------

C_INT = {"int64": "int64_t", "int32": "int32_t"}
CUDA_INT = {"int64": "long long", "int32": "int"}


def _index_name(key):
    return f"i_{key}"


def _flat(keys):
    """The C-order offset of the element at the index variables of ``keys``."""
    if not keys:
        return "0"
    expr = _index_name(keys[0])
    for key in keys[1:]:
        expr = f"({expr}) * {_size(key)} + {_index_name(key)}" if "+" in expr else \
            f"{expr} * {_size(key)} + {_index_name(key)}"
    return expr


def _split(keys, indent):
    """Lines giving each key's index variable from the flat index ``k`` (C order)."""
    lines, divisor = [], []
    for key in reversed(keys):
        value = f"k / ({' * '.join(divisor)})" if len(divisor) > 1 else (f"k / {divisor[0]}" if divisor else "k")
        if key != keys[0]:
            value = f"{value} % {_size(key)}"
        lines.append(f"{indent}int64_t {_index_name(key)} = {value};")
        divisor.append(_size(key))
    return lines[::-1]


def _loops(keys, indent):
    """Nested for heads over ``keys`` (and the indent of their body)."""
    heads = []
    for key in keys:
        heads.append(f"{indent}for (int64_t {_index_name(key)} = 0; {_index_name(key)} < {_size(key)}; "
                     f"{_index_name(key)}++)")
        indent += "    "
    return heads, indent


class _Kernels:
    """The placeholder loops in C (``cuda=False``, in a macro over REAL and the suffix SFX) or CUDA."""

    def __init__(self, signature, op, cuda):
        self.sig, self.op, self.cuda = signature, op, cuda
        self.int_type = CUDA_INT if cuda else C_INT
        self.size_type = "long long" if cuda else "int64_t"

    def tanh(self, value):
        return f"tanh({value})" if self.cuda else f"opsdk_tanh_##SFX({value})"

    def renamed(self):
        """Backward's names of the sizes no input has (a size attribute, a fixed size of an
        output only): ``d_<output>_<axis>``, read from that gradient's shape, which rules there."""
        names = {}
        for o in self.sig.float_outputs:
            for axis, key in enumerate(_keys(o)):
                if _holder(self.sig, key) is None and key not in names:
                    names[key] = f"d_{o.name}_{axis}"
        return names

    def sizes(self, stage="forward"):
        """The size parameters (size attributes are attributes in forward)."""
        attrs = {a.name for a in self.sig.attrs}
        if stage == "backward":
            keys = [k for t in self.sig.inputs for k in _keys(t)]
            return [*dict.fromkeys(keys), *self.renamed().values()]
        keys = [k for t in (*self.sig.inputs, *self.sig.outputs) for k in _keys(t)]
        return [k for k in dict.fromkeys(keys) if k not in attrs]

    def params(self, stage, real):
        """The parameter list of forward/backward, with ``real`` the float type's spelling."""
        sig = self.sig
        out = []
        for t in sig.inputs:
            out.append(f"const {real if t.is_float else self.int_type[t.dtype]} *{t.name}")
        if stage == "backward":
            out += [f"const {real} *d_{o.name}" for o in sig.float_outputs]
            out += [f"{real} *d_{t.name}" for t in sig.float_inputs]
        else:
            out += [f"{real if o.is_float else self.int_type[o.dtype]} *{o.name}" for o in sig.outputs]
        out += [f"{self.size_type} {s}" for s in self.sizes(stage)]
        out += [f"{real if a.type == FLOAT else self.size_type} {a.name}" for a in sig.attrs]
        return out

    def loop(self, keys, indent):
        """The head of the loop over the elements of a tensor of ``keys`` (flat index k)."""
        count = _product(keys)
        if self.cuda:
            return [f"{indent}for (long long k = (long long)blockIdx.x * blockDim.x + threadIdx.x; "
                    f"k < {count}; k += (long long)blockDim.x * gridDim.x) {{"]
        return [f"{indent}for (int64_t k = 0; k < {count}; k++) {{"]

    def forward(self, indent):
        sig, lines = self.sig, []
        scale = _scale(sig)
        floats = sig.float_inputs
        for out in sig.outputs:
            target = _keys(out)
            lines.append(f"{indent}/* {out.name}{out.shape_text()} */")
            lines += self.loop(target, indent)
            inner = indent + "    "
            lines += _split(target, inner)
            if out.is_float:
                lines.append(f"{inner}double acc = 0;  /* sums in double, for float32 too */")
                for t in floats:
                    source = _keys(t)
                    heads, body = _loops([k for k in source if k not in target], inner)
                    lines += heads
                    lines.append(f"{body}acc += {self.tanh(f'{t.name}[{_flat(source)}]')};")
                lines.append(f"{inner}{out.name}[k] = (REAL)({scale}acc);")
            else:
                lead = floats[0]
                source = _keys(lead)
                reduced = [k for k in source if k not in target]
                if not reduced:
                    lines.append(f"{inner}{out.name}[k] = {lead.name}[{_flat(source)}] > 0;")
                else:
                    lines.append(f"{inner}{self.int_type[out.dtype]} best = 0, at = 0;")
                    lines.append(f"{inner}REAL top = 0;")
                    heads, body = _loops(reduced, inner)
                    lines += [h + (" {" if h is heads[-1] else "") for h in heads]
                    lines.append(f"{body}REAL v = {lead.name}[{_flat(source)}];")
                    lines.append(f"{body}if (at == 0 || v > top) {{ top = v; best = at; }}  /* the first of ties */")
                    lines.append(f"{body}at++;")
                    lines.append(f"{body[:-4]}}}")
                    lines.append(f"{inner}{out.name}[k] = best;")
            lines.append(f"{indent}}}")
        return lines

    def backward(self, indent):
        sig, lines = self.sig, []
        scale = _scale(sig)
        for t in sig.float_inputs:
            source = _keys(t)
            lines.append(f"{indent}/* d_{t.name}{t.shape_text()} */")
            lines += self.loop(source, indent)
            inner = indent + "    "
            lines += _split(source, inner)
            lines.append(f"{inner}REAL t = {self.tanh(f'{t.name}[k]')};")
            lines.append(f"{inner}double acc = 0;")
            for o in sig.float_outputs:
                target = [self.renamed().get(key, key) for key in _keys(o)]
                heads, body = _loops([k for k in target if k not in source], inner)
                lines += heads
                lines.append(f"{body}acc += d_{o.name}[{_flat(target)}];")
            lines.append(f"{inner}d_{t.name}[k] = (REAL)({scale}(1 - t * t) * acc);")
            lines.append(f"{indent}}}")
        return lines


def _unused_splits(lines):
    """Drop ``int64_t i_X = ...;`` lines whose variable the loop body never reads."""
    import re

    def depth(line):
        return len(line) - len(line.lstrip())

    kept = []
    for at, line in enumerate(lines):
        match = re.match(r"\s*int64_t (i\w+) = k", line)
        if match:
            scope = []
            for later in lines[at + 1:]:  # to the end of the loop: the first line indented less
                if depth(later) < depth(line):
                    break
                scope.append(later)
            if not re.search(rf"\b{match[1]}\b", "\n".join(scope)):
                continue
        kept.append(line)
    return kept


def c_source(signature, op):
    """The text of ``<op>.c``: the placeholder loops once, in a macro over the float type."""
    k = _Kernels(signature, op, cuda=False)
    out = []
    for stage in ("forward", "backward"):
        body = _unused_splits(getattr(k, stage)("    "))
        params = ", ".join(k.params(stage, "REAL"))
        out.append(f"#define {stage.upper()}(REAL, SFX) \\\n"
                   + f"static void {stage}_##SFX({params}) \\\n{{ \\\n"
                   + " \\\n".join(line for line in body) + " \\\n}\n")
    wrappers = []
    names = {"forward": [t.name for t in signature.inputs] + [o.name for o in signature.outputs],
             "backward": [t.name for t in signature.inputs] + [f"d_{o.name}" for o in signature.float_outputs]
             + [f"d_{t.name}" for t in signature.float_inputs]}
    for stage in ("forward", "backward"):
        args = ", ".join([*names[stage], *k.sizes(stage), *(a.name for a in signature.attrs)])
        for real, suffix in (("float", "f32"), ("double", "f64")):
            wrappers.append(f"void {op}_{stage}_{suffix}({', '.join(k.params(stage, real))})\n"
                            f"{{\n    {stage}_{suffix}({args});\n}}\n")
    return out, wrappers


def cuda_source(signature, op):
    """The text of ``<op>.cu``'s loops: templates over T, and the extern "C" kernels."""
    k = _Kernels(signature, op, cuda=True)
    loops, kernels = [], []
    names = {"forward": [t.name for t in signature.inputs] + [o.name for o in signature.outputs],
             "backward": [t.name for t in signature.inputs] + [f"d_{o.name}" for o in signature.float_outputs]
             + [f"d_{t.name}" for t in signature.float_inputs]}
    for stage in ("forward", "backward"):
        body = _unused_splits(getattr(k, stage)("    "))
        loops.append(f"template <typename REAL>\n__device__ void {stage}_loop({', '.join(k.params(stage, 'REAL'))})\n"
                     "{\n" + "\n".join(body).replace("int64_t", "long long") + "\n}\n")
        args = ", ".join([*names[stage], *k.sizes(stage), *(a.name for a in signature.attrs)])
        for real, suffix in (("float", "f32"), ("double", "f64")):
            kernels.append(f'extern "C" __global__ void {op}_{stage}_{suffix}({", ".join(k.params(stage, real))})\n'
                           f"{{\n    {stage}_loop({args});\n}}\n")
    return loops, kernels


def layout(signature, stage, cuda=False):
    """The ``outputs=``/``sizes=`` (and ``threads=``) keyword text of a declared adapter."""
    sig = signature
    attrs = {a.name for a in sig.attrs}
    outputs = sig.outputs if stage == "forward" else sig.float_inputs
    prefix = "" if stage == "forward" else "d_"

    def reader(keys):
        """(parameters, the size expression of each key): inputs by name, attributes keyword-only."""
        params, sizes = [], []
        for key in keys:
            if key in attrs:
                sizes.append(key)
                continue
            if _fixed(sig, key) is not None:
                sizes.append(_fixed(sig, key))
                continue
            tensor, axis = _holder(sig, key)
            if tensor.name not in params:
                params.append(tensor.name)
            sizes.append(f"{tensor.name}.shape[{axis}]")
        used = [a for a in sig.attrs if a.name in keys]
        head = ", ".join(params)
        if used:
            head += (", " if head else "") + "*, " + ", ".join(a.name for a in used)
        return head, sizes

    shapes = []
    for tensor in outputs:
        head, sizes = reader(_keys(tensor))
        inner = ", ".join(sizes)
        shape = f"({inner},)" if len(sizes) == 1 else f"({inner})"
        if not head:
            head = f"{sig.float_inputs[0].name}"
        shapes.append(f'"{prefix}{tensor.name}": lambda {head}: {shape}')
    size_items = []
    kernels = _Kernels(sig, "", False)
    renamed = {v: k for k, v in kernels.renamed().items()}
    for key in kernels.sizes(stage):
        if key in renamed:  # backward: a size no input has, from the gradient that has it
            holder, axis = _holder(sig, renamed[key], sig.float_outputs)
            size_items.append(f'"{key}": lambda d_{holder.name}: d_{holder.name}.shape[{axis}]')
        elif _fixed(sig, key) is not None:
            size_items.append(f'"{key}": lambda {sig.float_inputs[0].name}: {_fixed(sig, key)}')
        else:
            tensor, axis = _holder(sig, key)
            size_items.append(f'"{key}": lambda {tensor.name}: {tensor.name}.shape[{axis}]')
    text = {"outputs": "{" + ", ".join(shapes) + "}", "sizes": "{" + ", ".join(size_items) + "}"}
    if cuda:
        keys = [k for tensor in outputs for k in _keys(tensor)]
        head, _ = reader(keys)
        counts = []
        for tensor in outputs:
            _, sizes = reader(_keys(tensor))
            counts.append(" * ".join(sizes) or "1")
        head = head or sig.float_inputs[0].name
        text["threads"] = f"lambda {head}: max({', '.join(counts)})" if len(counts) > 1 else f"lambda {head}: {counts[0]}"
    return text


def _python_literal(attr):
    return repr(float(attr.default)) if attr.type == FLOAT else str(int(attr.default))


def signature_context(op, signature, backends):
    """The variables of ``templates/op-signature`` (templates/README.md lists them)."""
    sig = signature
    sizes = sig.sample_sizes()
    floats = sig.float_inputs
    ints_in = [t for t in sig.inputs if not t.is_float]
    attrs_kw = ", ".join(a.name for a in sig.attrs)
    inputs = ", ".join(t.name for t in sig.inputs)
    context = {
        "signature": sig.text,
        "inputs": [{"name": t.name, "dtype": t.dtype, "is_float": t.is_float, "dims": list(t.dims),
                    "shape": list(sig.shape(t)), "text": f"{t.name}: {t.dtype}{t.shape_text()}"}
                   for t in sig.inputs],
        "outputs": [{"name": o.name, "dtype": o.dtype, "is_float": o.is_float,
                     "text": f"{o.name}: {o.dtype}{o.shape_text()}"} for o in sig.outputs],
        "attrs": [{"name": a.name, "type": a.type, "default": _python_literal(a)} for a in sig.attrs],
        "sizes_text": ", ".join(f"{s}={v}" for s, v in sizes.items()),
        "input_names": inputs,
        "float_input_names": [t.name for t in floats],
        "int_input_names": [t.name for t in ints_in],
        "int_output_names": [o.name for o in sig.outputs if not o.is_float],
        "float_output_names": [o.name for o in sig.float_outputs],
        "output_names": ", ".join(o.name for o in sig.outputs),
        "kernel_params": inputs + (f", *, {attrs_kw}" if attrs_kw else ""),
        "backward_kernel_params": ", ".join([*(t.name for t in sig.inputs),
                                             *(f"d_{o.name}" for o in sig.float_outputs)])
        + (f", *, {attrs_kw}" if attrs_kw else ""),
        "function_params": ", ".join([*(t.name for t in sig.inputs),
                                      *(f"{a.name}={_python_literal(a)}" for a in sig.attrs)]),
        "grad_params": ", ".join(f"d_{o.name}" for o in sig.outputs),
        "python_forward": python_forward(sig),
        "python_backward": python_backward(sig),
        "reference_body": python_forward(sig, tensors=True),
        "placeholder": _placeholder_summary(sig),
        "int_arg_dtypes": {t.name: t.dtype for t in ints_in},
        "inputs_table": inputs_table(sig),
        "registration_inputs": registration_inputs(sig),
        "attrs_dict": "{" + ", ".join(f'"{a.name}": {_python_literal(a)}' for a in sig.attrs) + "}",
    }
    context["function_forward"], context["function_backward"] = function_bodies(sig)
    if "c" in backends:
        macros, wrappers = c_source(sig, op)
        context.update(c_macros=macros, c_wrappers=wrappers, c_forward=layout(sig, "forward"),
                       c_backward=layout(sig, "backward"))
    if "cuda" in backends:
        loops, kernels = cuda_source(sig, op)
        context.update(cuda_loops=loops, cuda_kernels=kernels, cuda_forward=layout(sig, "forward", True),
                       cuda_backward=layout(sig, "backward", True))
    return context


def _placeholder_summary(sig):
    """One line per output: what the placeholder computes (for the module's docstring)."""
    scale = " * ".join(a.name for a in sig.attrs if a.type == FLOAT)
    lines = []
    lead = sig.float_inputs[0]
    for out in sig.outputs:
        if out.is_float:
            terms = " + ".join(f"tanh({t.name})" for t in sig.float_inputs)
            lines.append(f"{out.name} = {scale + ' * ' if scale else ''}"
                         f"{'(' + terms + ')' if scale and len(sig.float_inputs) > 1 else terms}, "
                         f"each term summed over its axes {out.name} lacks, broadcast over the others")
        else:
            lacks = [d for d in lead.dims if d not in out.dims]
            lines.append(f"{out.name} = argmax of {lead.name} over {', '.join(map(str, lacks))} (flattened)"
                         if lacks else f"{out.name} = {lead.name} > 0")
    return lines


def _tuple(items):
    items = list(items)
    return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"


def _target_list(names):
    """``a, b`` or ``a,`` (a one-name unpacking)."""
    return ", ".join(names) + ("," if len(names) == 1 else "")


def function_bodies(sig):
    """The bodies of the Function's forward and backward (after their ``def`` lines)."""
    floats = sig.float_inputs
    names = [t.name for t in sig.inputs]
    outs = [o.name for o in sig.outputs]
    ints = [o.name for o in sig.outputs if not o.is_float]
    attrs = "{" + ", ".join(f'"{a.name}": {a.type}({a.name})' for a in sig.attrs) + "}"
    call = f"forward({', '.join(f'array_of({n})' for n in names)}, **ctx.attrs)"
    fwd = [f"_check({', '.join(f'{n}={n}' for n in names)})",
           f"ctx.attrs = {attrs}",
           f"ctx.save_for_backward({', '.join(names)})"]
    if len(outs) == 1:
        fwd.append(f"{outs[0]} = tensor_of({call})")
    else:
        fwd.append(f"{', '.join(outs)} = (tensor_of(a) for a in {call})")
    if ints:
        fwd.append(f"ctx.mark_non_differentiable({', '.join(ints)})  # integer outputs: no gradient")
    fwd.append(f"return {', '.join(outs)}")
    grads_in = [f"d_{o.name}" for o in sig.float_outputs]
    lead = floats[0].name
    bwd = [f"{_target_list(names)} = (array_of(t) for t in ctx.saved_tensor())",
           f"xp = array_module({lead})"]
    if len(grads_in) == 1:  # incoming gradients in the inputs' float dtype (a 0-d one as an array)
        bwd.append(f"{grads_in[0]} = xp.asarray(array_of({grads_in[0]}), dtype={lead}.dtype)")
    else:
        bwd.append(f"{', '.join(grads_in)} = (xp.asarray(array_of(g), dtype={lead}.dtype) "
                   f"for g in {_tuple(grads_in)})")
    bwd.append(f"{', '.join(f'd_{t.name}' for t in floats)} = backward({', '.join([*names, *grads_in])}, **ctx.attrs)")
    bwd.append("return " + ", ".join(f"tensor_of(d_{t.name})" if t.is_float else "None" for t in sig.inputs))
    return "\n".join(" " * 8 + line for line in fwd), "\n".join(" " * 8 + line for line in bwd)


def registration_inputs(sig):
    """The ``inputs=[TensorSpec(...), ...]`` list's items."""
    specs = []
    for t in sig.inputs:
        shape = _tuple(str(s) for s in sig.shape(t))
        extra = "" if t.is_float else f', dtype="{t.dtype}", integer=True, high=2'
        specs.append(f"TensorSpec(shape={shape}{extra})")
    return ", ".join(specs)


def inputs_table(sig):
    """The module's INPUTS dict: each input's dtype and dims."""
    items = []
    for t in sig.inputs:
        dims = _tuple(f'"{d}"' if isinstance(d, str) else str(d) for d in t.dims)
        items.append(f'"{t.name}": ("{t.dtype}", {dims})')
    return "{" + ", ".join(items) + "}"
