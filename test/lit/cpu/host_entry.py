# RUN: %kaji-compile %s --target cpu | %FileCheck %s
# RUN: %kaji-compile %s --target cpu --no-boundscheck | %FileCheck %s --check-prefix=UNCHECKED
# RUN: %not %kaji-compile %s --target cpu --emit ptx 2>&1 | %FileCheck %s --check-prefix=NOPTX
import kaji


@kaji.jit("void(float32[::1], float32, float32[::1], float32[::1])")
def saxpy(out, a, x, y):
    i = kaji.grid(1)
    if i < x.size:
        out[i] = a * x[i] + y[i]

# The CPU backend's entry takes the packed parameters and the launch context, and loops over
# the context's blocks and each block's threads itself; before each block after the first it
# reads whether the launch failed (a report of another worker's block), and starts no more if so.
# CHECK: define void @saxpy.host_entry(ptr {{.*}}%params, ptr {{.*}}%context)
# CHECK: block.loop:
# CHECK-DAG: tid.x.loop
# CHECK-DAG: index_error
# CHECK: %launch.failed = load atomic i8, ptr %failed monotonic
# CHECK: br i1 %{{.*}}, label %block.loop, label %blocks.done
# Without bounds checks no index is tested.
# UNCHECKED: define void @saxpy.host_entry(
# UNCHECKED-NOT: index_error
# NOPTX: kaji-compile: error: --target cpu has no PTX, cubin or LTO-IR: use --emit ast, ir or llvm
