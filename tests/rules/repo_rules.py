#!/usr/bin/env python3
"""The repository's own rules, checked over the tracked files (git ls-files):

  results     results/ holds at most 15 MiB in at most 400 files, and results/README.md is what
              `atomlab results index --check` says the reference files give (with the binary as argument 2)
  narration   no tracked path names a round or a session, and no text outside the data folders narrates one
              (round N, roundN, Round, session); false positives in narration-allow.txt, files still being
              rewritten in narration-pending.txt (a list that only shrinks)
  scripts     scripts/ holds only the files scripts-allow.txt lists, at most 20
  tests       no test reads results/ (tests read tests/data)
  length      C functions at most 120 lines, source files at most 800, except the files and functions
              long-files.txt lists, which may shrink but not grow
  gitignore   .gitignore covers __pycache__/

usage: repo_rules.py SOURCE_DIR [ATOMLAB]   (exit 77 outside a git checkout)
"""
import os
import re
import subprocess
import sys

RULES = os.path.dirname(os.path.abspath(__file__))
MAX_RESULTS_BYTES, MAX_RESULTS_FILES, MAX_SCRIPTS = 15 << 20, 400, 20
MAX_FUNCTION, MAX_FILE = 120, 800
NARRATION = re.compile(r"\b[Rr]ound[ _-]?[0-9]|\bRound\b|[Ss]ession")
NARRATION_PATH = re.compile(r"round[0-9]|session", re.I)
DATA = ("results/", "tests/data/", "tests/fuzz/corpus/", "data/calibrations/", "tests/rules/")
SOURCE = (".c", ".h", ".cu", ".cuh", ".cl", ".clh", ".comp")
failures = []


def fail(rule, text):
    failures.append(f"{rule}: {text}")


def lines_of(name):
    """The list file's entries: lines without comments and blank lines."""
    out = []
    for line in open(os.path.join(RULES, name), encoding="utf-8"):
        line = line.split("#", 1)[0].strip() if not line.lstrip().startswith("#") else ""
        if line:
            out.append(line)
    return out


def text_of(path):
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except (UnicodeDecodeError, OSError):
        return None  # binary (images, gzip) or unreadable: no text to narrate


def check_results(files, atomlab):
    res = [f for f in files if f.startswith("results/")]
    size = sum(os.path.getsize(f) for f in res if os.path.exists(f))
    if len(res) > MAX_RESULTS_FILES:
        fail("results", f"{len(res)} files under results/ (at most {MAX_RESULTS_FILES})")
    if size > MAX_RESULTS_BYTES:
        fail("results", f"{size} bytes under results/ (at most {MAX_RESULTS_BYTES})")
    if atomlab and os.path.isdir("results/reference"):
        r = subprocess.run([atomlab, "results", "index", "--check"], capture_output=True, text=True)
        if r.returncode != 0:
            fail("results", "results/README.md: " + (r.stderr.strip().splitlines() or ["?"])[-1])


def check_narration(files):
    allow = {}
    for entry in lines_of("narration-allow.txt"):
        path, _, what = entry.partition(": ")
        allow.setdefault(path, []).append(what)
    pending = set(lines_of("narration-pending.txt"))
    for p in sorted(pending):
        if p not in files:
            fail("narration", f"narration-pending.txt lists {p}, which is not tracked: take it off the list")
    for f in files:
        if NARRATION_PATH.search(f):
            fail("narration", f"the path {f} names a round or a session")
        if f.startswith(DATA) or f in pending:
            continue
        text = text_of(f)
        if text is None:
            continue
        whole = allow.get(f, [])
        if "" in whole:
            continue
        for no, line in enumerate(text.splitlines(), 1):
            m = NARRATION.search(line)
            if m and not any(w and w in line for w in whole):
                fail("narration", f"{f}:{no}: '{m.group(0)}' in: {line.strip()[:120]}")


def check_scripts(files):
    allowed = set(lines_of("scripts-allow.txt"))
    ours = [f for f in files if f.startswith("scripts/")]
    for f in ours:
        if f not in allowed:
            fail("scripts", f"{f} is not in tests/rules/scripts-allow.txt")
    if len(ours) > MAX_SCRIPTS:
        fail("scripts", f"{len(ours)} files under scripts/ (at most {MAX_SCRIPTS})")


def check_tests(files):
    allow = [e.partition(": ") for e in lines_of("results-read-allow.txt")]
    for f in files:
        if not f.startswith("tests/") or f.startswith(DATA):
            continue
        text = text_of(f)
        for no, line in enumerate((text or "").splitlines(), 1):
            if re.search(r"(^|[^-\w])results/", line) and not any(f == p and w in line for p, _, w in allow):
                fail("tests", f"{f}:{no} reads results/ (tests read tests/data): {line.strip()[:120]}")


FUNC_START = re.compile(r"^[A-Za-z_][\w \*,()\[\]]*\b(\w+)\s*\(")


def functions(text):
    """(name, first line, line count) of each top-level function: a signature from column 0, a body from a '{'
    line in column 0 (or a signature line that ends with '{') to the next '}' in column 0."""
    out, start, name = [], None, None
    lines = text.splitlines()
    for i, line in enumerate(lines):
        m = FUNC_START.match(line)
        if start is None and m and not line.startswith(("typedef", "struct", "enum", "union", "#", "static const")):
            name, sig = m.group(1), i
        if start is None and name and (line == "{" or (line.endswith("{") and FUNC_START.match(line) and "=" not in line)):
            start = sig
        elif start is not None and line.startswith("}"):
            out.append((name, start + 1, i - start + 1))
            start, name = None, None
        elif start is None and line.endswith(";"):
            name = None
    return out


def check_lengths(files):
    known = {}
    for e in lines_of("long-files.txt"):
        kind, what, n = e.split()
        known[(kind, what)] = int(n)
    seen = set()
    for f in files:
        if not f.endswith(SOURCE) or f.startswith(DATA):
            continue
        text = text_of(f)
        if text is None:
            continue
        n = text.count("\n")
        if n > MAX_FILE:
            seen.add(("file", f))
            limit = known.get(("file", f))
            if limit is None:
                fail("length", f"{f}: {n} lines (at most {MAX_FILE}; split it)")
            elif n > limit:
                fail("length", f"{f}: {n} lines, more than the {limit} long-files.txt allows (it may only shrink)")
        for name, first, count in functions(text):
            if count > MAX_FUNCTION:
                key = ("function", f"{f}:{name}")
                seen.add(key)
                limit = known.get(key)
                if limit is None:
                    fail("length", f"{f}:{first}: {name} has {count} lines (at most {MAX_FUNCTION}; split it)")
                elif count > limit:
                    fail("length", f"{f}:{first}: {name} has {count} lines, more than the {limit} long-files.txt allows")
    for key in sorted(set(known) - seen):
        print(f"note: long-files.txt lists {key[1]}, now within the limits: take it off the list")


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    os.chdir(sys.argv[1])
    atomlab = os.path.abspath(sys.argv[2]) if len(sys.argv) > 2 else None
    try:
        files = subprocess.run(["git", "ls-files"], capture_output=True, text=True, check=True).stdout.split("\n")
    except (OSError, subprocess.CalledProcessError):
        print("not a git checkout: skipped")
        sys.exit(77)
    files = [f for f in files if f and os.path.isfile(f)]
    check_results(files, atomlab)
    check_narration(files)
    check_scripts(files)
    check_tests(files)
    check_lengths(files)
    if not re.search(r"^/?__pycache__/?$", open(".gitignore").read(), re.M):
        fail("gitignore", ".gitignore does not cover __pycache__/")
    for line in failures:
        print("FAIL: " + line)
    print(f"{len(failures)} rule violations")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
