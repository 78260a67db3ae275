"""Throw-away virtual environments that install into themselves but see this interpreter's packages."""
import os
import site
import subprocess
import sys


def venv_seeing_this_interpreter(venv):
    """Create a venv at ``venv`` that installs into itself and sees this interpreter's packages
    (pip, setuptools, numpy, pytest, opsdk), offline; returns the path of its python.

    ``--system-site-packages`` is not it: inside a venv it shows the *base* Python's packages,
    not this venv's. A .pth that adds this interpreter's site directories (with their own .pth
    files, so editable installs resolve) works inside and outside a venv.
    """
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = os.path.join(str(venv), "Scripts" if os.name == "nt" else "bin",
                          "python.exe" if os.name == "nt" else "python")
    purelib = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                             check=True, capture_output=True, text=True).stdout.strip()
    ours = [*site.getsitepackages(), site.getusersitepackages()]
    lines = [f"import site; site.addsitedir({folder!r})" for folder in ours if os.path.isdir(folder)]
    with open(os.path.join(purelib, "_outer_site.pth"), "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    return python
