"""plan_op: the exact files each backend choice writes, the pack files it updates, and refusals."""
import json

import pytest

from opsdk.errors import ExistingFilesError, InvalidNameError, NotAPackError, ScaffoldError
from opsdk.scaffold import plan_op, template_version, write_plan
from opsdk.scaffold.ops_list import listed_ops

COMMON = {"src/packdemo/ops/swish.py", "tests/ops/test_swish.py",
          "src/packdemo/ops/__init__.py", ".opsdk-answers.json"}


@pytest.mark.parametrize("backends, written", [
    (("python",), None),
    (("c",), "c=True, cuda=False"),
    (("cuda",), "c=False, cuda=True"),
    (("python", "c", "cuda"), "c=True, cuda=True"),
])
def test_new_op_plans_exactly_these_files_the_kernels_written_from_c_bodies(pack_dir, backends,
                                                                            written):
    # an elementwise op's C and CUDA kernels are written by the SDK from the scalar C bodies in
    # the op's module: no .c or .cu file of its own
    plan = plan_op("swish", pack_dir, backends)
    assert plan.paths() == COMMON
    module = next(f.content for f in plan.files if f.path.endswith("ops/swish.py")).decode()
    if written is None:
        assert "c_bodies" not in module
    else:
        assert ".c_bodies(" in module and written in module


def test_op_module_is_added_to_ops(pack_dir, add_op):
    add_op("swish")
    add_op("gelu")
    text = (pack_dir / "src/packdemo/ops/__init__.py").read_text()
    assert listed_ops(text, "") == ["swish", "gelu"]


def test_answers_record_each_op_with_its_backends_and_template_version(pack_dir, add_op):
    add_op("swish", ("cuda",))
    answers = json.loads((pack_dir / ".opsdk-answers.json").read_text())
    assert answers["ops"]["swish"]["backends"] == ["python", "cuda"]
    assert answers["ops"]["swish"]["template_version"] == template_version()


def test_generated_op_files_compile(pack_dir):
    for planned in plan_op("swish", pack_dir, ("c", "cuda")).files:
        if planned.path.endswith(".py"):
            compile(planned.content, planned.path, "exec")


def test_op_of_the_pack_is_refused(pack_dir, add_op):
    add_op("swish")
    with pytest.raises(InvalidNameError, match="already an op of pack 'packdemo'"):
        plan_op("swish", pack_dir)


def test_a_module_in_ops_counts_as_an_op_of_the_pack(pack_dir):
    (pack_dir / "src/packdemo/ops/handmade.py").write_text("")
    with pytest.raises(InvalidNameError, match="already an op"):
        plan_op("handmade", pack_dir)


def test_force_regenerates_an_op_without_listing_it_twice(pack_dir, add_op):
    add_op("swish")
    (pack_dir / "src/packdemo/ops/swish.py").write_text("# edited")
    add_op("swish", ("c",), force=True)
    regenerated = (pack_dir / "src/packdemo/ops/swish.py").read_text()
    assert "# edited" not in regenerated and "Elementwise(" in regenerated
    assert listed_ops((pack_dir / "src/packdemo/ops/__init__.py").read_text(), "") == ["swish"]


def test_op_files_that_exist_are_not_overwritten_without_force(pack_dir):
    (pack_dir / "tests/ops").mkdir()
    (pack_dir / "tests/ops/test_swish.py").write_text("# mine")
    with pytest.raises(ExistingFilesError, match="tests/ops/test_swish.py"):
        write_plan(plan_op("swish", pack_dir))
    assert (pack_dir / "tests/ops/test_swish.py").read_text() == "# mine"


def test_directory_outside_a_pack_is_refused(tmp_path):
    with pytest.raises(NotAPackError, match="not inside an opsdk pack"):
        plan_op("swish", tmp_path)


def test_hand_edited_ops_list_without_a_tuple_is_refused(pack_dir):
    (pack_dir / "src/packdemo/ops/__init__.py").write_text("OPS = []\n")
    with pytest.raises(ScaffoldError, match="no OPS tuple"):
        plan_op("swish", pack_dir)
