"""kaji.random, Numba's numba.cuda.random: the host seeding (splitmix64, then one jump of
2**64 steps per generator) and the device functions, checked bit for bit against the
reference implementation of xoroshiro128+ below (Python ints), and the distributions."""

import math

import numpy as np
import pytest

import kaji
from kaji.random import (
    create_xoroshiro128p_states,
    init_xoroshiro128p_state,
    init_xoroshiro128p_states,
    xoroshiro128p_jump,
    xoroshiro128p_next,
    xoroshiro128p_normal_float32,
    xoroshiro128p_normal_float64,
    xoroshiro128p_uniform_float32,
    xoroshiro128p_dtype,
    xoroshiro128p_uniform_float64,
)

from example_files import load_example

# --- the reference: xoroshiro128+ and splitmix64 as published, on Python ints ---------------

MASK = (1 << 64) - 1
JUMP = (0xBEAC0467EBA5FACB, 0xD86B048B86AA9922)


def ref_splitmix64(x):
    z = (x + 0x9E3779B97F4A7C15) & MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def ref_rotl(x, k):
    return ((x << k) | (x >> (64 - k))) & MASK


def ref_next(state):
    """(output, next state) of xoroshiro128+."""
    s0, s1 = state
    result = (s0 + s1) & MASK
    s1 ^= s0
    return result, (ref_rotl(s0, 55) ^ s1 ^ ((s1 << 14) & MASK), ref_rotl(s1, 36))


def ref_jump(state):
    acc0 = acc1 = 0
    for word in JUMP:
        for bit in range(64):
            if word >> bit & 1:
                acc0 ^= state[0]
                acc1 ^= state[1]
            _, state = ref_next(state)
    return acc0, acc1


def ref_states(n, seed, subsequence_start=0):
    """Numba's init_xoroshiro128p_states, one generator after the other."""
    z = ref_splitmix64(seed & MASK)
    state = (z, z)
    for _ in range(subsequence_start):
        state = ref_jump(state)
    states = [state]
    while len(states) < n:
        states.append(ref_jump(states[-1]))
    return np.array(states, dtype=np.uint64)


def ref_outputs(states, count):
    """count outputs of each generator (rows of `states`), and the states after them."""
    outputs, after = [], []
    for s0, s1 in states.tolist():
        state, row = (s0, s1), []
        for _ in range(count):
            value, state = ref_next(state)
            row.append(value)
        outputs.append(row)
        after.append(state)
    return np.array(outputs, dtype=np.uint64), np.array(after, dtype=np.uint64)


def ref_unit_float64(x):
    return (x >> np.uint64(11)).astype(np.float64) * 2.0 ** -53


# --- host seeding ----------------------------------------------------------------------------

def test_splitmix64_reference_is_the_published_generator():
    # splitmix64 seeded with 0 starts 0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4 (its test vector).
    assert ref_splitmix64(0) == 0xE220A8397B1DCDAF
    assert ref_splitmix64(0x9E3779B97F4A7C15) == 0x6E789E6AA1B965F4


def words(states):
    """The (n, 2) uint64 view of a state array: s0 and s1 of each generator."""
    return states.view(np.uint64).reshape(-1, 2)


def created(n, seed, subsequence_start=0):
    """The words of create_xoroshiro128p_states(n, seed, subsequence_start), on the host."""
    return words(create_xoroshiro128p_states(n, seed, subsequence_start).copy_to_host())


@pytest.mark.parametrize("seed", [0, 1, 12345, 2 ** 64 - 1, -7])
def test_states_match_splitmix64_and_jumps(seed):
    expected = ref_states(9, seed)
    assert expected[0, 0] == expected[0, 1] == ref_splitmix64(seed & MASK)
    host = np.zeros(9, xoroshiro128p_dtype)
    init_xoroshiro128p_states(host, seed)
    np.testing.assert_array_equal(words(host), expected)
    np.testing.assert_array_equal(created(9, seed), expected)


def test_subsequence_start_shifts_the_states():
    np.testing.assert_array_equal(created(5, 42, 3), ref_states(5, 42, subsequence_start=3))
    np.testing.assert_array_equal(created(4, 42, 5), created(9, 42)[5:])
    far = 2 ** 63 + 2 ** 40 + 17  # jumps by squaring: any 64-bit start is instant
    np.testing.assert_array_equal(created(2, 3, far + 1), created(3, 3, far)[1:])


def test_states_are_numbas_records():
    states = create_xoroshiro128p_states(3000, 7).copy_to_host()
    assert states.shape == (3000,) and states.dtype == xoroshiro128p_dtype
    assert xoroshiro128p_dtype.names == ("s0", "s1") and xoroshiro128p_dtype.itemsize == 16
    for i in (0, 1, 2, 1023, 1024, 2047, 2998):
        assert ((int(states[i + 1]["s0"]), int(states[i + 1]["s1"]))
                == ref_jump((int(states[i]["s0"]), int(states[i]["s1"]))))
    assert create_xoroshiro128p_states(0, 7).shape == (0,)


def test_init_states_checks_the_array():
    with pytest.raises(ValueError, match="1-D array of xoroshiro128p_dtype"):
        init_xoroshiro128p_states(np.zeros((8, 2), np.uint64), 1)
    with pytest.raises(ValueError, match="1-D array of xoroshiro128p_dtype"):
        init_xoroshiro128p_states(np.zeros((4, 2), xoroshiro128p_dtype), 1)


def test_numba_spelling_of_the_module():
    from kaji import cuda
    from kaji.cuda.random import xoroshiro128p_next as numba_spelling

    assert numba_spelling is xoroshiro128p_next
    assert cuda.random is kaji.random


# --- device functions ------------------------------------------------------------------------

def draw_next(states, out):
    i = kaji.grid(1)
    if i < states.shape[0]:
        for j in range(out.shape[1]):
            out[i, j] = xoroshiro128p_next(states, i)


def test_next_matches_reference_bit_for_bit(jit):
    states = create_xoroshiro128p_states(70, 2024).copy_to_host()
    # and states with extreme words, where the addition wraps
    words(states)[-2:] = [[MASK, MASK], [1 << 63, 1]]
    expected, after = ref_outputs(words(states), 40)
    out = np.zeros((70, 40), np.uint64)
    jit(draw_next)[3, 32](states, out)
    np.testing.assert_array_equal(out, expected)
    np.testing.assert_array_equal(words(states), after)


# Numba's own numbers (numba-cuda on an H100): the states of
# create_xoroshiro128p_states(100000, seed=1) and (3, seed=2024, subsequence_start=3), and the
# first xoroshiro128p_next outputs of generator 1 of the latter.
NUMBA_SEED_1 = {0: (0x910A2DEC89025CC1, 0x910A2DEC89025CC1),
                99999: (0x935ED1298350DED9, 0x61F9BC18ACB83FE4)}
NUMBA_SEED_2024_FROM_3 = [(0x9437E80AE4E8732C, 0x359B4A1E9DBF82C3),
                          (0xA723D90E9688BB4A, 0x0EEDE985F24CC5DF),
                          (0x9D2246EB386E4F39, 0xCA793C85A2C2593F)]
NUMBA_NEXT_OF_GENERATOR_1 = [0xB611C29488D58129, 0xCD0761B1990D837E, 0x9992FE6EE6B1F809]


def test_same_numbers_as_numba(jit):
    many = created(100000, seed=1)
    for row, state in NUMBA_SEED_1.items():
        assert tuple(many[row].tolist()) == state
    states = create_xoroshiro128p_states(3, seed=2024, subsequence_start=3).copy_to_host()
    np.testing.assert_array_equal(words(states), np.array(NUMBA_SEED_2024_FROM_3, np.uint64))
    out = np.zeros((3, 3), np.uint64)
    jit(draw_next)[1, 3](states, out)
    assert out[1].tolist() == NUMBA_NEXT_OF_GENERATOR_1


def test_device_states_on_the_default_target(jit, target):
    if target != kaji.default_target():
        pytest.skip("create_xoroshiro128p_states makes arrays for the default target only")
    d_states = kaji.device_array(16, xoroshiro128p_dtype)
    init_xoroshiro128p_states(d_states, 99)
    out = kaji.device_array((16, 5), np.uint64)
    jit(draw_next)[1, 16](d_states, out)
    expected, after = ref_outputs(ref_states(16, 99), 5)
    np.testing.assert_array_equal(out.copy_to_host(), expected)
    np.testing.assert_array_equal(words(d_states.copy_to_host()), after)


def jump_and_seed(states, seeds):
    i = kaji.grid(1)
    if i < seeds.size:
        init_xoroshiro128p_state(states, i, seeds[i])
        xoroshiro128p_jump(states, i)


def test_device_seed_and_jump(jit):
    seeds = np.array([0, 1, 12345, 2 ** 64 - 1], np.uint64)
    states = np.zeros(4, xoroshiro128p_dtype)
    jit(jump_and_seed)[1, 4](states, seeds)
    expected = [ref_states(2, seed)[1] for seed in seeds.tolist()]
    np.testing.assert_array_equal(words(states), expected)


def draw_floats(states, u32, u64, n32, n64):
    i = kaji.grid(1)
    if i < states.shape[0]:
        for j in range(u32.shape[1]):
            u32[i, j] = xoroshiro128p_uniform_float32(states, i)
            u64[i, j] = xoroshiro128p_uniform_float64(states, i)
            n32[i, j] = xoroshiro128p_normal_float32(states, i)
            n64[i, j] = xoroshiro128p_normal_float64(states, i)


def ref_next_arrays(s0, s1):
    """ref_next on numpy arrays of states (for many draws)."""
    result = s0 + s1
    s1 = s1 ^ s0
    rotl = lambda x, k: (x << np.uint64(k)) | (x >> np.uint64(64 - k))  # noqa: E731
    return result, rotl(s0, 55) ^ s1 ^ (s1 << np.uint64(14)), rotl(s1, 36)


def test_uniform_and_normal_distributions(jit):
    threads, draws = 500, 200  # 1e5 numbers of each kind
    states = create_xoroshiro128p_states(threads, 31337).copy_to_host()
    words(states)[0] = [MASK, 0]  # first output 2**64 - 1: float32 rounds it up to 1.0
    s0, s1 = states["s0"].copy(), states["s1"].copy()
    shape = (threads, draws)
    u32, n32 = np.zeros(shape, np.float32), np.zeros(shape, np.float32)
    u64, n64 = np.zeros(shape), np.zeros(shape)
    jit(draw_floats)[4, 128](states, u32, u64, n32, n64)

    # per draw six outputs: uniform32, uniform64, two float32 uniforms for each normal
    raw = np.zeros((6, threads, draws), np.uint64)
    for j in range(draws):
        for k in range(6):
            raw[k, :, j], s0, s1 = ref_next_arrays(s0, s1)
    np.testing.assert_array_equal(words(states), np.stack([s0, s1], axis=1))
    unit32 = ref_unit_float64(raw).astype(np.float32)
    np.testing.assert_array_equal(u32, unit32[0])
    np.testing.assert_array_equal(u64, ref_unit_float64(raw[1]))
    assert u32[0, 0] == 1.0
    assert 0.0 <= u32.min() and u32[1:].max() < 1.0
    assert 0.0 <= u64.min() and u64.max() < 1.0
    assert abs(u32.mean() - 0.5) < 0.005 and abs(u64.mean() - 0.5) < 0.005
    assert abs(u64.var() - 1 / 12) < 0.002

    # Box-Muller as Numba's; libm and numpy may differ in the last bits
    expected32 = (np.sqrt(np.float32(-2.0) * np.log(unit32[2]))
                  * np.cos(np.float32(2 * math.pi) * unit32[3]))
    np.testing.assert_allclose(n32, expected32, rtol=2e-6, atol=2e-6)
    expected64 = (np.sqrt(-2.0 * np.log(unit32[4]).astype(np.float64))
                  * np.cos(2 * math.pi * unit32[5].astype(np.float64)))
    np.testing.assert_allclose(n64, expected64, rtol=1e-6, atol=1e-6)
    for normal in (n32, n64):
        assert np.isfinite(normal).all()
        assert abs(normal.mean()) < 0.02 and abs(normal.std() - 1.0) < 0.02
        assert abs(np.mean(np.abs(normal) < 1.0) - 0.6827) < 0.01


def test_monte_carlo_pi_example(jit):
    # the kernel of examples/monte_carlo_pi.py, on this test's target, with fewer points
    example = load_example("monte_carlo_pi")
    threads, iterations = 1024, 1000
    states = create_xoroshiro128p_states(threads, seed=1).copy_to_host()
    out = np.zeros(threads, np.float32)
    jit(example.monte_carlo_pi.py_func)[threads // 128, 128](states, iterations, out)
    assert abs(out.mean() - math.pi) < 0.01
