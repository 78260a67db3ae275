"""Plan: the files a scaffolding command would write, rendered in memory, relative to one root."""
import os
from dataclasses import dataclass, field
from pathlib import Path

# what a planned file does to the disk
CREATE = "create"        # a new file; an existing one is a conflict unless --force
UPDATE = "update"        # a file the pack already has and the command edits (OPS, answers)


def display(path):
    """``path`` relative to the working directory when it is below it, else absolute."""
    path = Path(path)
    try:
        return path.relative_to(Path.cwd()).as_posix()
    except ValueError:
        return str(path)


def cd_step(root):
    """The ``cd`` a user needs to be in ``root`` (none when they are there already)."""
    shown = display(root)
    return () if shown == "." else (f"cd {shown}",)


@dataclass(frozen=True)
class PlannedFile:
    """One file to write: its path relative to the plan's root, its bytes, and whether it is new.

    Attributes:
        path: POSIX-style path relative to the root, e.g. ``"src/mypack/ops/swish.py"``.
        content: the bytes to write.
        kind: ``"create"`` (a generated file) or ``"update"`` (an edit of a pack file).
    """

    path: str
    content: bytes
    kind: str = CREATE


@dataclass
class Plan:
    """What a command would write: a root directory and the files under it, in writing order.

    Attributes:
        root: the directory the paths are relative to (a new pack's directory, or the pack's root).
        files: the PlannedFile list.
        summary: one line for the user, e.g. "op 'swish' (python, c) in pack 'mypack'".
        next_steps: lines telling the user what to run next.
        stale: relative paths of files an earlier run generated that this plan no longer has
            (an op regenerated with fewer backends); left on disk, and shown to the user.
    """

    root: Path
    files: list = field(default_factory=list)
    summary: str = ""
    next_steps: tuple = ()
    stale: tuple = ()

    def target(self, planned):
        """The absolute path ``planned`` goes to."""
        return Path(self.root, *planned.path.split("/"))

    def paths(self):
        """The set of relative paths the plan writes."""
        return {f.path for f in self.files}

    def existing(self):
        """The relative paths of generated files (kind "create") that already exist on disk."""
        return [f.path for f in self.files if f.kind == CREATE and os.path.lexists(self.target(f))]
