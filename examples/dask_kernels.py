# A kaji kernel on a Dask cluster: a distributed.LocalCluster (a scheduler and one worker
# process per GPU, or 2 workers on the cpu target without one) runs the kernel on every block
# of a dask array (map_blocks), and the result is checked against numpy's.
#
# The kernel reaches the workers pickled (kaji pickles kernels by source, options and eager
# signatures) and compiles there on first use. Each worker sees only its own GPU: the
# example sets CUDA_VISIBLE_DEVICES in each worker process before kaji first asks the driver
# for devices there, so every worker's device 0 is a different GPU.
#
#     python3 examples/dask_kernels.py [--workers N] [--size N] [--chunk N]
import argparse
import os

import numpy as np

import kaji


@kaji.jit
def polynomial(out, x):
    i = kaji.grid(1)
    if i < x.size:
        v = x[i]
        out[i] = (3.0 * v - 2.0) * v + 1.0


def polynomial_on_block(block):
    """Runs on a worker: the block through the kernel on the worker's GPU (or the cpu
    target)."""
    flat = np.ascontiguousarray(block).ravel()
    x = kaji.to_device(flat)
    out = kaji.device_array_like(x)
    threads = 128
    polynomial[(flat.size + threads - 1) // threads, threads](out, x)
    return out.copy_to_host().reshape(block.shape)


def see_only_gpu(index):
    """Makes GPU `index` this worker process's only device (its device 0)."""
    os.environ["CUDA_VISIBLE_DEVICES"] = str(index)
    return index


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--workers", type=int, default=0,
                        help="worker processes (default: one per GPU, or 2 without a GPU)")
    parser.add_argument("--size", type=int, default=4_000_000)
    parser.add_argument("--chunk", type=int, default=500_000)
    args = parser.parse_args()

    # Counting GPUs here would start CUDA in this process only, never in the workers.
    gpus = len(kaji.devices()) if polynomial.target == "cuda" else 0
    workers = args.workers or gpus or 2

    import dask.array
    from distributed import Client, LocalCluster, get_task_stream

    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster, Client(cluster) as client:
        if gpus:
            addresses = sorted(client.scheduler_info()["workers"])
            for index, address in enumerate(addresses):
                client.run(see_only_gpu, index % gpus, workers=[address])
        host = np.random.default_rng(0).random(args.size, dtype=np.float32)
        blocks = dask.array.from_array(host, chunks=args.chunk)
        with get_task_stream(client) as tasks:
            result = blocks.map_blocks(polynomial_on_block, dtype=np.float32).compute()
        ran_on = {task["worker"] for task in tasks.data
                  if "polynomial_on_block" in str(task["key"])}

    expected = (np.float32(3.0) * host - np.float32(2.0)) * host + np.float32(1.0)
    np.testing.assert_allclose(result, expected, rtol=1e-6)
    device = f"{gpus} GPU(s)" if gpus else "the cpu target"
    print(f"{blocks.numblocks[0]} blocks on {len(ran_on)} of {workers} workers ({device}): "
          "result equals numpy's")


if __name__ == "__main__":
    main()
