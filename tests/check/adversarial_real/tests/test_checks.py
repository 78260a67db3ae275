"""Every op of realops through opsdk's checks, one test each.

gradcheck, gradgradcheck, forward and backward agreement of each backend with python, the
Function protocol and the engine around the op, per op x backend x dtype, with ids like
``realops.my_op[c-float32-gradcheck]``. A backend that cannot run here (no C compiler, no
GPU) is skipped, with the reason. ``opsdk check --pack realops`` runs the same checks.
"""
import opsdk.testing

test_realops = opsdk.testing.op_checks(pack="realops")
