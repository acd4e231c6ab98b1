"""KAJI_CPU_THREADS: how many workers run the cpu target's blocks (the launching thread is one
of them, the others threads named "kaji-cpu"), read at the first cpu launch of a process; anything but a whole number in 1..4096 is
a ValueError naming the variable and its value. Each case runs in a fresh process."""

import os
import sys
import textwrap

import pytest

import kaji
from python_program import run_python_program

PROGRAM = textwrap.dedent("""
    import os
    import warnings
    import numpy as np
    import kaji

    warnings.simplefilter("ignore", kaji.TargetFallbackWarning)

    def threads():
        names = (os.path.join("/proc/self/task", task, "comm")
                 for task in os.listdir("/proc/self/task"))
        return sum(open(name).read().strip() == "kaji-cpu" for name in names)

    @kaji.jit(target="cpu")
    def double(a):
        i = kaji.grid(1)
        if i < a.size:
            a[i] *= 2

    a = np.arange(4096, dtype=np.float64)
    before = threads()
    try:
        double[16, 256](a)
    except ValueError as error:
        print("ValueError:", error)
    else:
        assert (a == 2 * np.arange(4096)).all()
        print("started", threads() - before)
""")


def run(setting):
    # The child imports the kaji this process imported.
    package = os.path.dirname(os.path.dirname(kaji.__file__))
    search_path = os.pathsep.join([package, os.environ.get("PYTHONPATH", "")])
    env = dict(os.environ, KAJI_CPU_THREADS=setting, PYTHONPATH=search_path.rstrip(os.pathsep))
    result = run_python_program(PROGRAM, env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/task")
@pytest.mark.parametrize("workers", [1, 3])
def test_the_setting_is_the_number_of_workers(workers):
    assert run(str(workers)) == f"started {workers - 1}"


@pytest.mark.parametrize("setting", ["0", "-1", "two", "2.5", "5000"])
def test_a_setting_that_is_not_a_worker_count_is_a_value_error(setting):
    assert run(setting) == (f"ValueError: KAJI_CPU_THREADS='{setting}': the cpu target's worker "
                            "threads must be a whole number in 1..4096")
