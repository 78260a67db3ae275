"""Render a page in headless Chromium: the DOM after its scripts ran, and every console message."""
import re
import shutil
import subprocess
import tempfile

import pytest

_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
_CONSOLE = re.compile(r":CONSOLE[^\]]*\] (.*)")
# no network, no updates, no first-run: a page that renders here renders offline
_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
          "--disable-component-update", "--disable-sync", "--no-first-run",
          "--enable-logging=stderr", "--v=0", "--log-level=0", "--virtual-time-budget=5000")


def find_chromium():
    """The path of a Chromium binary, or None."""
    return next((path for path in map(shutil.which, _NAMES) if path), None)


def render(path):
    """(dom, console_messages) of the file at path, rendered by headless Chromium (a fresh profile).

    Skips the test, with the reason, where no Chromium is installed.
    """
    binary = find_chromium()
    if binary is None:
        pytest.skip("headless Chromium is not installed (Debian: apt-get install chromium)")
    with tempfile.TemporaryDirectory(prefix="opsdk-chromium-") as profile:
        done = subprocess.run([binary, *_FLAGS, f"--user-data-dir={profile}", "--dump-dom",
                               f"file://{path}"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout, _CONSOLE.findall(done.stderr)
