"""Automatic casting as a policy the core consults: a layer above (opsdk.amp) installs it.

The core never imports opsdk.amp; amp calls ``install(state, matmul)`` on import, and matmul
asks ``state.enabled`` (per thread) before handing the call to the policy's matmul.
"""


class _NoPolicy:
    enabled = False


state = _NoPolicy()
matmul = None


def install(policy_state, policy_matmul):
    """Make matmul consult ``policy_state.enabled`` and call ``policy_matmul`` when it is on.

    Args:
        policy_state: an object whose ``enabled`` says whether the policy applies now.
        policy_matmul: ``fn(x, y, transpose_x, transpose_y)`` run instead of the plain matmul.
    """
    global state, matmul
    state = policy_state
    matmul = policy_matmul
