"""The README is executable: its example runs, and CI runs exactly its two commands."""
import pathlib
import re
import subprocess

ROOT = pathlib.Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _blocks(lang):
    return re.findall(rf"^```{lang}\n(.*?)^```$", README, flags=re.S | re.M)


def test_readme_python_example_runs():
    code = _blocks("python")[0]
    exec(compile(code, "README.md", "exec"), {})


def test_readme_starts_with_the_install_and_test_commands():
    commands = [line for line in _blocks("bash")[0].splitlines() if line and line[0] != "#"]
    assert len(commands) == 2
    assert commands[0].startswith("pip install ") and commands[0].endswith("opsdk check")
    extras = re.search(r'\.\[([a-z,]+)\]', commands[1]).group(1).split(",")
    assert "test" in extras and "pytest" in commands[1]
    assert README.index("```bash") < README.index("\n## ")


def test_ci_script_runs_the_readme_commands():
    extract = ("awk '/^```bash$/{f=1;next} /^```$/{if(f)exit} f' README.md "
               "| grep -v '^#' | head -n 2")
    assert extract in (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    out = subprocess.run(["bash", "-c", extract], cwd=ROOT, capture_output=True, text=True,
                         check=True).stdout.splitlines()
    commands = [line for line in _blocks("bash")[0].splitlines() if line and line[0] != "#"]
    assert out == commands


def _full_verification():
    section = README[README.index("### Full verification"):]
    block = re.search(r"^```bash\n(.*?)^```$", section, flags=re.S | re.M).group(1)
    return [line for line in block.splitlines() if line and line[0] != "#"]


def test_full_verification_is_one_command_selecting_what_the_default_run_leaves_out():
    (command,) = _full_verification()
    assert '-m "slow or sweep"' in command
    default = [line for line in _blocks("bash")[0].splitlines() if line and line[0] != "#"][1]
    # the same suite options: both runs see the same CUDA setting
    assert "--opsdk-cuda-sim=auto" in command and "--opsdk-cuda-sim=auto" in default
    assert "--durations" in default  # a slow test shows when it is added


def test_ci_script_runs_the_full_verification_after_the_two_commands():
    extract = ("awk '/^### Full verification$/{s=1} s&&/^```bash$/{f=1;next} /^```$/{if(f)exit} f' "
               "README.md | grep -v '^#'")
    assert extract in (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    out = subprocess.run(["bash", "-c", extract], cwd=ROOT, capture_output=True, text=True,
                         check=True).stdout.splitlines()
    assert out == _full_verification()
