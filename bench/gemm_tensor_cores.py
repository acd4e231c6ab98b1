"""bfloat16 GEMMs on the tensor cores against their peers: kaji's two kernels, the warp-level
one (examples/gemm_tensor_cores.py, cuda.wmma) and the warpgroup one (examples/gemm_warpgroup.py,
cuda.wgmma, sm_90 only), each beside the same algorithm in CUDA C++ compiled by nvcc
(bench/kernels/gemm_bf16_tensor_cores.cu, gemm_bf16_wgmma.cu), and cuBLAS (cublasGemmEx:
bfloat16 inputs, float32 result and arithmetic, the same product), at 4096^3 and 8192^3 by
default.

    python3 bench/gemm_tensor_cores.py [--sizes 4096,8192] [--reps 20]

Each launch is timed with CUDA events, queued behind a spinning kernel so that host launch
costs stay out (bench/kernels/run.py's Timer); the table shows the median and the minimum of
--reps launches and TFLOP/s from the median (2 n^3 operations), each kaji kernel's time over
its nvcc twin's and every side's TFLOP/s as a share of cuBLAS's. The inputs are small
integers, so every product and sum is exact: every side's result must equal cuBLAS's. Needs a
GPU, nvcc on PATH (or --cubins DIR from ``bench/kernels/run.py --check --keep DIR``) and
libcublas (the CUDA toolkit's, or the nvidia-cublas wheel's)."""

import argparse
import ctypes
import ctypes.util
import glob
import pathlib
import sys
import tempfile

import ml_dtypes
import numpy as np

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "kernels"))
import run  # noqa: E402  (bench/kernels/run.py: the driver, the timer, nvcc)

import kaji  # noqa: E402

CUDA_R_32F, CUDA_R_16BF, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT, CUBLAS_OP_N = 0, 14, 68, -1, 0


def load_cublas():
    candidates = [ctypes.util.find_library("cublas"),
                  *glob.glob("/usr/local/cuda/lib64/libcublas.so*")]
    for path in sys.path:
        candidates += glob.glob(f"{path}/nvidia/cublas/lib/libcublas.so*")
    for candidate in filter(None, candidates):
        try:
            return ctypes.CDLL(candidate)
        except OSError:
            continue
    sys.exit("libcublas not found: install the CUDA toolkit's cuBLAS or the nvidia-cublas wheel")


def pointer(array):
    return ctypes.c_void_p(array.__cuda_array_interface__["data"][0])


class Cublas:
    """cublasGemmEx of row-major bfloat16 matrices into a float32 one, on kaji's stream."""

    def __init__(self):
        self.lib = load_cublas()
        self.handle = ctypes.c_void_p()
        self.call("cublasCreate_v2", ctypes.byref(self.handle))
        self.call("cublasSetStream_v2", self.handle, ctypes.c_void_p(kaji.default_stream().handle))
        self.one, self.zero = ctypes.c_float(1.0), ctypes.c_float(0.0)

    def call(self, function, *args):
        status = getattr(self.lib, function)(*args)
        if status != 0:
            raise RuntimeError(f"{function} failed with cublasStatus_t {status}")

    def gemm(self, a, b, c):
        """c = a @ b; row major, so cuBLAS's column-major c^T = b^T a^T."""
        n = ctypes.c_int(a.shape[0])
        self.call("cublasGemmEx", self.handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n,
                  ctypes.byref(self.one), pointer(b), CUDA_R_16BF, n, pointer(a), CUDA_R_16BF, n,
                  ctypes.byref(self.zero), pointer(c), CUDA_R_32F, n, CUBLAS_COMPUTE_32F,
                  CUBLAS_GEMM_DEFAULT)


# kaji's kernels by the name of their bench/kernels pair; the warpgroup one takes b transposed.
ALGORITHMS = {"wmma": "gemm_bf16_tensor_cores", "wgmma": "gemm_bf16_wgmma"}


def measure(n, timer, driver, functions, cublas):
    """{label: (median ms, min ms)} for each kaji kernel, its nvcc twin and cuBLAS on one
    n x n x n product."""
    rng = np.random.default_rng(0)
    a, b = (rng.integers(-4, 5, (n, n)).astype(ml_dtypes.bfloat16) for _ in range(2))
    da, db, dbt = kaji.to_device(a), kaji.to_device(b), kaji.to_device(np.ascontiguousarray(b.T))
    stream = kaji.default_stream().handle
    outputs = {"cuBLAS": kaji.to_device(np.zeros((n, n), np.float32))}
    launches = {}
    for algorithm, function in functions.items():
        module = run.load_benchmark(ALGORITHMS[algorithm])[0]
        kernel = getattr(module, ALGORITHMS[algorithm])
        right = dbt if algorithm == "wgmma" else db
        tile_rows, tile_columns = ((module.BM, module.BN) if algorithm == "wgmma"
                                   else (module.TILE, module.TILE))
        grid, block = (n // tile_columns, n // tile_rows), (module.THREADS,)
        for side in ("kaji", "nvcc"):
            outputs[f"{side} {algorithm}"] = kaji.to_device(np.zeros((n, n), np.float32))
        kaji_out, nvcc_out = outputs[f"kaji {algorithm}"], outputs[f"nvcc {algorithm}"]
        launches[f"kaji {algorithm}"] = (
            lambda kernel=kernel, grid=grid, block=block, module=module, right=right,
            out=kaji_out: kernel[grid, block, 0, module.SHARED_BYTES](da, right, out))
        nvcc_args = [da, right, nvcc_out, np.int32(n)]
        launches[f"nvcc {algorithm}"] = (
            lambda function=function, grid=grid, block=block, args=nvcc_args, module=module:
            driver.launch(function, grid, block, args, stream, module.SHARED_BYTES))
    launches["cuBLAS"] = lambda: cublas.gemm(da, db, outputs["cuBLAS"])
    times = {label: timer.all_ms(launch) for label, launch in launches.items()}
    expected = outputs["cuBLAS"].copy_to_host()
    for label, output in outputs.items():
        result = output.copy_to_host()
        if not np.array_equal(result, expected):
            wrong = np.count_nonzero(result != expected)
            raise AssertionError(f"{label}, n={n}: {wrong} elements differ from cuBLAS's")
    return {label: (float(np.median(ms)), min(ms)) for label, ms in times.items()}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="4096,8192", help="comma-separated n (multiples of 256)")
    parser.add_argument("--reps", type=int, default=20, help="timed launches per side and size")
    parser.add_argument("--cubins", metavar="DIR", help="load the nvcc cubins from DIR")
    options = parser.parse_args()
    if not kaji.is_available():
        sys.exit("no usable GPU: this benchmark times GPU kernels")
    arch = run.device_arch()
    algorithms = ["wmma"] + (["wgmma"] if arch == "sm_90" else [])
    driver, timer, cublas = run.Driver(), run.Timer(options.reps), Cublas()
    functions = {}
    with tempfile.TemporaryDirectory() as scratch:
        for algorithm in algorithms:
            name = ALGORITHMS[algorithm]
            problem_arch = arch + "a" if algorithm == "wgmma" else arch
            cubin = (pathlib.Path(options.cubins) / f"{name}.nvcc.cubin" if options.cubins
                     else run.compile_cuda_c(name, problem_arch, scratch)[0])
            function = driver.function(cubin, name)
            driver.allow_shared_bytes(function, run.load_benchmark(name)[0].SHARED_BYTES)
            functions[algorithm] = function
    print(f"device: {kaji.get_current_device().name} ({arch}); ms: median and minimum of "
          f"{options.reps} launches (CUDA events); TFLOP/s from the median; results equal "
          f"cuBLAS's" + ("" if "wgmma" in algorithms else "; wgmma needs sm_90: not run"))
    print(f"{'n':>6} {'side':<11} {'median ms':>10} {'min ms':>9} {'TFLOP/s':>8} "
          f"{'x nvcc time':>12} {'% cuBLAS':>9}")
    for n in map(int, options.sizes.split(",")):
        ms = measure(n, timer, driver, functions, cublas)
        for label, (median, minimum) in ms.items():
            twin = ms.get(label.replace("kaji", "nvcc")) if label.startswith("kaji") else None
            ratio = f"{median / twin[0]:>12.3f}" if twin else f"{'':>12}"
            print(f"{n:>6} {label:<11} {median:>10.3f} {minimum:>9.3f} "
                  f"{2 * n**3 / median / 1e9:>8.1f} {ratio} "
                  f"{100 * ms['cuBLAS'][0] / median:>8.1f}%", flush=True)


if __name__ == "__main__":
    main()
