"""save / load: state dicts and nested objects, in Paddle's pickle layout."""
import io
import pickle

import numpy as np
import pytest

import opsdk as paddle
from opsdk.errors import OpArgumentError


def test_state_dict_round_trip(tmp_path):
    lin = paddle.nn.Linear(3, 2)
    path = tmp_path / "sub" / "lin.pdparams"
    paddle.save(lin.state_dict(), str(path))
    loaded = paddle.load(str(path))
    assert sorted(loaded) == ["bias", "weight"]
    assert isinstance(loaded["weight"], paddle.Tensor) and loaded["weight"].name == lin.weight.name
    other = paddle.nn.Linear(3, 2)
    other.set_state_dict(loaded)
    np.testing.assert_array_equal(other.weight.numpy(), lin.weight.numpy())


def test_state_dict_is_written_as_arrays_plus_paddles_name_table(tmp_path):
    lin = paddle.nn.Linear(2, 1)
    paddle.save(lin.state_dict(), str(tmp_path / "p"))
    raw = pickle.loads((tmp_path / "p").read_bytes())
    assert isinstance(raw["weight"], np.ndarray)
    assert raw["StructuredToParameterName@@"] == {"weight": lin.weight.name,
                                                  "bias": lin.bias.name}


def test_nested_object_round_trip_through_a_buffer():
    buf = io.BytesIO()
    paddle.save({"a": paddle.to_tensor([1.0, 2.0]), "b": [paddle.to_tensor([3]), 5], "c": "s"},
                buf)
    buf.seek(0)
    out = paddle.load(buf)
    assert out["c"] == "s" and out["b"][1] == 5
    np.testing.assert_array_equal(out["a"].numpy(), [1.0, 2.0])
    assert out["b"][0].dtype == paddle.int64


def test_load_return_numpy_and_missing_file(tmp_path):
    paddle.save({"w": paddle.ones([2])}, str(tmp_path / "w"))
    assert isinstance(paddle.load(str(tmp_path / "w"), return_numpy=True)["w"], np.ndarray)
    with pytest.raises(OpArgumentError, match="no file"):
        paddle.load(str(tmp_path / "missing"))


def test_save_refuses_a_bad_protocol(tmp_path):
    with pytest.raises(OpArgumentError, match="protocol"):
        paddle.save({"w": paddle.ones([1])}, str(tmp_path / "w"), protocol=5)


@pytest.mark.paddle
def test_files_cross_between_opsdk_and_paddle(tmp_path):
    real = pytest.importorskip("paddle", reason="the cross-read check needs PaddlePaddle")
    lin = paddle.nn.Linear(3, 2)
    paddle.save(lin.state_dict(), str(tmp_path / "ours"))
    theirs = real.load(str(tmp_path / "ours"))
    np.testing.assert_array_equal(theirs["weight"].numpy(), lin.weight.numpy())
    real.save({"x": real.to_tensor([1.5, 2.5])}, str(tmp_path / "theirs"))
    np.testing.assert_array_equal(paddle.load(str(tmp_path / "theirs"))["x"].numpy(),
                                  [1.5, 2.5])


@pytest.mark.paddle
def test_top_level_arrays_read_back_as_paddle_reads_them(tmp_path):
    # Paddle turns a saved dict's arrays into Tensors only when the dict holds no Tensor anywhere
    from helpers.frameworks import import_paddle

    cases = [{"a": np.arange(3), "n": 1},
             {"a": np.arange(3), "t": "T"},
             {"a": np.arange(3), "l": ["T"]},
             {"a": np.arange(3), "d": {"x": np.arange(2)}}]

    def kinds(P):
        out = []
        for k, case in enumerate(cases):
            obj = {key: (P.ones([2]) if isinstance(v, str) else
                         [P.ones([2])] if isinstance(v, list) else v)
                   for key, v in case.items()}
            path = str(tmp_path / f"{P.__name__}{k}.pd")
            P.save(obj, path)
            back = P.load(path)
            out.append({key: "tensor" if isinstance(v, P.Tensor) else type(v).__name__
                        for key, v in back.items()})
        return out

    assert kinds(paddle) == kinds(import_paddle())
