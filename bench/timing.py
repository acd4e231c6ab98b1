"""The timing loop the launch benchmarks share."""

import statistics
import time


def median_per_call(call, runs, calls, synchronize=lambda: None, warmup=100,
                    clock=time.perf_counter):
    """Median over `runs` runs of the seconds per call of `calls` back-to-back calls, each run
    ending with one `synchronize()` (for asynchronous work) inside its time. `clock` is wall
    time by default; time.thread_time counts only this thread's CPU time (for work that stays
    on this thread, on a machine other processes load)."""
    for _ in range(warmup):
        call()
    synchronize()
    samples = []
    for _ in range(runs):
        start = clock()
        for _ in range(calls):
            call()
        synchronize()
        samples.append((clock() - start) / calls)
    return statistics.median(samples)
