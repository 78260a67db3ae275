"""nn.Layer: the base class of models (parameters, sublayers, buffers, train/eval, state)."""
from collections import OrderedDict

from ..errors import OpArgumentError
from ..tensor import Tensor
from .naming import camel_to_snake, unique_name
from .parameter import Parameter, make_parameter


class HookRemoveHelper:
    """Returned by register_forward_*_hook; ``remove()`` takes the hook off."""

    _next = 0

    def __init__(self, table):
        HookRemoveHelper._next += 1
        self._id = HookRemoveHelper._next
        self._table = table

    def remove(self):
        self._table.pop(self._id, None)


class Layer:
    """Base class of every layer: subclass it, create parameters in __init__, write forward.

    Attributes that are Parameters, Layers or registered buffers are tracked, so
    ``parameters()``, ``state_dict()``, ``train()``/``eval()`` reach the whole tree.

    Example:
        >>> class MLP(opsdk.nn.Layer):
        ...     def __init__(self):
        ...         super().__init__()
        ...         self.fc1 = opsdk.nn.Linear(4, 8)
        ...         self.fc2 = opsdk.nn.Linear(8, 2)
        ...     def forward(self, x):
        ...         return self.fc2(opsdk.nn.functional.relu(self.fc1(x)))
        >>> [n for n, _ in MLP().named_parameters()]
        ['fc1.weight', 'fc1.bias', 'fc2.weight', 'fc2.bias']
    """

    training = True

    def __init__(self, name_scope=None, dtype="float32"):
        d = self.__dict__
        d["training"] = True
        d["_parameters"] = OrderedDict()
        d["_sub_layers"] = OrderedDict()
        d["_buffers"] = OrderedDict()
        d["_non_persistable_buffer_names"] = set()
        d["_forward_pre_hooks"] = OrderedDict()
        d["_forward_post_hooks"] = OrderedDict()
        d["_dtype"] = dtype
        d["_full_name"] = unique_name(name_scope or camel_to_snake(type(self).__name__))

    # -- forward ---------------------------------------------------------------------------
    def forward(self, *inputs, **kwargs):
        raise NotImplementedError(f"{type(self).__name__} must define forward()")

    def __call__(self, *inputs, **kwargs):
        if self._forward_pre_hooks:
            for hook in list(self._forward_pre_hooks.values()):
                r = hook(self, inputs)
                if r is not None:
                    inputs = r if isinstance(r, tuple) else (r,)
        out = self.forward(*inputs, **kwargs)
        if self._forward_post_hooks:
            for hook in list(self._forward_post_hooks.values()):
                r = hook(self, inputs, out)
                if r is not None:
                    out = r
        return out

    def register_forward_pre_hook(self, hook):
        """Call ``hook(layer, inputs)`` before forward; a non-None result replaces the inputs."""
        h = HookRemoveHelper(self._forward_pre_hooks)
        self._forward_pre_hooks[h._id] = hook
        return h

    def register_forward_post_hook(self, hook):
        """Call ``hook(layer, inputs, output)`` after forward; a non-None result replaces it."""
        h = HookRemoveHelper(self._forward_post_hooks)
        self._forward_post_hooks[h._id] = hook
        return h

    # -- attribute bookkeeping -------------------------------------------------------------
    def _require_init(self, name):
        if "_parameters" not in self.__dict__:
            raise OpArgumentError(f"{type(self).__name__}: cannot assign '{name}' before "
                                  f"Layer.__init__ ran; expected: super().__init__() first in "
                                  f"__init__")

    def __setattr__(self, name, value):
        d = self.__dict__
        if isinstance(value, Parameter):
            self._require_init(name)
            self._discard(name, keep="_parameters")
            d["_parameters"][name] = value
        elif isinstance(value, Layer):
            self._require_init(name)
            self._discard(name, keep="_sub_layers")
            d["_sub_layers"][name] = value
        elif "_parameters" in d and name in d["_parameters"]:
            if value is not None:
                raise OpArgumentError(f"{type(self).__name__}.{name} is a parameter; expected: "
                                      f"a Parameter or None; got: {type(value).__name__}")
            d["_parameters"][name] = None
        elif "_sub_layers" in d and name in d["_sub_layers"]:
            if value is not None:
                raise OpArgumentError(f"{type(self).__name__}.{name} is a sublayer; expected: "
                                      f"a Layer or None; got: {type(value).__name__}")
            d["_sub_layers"][name] = None
        elif "_buffers" in d and name in d["_buffers"]:
            if value is not None and not isinstance(value, Tensor):
                raise OpArgumentError(f"{type(self).__name__}.{name} is a buffer; expected: a "
                                      f"Tensor or None; got: {type(value).__name__}")
            d["_buffers"][name] = value
        else:
            object.__setattr__(self, name, value)

    def _discard(self, name, keep=None):
        """Forget name everywhere but the table `keep` (re-assigning there keeps the order)."""
        d = self.__dict__
        d.pop(name, None)
        for table in ("_parameters", "_sub_layers", "_buffers"):
            if table != keep:
                d[table].pop(name, None)

    def __getattr__(self, name):
        d = self.__dict__
        for table in ("_parameters", "_sub_layers", "_buffers"):
            t = d.get(table)
            if t is not None and name in t:
                return t[name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute {name!r}")

    def __delattr__(self, name):
        d = self.__dict__
        for table in ("_parameters", "_sub_layers", "_buffers"):
            if name in d.get(table, ()):
                del d[table][name]
                return
        object.__delattr__(self, name)

    def __dir__(self):
        return sorted(set(super().__dir__()) | set(self._parameters) | set(self._sub_layers)
                      | set(self._buffers))

    # -- creating and registering ------------------------------------------------------------
    def create_parameter(self, shape, attr=None, dtype=None, is_bias=False,
                         default_initializer=None):
        """A new Parameter named after this layer ('linear_0.w_0'); assign it to an attribute.

        Args:
            shape: list of ints.
            attr: ParamAttr, initializer, name, or None (False is refused here).
            dtype: defaults to the layer's dtype.
            is_bias: default initializer Constant(0.0) instead of XavierUniform.
            default_initializer: used when attr names no initializer.

        Returns:
            An ``opsdk.nn.Parameter``.
        """
        from .param_attr import ParamAttr
        attr = ParamAttr._to_attr(attr)
        if attr is False:
            raise OpArgumentError(f"{type(self).__name__}.create_parameter: attr=False means no "
                                  f"parameter; expected: None or a ParamAttr")
        return make_parameter(shape, dtype or self._dtype, attr, is_bias, default_initializer,
                              self._full_name)

    def add_parameter(self, name, parameter):
        """Register parameter (or None) under name; returns it."""
        if parameter is not None and not isinstance(parameter, Parameter):
            raise OpArgumentError(f"add_parameter: expected: a Parameter; got: "
                                  f"{type(parameter).__name__}")
        self._require_init(name)
        self._discard(name, keep="_parameters")
        self._parameters[name] = parameter
        return parameter

    def add_sublayer(self, name, sublayer):
        """Register sublayer under name; returns it."""
        if not isinstance(sublayer, Layer):
            raise OpArgumentError(f"add_sublayer: expected: a Layer; got: "
                                  f"{type(sublayer).__name__}")
        name = str(name)
        self._require_init(name)
        self._discard(name, keep="_sub_layers")
        self._sub_layers[name] = sublayer
        return sublayer

    def register_buffer(self, name, tensor, persistable=True):
        """Keep a Tensor that is state but not a parameter (saved by state_dict if persistable)."""
        if tensor is not None and not isinstance(tensor, Tensor):
            raise OpArgumentError(f"register_buffer: expected: a Tensor or None; got: "
                                  f"{type(tensor).__name__}")
        self._require_init(name)
        self._discard(name, keep="_buffers")
        self._buffers[name] = tensor
        if persistable:
            self._non_persistable_buffer_names.discard(name)
        else:
            self._non_persistable_buffer_names.add(name)

    # -- walking the tree --------------------------------------------------------------------
    def named_sublayers(self, prefix="", include_self=False, layers_set=None,
                        remove_duplicate=True):
        """(name, layer) for every sublayer, depth first; each layer once unless
        remove_duplicate=False (then a layer held twice comes twice, as in Paddle)."""
        if layers_set is None:
            layers_set = set()
        if include_self and (id(self) not in layers_set or not remove_duplicate):
            layers_set.add(id(self))
            yield prefix, self
        for key, layer in self._sub_layers.items():
            if layer is None or (remove_duplicate and id(layer) in layers_set):
                continue
            name = prefix + ("." if prefix else "") + key
            layers_set.add(id(layer))
            yield name, layer
            yield from layer.named_sublayers(name, False, layers_set, remove_duplicate)

    def sublayers(self, include_self=False):
        """Every sublayer, depth first."""
        return [layer for _, layer in self.named_sublayers(include_self=include_self)]

    def named_children(self):
        """(name, layer) for the direct sublayers."""
        seen = set()
        for name, layer in self._sub_layers.items():
            if layer is not None and id(layer) not in seen:
                seen.add(id(layer))
                yield name, layer

    def children(self):
        return [layer for _, layer in self.named_children()]

    def _named_members(self, attr, prefix, include_sublayers, remove_duplicate):
        """(structured name, tensor) for the dict ``attr`` of this layer and, by default, of
        its tree; a tensor held under two names comes once unless remove_duplicate=False."""
        seen = set()
        layers = (self.named_sublayers(prefix, include_self=True,
                                       remove_duplicate=remove_duplicate)
                  if include_sublayers else [(prefix, self)])
        for lname, layer in layers:
            for key, t in getattr(layer, attr).items():
                if t is None or (remove_duplicate and id(t) in seen):
                    continue
                seen.add(id(t))
                yield lname + ("." if lname else "") + key, t

    def named_parameters(self, prefix="", include_sublayers=True, remove_duplicate=True):
        """(structured name, parameter) for this layer's parameters and, by default, its tree's."""
        return self._named_members("_parameters", prefix, include_sublayers, remove_duplicate)

    def parameters(self, include_sublayers=True):
        """A list of every parameter (each once)."""
        return [p for _, p in self.named_parameters(include_sublayers=include_sublayers)]

    def named_buffers(self, prefix="", include_sublayers=True, remove_duplicate=True):
        return self._named_members("_buffers", prefix, include_sublayers, remove_duplicate)

    def buffers(self, include_sublayers=True):
        return [b for _, b in self.named_buffers(include_sublayers=include_sublayers)]

    def apply(self, fn):
        """Call fn(layer) on every sublayer, then on self; returns self."""
        for layer in self.children():
            layer.apply(fn)
        fn(self)
        return self

    # -- modes and gradients -------------------------------------------------------------------
    def train(self):
        """Training mode for this layer and its tree (dropout active)."""
        for layer in self.sublayers(include_self=True):
            layer.__dict__["training"] = True
        return self

    def eval(self):
        """Evaluation mode for this layer and its tree (dropout off)."""
        for layer in self.sublayers(include_self=True):
            layer.__dict__["training"] = False
        return self

    def clear_gradients(self, set_to_zero=True):
        """Clear the gradient of every parameter (zeros in place, or None)."""
        for p in self.parameters():
            if p.grad is not None:
                p.clear_gradient(set_to_zero)

    clear_grad = clear_gradients

    # -- state -----------------------------------------------------------------------------
    def state_dict(self, destination=None, include_sublayers=True, structured_name_prefix="",
                   use_hook=True):
        """An OrderedDict of structured name -> Tensor: parameters and persistable buffers."""
        from .layer_state import state_dict
        return state_dict(self, destination, include_sublayers, structured_name_prefix)

    def set_state_dict(self, state_dict, use_structured_name=True):
        """Copy values from state_dict into the parameters and buffers, in place.

        Returns:
            (missing_keys, unexpected_keys), lists of names.
        """
        from .layer_state import set_state_dict
        return set_state_dict(self, state_dict, use_structured_name)

    set_dict = set_state_dict
    load_dict = set_state_dict

    def to(self, device=None, dtype=None, blocking=None):
        """Move/cast every parameter and buffer in place (float dtypes only are cast)."""
        from .layer_state import move_to
        move_to(self, device, dtype)
        return self

    def float(self):
        return self.to(dtype="float32")

    def full_name(self):
        """This layer's unique name ('linear_0')."""
        return self._full_name

    # -- printing ----------------------------------------------------------------------------
    def extra_repr(self):
        return ""

    def __repr__(self):
        lines = []
        for name, layer in self._sub_layers.items():
            body = repr(layer).replace("\n", "\n  ")
            lines.append(f"({name}): {body}")
        head = f"{type(self).__name__}({self.extra_repr()}"
        if not lines:
            return head + ")"
        return head + "\n  " + "\n  ".join(lines) + "\n)"
