"""Where equal values end up after libstdc++'s std::nth_element, std::sort and
std::partial_sort, step by step as GCC's <bits/stl_algo.h> and <bits/stl_heap.h> move them.

Paddle's CPU kernels of topk, kthvalue and median select with these algorithms over
(value, index) pairs compared by value only, so among equal values the index they return is
whichever one the algorithm happens to leave in place. Replaying the algorithm gives the same
index (and so the same gradient). It runs in Python: callers use it only for rows whose
answer depends on it (rows with ties); every other row takes a vectorised path.
"""
import numpy as np


def _lg(n):
    return n.bit_length() - 1


def _move_median_to_first(v, result, a, b, c, less):
    if less(v[a], v[b]):
        if less(v[b], v[c]):
            v[result], v[b] = v[b], v[result]
        elif less(v[a], v[c]):
            v[result], v[c] = v[c], v[result]
        else:
            v[result], v[a] = v[a], v[result]
    elif less(v[a], v[c]):
        v[result], v[a] = v[a], v[result]
    elif less(v[b], v[c]):
        v[result], v[c] = v[c], v[result]
    else:
        v[result], v[b] = v[b], v[result]


def _unguarded_partition(v, first, last, pivot, less):
    while True:
        while less(v[first], v[pivot]):
            first += 1
        last -= 1
        while less(v[pivot], v[last]):
            last -= 1
        if not first < last:
            return first
        v[first], v[last] = v[last], v[first]
        first += 1


def _partition_pivot(v, first, last, less):
    mid = first + (last - first) // 2
    _move_median_to_first(v, first, first + 1, mid, last - 1, less)
    return _unguarded_partition(v, first + 1, last, first, less)


def _unguarded_linear_insert(v, last, less):
    val = v[last]
    nxt = last - 1
    while less(val, v[nxt]):
        v[last] = v[nxt]
        last = nxt
        nxt -= 1
    v[last] = val


def _insertion_sort(v, first, last, less):
    for i in range(first + 1, last):
        if less(v[i], v[first]):
            val = v[i]
            v[first + 1:i + 1] = v[first:i]
            v[first] = val
        else:
            _unguarded_linear_insert(v, i, less)


def _push_heap(v, first, hole, top, value, less):
    parent = (hole - 1) // 2
    while hole > top and less(v[first + parent], value):
        v[first + hole] = v[first + parent]
        hole = parent
        parent = (hole - 1) // 2
    v[first + hole] = value


def _adjust_heap(v, first, hole, length, value, less):
    top = hole
    child = hole
    while child < (length - 1) // 2:
        child = 2 * (child + 1)
        if less(v[first + child], v[first + child - 1]):
            child -= 1
        v[first + hole] = v[first + child]
        hole = child
    if length % 2 == 0 and child == (length - 2) // 2:
        child = 2 * (child + 1)
        v[first + hole] = v[first + child - 1]
        hole = child - 1
    _push_heap(v, first, hole, top, value, less)


def _make_heap(v, first, last, less):
    length = last - first
    if length < 2:
        return
    parent = (length - 2) // 2
    while True:
        _adjust_heap(v, first, parent, length, v[first + parent], less)
        if parent == 0:
            return
        parent -= 1


def _pop_heap(v, first, last, result, less):
    value = v[result]
    v[result] = v[first]
    _adjust_heap(v, first, 0, last - first, value, less)


def _heap_select(v, first, middle, last, less):
    _make_heap(v, first, middle, less)
    for i in range(middle, last):
        if less(v[i], v[first]):
            _pop_heap(v, first, middle, i, less)


def _sort_heap(v, first, last, less):
    while last - first > 1:
        last -= 1
        _pop_heap(v, first, last, last, less)


def partial_sort(v, middle, less):
    """std::partial_sort(v.begin(), v.begin() + middle, v.end(), less), in place."""
    _heap_select(v, 0, middle, len(v), less)
    _sort_heap(v, 0, middle, less)


def nth_element(v, nth, less):
    """std::nth_element(v.begin(), v.begin() + nth, v.end(), less), in place."""
    first, last = 0, len(v)
    if first == last or nth == last:
        return
    depth = 2 * _lg(last - first)
    while last - first > 3:
        if depth == 0:
            _heap_select(v, first, nth + 1, last, less)
            v[first], v[nth] = v[nth], v[first]
            return
        depth -= 1
        cut = _partition_pivot(v, first, last, less)
        if cut <= nth:
            first = cut
        else:
            last = cut
    _insertion_sort(v, first, last, less)


_THRESHOLD = 16


def _introsort_loop(v, first, last, depth, less):
    while last - first > _THRESHOLD:
        if depth == 0:
            _heap_select(v, first, last, last, less)
            _sort_heap(v, first, last, less)
            return
        depth -= 1
        cut = _partition_pivot(v, first, last, less)
        _introsort_loop(v, cut, last, depth, less)
        last = cut


def sort(v, last, less):
    """std::sort(v.begin(), v.begin() + last, less), in place."""
    if last <= 0:
        return
    _introsort_loop(v, 0, last, 2 * _lg(last), less)
    if last > _THRESHOLD:
        _insertion_sort(v, 0, _THRESHOLD, less)
        for i in range(_THRESHOLD, last):
            _unguarded_linear_insert(v, i, less)
    else:
        _insertion_sort(v, 0, last, less)


# -- what Paddle's CPU kernels do with these, one row at a time ---------------------------------
def _less(descending):
    """Paddle's comparators on (value, index) pairs: by value, NaN as the largest."""
    if descending:
        return lambda a, b: (a[0] != a[0] and b[0] == b[0]) or a[0] > b[0]
    return lambda a, b: (a[0] == a[0] and b[0] != b[0]) or a[0] < b[0]


def _pairs(values):
    return [(v, i) for i, v in enumerate(values)]


def sort_row(values, descending):
    """argsort's indices (stable=False): std::sort."""
    v = _pairs(values)
    sort(v, len(v), _less(descending))
    return [i for _, i in v]


def topk_row(values, k, largest, sorted=True):
    """topk's indices: std::partial_sort for k * 64 < n, else std::nth_element and (when
    sorted) a std::sort of the first k - 1."""
    v = _pairs(values)
    less = _less(largest)
    if k * 64 < len(v):
        partial_sort(v, k, less)
    else:
        nth_element(v, k - 1, less)
        if sorted:
            sort(v, k - 1, less)
    return [i for _, i in v[:k]]


def kthvalue_row(values, k):
    """kthvalue's index: as topk's selection, smallest first."""
    v = _pairs(values)
    less = _less(False)
    if k * 64 < len(v):
        partial_sort(v, k, less)
    else:
        nth_element(v, k - 1, less)
    return v[k - 1][1]


def median_row(values):
    """(lower, upper) middle indices: std::nth_element at n // 2 gives the upper one; for an
    even n, a std::sort of the part before it gives the lower one, its last element."""
    v = _pairs(values)
    n = len(v)
    less = _less(False)
    nth_element(v, n // 2, less)
    hi = v[n // 2]
    if n % 2:
        return hi[1], hi[1]
    left = v[:n // 2]
    sort(left, len(left), less)
    return left[-1][1], hi[1]


def mode_row(values):
    """mode's index: std::sort, then the last element of the first longest run of equal
    values (NaN equals nothing, so each NaN is a run of its own)."""
    v = _pairs(values)
    sort(v, len(v), _less(False))
    best, best_n, run = v[0], 1, 1
    for j in range(1, len(v)):
        run = run + 1 if v[j][0] == v[j - 1][0] else 1
        if run > best_n:
            best, best_n = v[j], run
    return best[1]


# -- applying it to the rows that need it --------------------------------------------------------
# rows replayed in Python per call, counted in elements; past it the stable order stands
BUDGET = 1 << 18


def same(a, b):
    """Elementwise 'equivalent for the comparator': equal, or both NaN."""
    eq = a == b
    if a.dtype.kind == "f":
        eq |= np.isnan(a) & np.isnan(b)
    return eq


def replay_rows(a, axis, idx, need, replay):
    """idx (indices along axis into a) with the rows where ``need`` is true replaced by
    ``replay(row values as a list)``; need has a's shape without axis."""
    if not need.any():
        return idx
    n = a.shape[axis]
    rows = np.moveaxis(a, axis, -1).reshape(-1, n)
    moved = np.moveaxis(idx, axis, -1)
    out = moved.reshape(-1, moved.shape[-1]).copy()
    budget = BUDGET
    for r in np.flatnonzero(need.reshape(-1)):
        if budget < n:
            break
        budget -= n
        out[r] = replay(rows[r].tolist())
    return np.ascontiguousarray(np.moveaxis(out.reshape(moved.shape), -1, axis))
