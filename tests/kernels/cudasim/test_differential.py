"""The sizes a recorded kernel call is replayed at: resizes that keep the call meaningful."""
import numpy

from opsdk.kernels.cudasim import differential
from opsdk.kernels.cudasim.differential import Recorded, growing_axes, resized_shapes


def _call(*args, outputs=(), **kwargs):
    return Recorded(None, args, kwargs, outputs)


def test_one_1d_shape_everywhere_is_elementwise():
    x = numpy.zeros(6)
    assert growing_axes(_call(x, x.copy(), outputs=((6,),))) == ("all",)


def test_an_x_and_its_mask_of_one_2d_shape_keep_their_rank():
    # a row kernel (a masked softmax) given an x and a mask of one shape: a 1-D array would hand
    # it a call it never takes; one row of the size is a call both kinds of kernel take
    x, mask = numpy.zeros((5, 6)), numpy.ones((5, 6), numpy.int64)
    call = _call(x, mask, outputs=((5, 6),))
    assert growing_axes(call) == ("all",)
    assert resized_shapes(call, 257, "all") == {id(x): (1, 257), id(mask): (1, 257)}


def test_an_axis_indexed_by_an_integer_argument_is_not_shrunk_below_its_indices():
    # an embedding: token ids up to 4 index the 5 rows of the table; 1 row would make every id
    # past 0 an out-of-bounds read the op can never make
    table, ids = numpy.zeros((5, 300)), numpy.array([[0, 4, 2]], numpy.int32)
    call = _call(ids, table)
    assert resized_shapes(call, 1, "first") is None
    assert resized_shapes(call, 7, "first")[id(table)] == (7, 300)


def test_a_csr_row_pointer_keeps_the_rows_it_points_at():
    src, indptr = numpy.zeros((6, 3)), numpy.array([0, 2, 2, 5, 6], numpy.int64)
    call = _call(src, indptr)
    assert resized_shapes(call, 1, "first") is None
    assert resized_shapes(call, 257, "first")[id(src)] == (257, 3)


def test_derived_sizes_end_one_element_past_a_full_grid_only_where_it_is_cheap(monkeypatch):
    monkeypatch.setattr(differential, "_grid_threads", lambda: 16384)
    rows = _call(numpy.zeros((4, 3)))
    wide = _call(numpy.zeros((4, 37)))
    case = differential.Case(None, rows, "float32", "contiguous", "first")
    # a second grid pass, which is a tail past several blocks too (4097 is left out)
    assert differential.case_sizes(case) == (1, 7, 255, 256, 257, 16384 // 3 + 1)
    case = differential.Case(None, wide, "float32", "contiguous", "first")
    # 443 rows of 37 are past a full grid; 513, past a full grid of warps (a warp per row)
    assert differential.case_sizes(case) == (1, 7, 255, 256, 257, 513)
    case = differential.Case(None, rows, "float32", "strided", "first")
    assert differential.case_sizes(case) == (7, 257)                  # a view shows at any size
    flat = differential.Case(None, _call(numpy.zeros(9)), "float32", "contiguous", "all")
    assert differential.case_sizes(flat)[-1] == 16385
