# RUN: %kaji-compile %s --kernel k --sig 'void(float32[:])' --emit ir | %FileCheck %s
import kaji


@kaji.jit(device=True, inline="always")
def always(v):
    return v + 1


@kaji.jit(device=True, inline="never")
def never(v):
    return v * 2


@kaji.jit(device=True, forceinline=True)
def forced(v):
    return v - 1


@kaji.jit(device=True)
def plain(v):
    return v / 2


def k(a):
    a[0] = always(a[0]) + never(a[1]) + forced(a[2]) + plain(a[3])

# CHECK-DAG: device alwaysinline @always__f32(
# CHECK-DAG: device noinline @never__f32(
# CHECK-DAG: device alwaysinline @forced__f32(
# CHECK-DAG: device @plain__f32(
