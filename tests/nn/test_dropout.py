"""nn.Dropout follows train()/eval()."""
import numpy as np

import opsdk as paddle


def test_dropout_layer_drops_in_training_and_is_identity_in_eval():
    drop = paddle.nn.Dropout(p=0.5)
    paddle.seed(0)
    y = drop(paddle.ones([1000])).numpy()
    assert set(np.unique(y)) == {0.0, 2.0}
    drop.eval()
    np.testing.assert_array_equal(drop(paddle.ones([5])).numpy(), np.ones(5))


def test_dropout_layer_repr_shows_p():
    assert "p=0.3" in repr(paddle.nn.Dropout(0.3))
