"""Runs Numba-CUDA's own tests (numba/cuda/tests/{cudapy,cudadrv} of the installed numba-cuda)
with kaji standing for numba.cuda, and counts what passes.

Each test file is copied and only its imports change (also `from numba import cuda` in the
programs a test runs in a child interpreter): a name imported from `numba`,
`numba.cuda` or a module under it comes from kaji's module at the same path where kaji has that
module and that name; every other name (Numba's test harness, `njit`, Numba's compiler
internals) stays Numba's; a helper module that extends Numba's type system through its
extension API keeps all of Numba's names. A test file that still takes a name from Numba's CUDA
internals (directly or through such a helper) tests Numba as much as kaji, so the summary counts
the files that run on kaji's names alone apart from the rest.

    python3 scripts/numba_test_suite.py [--folders cudapy,cudadrv] [--report FILE]
        [--test-seconds 60] [--run-seconds 400] [PYTEST_ARGS...]

Prints, per folder, the tests passed, failed, unfinished (running when the run stopped) and
skipped, for all files and for the files on kaji's names alone, then the most common errors.
A test past --test-seconds fails; a file that fails to import counts as one failed test.
"""

import argparse
import ast
import collections
import importlib
import importlib.util
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import types

import numpy as np

np.row_stack = np.vstack  # numba-cuda 0.30 still names it; numpy 2.5 removed it

HARNESS_MODULES = ("numba.cuda.testing", "numba.cuda.tests")
# Numba's extension API: a helper module that takes these extends Numba's type system.
NUMBA_EXTENSION_MODULES = ("numba.cuda.extending", "numba.cuda.cudaimpl")



def kaji_counterpart(module_name):
    """kaji's module at the path of Numba's `module_name`, or None."""
    if module_name == "numba":
        kaji_name = "kaji"
    elif module_name == "numba.cuda" or module_name.startswith("numba.cuda."):
        kaji_name = "kaji" + module_name[len("numba"):]
    else:
        return None
    try:
        if importlib.util.find_spec(kaji_name) is not None:
            return importlib.import_module(kaji_name)
    except ImportError:
        pass
    # A module kaji spells as an attribute (kaji.cuda.types is kaji.types).
    parent, _, attribute = kaji_name.rpartition(".")
    owner = kaji_counterpart("numba" + parent[len("kaji"):]) if "." in kaji_name else None
    candidate = getattr(owner, attribute, None)
    return candidate if isinstance(candidate, types.ModuleType) else None


class ImportRewriter:
    """Rewrites one file's imports; remembers the names it left with Numba's CUDA modules."""

    def __init__(self, package, numba_extensions=None):
        self.package = package
        self.numba_names = set()
        # Helper modules left with Numba's names (prepare()) -> the names they keep.
        self.numba_extensions = numba_extensions or {}

    def rewrite(self, source):
        tree = ast.parse(source)
        lines = source.splitlines(keepends=True)
        replacements = []
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module:
                self.numba_names.update(self.numba_extensions.get(node.module, ()))
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                replacement = self._rewrite_from(node)
                if replacement is not None:
                    replacements.append((node, replacement))
        for node, replacement in sorted(replacements, key=lambda r: -r[0].lineno):
            first, last = node.lineno - 1, node.end_lineno - 1
            indent = lines[first][: node.col_offset]
            statement = indent + "; ".join(replacement) + "\n"
            lines[first : last + 1] = [statement] + ["\n"] * (last - first)
        # Programs a test runs in a child interpreter (`python -c CODE`) import cuda in a string.
        return re.sub(r"^(\s*)from numba import cuda$", r"\1from kaji import cuda",
                      "".join(lines), flags=re.MULTILINE)

    def _rewrite_from(self, node):
        module = node.module
        for folder in ("cudapy", "cudadrv"):
            prefix = f"numba.cuda.tests.{folder}"
            if module == prefix or module.startswith(prefix + "."):
                local = folder + module[len(prefix):]
                return [self._from(local, node.names)]
        if module.startswith(HARNESS_MODULES) or not (
            module == "numba" or module.startswith("numba.")
        ):
            return None
        counterpart = kaji_counterpart(module)
        kaji_names, numba_names = [], []
        for alias in node.names:
            if counterpart is not None and alias.name != "*" and hasattr(counterpart, alias.name):
                kaji_names.append(alias)
            else:
                numba_names.append(alias)
        if module.startswith("numba.cuda") or module == "numba" and any(
            alias.name == "cuda" for alias in numba_names
        ):
            self.numba_names.update(f"{module}.{alias.name}" for alias in numba_names)
        statements = []
        if kaji_names:
            statements.append(self._from(counterpart.__name__, kaji_names))
        if numba_names:
            statements.append(self._from(module, numba_names))
        return statements

    @staticmethod
    def _from(module, aliases):
        names = ", ".join(
            alias.name + (f" as {alias.asname}" if alias.asname else "") for alias in aliases
        )
        return f"from {module} import {names}"


def prepare(work, folders):
    import numba.cuda.tests as numba_tests

    tests_root = os.path.dirname(numba_tests.__file__)
    numba_only = {}
    shutil.copy(os.path.join(os.path.dirname(__file__), "numba_harness_conftest.py"),
                os.path.join(work, "conftest.py"))
    for folder in folders:
        source_folder = os.path.join(tests_root, folder)
        target_folder = os.path.join(work, folder)
        shutil.copytree(source_folder, target_folder, ignore=shutil.ignore_patterns("__pycache__"))
        with open(os.path.join(target_folder, "__init__.py"), "w"):
            pass
        numba_extensions = {}
        # Helper modules first: a test file importing one that extends Numba keeps its names.
        names = sorted(os.listdir(target_folder), key=lambda name: name.startswith("test_"))
        for name in names:
            if not name.endswith(".py") or name == "__init__.py":
                continue
            path = os.path.join(target_folder, name)
            with open(path) as f:
                source = f.read()
            rewriter = ImportRewriter(folder, numba_extensions)
            try:
                rewritten = rewriter.rewrite(source)
            except SyntaxError:
                continue
            if not name.startswith("test_") and any(
                    kept.startswith(NUMBA_EXTENSION_MODULES) for kept in rewriter.numba_names):
                # It registers types with Numba's typing and lowering, so its types must be
                # Numba's: kaji's in their place fail Numba's registration at import, taking
                # every test of the files that import it down with them.
                numba_extensions[name[:-3]] = sorted(rewriter.numba_names)
                continue
            with open(path, "w") as f:
                f.write(rewritten)
            if name.startswith("test_") and rewriter.numba_names:
                numba_only[f"{folder}.{name[:-3]}"] = sorted(rewriter.numba_names)
    return numba_only


RECORDER = '''
"""Writes one JSON line per test phase to $NUMBA_SUITE_RECORD as it ends, so that a run cut
short still counts; a test past $NUMBA_SUITE_TEST_SECONDS is interrupted by an alarm."""
import json
import os
import signal

import pytest

_record = os.environ["NUMBA_SUITE_RECORD"]
_limit = int(os.environ["NUMBA_SUITE_TEST_SECONDS"])


def _write(entry):
    with open(_record, "a") as f:
        f.write(json.dumps(entry) + "\\n")


def _error_line(report):
    text = str(report.longrepr or "")
    for line in text.splitlines():
        if line.startswith("E   "):
            return line[4:].strip()[:160]
    lines = [line for line in text.splitlines() if line.strip()]
    return lines[-1].strip()[:160] if lines else ""


def pytest_runtest_logstart(nodeid, location):
    _write({"test": nodeid, "phase": "start"})


def pytest_runtest_logreport(report):
    if report.when == "call" or report.outcome != "passed":
        _write({"test": report.nodeid, "phase": report.when, "outcome": report.outcome,
                "error": _error_line(report) if report.outcome == "failed" else ""})


def pytest_collectreport(report):
    if report.outcome == "failed":
        _write({"test": report.nodeid, "phase": "collect", "outcome": "failed",
                "error": _error_line(report)})


def _interrupt(signum, frame):
    raise TimeoutError(f"the test ran past {_limit} s")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    previous = signal.signal(signal.SIGALRM, _interrupt)
    signal.alarm(_limit)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
'''


def read_outcomes(record_path):
    """test -> (outcome, error line); tests that started and never ended are "unfinished"."""
    outcomes = {}
    with open(record_path) as f:
        for line in f:
            entry = json.loads(line)
            test = entry["test"]
            if entry["phase"] == "start":
                outcomes.setdefault(test, ("unfinished", "the run ended during the test"))
            elif entry["outcome"] == "skipped":
                if outcomes.get(test, ("",))[0] in ("", "unfinished"):
                    outcomes[test] = ("skipped", "")
            elif entry["outcome"] == "failed":
                if outcomes.get(test, ("",))[0] != "failed":
                    outcomes[test] = ("failed", entry["error"] or entry["phase"] + " failed")
            elif outcomes.get(test, ("",))[0] in ("", "unfinished"):
                outcomes[test] = ("passed", "")
    return outcomes


def summarize(outcomes, folders, numba_only):
    counts = {(folder, scope): collections.Counter() for folder in folders
              for scope in ("all", "kaji")}
    failures = collections.Counter()
    failing_tests = []
    for test, (outcome, error) in outcomes.items():
        path = test.split("::")[0]
        folder = path.split("/")[0]
        module = path[:-3].replace("/", ".")
        if folder not in folders:
            continue
        counts[(folder, "all")][outcome] += 1
        if module not in numba_only:
            counts[(folder, "kaji")][outcome] += 1
        if outcome in ("failed", "unfinished"):
            failures[error] += 1
            failing_tests.append(f"{test}: {error}")
    report = []
    for folder in folders:
        for scope, title in (("all", "all files"), ("kaji", "files on kaji's names alone")):
            c = counts[(folder, scope)]
            ran = c["passed"] + c["failed"] + c["unfinished"]
            rate = f"{100 * c['passed'] / ran:.1f} %" if ran else "-"
            report.append(
                f"{folder:8} {title:30} passed {c['passed']:5}  failed {c['failed']:5}  "
                f"unfinished {c['unfinished']:3}  skipped {c['skipped']:4}  pass rate {rate}")
    report.append("")
    report.append("Most common first lines of failures:")
    for line, count in failures.most_common(60):
        report.append(f"{count:5}  {line}")
    report.append("")
    report.append("Files that keep names from Numba's CUDA modules:")
    for module, names in sorted(numba_only.items()):
        report.append(f"  {module}: {', '.join(names)}")
    report.append("")
    report.append("Failing tests:")
    report.extend("  " + test for test in sorted(failing_tests))
    return "\n".join(report)


def run_tests(work, folders, pytest_args, test_seconds, run_seconds):
    with open(os.path.join(work, "numba_suite_recorder.py"), "w") as f:
        f.write(RECORDER)
    record = os.path.join(work, "record.jsonl")
    open(record, "w").close()
    env = dict(os.environ, NUMBA_SUITE_RECORD=record, NUMBA_SUITE_TEST_SECONDS=str(test_seconds),
               PYTHONPATH=os.pathsep.join([work, os.environ.get("PYTHONPATH", "")]))
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
               "-p", "numba_suite_recorder", *pytest_args, *folders]
    # A session of its own, so that a run cut short takes pytest's workers with it.
    process = subprocess.Popen(command, cwd=work, env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        process.wait(timeout=run_seconds)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        print(f"stopped after {run_seconds} s")
    return read_outcomes(record)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folders", default="cudapy,cudadrv")
    parser.add_argument("--report", help="write the full report (with every failing test) here")
    parser.add_argument("--test-seconds", type=int, default=60,
                        help="a test running longer fails (default 60)")
    parser.add_argument("--run-seconds", type=int, default=400,
                        help="the run stops after this long; tests not reached do not count")
    args, pytest_args = parser.parse_known_args()
    folders = args.folders.split(",")
    work = tempfile.mkdtemp(prefix="numba-suite-")
    try:
        numba_only = prepare(work, folders)
        outcomes = run_tests(work, folders, pytest_args, args.test_seconds, args.run_seconds)
        report = summarize(outcomes, folders, numba_only)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if args.report:
        with open(args.report, "w") as f:
            f.write(report + "\n")
    summary, _, _ = report.partition("\nFiles that keep")
    print(summary)


if __name__ == "__main__":
    main()
