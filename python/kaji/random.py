"""Random numbers in kernels: Numba's ``numba.cuda.random``, the xoroshiro128+ generator.

    from kaji.random import create_xoroshiro128p_states, xoroshiro128p_uniform_float32

    @kaji.jit
    def noise(rng_states, out):
        i = kaji.grid(1)
        if i < out.size:
            out[i] = xoroshiro128p_uniform_float32(rng_states, i)

    rng_states = create_xoroshiro128p_states(n, seed=1)
    noise[blocks, threads](rng_states, out)

Every thread owns one generator, element ``index`` of the state array. The generators and their
seeding are Numba's, so the same seed gives the same numbers as Numba: the seed goes through
splitmix64 (which gives both state words), generator 0 starts ``subsequence_start`` jumps
further, and generator ``i`` is generator ``i - 1`` advanced by one jump (2**64 steps), so
the threads' sequences never overlap while no thread draws more than 2**64 numbers.

As in Numba, a state array is 1-D of the record dtype ``xoroshiro128p_dtype``, fields ``s0``
and ``s1`` (uint64): code that inspects states reads ``states[i]['s0']`` as it does there.
"""

import math
import threading

import numpy as np

from kaji._arrays import _kaji_stream, to_device
from kaji.decorator import jit

__all__ = [
    "create_xoroshiro128p_states",
    "init_xoroshiro128p_states",
    "init_xoroshiro128p_state",
    "xoroshiro128p_next",
    "xoroshiro128p_jump",
    "xoroshiro128p_uniform_float32",
    "xoroshiro128p_uniform_float64",
    "xoroshiro128p_normal_float32",
    "xoroshiro128p_normal_float64",
    "xoroshiro128p_dtype",
]

xoroshiro128p_dtype = np.dtype([("s0", np.uint64), ("s1", np.uint64)], align=True)
"""The element type of a state array: one generator's two state words, as Numba's."""

_MASK64 = (1 << 64) - 1
_SPLITMIX_GAMMA = 0x9E3779B97F4A7C15
_SPLITMIX_MUL1 = 0xBF58476D1CE4E5B9
_SPLITMIX_MUL2 = 0x94D049BB133111EB
# The polynomial of the jump (2**64 steps), as two words, low bits first.
_JUMP_WORDS = (0xBEAC0467EBA5FACB, 0xD86B048B86AA9922)

# The same constants for kernels, as numpy uint64 scalars: strong, so every operation on
# them is plainly uint64 arithmetic.
_GAMMA_U64 = np.uint64(_SPLITMIX_GAMMA)
_MUL1_U64 = np.uint64(_SPLITMIX_MUL1)
_MUL2_U64 = np.uint64(_SPLITMIX_MUL2)
_JUMP_LOW_U64 = np.uint64(_JUMP_WORDS[0])
_JUMP_HIGH_U64 = np.uint64(_JUMP_WORDS[1])
_TWO_POW_MINUS_53 = np.float64(2.0 ** -53)
_TWO_PI_FLOAT32 = np.float32(2 * math.pi)
_TWO_PI_FLOAT64 = np.float64(2 * math.pi)


# --- device functions -------------------------------------------------------------------------

@jit(device=True)
def init_xoroshiro128p_state(states, index, seed):
    """Seeds generator ``index`` from a 64-bit seed through splitmix64 (both state words
    get splitmix64's first output, as in Numba)."""
    z = np.uint64(seed) + _GAMMA_U64
    z = (z ^ (z >> 30)) * _MUL1_U64
    z = (z ^ (z >> 27)) * _MUL2_U64
    z = z ^ (z >> 31)
    states[index]['s0'] = z
    states[index]['s1'] = z


@jit(device=True)
def xoroshiro128p_next(states, index):
    """The next uint64 of generator ``index``, which advances one step."""
    s0 = states[index]['s0']
    s1 = states[index]['s1']
    result = s0 + s1
    s1 ^= s0
    states[index]['s0'] = ((s0 << 55) | (s0 >> 9)) ^ s1 ^ (s1 << 14)
    states[index]['s1'] = (s1 << 36) | (s1 >> 28)
    return result


@jit(device=True)
def xoroshiro128p_jump(states, index):
    """Advances generator ``index`` by 2**64 steps."""
    s0 = np.uint64(0)
    s1 = np.uint64(0)
    for word_index in range(2):
        word = _JUMP_LOW_U64
        if word_index == 1:
            word = _JUMP_HIGH_U64
        for bit in range(64):
            if (word >> np.uint64(bit)) & np.uint64(1):
                s0 ^= states[index]['s0']
                s1 ^= states[index]['s1']
            xoroshiro128p_next(states, index)
    states[index]['s0'] = s0
    states[index]['s1'] = s1


@jit(device=True)
def _uint64_to_unit_float64(x):
    # The top 53 bits, scaled to [0, 1).
    return np.float64(x >> 11) * _TWO_POW_MINUS_53


@jit(device=True)
def xoroshiro128p_uniform_float64(states, index):
    """A float64 uniform in [0, 1) from generator ``index`` (one step)."""
    return _uint64_to_unit_float64(xoroshiro128p_next(states, index))


@jit(device=True)
def xoroshiro128p_uniform_float32(states, index):
    """A float32 uniform in [0, 1) from generator ``index`` (one step): the float64 one
    rounded to float32, as in Numba (so, as there, 1.0 once in about 2**25 draws)."""
    return np.float32(_uint64_to_unit_float64(xoroshiro128p_next(states, index)))


@jit(device=True)
def xoroshiro128p_normal_float32(states, index):
    """A float32 from the standard normal distribution (Box-Muller, the cosine half; two
    steps of generator ``index``)."""
    u1 = xoroshiro128p_uniform_float32(states, index)
    u2 = xoroshiro128p_uniform_float32(states, index)
    return math.sqrt(np.float32(-2.0) * math.log(u1)) * math.cos(_TWO_PI_FLOAT32 * u2)


@jit(device=True)
def xoroshiro128p_normal_float64(states, index):
    """A float64 from the standard normal distribution (Box-Muller; two steps of generator
    ``index``). As Numba's, it draws float32 uniforms and takes their log in float32, so it
    returns the same numbers as Numba's rather than full float64 precision."""
    u1 = xoroshiro128p_uniform_float32(states, index)
    u2 = xoroshiro128p_uniform_float32(states, index)
    return math.sqrt(np.float64(-2.0) * math.log(u1)) * math.cos(_TWO_PI_FLOAT64 * u2)


# --- host side --------------------------------------------------------------------------------

def _splitmix64(seed):
    """splitmix64's first output for the state `seed` (Python ints)."""
    z = (seed + _SPLITMIX_GAMMA) & _MASK64
    z = ((z ^ (z >> 30)) * _SPLITMIX_MUL1) & _MASK64
    z = ((z ^ (z >> 27)) * _SPLITMIX_MUL2) & _MASK64
    return z ^ (z >> 31)


def _rotl(x, k):
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


def _step(s0, s1):
    """One step of the state transition (no output) on arrays of states."""
    s1 = s1 ^ s0
    return _rotl(s0, 55) ^ s1 ^ (s1 << np.uint64(14)), _rotl(s1, 36)


# The state transition is linear over GF(2) on the 128 bits (s0 bits 0-63, s1 bits 64-127),
# so a jump is a 128x128 bit matrix. A matrix is held as its 128 columns (the images of the
# unit states: two uint64 arrays), and applied through byte tables: for each of the 16 bytes
# of the state, the XOR of the columns of its set bits, for all 256 values of the byte.

class _BitMatrix:
    __slots__ = ("columns", "_tables")

    def __init__(self, columns):
        self.columns = columns
        self._tables = None

    def _byte_tables(self):
        if self._tables is None:
            tables = []
            for column in self.columns:
                per_byte = column.reshape(16, 8)
                table = np.zeros((16, 256), np.uint64)
                for bit in range(8):
                    low = 1 << bit
                    table[:, low:2 * low] = table[:, :low] ^ per_byte[:, bit:bit + 1]
                tables.append(table)
            self._tables = tables
        return self._tables

    def apply(self, s0, s1):
        """The matrix times each state of the arrays (s0, s1)."""
        table0, table1 = self._byte_tables()
        out0 = np.zeros(s0.shape, np.uint64)
        out1 = np.zeros(s0.shape, np.uint64)
        for word_index, word in enumerate((s0, s1)):
            for byte in range(8):
                values = ((word >> np.uint64(8 * byte)) & np.uint64(0xFF)).astype(np.intp)
                row = 8 * word_index + byte
                out0 ^= table0[row][values]
                out1 ^= table1[row][values]
        return out0, out1

    def squared(self):
        return _BitMatrix(self.apply(*self.columns))


def _unit_states():
    bits = np.arange(128, dtype=np.uint64)
    ones = np.uint64(1) << (bits % np.uint64(64))
    zero = np.uint64(0)
    return np.where(bits < 64, ones, zero), np.where(bits >= 64, ones, zero)


def _jump_matrix():
    """The jump applied to every unit state: the algorithm itself, on 128 states at once."""
    s0, s1 = _unit_states()
    acc0 = np.zeros_like(s0)
    acc1 = np.zeros_like(s1)
    for word in _JUMP_WORDS:
        for bit in range(64):
            if (word >> bit) & 1:
                acc0 ^= s0
                acc1 ^= s1
            s0, s1 = _step(s0, s1)
    return _BitMatrix((acc0, acc1))


_jump_powers = []  # _jump_powers[k]: the matrix of 2**k jumps, made on first use
_jump_powers_lock = threading.Lock()


def _jumps(k):
    with _jump_powers_lock:
        if not _jump_powers:
            _jump_powers.append(_jump_matrix())
        while len(_jump_powers) <= k:
            _jump_powers.append(_jump_powers[-1].squared())
        return _jump_powers[k]


def _initial_states(n, seed, subsequence_start):
    """The n states of Numba's init_xoroshiro128p_states."""
    words = np.empty((n, 2), np.uint64)  # s0 and s1 of each generator: its record's bytes
    states = words.view(xoroshiro128p_dtype).reshape(n)
    if n == 0:
        return states
    first = _splitmix64(int(seed) & _MASK64)
    s0 = np.array([first], np.uint64)
    s1 = s0.copy()
    jumps = int(subsequence_start) & _MASK64
    k = 0
    while jumps:
        if jumps & 1:
            s0, s1 = _jumps(k).apply(s0, s1)
        jumps >>= 1
        k += 1
    words[0] = s0[0], s1[0]
    # Generator i is generator 0 after i jumps: rows [m, 2m) are rows [0, m) after m jumps.
    done, k = 1, 0
    while done < n:
        count = min(done, n - done)
        block0, block1 = _jumps(k).apply(words[:count, 0], words[:count, 1])
        words[done:done + count, 0] = block0
        words[done:done + count, 1] = block1
        done += count
        k += 1
    return states


def init_xoroshiro128p_states(states, seed, subsequence_start=0, stream=0):
    """Fills `states` (a 1-D device array, host-backed or not, or numpy array of
    xoroshiro128p_dtype) with n generators seeded from `seed`, as Numba's function of that name:
    each one 2**64 steps after the previous, the first `subsequence_start` jumps after the
    seed's. The states are computed on the host and copied in (after the work queued on
    `stream`)."""
    shape = tuple(states.shape)
    if len(shape) != 1 or np.dtype(states.dtype) != xoroshiro128p_dtype:
        raise ValueError("xoroshiro128+ states are a 1-D array of xoroshiro128p_dtype, not "
                         f"{np.dtype(states.dtype)} of shape {shape}")
    host = _initial_states(shape[0], seed, subsequence_start)
    if isinstance(states, np.ndarray):
        states[...] = host
    else:
        states.copy_to_device(host, stream=_kaji_stream(stream))


def create_xoroshiro128p_states(n, seed, subsequence_start=0, stream=0):
    """A new 1-D device array (host-backed on the cpu target) of n generator states of
    xoroshiro128p_dtype, initialized as by init_xoroshiro128p_states."""
    return to_device(_initial_states(int(n), seed, subsequence_start), stream=stream)
