# RUN: %kaji-compile %s --kernel k --sig 'void(float32[:])' -O0 --emit llvm | %FileCheck %s
import kaji


@kaji.jit(device=True, inline=True)
def always(v):
    return v + 1


@kaji.jit(device=True, inline="never")
def never(v):
    return v * 2


def k(a):
    a[0] = always(a[0]) + never(a[1])

# inline= maps onto LLVM's function attributes.
# CHECK-DAG: define internal {{.*}}@always__f32({{.*}}) #[[ALWAYS:[0-9]+]]
# CHECK-DAG: define internal {{.*}}@never__f32({{.*}}) #[[NEVER:[0-9]+]]
# CHECK-DAG: attributes #[[ALWAYS]] = { alwaysinline
# CHECK-DAG: attributes #[[NEVER]] = { noinline
