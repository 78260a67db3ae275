"""What the public names' Paddle keywords cost per call (op_args.with_out, paddle_kwargs):
each public name timed against the plain op it calls, in one process, interleaved, the
minimum of many short runs of each (so a loaded machine slows both alike).

Run: python benchmarks/public_wrappers.py [--rounds N]
`x + y` is arithmetic.add itself: its line shows the noise of the method.
"""
import argparse
import timeit

import opsdk
from opsdk.functional import arithmetic, reduction, unary

PAIRS = [("arithmetic.add(x, y)", "opsdk.add(x, y)"), ("unary.exp(x)", "opsdk.exp(x)"),
         ("unary.exp(x)", "x.exp()"), ("reduction.sum(x)", "opsdk.sum(x)"),
         ("arithmetic.add(x, y)", "x + y")]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=300)
    rounds = parser.parse_args().rounds
    env = {"opsdk": opsdk, "arithmetic": arithmetic, "reduction": reduction, "unary": unary,
           "x": opsdk.to_tensor([1.0, 2.0, 3.0]), "y": opsdk.to_tensor([4.0, 5.0, 6.0])}
    for plain, public in PAIRS:
        a = b = float("inf")
        for _ in range(rounds):
            a = min(a, timeit.timeit(plain, globals=env, number=1000))
            b = min(b, timeit.timeit(public, globals=env, number=1000))
        print(f"{plain:22} {a * 1e6:6.0f} ns   {public:16} {b * 1e6:6.0f} ns   "
              f"extra {(b - a) * 1e6:5.0f} ns")


if __name__ == "__main__":
    main()
