"""Black-Scholes call and put prices in float32, the normal CDF through math.erf: float32
sqrt, log, exp and erf, constants held as float32 so that nothing widens to float64."""

import math

import numpy as np
from kaji import cuda
from problem import Problem

THREADS = 256
HALF = np.float32(0.5)
ONE = np.float32(1.0)
RSQRT2 = np.float32(0.70710678118654752440)


@cuda.jit(device=True)
def normal_cdf(d):
    return HALF * (ONE + math.erf(d * RSQRT2))


@cuda.jit
def blackscholes_float32(call, put, price, strike, years, r, v):
    i = cuda.grid(1)
    if i < price.size:
        sqrt_t = math.sqrt(years[i])
        d1 = (math.log(price[i] / strike[i]) + (r + HALF * v * v) * years[i]) / (v * sqrt_t)
        d2 = d1 - v * sqrt_t
        discount = math.exp(-r * years[i])
        call[i] = price[i] * normal_cdf(d1) - strike[i] * discount * normal_cdf(d2)
        put[i] = strike[i] * discount * normal_cdf(-d2) - price[i] * normal_cdf(-d1)


def reference(call, put, price, strike, years, r, v):
    """In float64, from the float32 inputs."""
    price, strike, years = (a.astype(np.float64) for a in (price, strike, years))
    r, v = float(r), float(v)
    erf = np.vectorize(math.erf)

    def cdf(d):
        return 0.5 * (1.0 + erf(d / math.sqrt(2.0)))

    sqrt_t = np.sqrt(years)
    d1 = (np.log(price / strike) + (r + 0.5 * v * v) * years) / (v * sqrt_t)
    d2 = d1 - v * sqrt_t
    discount = np.exp(-r * years)
    return [price * cdf(d1) - strike * discount * cdf(d2),
            strike * discount * cdf(-d2) - price * cdf(-d1)]


def problem(rng, full):
    n = 1 << 24 if full else 10_000
    price = rng.uniform(5.0, 30.0, n).astype(np.float32)
    strike = rng.uniform(1.0, 100.0, n).astype(np.float32)
    years = rng.uniform(0.25, 10.0, n).astype(np.float32)
    r, v = np.float32(0.02), np.float32(0.30)
    return Problem(
        grid=((n + THREADS - 1) // THREADS,), block=(THREADS,),
        args=[np.zeros(n, np.float32), np.zeros(n, np.float32), price, strike, years, r, v],
        outputs=(0, 1),
        cuda_c_args=lambda call, put, price, strike, years, r, v:
            [call, put, price, strike, years, r, v, np.int32(n)],
        reference=reference, rtol=1e-4, atol=2e-4)
