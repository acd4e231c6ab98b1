# Options kaji-compile cannot apply are warned about on standard error, each naming the
# option and its place; the kernel still compiles.
# RUN: %kaji-compile %s --emit ir 2>&1 >/dev/null | %FileCheck %s
import kaji

SCALE = 2.0


@kaji.jit("void(float32[:])", link=["helpers.cu"], target="cpu",
          shared_memory_carveout="maxl1", fastmath=SCALE > 1, not_an_option=1)
def k(x):
    x[0] = 1.0

# CHECK: decorator_options_not_applied.py:9:36: warning: 'link' is not applied: the files are linked when the kernel is loaded
# CHECK: decorator_options_not_applied.py:9:59: warning: 'target' is not applied: kaji-compile compiles for --target cuda (pass --target to choose)
# CHECK: decorator_options_not_applied.py:10:34: warning: 'shared_memory_carveout' is not applied
# CHECK: decorator_options_not_applied.py:10:52: warning: 'fastmath' is not applied: kaji-compile reads only True or False written in the decorator
# CHECK: decorator_options_not_applied.py:10:77: warning: 'not_an_option' is not applied: it is not an option of jit
