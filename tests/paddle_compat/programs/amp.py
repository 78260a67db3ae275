"""paddle.amp: not comparable on the CPU (Paddle switches auto_cast and GradScaler off there;
opsdk keeps them on). Each program is a documented difference: the test checks the
difference is exactly the one docs/paddle.md states, and that everything else agrees."""
import numpy as np

from . import program

AMP_OFF_ON_CPU = "Paddle turns auto_cast and GradScaler off on the CPU; opsdk keeps them on"
X = np.asarray([[1.0, 2.0], [3.0, -1.0]], dtype="float32")


def _linear(paddle):
    lin = paddle.nn.Linear(2, 2)
    lin.weight.set_value(np.asarray([[0.5, -0.25], [1.0, 0.75]], dtype="float32"))
    lin.bias.set_value(np.asarray([0.1, 0.2], dtype="float32"))
    return lin


@program(item="amp", differs=(["y_dtype"], AMP_OFF_ON_CPU), rtol=1e-3, atol=1e-3)
def amp_auto_cast_linear_dtype(paddle):
    lin = _linear(paddle)
    with paddle.amp.auto_cast():
        y = lin(paddle.to_tensor(X))
    return {"y_dtype": str(y.dtype).split(".")[-1], "y": y.astype("float32").numpy()}


@program(item="amp", differs=(["mm_dtype"], AMP_OFF_ON_CPU), rtol=1e-3, atol=1e-3)
def amp_auto_cast_matmul_then_loss(paddle):
    x = paddle.to_tensor(X, stop_gradient=False)
    with paddle.amp.auto_cast():
        mm = paddle.matmul(x, x)
        loss = paddle.nn.functional.mse_loss(mm.astype("float32"), paddle.zeros([2, 2]))
    loss.backward()
    return {"mm_dtype": str(mm.dtype).split(".")[-1], "loss": loss.numpy(),
            "grad_dtype": str(x.grad.dtype).split(".")[-1], "grad": x.grad.numpy()}


@program(item="amp", differs=(["scaled"], AMP_OFF_ON_CPU))
def amp_grad_scaler_scale(paddle):
    scaler = paddle.amp.GradScaler(init_loss_scaling=1024.0)
    loss = paddle.to_tensor(2.0, stop_gradient=False)
    return {"scaled": scaler.scale(loss).numpy()}


@program(item="amp", differs=(["w_grad_before_step"], AMP_OFF_ON_CPU), rtol=1e-3, atol=1e-3)
def amp_grad_scaler_training_step(paddle):
    lin = _linear(paddle)
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=lin.parameters())
    scaler = paddle.amp.GradScaler(init_loss_scaling=128.0)
    with paddle.amp.auto_cast():
        loss = lin(paddle.to_tensor(X)).astype("float32").mean()
    scaler.scale(loss).backward()
    before = lin.weight.grad.numpy()
    scaler.step(opt)
    scaler.update()
    opt.clear_grad()
    return {"w_grad_before_step": before, "w": lin.weight.numpy()}


@program(item="amp", differs=(["enabled"], AMP_OFF_ON_CPU))
def amp_scaler_is_enable(paddle):
    scaler = paddle.amp.GradScaler()
    return {"enabled": scaler.is_enable(), "scaling": float(scaler._scale.numpy())
            if hasattr(scaler, "_scale") and hasattr(scaler._scale, "numpy") else None}


@program(item="amp", differs=(["dtype"], AMP_OFF_ON_CPU), rtol=1e-3, atol=1e-3)
def amp_auto_cast_custom_black_list(paddle):
    x = paddle.to_tensor(X)
    with paddle.amp.auto_cast(custom_black_list={"matmul_v2", "matmul"}):
        a = paddle.matmul(x, x)
    with paddle.amp.auto_cast():
        b = paddle.matmul(x, x)
    return {"black": str(a.dtype).split(".")[-1], "dtype": str(b.dtype).split(".")[-1],
            "value": b.astype("float32").numpy()}


@program(item="amp")
def amp_auto_cast_disabled_is_float32(paddle):
    lin = _linear(paddle)
    with paddle.amp.auto_cast(enable=False):
        y = lin(paddle.to_tensor(X))
    return {"y": y}


@program(item="amp")
def amp_names_exist(paddle):
    return {n: hasattr(paddle.amp, n) for n in ("auto_cast", "GradScaler", "decorate",
                                                "is_float16_supported",
                                                "is_bfloat16_supported", "amp_guard",
                                                "AmpScaler")}
