"""Adapter helpers: row-kernel launch shapes and the C function lookup."""
import numpy

from opsdk_nn.kernels.launch import CFunctions, row_launch


def test_narrow_rows_get_a_warp_each():
    assert row_launch(1000, 10_000, device_blocks=4224) == ("rows", 1250, 256)


def test_wide_rows_get_a_block_each():
    assert row_launch(4096, 100, device_blocks=4224) == ("block", 100, 256)
    assert row_launch(16384, 10_000, device_blocks=4224) == ("block", 4224, 1024)


def test_a_launch_never_has_an_empty_grid():
    assert row_launch(10, 0, device_blocks=4224)[1] == 1


def test_c_functions_are_looked_up_once_per_dtype():
    class Lib:
        looked_up = []

        def __getattr__(self, name):
            self.looked_up.append(name)
            return name

    lib, fns = Lib(), CFunctions()
    for _ in range(3):
        assert fns(lib, "nn_silu_fwd", numpy.dtype("float32")) == "nn_silu_fwd_f32"
    assert fns(lib, "nn_silu_fwd", numpy.dtype("float64")) == "nn_silu_fwd_f64"
    assert lib.looked_up == ["nn_silu_fwd_f32", "nn_silu_fwd_f64"]
