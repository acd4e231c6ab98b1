# RUN: %kaji-compile %s --kernel fill --sig 'void(float32[:])' --emit ptx --arch sm_90a | %FileCheck %s --check-prefix=ARCH
# RUN: %not %kaji-compile %s --kernel fill --sig 'void(float32[:])' --emit ptx --arch sm_9x 2>&1 | %FileCheck %s --check-prefix=BAD
# RUN: %not %kaji-compile %s --kernel fill --sig 'void(float32[:])' --emit ptx --arch compute_90 2>&1 | %FileCheck %s --check-prefix=BAD
# RUN: %not %kaji-compile %s --kernel fill --sig 'void(float32[:])' --emit ptx --arch sm_ 2>&1 | %FileCheck %s --check-prefix=BAD
import kaji

# ARCH: .target sm_90a
# BAD: error: unknown GPU architecture '{{.*}}'; LLVM's NVPTX backend knows: {{.*}}sm_90


@kaji.jit
def fill(a):
    a[kaji.grid(1)] = 1.0
