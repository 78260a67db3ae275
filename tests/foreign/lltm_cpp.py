"""The LLTM of pytorch/extension-cpp (the C++ extension of PyTorch's extension tutorial): forward
and backward in C++, built with ``torch.utils.cpp_extension.load_inline``, called by a
``torch.autograd.Function`` as the tutorial's Python side does. The maths is ported, the code our
own.

The backward is written once, as a C++ template over a planted bug (``Bug::none`` is the correct
one), so one compile serves the correct op and every buggy variant:

- ``tanh_term``: tanh' written ``1 - tanh`` (the square dropped: a wrong derivative term);
- ``grad_cell_dropped``: the gradient flowing in through the second output (``new_cell``) not
  added (a missing gradient: only ``new_h``'s reaches the inputs);
- ``saved_written``: tanh taken in place on the saved ``new_cell`` (``tanh_()``), which is
  also the cell state the caller holds (an in-place write to a saved tensor);
- ``bias_mean``: the bias gradient averaged over the batch instead of summed (a wrong reduction).

The build goes to a directory of its own (a test session's temporary one, or this user's under
torch's extension cache); the module is kept in ``sys.modules`` under its name, so one build
serves a process.
"""
import os
import sys

import torch

SOURCE = r"""
#include <torch/extension.h>
#include <vector>

namespace {

torch::Tensor sigmoid_grad(const torch::Tensor& z) {
  auto s = torch::sigmoid(z);
  return s * (1 - s);
}

// elu with alpha = 1: 1 above zero, exp(z) below
torch::Tensor elu_grad(const torch::Tensor& z) {
  return torch::where(z > 0, torch::ones_like(z), torch::exp(z));
}

enum class Bug { none, tanh_term, grad_cell_dropped, saved_written, bias_mean };

}  // namespace

std::vector<torch::Tensor> lltm_forward(torch::Tensor input, torch::Tensor weights,
                                        torch::Tensor bias, torch::Tensor old_h,
                                        torch::Tensor old_cell) {
  auto X = torch::cat({old_h, input}, 1);
  auto gate_weights = torch::addmm(bias, X, weights.t());
  auto gates = gate_weights.chunk(3, 1);
  auto input_gate = torch::sigmoid(gates[0]);
  auto output_gate = torch::sigmoid(gates[1]);
  auto candidate = torch::elu(gates[2]);
  auto new_cell = old_cell + candidate * input_gate;
  auto new_h = torch::tanh(new_cell) * output_gate;
  return {new_h, new_cell, input_gate, output_gate, candidate, X, gate_weights};
}

template <Bug bug>
std::vector<torch::Tensor> lltm_backward(torch::Tensor grad_h, torch::Tensor grad_cell,
                                         torch::Tensor new_cell, torch::Tensor input_gate,
                                         torch::Tensor output_gate, torch::Tensor candidate,
                                         torch::Tensor X, torch::Tensor gate_weights,
                                         torch::Tensor weights) {
  auto tanh_cell = bug == Bug::saved_written ? new_cell.tanh_() : torch::tanh(new_cell);
  auto tanh_grad = bug == Bug::tanh_term ? 1 - tanh_cell : 1 - tanh_cell * tanh_cell;
  auto d_new_cell = tanh_grad * output_gate * grad_h;
  if (bug != Bug::grad_cell_dropped) d_new_cell = d_new_cell + grad_cell;

  auto gates = gate_weights.chunk(3, 1);
  auto d_input_gate = candidate * d_new_cell * sigmoid_grad(gates[0]);
  auto d_output_gate = tanh_cell * grad_h * sigmoid_grad(gates[1]);
  auto d_candidate = input_gate * d_new_cell * elu_grad(gates[2]);
  auto d_gates = torch::cat({d_input_gate, d_output_gate, d_candidate}, 1);

  auto d_weights = d_gates.t().mm(X);
  auto d_bias = bug == Bug::bias_mean ? d_gates.mean(0, true) : d_gates.sum(0, true);
  auto d_X = d_gates.mm(weights);
  auto state_size = grad_h.size(1);
  return {d_X.slice(1, 0, state_size), d_X.slice(1, state_size), d_weights, d_bias,
          d_new_cell};
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("forward", &lltm_forward);
  m.def("backward", &lltm_backward<Bug::none>);
  m.def("backward_tanh_term", &lltm_backward<Bug::tanh_term>);
  m.def("backward_grad_cell_dropped", &lltm_backward<Bug::grad_cell_dropped>);
  m.def("backward_saved_written", &lltm_backward<Bug::saved_written>);
  m.def("backward_bias_mean", &lltm_backward<Bug::bias_mean>);
}
"""

NAME = "opsdk_tests_lltm_cpp"
BUGS = ("tanh_term", "grad_cell_dropped", "saved_written", "bias_mean")


class BuildError(RuntimeError):
    """The extension did not build (a compile error, or NoToolchain)."""


class NoToolchain(BuildError):
    """This machine lacks what the build needs (ninja)."""


def extension(directory=None):
    """The compiled module, built on first use (half a minute to a minute on two cores) in
    ``directory`` (default: this user's directory under torch's extension cache); BuildError
    says why it cannot be built."""
    if NAME in sys.modules:
        return sys.modules[NAME]
    from torch.utils import cpp_extension

    try:
        cpp_extension.verify_ninja_availability()
    except RuntimeError as error:
        raise NoToolchain(f"the LLTM C++ extension cannot build here: {error} "
                         "(pip install ninja)") from None
    if directory is not None:
        os.makedirs(directory, mode=0o700, exist_ok=True)
    try:
        module = cpp_extension.load_inline(NAME, cpp_sources=[SOURCE], build_directory=directory,
                                           extra_cflags=["-O1"], verbose=False)
    except (RuntimeError, OSError) as error:
        last = str(error).strip().splitlines()[-1:] or [type(error).__name__]
        raise BuildError(f"the LLTM C++ extension failed to build: "
                         f"{last[0]}") from None
    sys.modules[NAME] = module
    return module


def lltm_function(bug=None):
    """The tutorial's ``LLTMFunction`` calling the C++ backward with ``bug`` planted (None: the
    correct one)."""
    backward_name = "backward" if bug is None else f"backward_{bug}"

    def forward(ctx, input, weights, bias, old_h, old_cell):
        outputs = extension().forward(input, weights, bias, old_h, old_cell)
        new_h, new_cell = outputs[:2]
        ctx.save_for_backward(*outputs[1:], weights)
        return new_h, new_cell

    def backward(ctx, grad_h, grad_cell):
        d_old_h, d_input, d_weights, d_bias, d_old_cell = getattr(extension(), backward_name)(
            grad_h.contiguous(), grad_cell.contiguous(), *ctx.saved_tensors)
        return d_input, d_weights, d_bias, d_old_h, d_old_cell

    name = "LLTMFunction" if bug is None else f"LLTMFunction_{bug}"
    return type(name, (torch.autograd.Function,), {
        "forward": staticmethod(forward), "backward": staticmethod(backward),
        "__module__": __name__, "__doc__": "The LLTM cell of pytorch/extension-cpp (C++)."})
