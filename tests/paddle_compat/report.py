"""Print the differential suite's agreement: ``python -m tests.paddle_compat.report [-v] [NAME...]``.

Runs every program (or the named ones) under PaddlePaddle and opsdk; prints one block per
program that does not agree (or whose documented difference no longer holds exactly) and
the totals, by issue item.
"""
import collections
import sys

import opsdk

from .harness import judge, observe
from .programs import load_all


def main(argv):
    import paddle
    verbose = "-v" in argv
    names = [a for a in argv if not a.startswith("-")]
    programs = load_all()
    verdicts = collections.Counter()
    by_item = collections.defaultdict(collections.Counter)
    for name in names or sorted(programs):
        prog = programs[name]
        verdict, lines = judge(prog, observe(prog, paddle), observe(prog, opsdk))
        verdicts[verdict] += 1
        by_item[prog.item][verdict] += 1
        if verdict in ("agree", "documented"):
            continue
        print(f"{verdict.upper()} {name} (item {prog.item})")
        for line in lines[: None if verbose else 3]:
            print(f"    {line[:300]}")
    comparable = verdicts["agree"] + verdicts["differ"]
    print("\nby item: " + ", ".join(
        f"{item} {c['agree']}/{c['agree'] + c['differ']}" for item, c in sorted(by_item.items())))
    print(f"{verdicts['agree']} of {comparable} comparable programs agree; "
          f"{verdicts['documented']} documented differences hold, "
          f"{verdicts['stale'] + verdicts['stray']} documented ones do not")


if __name__ == "__main__":
    main(sys.argv[1:])
