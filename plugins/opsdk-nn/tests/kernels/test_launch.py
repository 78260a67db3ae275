"""Adapter helpers: row-kernel launch shapes."""
from opsdk_nn.kernels.launch import row_launch


def test_narrow_rows_get_a_warp_each():
    assert row_launch(1000, 10_000, device_blocks=4224) == ("rows", 1250, 256)


def test_wide_rows_get_a_block_each():
    assert row_launch(4096, 100, device_blocks=4224) == ("block", 100, 256)
    assert row_launch(16384, 10_000, device_blocks=4224) == ("block", 4224, 1024)


def test_a_launch_never_has_an_empty_grid():
    assert row_launch(10, 0, device_blocks=4224)[1] == 1

