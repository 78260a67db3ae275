"""The attention names: MultiHeadAttention, the Transformer layers and stacks,
F.scaled_dot_product_attention, F.sequence_mask, F.swiglu. Weights are set from a fixed
pattern on both sides (the two frameworks' random streams differ)."""
import numpy as np

from ..harness import attempt
from . import program


def _fixed(layer):
    """Every parameter of layer set to a fixed, non-symmetric pattern; returns layer."""
    for k, p in enumerate(layer.parameters()):
        n = int(np.prod(p.shape))
        p.set_value(np.sin(np.arange(n) * 0.7 + k).reshape(p.shape).astype("float32") * 0.3)
    layer.eval()
    return layer


def _input(paddle, *shape, k=0):
    n = int(np.prod(shape))
    x = np.cos(np.arange(n) * 0.37 + k).reshape(shape).astype("float32")
    return paddle.to_tensor(x, stop_gradient=False)


@program(item="names")
def multi_head_attention_masks_weights_and_grads(paddle):
    mha = _fixed(paddle.nn.MultiHeadAttention(8, 2, kdim=4, need_weights=True))
    q, k = _input(paddle, 2, 3, 8), _input(paddle, 2, 5, 4, k=1)
    v = _input(paddle, 2, 5, 8, k=2)
    mask = paddle.to_tensor(np.arange(15).reshape(3, 5) % 4 != 0)
    out, weights = mha(q, k, v, attn_mask=mask)
    (out * out).sum().backward()
    return {"out": out, "weights": weights, "q_grad": q.grad, "k_grad": k.grad,
            "w_grad": mha.k_proj.weight.grad, "keys": list(mha.state_dict()),
            "indivisible": attempt(paddle.nn.MultiHeadAttention, 6, 4)}


@program(item="names")
def transformer_forward_and_grads(paddle):
    model = _fixed(paddle.nn.Transformer(8, 2, 1, 1, 16, activation="gelu",
                                         normalize_before=True))
    src, tgt = _input(paddle, 2, 4, 8), _input(paddle, 2, 3, 8, k=3)
    out = model(src, tgt, tgt_mask=model.generate_square_subsequent_mask(3))
    (out * out).sum().backward()
    return {"out": out, "src_grad": src.grad,
            "norm_grad": model.decoder.layers[0].norm3.weight.grad,
            "keys": list(model.state_dict())}


@program(item="names")
def transformer_decoder_caches(paddle):
    layer = _fixed(paddle.nn.TransformerDecoderLayer(8, 2, 16))
    memory, tgt = _input(paddle, 2, 4, 8), _input(paddle, 2, 1, 8, k=5)
    out, (incremental, static) = layer(tgt, memory, cache=layer.gen_cache(memory))
    return {"out": out, "k": incremental.k, "static_v": static.v}


@program(item="names")
def scaled_dot_product_attention_gqa_and_causal(paddle):
    F = paddle.nn.functional
    q, k = _input(paddle, 1, 4, 4, 8), _input(paddle, 1, 4, 2, 8, k=1)
    v = _input(paddle, 1, 4, 2, 8, k=2)
    out = F.scaled_dot_product_attention(q, k, v, is_causal=True)
    out.sum().backward()
    masked = F.scaled_dot_product_attention(q, q, q, attn_mask=paddle.ones([4, 4], "bool"))
    return {"out": out, "q_grad": q.grad, "v_grad": v.grad, "masked": masked,
            "rank": attempt(F.scaled_dot_product_attention, q[0, 0], q[0, 0], q[0, 0])}


@program(item="names")
def sequence_mask_and_swiglu(paddle):
    F = paddle.nn.functional
    x = _input(paddle, 2, 6)
    y = F.swiglu(x)
    y.sum().backward()
    return {"mask": F.sequence_mask(paddle.to_tensor([3, 0, 5]), maxlen=4),
            "bool": F.sequence_mask(paddle.to_tensor([[1, 2]]), dtype="bool"),
            "swiglu": y, "grad": x.grad, "odd": attempt(F.swiglu, x[:, :5])}
