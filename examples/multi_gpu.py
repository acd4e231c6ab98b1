# Data parallel over every visible GPU: the batch is split into one shard per GPU, each GPU
# runs the kernel on its shard on a stream of its own (the launches are asynchronous, so the
# GPUs run at the same time), and the shards are gathered back. It prints the time on one GPU,
# on all of them and the speed-up, for a memory-bound and a compute-bound kernel, and with two
# or more GPUs the bandwidth of a peer copy from GPU 0 to GPU 1. The kernels compile once and
# load on each GPU on first use there.
#
# With one GPU it runs on that one (speed-up 1); without a GPU, on the cpu target.
#
#     python3 examples/multi_gpu.py [--size N] [--iterations N] [--repeats N]
import argparse
import time

import numpy as np

import kaji


@kaji.jit
def scale_add(out, x):
    i = kaji.grid(1)
    if i < x.size:
        out[i] = 2.0 * x[i] + 1.0


@kaji.jit
def relax(out, x, iterations):
    i = kaji.grid(1)
    if i < x.size:
        v = x[i]
        for _ in range(iterations):
            v = v * 0.999 + 0.001
        out[i] = v


THREADS = 256


class Shard:
    """One device's part of the batch: its device id, input, output and stream."""

    def __init__(self, device, host_part, on_gpu):
        self.device = device
        if on_gpu:
            kaji.select_device(device)
        self.x = kaji.to_device(host_part)
        self.out = kaji.device_array_like(self.x)
        self.stream = kaji.stream() if on_gpu else 0

    def launch(self, kernel, *extra):
        blocks = (self.x.size + THREADS - 1) // THREADS
        kernel[blocks, THREADS, self.stream](self.out, self.x, *extra)

    def wait(self):
        if self.stream:
            self.stream.synchronize()


def split(host, devices, on_gpu):
    return [Shard(device, part, on_gpu)
            for device, part in zip(devices, np.array_split(host, len(devices)))]


def launch_on_every_shard(shards, kernel, extra):
    """Seconds from the first launch until every shard is done."""
    start = time.perf_counter()
    for shard in shards:
        if shard.stream:
            kaji.select_device(shard.device)
        shard.launch(kernel, *extra)
    for shard in shards:
        shard.wait()
    return time.perf_counter() - start


def run(shards, kernel, extra, repeats):
    """The best of `repeats` timed runs (after one that compiles and loads the kernel on each
    device), and the gathered result."""
    launch_on_every_shard(shards, kernel, extra)
    best = min(launch_on_every_shard(shards, kernel, extra) for _ in range(repeats))
    return best, np.concatenate([shard.out.copy_to_host() for shard in shards])


def peer_copy_bandwidth(size_bytes, repeats):
    """GB/s of copy_to_device from a device array on GPU 0 to one on GPU 1."""
    kaji.select_device(0)
    source = kaji.device_array(size_bytes, np.uint8)
    kaji.select_device(1)
    target = kaji.device_array(size_bytes, np.uint8)
    target.copy_to_device(source)  # enables peer access, not timed
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        target.copy_to_device(source)
        best = min(best, time.perf_counter() - start)
    kaji.select_device(0)
    return size_bytes / best / 1e9


def main():
    on_gpu = scale_add.target == "cuda"
    gpus = len(kaji.devices()) if on_gpu else 0
    parser = argparse.ArgumentParser()
    parser.add_argument("--size", type=int, default=(1 << 26) if on_gpu else (1 << 20))
    parser.add_argument("--iterations", type=int, default=4096 if on_gpu else 32)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()

    devices = list(range(max(gpus, 1)))
    where = f"{gpus} GPU(s)" if gpus else "the cpu target (no GPU)"
    print(f"{args.size} float32 elements on {where}")
    host = np.random.default_rng(0).random(args.size, dtype=np.float32)
    iterations = np.int32(args.iterations)
    expected = {
        "memory-bound": 2 * host + 1,
        "compute-bound": 1 + (host - 1) * np.float32(0.999) ** args.iterations,
    }
    one, every = split(host, devices[:1], on_gpu), split(host, devices, on_gpu)
    for name, kernel, extra in [("memory-bound", scale_add, ()),
                                ("compute-bound", relax, (iterations,))]:
        one_time, one_result = run(one, kernel, extra, args.repeats)
        every_time, every_result = run(every, kernel, extra, args.repeats)
        for result in (one_result, every_result):
            np.testing.assert_allclose(result, expected[name], rtol=1e-3, atol=1e-4)
        print(f"{name:>14}: 1 device {one_time * 1e3:8.2f} ms, {len(devices)} device(s) "
              f"{every_time * 1e3:8.2f} ms, speed-up {one_time / every_time:.2f}x")
    if gpus >= 2:
        bandwidth = peer_copy_bandwidth(1 << 28, args.repeats)
        print(f"peer copy GPU 0 -> GPU 1: {bandwidth:.1f} GB/s "
              f"(peer access: {kaji.devices()[0].can_access_peer(1)})")


if __name__ == "__main__":
    main()
