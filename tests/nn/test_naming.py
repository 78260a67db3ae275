"""Unique layer/parameter names."""
from opsdk.nn.naming import camel_to_snake, unique_name


def test_unique_name_counts_per_prefix():
    a, b = unique_name("zz_test_prefix"), unique_name("zz_test_prefix")
    assert (a, b) == ("zz_test_prefix_0", "zz_test_prefix_1")


def test_camel_to_snake_splits_words():
    assert camel_to_snake("LayerList") == "layer_list"
    assert camel_to_snake("Linear") == "linear"
    assert camel_to_snake("GELU") == "gelu"
    # Paddle's scopes: a capitalised word after an acronym starts a new word
    assert camel_to_snake("LSTMCell") == "lstm_cell"
    assert camel_to_snake("SimpleRNNCell") == "simple_rnn_cell"
    assert camel_to_snake("PReLU") == "p_re_lu"
    assert camel_to_snake("Conv2DTranspose") == "conv2d_transpose"
