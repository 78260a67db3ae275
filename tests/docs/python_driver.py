"""Runs a Markdown file's Python blocks in order in one namespace, one block per request.

Started by doc_session.DocSession in the docs venv; reads ``{"path", "cwd", "line"}`` requests
on stdin and answers ``{"ok": bool, "error": str}`` on the file descriptor in $DOCS_RESULT_FD.
"""
import importlib
import json
import os
import site
import sys
import sysconfig
import traceback


def main():
    answers = os.fdopen(int(os.environ["DOCS_RESULT_FD"]), "w", buffering=1)
    namespace = {"__name__": "__main__"}
    purelib = sysconfig.get_path("purelib")
    for request in sys.stdin:
        request = json.loads(request)
        os.chdir(request["cwd"])
        if os.getcwd() not in sys.path:
            sys.path.insert(0, os.getcwd())
        site.addsitedir(purelib)  # packs a shell block pip-installed since this process started
        importlib.invalidate_caches()
        with open(request["path"], encoding="utf-8") as f:
            code = "\n" * (request["line"] - 1) + f.read()  # tracebacks point at the doc's lines
        # named as a file in the working directory: paths a block resolves against its own
        # file (CSource("scale.c")) then find what earlier blocks wrote there
        filename = os.path.join(os.getcwd(), os.path.basename(request["doc"]))
        try:
            exec(compile(code, filename, "exec"), namespace)
        except BaseException:  # noqa: BLE001 - the block's failure is the answer
            answers.write(json.dumps({"ok": False, "error": traceback.format_exc()}) + "\n")
        else:
            answers.write(json.dumps({"ok": True, "error": ""}) + "\n")
        sys.stdout.flush()
        sys.stderr.flush()


if __name__ == "__main__":
    main()
