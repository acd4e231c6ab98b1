"""The cpu target under what a GPU program may do and a process may suffer: recursion past the
stack, Ctrl-C in a kernel that never ends, fork() after a launch, threads of a block that wait
for each other, launches from several threads at once. None of them may crash or hang."""

import multiprocessing
import os
import signal
import subprocess
import sys
import textwrap
import threading

import numpy as np
import pytest

import kaji
from kaji import cuda
from python_program import run_python_program


@kaji.jit(device=True)
def chain(n):
    if n == 0:
        return 0
    # Not a tail call, nor an accumulation LLVM could turn into a loop.
    inner = chain(n - 1)
    return (inner * 31 + n) % 1000003


def chain_reference(n):
    value = 0
    for k in range(1, n + 1):
        value = (value * 31 + k) % 1000003
    return value


@kaji.jit(target="cpu")
def chain_kernel(out, n):
    i = kaji.grid(1)
    if i < out.size:
        out[i] = chain(n)


@kaji.jit(target="cpu")
def chain_kernel_with_barrier(out, n):
    kaji.syncthreads()
    i = kaji.grid(1)
    if i < out.size:
        out[i] = chain(n)


@pytest.mark.parametrize("kernel", [chain_kernel, chain_kernel_with_barrier])
@pytest.mark.parametrize("blocks", [1, 3])
def test_deep_recursion_runs(kernel, blocks):
    out = np.zeros(blocks * 4, np.int64)
    kernel[blocks, 4](out, 20_000)
    assert (out == chain_reference(20_000)).all()


@pytest.mark.parametrize("kernel", [chain_kernel, chain_kernel_with_barrier])
@pytest.mark.parametrize("blocks", [1, 3])
def test_recursion_past_the_stack_is_a_recursion_error(kernel, blocks):
    out = np.zeros(blocks * 4, np.int64)
    with pytest.raises(RecursionError, match=r"chain.*8 MiB of stack"):
        kernel[blocks, 4](out, 10**7)
    # The executor is whole again: the next launch runs.
    kernel[blocks, 4](out, 100)
    assert (out == chain_reference(100)).all()


_INTERRUPTED = textwrap.dedent("""
    import os, subprocess, sys, time
    import numpy as np
    import kaji

    @kaji.jit(target="cpu")
    def spin(flag):
        {barrier}
        while flag[0] == 0:
            pass

    flag = np.zeros(1, np.int64)
    spin[{blocks}, 32](np.ones(1, np.int64))  # compiled before the clock starts
    subprocess.Popen(["sh", "-c", f"sleep 0.5; kill -INT {{os.getpid()}}"])
    started = time.monotonic()
    try:
        spin[{blocks}, 32](flag)
    except KeyboardInterrupt:
        print(f"KeyboardInterrupt after {{time.monotonic() - started:.2f}} s")
    flag[0] = 1
    spin[{blocks}, 32](flag)
    print("launches after it run")
""")


def _run_on_cpu_target(script, timeout):
    """`script` run by a new Python process with this kaji on the cpu target. The process
    takes SIGINT as Python does by default even where the tests run as a shell's background
    job, whose SIGINT is ignored and stays so in its children."""
    package = os.path.dirname(os.path.dirname(kaji.__file__))
    search_path = os.pathsep.join([package, os.environ.get("PYTHONPATH", "")])
    return run_python_program(script, capture_output=True, text=True, timeout=timeout,
                              env=dict(os.environ, KAJI_TARGET="cpu",
                                       PYTHONPATH=search_path.rstrip(os.pathsep)),
                              preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


@pytest.mark.parametrize("blocks", [1, 8])
@pytest.mark.parametrize("barrier", ["", "kaji.syncthreads()"])
def test_ctrl_c_stops_a_kernel_that_never_ends(blocks, barrier):
    result = _run_on_cpu_target(_INTERRUPTED.format(blocks=blocks, barrier=barrier), timeout=60)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("KeyboardInterrupt after"), result.stdout
    assert float(lines[0].split()[2]) < 1.5
    assert lines[1] == "launches after it run"


# SIGINT from a POSIX timer (timer_create, through ctypes) a few microseconds after it is
# armed, so that over many launches some arrive while the launch is being set up, before its
# handler is in place: Python then has the signal pending, and looks at it only after the
# launch, which would never end.
_INTERRUPTED_AS_IT_STARTS = textwrap.dedent("""
    import ctypes, faulthandler, random, signal
    import numpy as np
    import kaji

    faulthandler.dump_traceback_later(30, exit=True)

    @kaji.jit(target="cpu")
    def spin(flag):
        while flag[0] == 0:
            pass

    class timespec(ctypes.Structure):
        _fields_ = [("tv_sec", ctypes.c_long), ("tv_nsec", ctypes.c_long)]

    class itimerspec(ctypes.Structure):
        _fields_ = [("it_interval", timespec), ("it_value", timespec)]

    class sigevent(ctypes.Structure):
        _fields_ = [("sigev_value", ctypes.c_void_p), ("sigev_signo", ctypes.c_int),
                    ("sigev_notify", ctypes.c_int), ("padding", ctypes.c_int * 12)]

    libc = ctypes.CDLL(None, use_errno=True)
    if not hasattr(libc, "timer_create"):  # glibc before 2.34 keeps it in librt
        libc = ctypes.CDLL("librt.so.1", use_errno=True)
    SIGEV_SIGNAL, CLOCK_MONOTONIC = 0, 1
    timer = ctypes.c_void_p()
    assert libc.timer_create(CLOCK_MONOTONIC, ctypes.byref(sigevent(None, signal.SIGINT, SIGEV_SIGNAL)),
                             ctypes.byref(timer)) == 0
    flag = np.zeros(1, np.int64)
    spin[1, 1](np.ones(1, np.int64))
    delays = random.Random(1)
    stopped = 0
    for _ in range({launches}):
        after = itimerspec(timespec(0, 0), timespec(0, delays.randrange(1000, 40000)))
        try:
            libc.timer_settime(timer, 0, ctypes.byref(after), None)
            spin[1, 1](flag)
        except KeyboardInterrupt:
            stopped += 1
    print("stopped", stopped)
""")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="timer_create is Linux's")
def test_ctrl_c_as_a_launch_starts_stops_it():
    launches = 1000
    result = _run_on_cpu_target(_INTERRUPTED_AS_IT_STARTS.format(launches=launches), timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["stopped", str(launches)], result.stderr


@kaji.jit(target="cpu")
def add_index(x):
    i = kaji.grid(1)
    if i < x.size:
        x[i] += i


def _launch_in_child(results):
    x = np.zeros(4096, np.int64)
    add_index[16, 256](x)

    @kaji.jit(target="cpu")
    def double(x):
        i = kaji.grid(1)
        if i < x.size:
            x[i] *= 2

    double[16, 256](x)
    results.put(int(x.sum()))


def test_launches_in_a_child_after_fork():
    x = np.zeros(4096, np.int64)
    add_index[16, 256](x)  # the parent's thread pool is running
    context = multiprocessing.get_context("fork")
    results = context.Queue()
    child = context.Process(target=_launch_in_child, args=(results,))
    child.start()
    try:
        assert results.get(timeout=60) == 2 * sum(range(4096))
    finally:
        child.join(timeout=60)
        if child.is_alive():
            child.kill()
    assert child.exitcode == 0


@cuda.jit(target="cpu")
def handshake(flag, out):
    t = cuda.threadIdx.x
    if t == 0:
        while cuda.atomic.add(flag, 0, 0) == 0:
            pass
        out[0] = out[1] + 1
    elif t == 1:
        out[1] = 41
        cuda.atomic.exch(flag, 0, 1)


@cuda.jit(target="cpu")
def locked_increment(counter, mutex):
    while cuda.atomic.cas(mutex, 0, 0, 1) != 0:
        pass
    counter[0] += 1
    cuda.threadfence()
    cuda.atomic.exch(mutex, 0, 0)


def test_a_thread_waiting_for_another_of_its_block_progresses():
    flag = np.zeros(1, np.int32)
    out = np.zeros(2, np.int32)
    handshake[1, 32](flag, out)
    assert out.tolist() == [42, 41]


def test_a_spin_lock_taken_by_every_thread():
    counter = np.zeros(1, np.int32)
    mutex = np.zeros(1, np.int32)
    locked_increment[8, 64](counter, mutex)
    assert counter[0] == 8 * 64


def test_threads_compiling_and_launching_at_once():
    errors = []

    def work(seed):
        try:
            @kaji.jit(target="cpu")
            def scale(x, factor):
                i = kaji.grid(1)
                if i < x.size:
                    x[i] = x[i] * factor

            for round_ in range(20):
                x = np.arange(1000, dtype=np.float64)
                scale[4, 256](x, float(seed))
                add_index[4, 256](x)
                np.testing.assert_array_equal(x, np.arange(1000) * (seed + 1.0))
        except Exception as error:  # reported on the main thread
            errors.append(error)

    threads = [threading.Thread(target=work, args=(seed,)) for seed in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not errors
    assert not any(thread.is_alive() for thread in threads)


def test_static_shared_memory_beyond_what_a_gpu_allows_is_refused():
    @kaji.jit(target="cpu")
    def huge_shared(out):
        buffer = cuda.shared.array(262144, np.float32)  # 1 MiB
        buffer[cuda.threadIdx.x] = 1
        out[0] = buffer[0]

    with pytest.raises(ValueError, match=r"1048576 bytes of shared arrays of constant size; "
                                         r"CUDA allows 49152"):
        huge_shared[1, 32](np.zeros(1, np.float32))

    @kaji.jit(target="cpu")
    def largest_static_shared(out):
        buffer = cuda.shared.array(12288, np.float32)  # 48 KiB
        buffer[cuda.threadIdx.x] = 1
        out[0] = buffer[0]

    out = np.zeros(1, np.float32)
    largest_static_shared[1, 32](out)
    assert out[0] == 1


def test_dynamic_shared_memory_beyond_a_block_is_refused():
    @kaji.jit(target="cpu")
    def dynamic(out):
        buffer = cuda.shared.array(0, np.float32)
        buffer[cuda.threadIdx.x] = 2
        out[0] = buffer[0]

    out = np.zeros(1, np.float32)
    dynamic[1, 32, 0, 227 * 1024](out)
    assert out[0] == 2
    with pytest.raises(ValueError, match="dynamic shared memory exceed"):
        dynamic[1, 32, 0, 228 * 1024](out)


def test_launch_bounds_hold_on_the_cpu_target():
    @kaji.jit(target="cpu", launch_bounds=128)
    def bounded(out):
        out[cuda.grid(1)] = 1

    out = np.zeros(256, np.float32)
    bounded[2, 128](out)
    with pytest.raises(ValueError, match="block size 256 exceeds the maximum kernel "
                                         "'bounded''s launch_bounds set of 128"):
        bounded[1, 256](out)
