"""Writing a Plan as one transaction: every file lands, or the disk is left as it was."""
import os
import shutil
from pathlib import Path

from ..errors import ExistingFilesError, ScaffoldError
from .paths import check_lengths

_TAG = f".opsdk-{os.getpid()}"


class _Entry:
    """One file of the transaction: its target, its staged copy, the backup of what it replaces."""

    def __init__(self, target, content):
        self.target = target
        self.content = content
        self.staged = target.with_name(f".{target.name}{_TAG}.new")
        self.backup = None
        self.installed = False


def _make_dirs(folder, created):
    """Create ``folder`` and missing parents, remembering each one made (outermost first)."""
    missing = []
    while not folder.exists():
        missing.append(folder)
        folder = folder.parent
    for path in reversed(missing):
        path.mkdir()
        created.append(path)


def _stage(entry, created_dirs):
    _make_dirs(entry.target.parent, created_dirs)
    if entry.target.is_dir():
        raise ScaffoldError(f"cannot write {entry.target}: a directory of that name exists; "
                            "expected: a file path; move the directory away")
    entry.staged.write_bytes(entry.content)
    if entry.target.exists():
        shutil.copymode(entry.target, entry.staged)


def _install(entry):
    if entry.target.exists():
        entry.backup = entry.target.with_name(f".{entry.target.name}{_TAG}.old")
        os.replace(entry.target, entry.backup)
    os.replace(entry.staged, entry.target)
    entry.installed = True


def _roll_back(entries, created_dirs):
    """Undo everything done so far; best effort, so one failure does not stop the rest."""
    for entry in reversed(entries):
        try:
            if entry.installed:
                os.unlink(entry.target)
            if entry.backup is not None and entry.backup.exists():
                os.replace(entry.backup, entry.target)
            if entry.staged.exists():
                os.unlink(entry.staged)
        except OSError:
            pass
    for folder in reversed(created_dirs):
        try:
            folder.rmdir()
        except OSError:
            pass


def _paths_written(plan):
    """Every path writing ``plan`` creates on the way: targets, staged copies and backups."""
    root = Path(plan.root)
    if not os.path.lexists(root):
        staging = root.parent / f".{root.name}{_TAG}.tmp"
        return [root, *(Path(staging, *f.path.split("/")) for f in plan.files)]
    targets = [plan.target(f) for f in plan.files]
    return [path.with_name(f".{path.name}{_TAG}.{end}") for path in targets for end in ("new", "old")]


def check_plan(plan, force=False):
    """Raise InvalidPathError when a path of the plan is too long for the file system, and
    ExistingFilesError when the plan would overwrite generated files and ``force`` is off."""
    check_lengths(_paths_written(plan), plan.summary or str(plan.root))
    existing = plan.existing()
    if existing and not force:
        listed = "\n".join(f"  {path}" for path in existing)
        raise ExistingFilesError(f"{len(existing)} file(s) already exist in {plan.root} and would be "
                                 f"overwritten; expected: paths that do not exist yet, or --force to "
                                 f"overwrite them; got:\n{listed}")


def _write_new_tree(plan):
    """Write a plan whose root does not exist: build it aside, then rename it into place at once."""
    root = Path(plan.root)
    created_dirs = []
    staging = root.parent / f".{root.name}{_TAG}.tmp"
    try:
        _make_dirs(root.parent, created_dirs)
        for planned in plan.files:
            target = Path(staging, *planned.path.split("/"))
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(planned.content)
        # one rename: even a killed process leaves no half-written pack, only the hidden staging dir
        os.rename(staging, root)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        for folder in reversed(created_dirs):
            try:
                folder.rmdir()
            except OSError:
                pass
        raise
    return [plan.target(f) for f in plan.files]


def write_plan(plan, force=False):
    """Write every file of ``plan``, all or nothing.

    A new directory (a new pack) is written aside and renamed into place in one step. Into an
    existing directory, each file is first written next to its target under a temporary name;
    then each replaces its target (the old file kept as a backup until the end). Any error, or
    Ctrl-C, on the way restores the backups and removes every file and directory the call created.

    Args:
        plan: the Plan to write.
        force: overwrite generated files that exist (otherwise they are an error).

    Returns:
        list of the absolute paths written, in plan order.

    Raises:
        ExistingFilesError: files exist and ``force`` is off; nothing was written.
        ScaffoldError, OSError: writing failed; the disk is as it was before the call.

    Example::

        write_plan(plan_pack("mypack", "mypack"))
    """
    check_plan(plan, force)
    if not os.path.lexists(plan.root):
        return _write_new_tree(plan)
    entries = [_Entry(plan.target(f), f.content) for f in plan.files]
    created_dirs = []
    try:
        for entry in entries:
            _stage(entry, created_dirs)
        for entry in entries:
            _install(entry)
    except BaseException:
        _roll_back(entries, created_dirs)
        raise
    for entry in entries:
        if entry.backup is not None:
            try:
                os.unlink(entry.backup)
            except OSError:
                pass
    return [Path(e.target) for e in entries]
