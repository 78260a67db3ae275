"""The fenced code blocks of a Markdown file, with the marker line that may precede each.

Markers (an HTML comment on the line before the fence, blank lines allowed between):

- ``<!-- not-run: REASON -->``: the block is shown, never run (the reason is required);
- ``<!-- file: PATH -->``: the block's text is written to PATH (relative to where the file's
  blocks run) for later blocks to use, e.g. a C source a Python block compiles;
- ``<!-- needs: MODULE [MODULE ...] -->``: the block runs only where every MODULE imports (an
  optional framework, e.g. ``torch``); elsewhere it is skipped and the test says why.

Blocks in ``python`` run; ``bash``/``sh``/``shell`` run as scripts; ``console`` runs each
``$ `` line as a command, and the lines after it are what it prints (stdout and stderr as a
terminal interleaves them), compared line by line (``output_matches``): a number matches any
number (counts and timings differ between machines and runs), a run of spaces any run of spaces,
``...`` inside a line any text, a line of just ``...`` any lines, and pytest's progress lines
(``..ss.. [ 50%]``) any progress lines (pytest's `` (0:01:27)`` after a long duration is
dropped); everything else must be as shown. An ``exit code: N``
line must match exactly. Untyped fences and listing languages (text, toml, c, ...) are never
run. Any other language is an error, so a typo cannot hide a block.
"""
import re
from dataclasses import dataclass
from pathlib import Path

RUN_PYTHON = ("python", "py")
RUN_SHELL = ("bash", "sh", "shell")
RUN_CONSOLE = ("console",)
LISTINGS = ("", "text", "txt", "toml", "c", "cuda", "cpp", "json", "yaml", "ini", "cfg", "diff",
            "xml", "html", "output")

_FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>[^`\s]*)[^`]*$")
_MARKER = re.compile(r"^[ \t]*<!--[ \t]*(?P<kind>not-run|file|needs):[ \t]*(?P<value>.*?)[ \t]*-->[ \t]*$")


@dataclass(frozen=True)
class Block:
    """One fenced block: where it starts (1-based line of its first code line), its language, code
    (dedented by the fence's indent) and its marker (kind, value) or None."""

    path: Path
    line: int
    lang: str
    code: str
    marker: tuple = None

    @property
    def where(self):
        return f"{self.path}:{self.line}"

    @property
    def needs(self):
        """The modules the block needs (its ``needs:`` marker), else ()."""
        return tuple(self.marker[1].split()) if self.marker and self.marker[0] == "needs" else ()

    @property
    def runs(self):
        """How the block runs: 'python', 'shell', 'console', 'file' (written out) or None."""
        if self.marker is not None and self.marker[0] != "needs":
            return "file" if self.marker[0] == "file" else None
        if self.lang in RUN_PYTHON:
            return "python"
        if self.lang in RUN_SHELL:
            return "shell"
        if self.lang in RUN_CONSOLE:
            return "console"
        return None


def parse(path):
    """Every fenced block of the Markdown file at path, in order."""
    path = Path(path)
    lines = path.read_text(encoding="utf-8").splitlines()
    blocks, i = [], 0
    while i < len(lines):
        match = _FENCE.match(lines[i])
        if not match:
            i += 1
            continue
        indent, fence, lang = match["indent"], match["fence"], match["info"].lower()
        body, j = [], i + 1
        while j < len(lines) and not (lines[j].strip().startswith(fence[0] * len(fence))
                                      and lines[j].strip().strip(fence[0]) == ""):
            text = lines[j]
            body.append(text[len(indent):] if text.startswith(indent) else text.lstrip())
            j += 1
        blocks.append(Block(path, i + 2, lang, "\n".join(body) + "\n", _marker_before(lines, i)))
        i = j + 1
    return blocks


def _marker_before(lines, fence_index):
    k = fence_index - 1
    while k >= 0 and not lines[k].strip():
        k -= 1
    match = _MARKER.match(lines[k]) if k >= 0 else None
    return (match["kind"], match["value"]) if match else None


def problems(blocks):
    """What is wrong with the blocks' markup: unknown languages, markers without a reason or path."""
    found = []
    for block in blocks:
        known = block.lang in RUN_PYTHON + RUN_SHELL + RUN_CONSOLE + LISTINGS
        if not known:
            found.append(f"{block.where}: unknown language '{block.lang}' (a typo would hide the block; "
                         f"mark it <!-- not-run: why --> or use one of {', '.join(LISTINGS[1:])})")
        if block.marker is not None and not block.marker[1]:
            what = {"not-run": "reason", "file": "path", "needs": "module"}[block.marker[0]]
            found.append(f"{block.where}: <!-- {block.marker[0]}: --> needs a {what}")
    return found


def console_commands(code):
    """[(command, documented output lines)] of a console block: ``$ `` lines, with ``\\`` continuations."""
    commands = []
    pending = None
    for line in code.splitlines():
        if pending is not None:
            pending += "\n" + line
            if not line.endswith("\\"):
                commands.append((pending, []))
                pending = None
        elif line.startswith("$ "):
            command = line[2:]
            if command.endswith("\\"):
                pending = command
            else:
                commands.append((command, []))
        elif commands:
            commands[-1][1].append(line)
    return commands


_NUMBER = re.compile(r"(?<![A-Za-z_\d.])\d+(?:\.\d+)*")
_PROGRESS = re.compile(r"^[.sFExX]+ *\[ *\d+%\]$")
_PROGRESS_LINES = r"(?:[.sFExX]+ *\[ *\d+%\]\n)+"
_LONG_DURATION = re.compile(r"(\d+(?:\.\d+)?s) \(\d+:\d\d:\d\d\)")


def _line_pattern(line):
    """The regex of one documented output line (see the module's docstring)."""
    pieces = []
    for part in re.split(r"(\.\.\.| +)", line):
        if part == "...":
            pieces.append(r"[^\n]*")
        elif part.startswith(" "):
            pieces.append(" +")
        else:
            at = 0
            for number in _NUMBER.finditer(part):
                pieces += [re.escape(part[at:number.start()]), r"\d+(?:\.\d+)*"]
                at = number.end()
            pieces.append(re.escape(part[at:]))
    return "".join(pieces)


def output_pattern(documented):
    """The regex an output matches when it is what the documented lines show."""
    lines = [line.rstrip() for line in documented]
    parts, i = [], 0
    while i < len(lines):
        if lines[i] == "...":
            parts.append(r"(?:[^\n]*\n)*?")
        elif _PROGRESS.match(lines[i]):
            while i + 1 < len(lines) and _PROGRESS.match(lines[i + 1]):
                i += 1
            parts.append(_PROGRESS_LINES)
        else:
            parts.append(_line_pattern(lines[i]) + r"\n")
        i += 1
    return "".join(parts)


def output_matches(documented, output):
    """Whether ``output`` (what a command printed) is what the ``documented`` lines show."""
    lines = [line.rstrip() for line in output.splitlines()]
    while lines and not lines[-1]:
        lines.pop()
    documented = [_LONG_DURATION.sub(r"\1", line) for line in documented]
    while documented and not documented[-1].strip():
        documented = documented[:-1]
    text = _LONG_DURATION.sub(r"\1", "".join(line + "\n" for line in lines))
    return re.fullmatch(output_pattern(documented), text) is not None


def doc_files(root):
    """The Markdown files whose blocks must run: README.md, docs/**/*.md, each pack's README.md."""
    root = Path(root)
    found = [root / "README.md", *sorted((root / "docs").rglob("*.md")),
             *sorted((root / "plugins").glob("*/README.md"))]
    return [path for path in found if path.is_file()]
