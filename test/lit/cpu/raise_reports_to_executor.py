# On the cpu target a raise calls the executor's raiseException with the site, the raising
# thread's coordinates and the exception, and the thread returns; the cpu target reports
# without --debug.
# RUN: %kaji-compile %s --kernel k --sig 'void(float32[:], int64)' --target cpu --emit llvm -O0 | %FileCheck %s
import kaji


@kaji.jit
def k(x, n):
    i = kaji.grid(1)
    if i >= n:
        raise IndexError("i over n")
    x[i] = 1.0

# CHECK-DAG: @kaji.raise_site{{.*}} = {{.*}}c"{{.*}}raise_reports_to_executor.py:12:9: in 'k'\00"
# CHECK-DAG: @kaji.exception{{.*}} = {{.*}}c"IndexError: i over n\00"
# CHECK: call void %raise_exception(ptr %executor{{[0-9]*}}, ptr @kaji.raise_site, ptr %raising_thread{{[0-9]*}}, ptr @kaji.exception)
