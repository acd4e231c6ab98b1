# A chained comparison whose first link is constantly false skips the rest at run time, but
# the rest is still checked, as an unevaluated operand of `and` is: `u32 ^ 2**64-1` is the
# NumPy 2 overflow error there too (H100 expression differential, seed 501).
# RUN: %not %kaji-compile %s --emit ir 2>&1 | %FileCheck %s
import math

import kaji


@kaji.jit("void(int64[:], uint8[:], uint32[:])")
def chain(out, small, word):
    out[0] = math.floor(small[0]) > 18446744073709551615 < (word[0] ^ 18446744073709551615)

# CHECK: chain_after_constant_false_link_is_checked.py:12:61: error: Python integer 18446744073709551615 out of bounds for uint32
