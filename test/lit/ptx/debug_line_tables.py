# debug=True (--debug) gives the lines as DWARF line tables too, which ptxas accepts without -g.
# RUN: %kaji-compile %s --emit ptx --debug -o %t.ptx
# RUN: %FileCheck %s < %t.ptx
# RUN: %ptxas %t.ptx
import kaji


@kaji.jit("void(float32[:])")
def scale(x):
    i = kaji.grid(1)
    if i < x.size:
        x[i] *= 2.0

# CHECK: .target sm_{{[0-9]+}}, debug
# CHECK: .visible .entry scale(
# CHECK: .loc [[FILE:[0-9]+]] 10 9
# CHECK: .loc [[FILE]] 12 9
# CHECK: .file [[FILE]] "{{.*}}debug_line_tables.py"
# CHECK: .section .debug_info
