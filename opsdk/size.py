"""Size: a tensor's shape as Paddle 3.3.1 gives it, a list that prints as ``paddle.Size([2, 3])``."""


class Size(list):
    """A shape: a list of ints (it compares equal to ``[2, 3]``) that prints as Paddle prints
    one, keeps its type when sliced or added to, and counts its elements with ``numel()``.

    Example:
        >>> s = Size([2, 3])
        >>> s, s == [2, 3], s[1:], s.numel()
        (paddle.Size([2, 3]), True, paddle.Size([3]), 6)
    """

    __slots__ = ()

    def __repr__(self):
        return f"paddle.Size({list.__repr__(self)})"

    __str__ = __repr__

    def __getitem__(self, index):
        item = list.__getitem__(self, index)
        return Size(item) if type(index) is slice else item

    def __add__(self, other):
        return Size(list.__add__(self, list(other)))

    def __radd__(self, other):
        return Size(list(other) + list(self))

    def copy(self):
        return Size(self)

    def numel(self):
        """The number of elements of a tensor of this shape."""
        count = 1
        for n in self:
            count *= n
        return count
