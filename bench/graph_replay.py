"""CUDA graph replay: a chain of NODES small kernels replayed as one graph, against the same
chain launched kernel by kernel. Prints microseconds per kernel (wall time of REPS chains,
synchronised once at the end, divided by REPS * NODES): median of RUNS runs. CuPy's own graph
capture of the same chain of RawKernels is shown beside it when CuPy is importable (numba-cuda
has no CUDA graphs).

    python bench/graph_replay.py [--runs 7] [--reps 200] [--nodes 100]
"""

import argparse

import numpy as np
from timing import median_per_call

N = 1024

STEP_CUDA_C = r"""extern "C" __global__ void step(float* a, float b, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = a[i] * 0.5f + b;
}"""


def per_kernel_us(run_chain, synchronize, runs, reps, nodes):
    return median_per_call(run_chain, runs, reps, synchronize, warmup=1) / nodes * 1e6


def bench_kaji(runs, reps, nodes):
    import kaji

    @kaji.jit(target="cuda")
    def step(a, b):
        i = kaji.grid(1)
        if i < a.size:
            a[i] = a[i] * 0.5 + b

    stream = kaji.stream()
    a = kaji.to_device(np.zeros(N, np.float32))
    b = np.float32(1)
    launch = step[N // 128, 128, stream]

    def individually():
        for _ in range(nodes):
            launch(a, b)

    individually()  # compiled and loaded before the capture, which then records launches only
    stream.synchronize()
    with kaji.graph(stream) as graph:
        individually()
    assert graph.kernel_launches == nodes
    return {
        "kaji, launched one by one": per_kernel_us(individually, stream.synchronize, runs, reps,
                                                   nodes),
        "kaji graph replay": per_kernel_us(lambda: graph.launch(stream), stream.synchronize, runs,
                                           reps, nodes),
    }


def bench_cupy(runs, reps, nodes):
    import cupy as cp

    kernel = cp.RawKernel(STEP_CUDA_C, "step")
    stream = cp.cuda.Stream(non_blocking=True)
    a = cp.zeros(N, cp.float32)
    b, n = np.float32(1), np.int32(N)

    def individually():
        for _ in range(nodes):
            kernel((N // 128,), (128,), (a, b, n), stream=stream)

    individually()
    stream.synchronize()
    with stream:
        stream.begin_capture()
        individually()
        graph = stream.end_capture()
    return {
        "CuPy RawKernel, one by one": per_kernel_us(individually, stream.synchronize, runs, reps,
                                                    nodes),
        "CuPy graph replay": per_kernel_us(lambda: graph.launch(stream), stream.synchronize,
                                           runs, reps, nodes),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--reps", type=int, default=200)
    parser.add_argument("--nodes", type=int, default=100)
    args = parser.parse_args()

    results = {}
    for name, bench in [("kaji", bench_kaji), ("CuPy", bench_cupy)]:
        try:
            results.update(bench(args.runs, args.reps, args.nodes))
        except ImportError as error:
            print(f"{name:30s} skipped: {error}")
    print(f"chain of {args.nodes} kernels, median of {args.runs} runs x {args.reps} chains")
    for name, us in results.items():
        print(f"{name:30s} {us:8.2f} us per kernel")


if __name__ == "__main__":
    main()
