"""Black-Scholes call and put prices in float64 (Numba's example): log, exp, sqrt and the
polynomial approximation of the normal CDF."""

import math

import numpy as np
from kaji import cuda
from problem import Problem

THREADS = 256
RISK_FREE = 0.02
VOLATILITY = 0.30
A1 = 0.31938153
A2 = -0.356563782
A3 = 1.781477937
A4 = -1.821255978
A5 = 1.330274429
RSQRT2PI = 0.39894228040143267794


@cuda.jit(device=True)
def normal_cdf(d):
    k = 1.0 / (1.0 + 0.2316419 * math.fabs(d))
    value = RSQRT2PI * math.exp(-0.5 * d * d) * (k * (A1 + k * (A2 + k * (A3 + k * (A4 + k * A5)))))
    if d > 0:
        value = 1.0 - value
    return value


@cuda.jit
def blackscholes(call, put, price, strike, years, r, v):
    i = cuda.grid(1)
    if i < price.size:
        sqrt_t = math.sqrt(years[i])
        d1 = (math.log(price[i] / strike[i]) + (r + 0.5 * v * v) * years[i]) / (v * sqrt_t)
        d2 = d1 - v * sqrt_t
        cdf1 = normal_cdf(d1)
        cdf2 = normal_cdf(d2)
        discount = math.exp(-r * years[i])
        call[i] = price[i] * cdf1 - strike[i] * discount * cdf2
        put[i] = strike[i] * discount * (1.0 - cdf2) - price[i] * (1.0 - cdf1)


def _normal_cdf(d):
    k = 1.0 / (1.0 + 0.2316419 * np.abs(d))
    value = RSQRT2PI * np.exp(-0.5 * d * d) * (k * (A1 + k * (A2 + k * (A3 + k * (A4 + k * A5)))))
    return np.where(d > 0, 1.0 - value, value)


def reference(call, put, price, strike, years, r, v):
    sqrt_t = np.sqrt(years)
    d1 = (np.log(price / strike) + (r + 0.5 * v * v) * years) / (v * sqrt_t)
    d2 = d1 - v * sqrt_t
    cdf1, cdf2 = _normal_cdf(d1), _normal_cdf(d2)
    discount = np.exp(-r * years)
    return [price * cdf1 - strike * discount * cdf2,
            strike * discount * (1.0 - cdf2) - price * (1.0 - cdf1)]


def problem(rng, full):
    n = 1 << 22 if full else 10_000
    price = rng.uniform(5.0, 30.0, n)
    strike = rng.uniform(1.0, 100.0, n)
    years = rng.uniform(0.25, 10.0, n)
    r, v = np.float64(RISK_FREE), np.float64(VOLATILITY)
    return Problem(
        grid=((n + THREADS - 1) // THREADS,), block=(THREADS,),
        args=[np.zeros(n), np.zeros(n), price, strike, years, r, v], outputs=(0, 1),
        cuda_c_args=lambda call, put, price, strike, years, r, v:
            [call, put, price, strike, years, r, v, np.int32(n)],
        reference=reference, rtol=1e-9, atol=1e-9)
