import opsdk
from opsdk.verification.check.checks.probe import recording

from ..ops import Square


def test_probe_records_what_backward_returned_and_keeps_the_name():
    probe, calls = recording(Square)
    x = opsdk.to_tensor([1.0, 2.0], dtype="float64", stop_gradient=False)
    probe.apply(x).backward()
    assert probe.__name__ == "Square"
    (grads, returned), = calls
    assert returned.numpy().tolist() == [2.0, 4.0]
