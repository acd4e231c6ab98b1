# A full device takes nothing: the write error is reported and the exit status is non-zero,
# for -o FILE and for standard output (whose error shows only when it is flushed).
# RUN: %not %kaji-compile %s -o /dev/full 2>&1 | %FileCheck %s --check-prefix=FILE
# RUN: %not %kaji-compile %s > /dev/full 2> %t.err
# RUN: %FileCheck %s --check-prefix=STDOUT < %t.err
import kaji


@kaji.jit("void(float32[:])")
def k(a):
    a[0] = 0.0

# FILE: kaji-compile: error: cannot write '/dev/full': No space left on device
# STDOUT: kaji-compile: error: cannot write to standard output: No space left on device

# RUN: %not %kaji-compile --help > /dev/full 2> %t.help.err
# RUN: %FileCheck %s --check-prefix=STDOUT < %t.help.err
# RUN: %not %kaji-compile --version > /dev/full 2> %t.version.err
# RUN: %FileCheck %s --check-prefix=STDOUT < %t.version.err
