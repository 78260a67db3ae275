"""Containers: Sequential (layers applied in order), LayerList, LayerDict, ParameterList,
ParameterDict."""
from collections import OrderedDict
from collections.abc import Iterable

from ..errors import LayerArgumentError, OpArgumentError
from .layer import Layer


def _renumber(container, items):
    """Make items the container's sublayers, named "0", "1", ... in order."""
    container._sub_layers.clear()
    for i, item in enumerate(items):
        container._sub_layers[str(i)] = item


class Sequential(Layer):
    """Apply layers one after the other.

    Accepts layers, (name, layer) pairs or one OrderedDict.

    Example:
        >>> model = opsdk.nn.Sequential(opsdk.nn.Linear(4, 8), opsdk.nn.ReLU(),
        ...                             opsdk.nn.Linear(8, 2))
        >>> model(opsdk.randn([3, 4])).shape
        paddle.Size([3, 2])
    """

    def __init__(self, *layers):
        super().__init__()
        if len(layers) == 1 and isinstance(layers[0], OrderedDict):
            layers = tuple(layers[0].items())
        if layers and isinstance(layers[0], (list, tuple)):
            for name, layer in layers:
                self.add_sublayer(name, layer)
        else:
            for i, layer in enumerate(layers):
                self.add_sublayer(str(i), layer)

    def forward(self, x):
        for layer in self._sub_layers.values():
            x = layer(x)
        return x

    def __getitem__(self, idx):
        items = list(self._sub_layers.values())
        if isinstance(idx, slice):
            return Sequential(*items[idx])
        if isinstance(idx, str):
            return self._sub_layers[idx]
        try:
            return items[idx]
        except IndexError:
            raise IndexError(f"Sequential: index {idx} out of range for {len(items)} "
                             f"layers") from None

    def __len__(self):
        return len(self._sub_layers)

    def __iter__(self):
        return iter(self._sub_layers.values())

    def __setitem__(self, name, layer):
        """``seq[i] = layer`` (or a name): replaces the sublayer of that name, as in Paddle."""
        if not isinstance(layer, Layer):
            raise OpArgumentError(f"Sequential[{name!r}] = ...: expected: a Layer; got: "
                                  f"{type(layer).__name__}")
        self.add_sublayer(str(name), layer)

    def __delitem__(self, name):
        name = str(name)
        if name not in self._sub_layers:
            raise KeyError(f"Sequential: no sublayer named {name!r}; it has "
                           f"{list(self._sub_layers)}")
        del self._sub_layers[name]

    def append(self, layer):
        self.add_sublayer(str(len(self._sub_layers)), layer)
        return self

    def extend(self, layers):
        for layer in layers:
            self.append(layer)
        return self

    def insert(self, index, layer):
        """Put ``layer`` at position ``index`` (-len..len), renumbering the later sublayers."""
        # Paddle raises AssertionError for a non-Layer here, and its tests check for it
        if not isinstance(layer, Layer):
            raise AssertionError(f"Sequential.insert: expected: a Layer; got: "
                                 f"{type(layer).__name__}")
        n = len(self._sub_layers)
        if not -n <= index <= n:
            raise IndexError(f"Sequential.insert: index {index} out of range for {n} layers")
        index = index + n if index < 0 else index
        items = list(self._sub_layers.values())
        items.insert(index, layer)
        _renumber(self, items)
        return self


class LayerList(Layer):
    """A list of layers whose parameters the parent sees; it has no forward of its own.

    Example:
        >>> blocks = opsdk.nn.LayerList([opsdk.nn.Linear(4, 4) for _ in range(3)])
        >>> len(blocks.parameters())
        6
    """

    def __init__(self, sublayers=None):
        super().__init__()
        for layer in sublayers or ():
            self.append(layer)

    def _index(self, idx):
        n = len(self._sub_layers)
        if not -n <= idx < n:
            raise IndexError(f"LayerList: index {idx} out of range for {n} layers")
        return idx + n if idx < 0 else idx

    def __getitem__(self, idx):
        items = list(self._sub_layers.values())
        if isinstance(idx, slice):
            return LayerList(items[idx])
        return items[self._index(idx)]

    def __setitem__(self, idx, layer):
        self.add_sublayer(str(self._index(idx)), layer)

    def __delitem__(self, idx):
        """``del layers[i]`` or ``del layers[a:b]``; the rest are renumbered from 0."""
        items = list(self._sub_layers.values())
        if isinstance(idx, slice):
            del items[idx]
        else:
            del items[self._index(idx)]
        _renumber(self, items)

    def __len__(self):
        return len(self._sub_layers)

    def __iter__(self):
        return iter(self._sub_layers.values())

    def append(self, layer):
        """Add a layer at the end; returns self."""
        if not isinstance(layer, Layer):
            raise OpArgumentError(f"LayerList.append: expected: a Layer; got: "
                                  f"{type(layer).__name__}")
        self.add_sublayer(str(len(self._sub_layers)), layer)
        return self

    def extend(self, layers):
        for layer in layers:
            self.append(layer)
        return self

    def insert(self, index, layer):
        items = list(self._sub_layers.values())
        items.insert(index, layer)
        _renumber(self, items)

    def forward(self, *args, **kwargs):
        raise NotImplementedError("LayerList has no forward; iterate over it in your forward()")


class _Keyed(Layer):
    """What LayerDict and ParameterDict share: items by name in one of the layer's tables."""

    _table, _add, _arg, _item = "_sub_layers", "add_sublayer", "sublayers", "layer"

    def __init__(self, items=None):
        super().__init__()
        if items is not None:
            self.update(items)

    def __getitem__(self, key):
        return getattr(self, self._table)[key]

    def __setitem__(self, key, value):
        getattr(self, self._add)(key, value)

    def __len__(self):
        return len(getattr(self, self._table))

    def __iter__(self):
        return iter(getattr(self, self._table))

    def update(self, items):
        """Add (name, item) pairs from a mapping (or a container like this one) or an iterable
        of pairs; a name already present is replaced."""
        op = f"{type(self).__name__}.update"
        if isinstance(items, _Keyed):
            items = getattr(items, items._table)
        if hasattr(items, "items"):
            pairs = items.items()
        elif isinstance(items, Iterable):
            pairs = items
        else:  # Paddle asserts this: code that catches AssertionError keeps working
            raise LayerArgumentError(f"{op}: argument '{self._arg}' must be a mapping or an "
                                     f"iterable of (name, {self._item}) pairs; got: "
                                     f"{type(items).__name__}")
        for i, pair in enumerate(pairs):
            if not isinstance(pair, (list, tuple)) or len(pair) != 2:
                raise OpArgumentError(f"{op}: element {i} of '{self._arg}' must be a (name, "
                                      f"{self._item}) pair; got: {pair!r}")
            getattr(self, self._add)(*pair)


class LayerDict(_Keyed):
    """A dict of named layers whose parameters the parent sees; it has no forward of its own.

    Example:
        >>> heads = opsdk.nn.LayerDict({"a": opsdk.nn.Linear(4, 2), "b": opsdk.nn.Linear(4, 3)})
        >>> sorted(heads.keys())
        ['a', 'b']
    """

    def __init__(self, sublayers=None):
        super().__init__(sublayers)

    def __delitem__(self, key):
        del self._sub_layers[key]

    def __contains__(self, key):
        return key in self._sub_layers

    def keys(self):
        return self._sub_layers.keys()

    def values(self):
        return self._sub_layers.values()

    def items(self):
        return self._sub_layers.items()

    def pop(self, key):
        return self._sub_layers.pop(key)

    def clear(self):
        self._sub_layers.clear()

    def forward(self, *args, **kwargs):
        raise NotImplementedError("LayerDict has no forward; pick its layers in your forward()")


class ParameterList(Layer):
    """A list of Parameters registered with the layer (so parameters() and optimizers see them).

    Example:
        >>> ps = opsdk.nn.ParameterList([opsdk.create_parameter([2], "float32")])
        >>> len(ps.parameters())
        1
    """

    def __init__(self, parameters=None):
        super().__init__()
        for p in parameters or ():
            self.append(p)

    def __getitem__(self, idx):
        return list(self._parameters.values())[idx]

    def __setitem__(self, idx, param):
        key = list(self._parameters)[idx]
        self.add_parameter(key, param)

    def __len__(self):
        return len(self._parameters)

    def __iter__(self):
        return iter(self._parameters.values())

    def append(self, parameter):
        """Add a Parameter at the end; returns self."""
        self.add_parameter(str(len(self._parameters)), parameter)
        return self

    def forward(self, *args, **kwargs):
        raise NotImplementedError("ParameterList has no forward; use its parameters in yours")


class ParameterDict(_Keyed):
    """Parameters by name, registered with the layer (so parameters() and optimizers see them).

    Accepts a mapping, a ParameterDict or (name, parameter) pairs.

    Example:
        >>> pd = opsdk.nn.ParameterDict({"w": opsdk.create_parameter([2], "float32")})
        >>> list(pd)
        ['w']
    """

    _table, _add, _arg, _item = "_parameters", "add_parameter", "parameters", "parameter"

    def __init__(self, parameters=None):
        super().__init__(parameters)

    def forward(self, *args, **kwargs):
        raise NotImplementedError("ParameterDict has no forward; use its parameters in yours")
