"""Scaffolding for ``opsdk new-pack`` and ``opsdk new-op``: render the templates, then write them.

Everything is rendered and checked in memory first (names, existing files, templates); writing is
one transaction, so a failure midway leaves the disk as it was.

Example::

    from opsdk.scaffold import plan_pack, plan_op, write_plan

    write_plan(plan_pack("mypack", "mypack"))
    write_plan(plan_op("swish", "mypack", backends=("python", "c")))
"""
from .answers import ANSWERS_FILE, find_pack_root, read_answers
from .locate import template_version, templates_dir
from .names import BACKENDS, check_backends, check_op_name, check_pack_name
from .op import plan_op
from .pack import plan_pack
from .plan import Plan, PlannedFile
from .writer import write_plan

__all__ = ["ANSWERS_FILE", "BACKENDS", "Plan", "PlannedFile", "check_backends", "check_op_name",
           "check_pack_name", "find_pack_root", "plan_op", "plan_pack", "read_answers",
           "template_version", "templates_dir", "write_plan"]
