# RUN: %kaji-compile %s --kernel k --sig 'void(float32[:], int64)' --target cpu -O0 | %FileCheck %s
# RUN: %kaji-compile %s --kernel k --sig 'void(float32[:], int64)' --boundscheck --emit llvm -O0 | %FileCheck %s --check-prefix=CUDA
import kaji


@kaji.jit
def k(a, i):
    a[5] = 1.0
    a[5] = 2.0
    a[2] = 3.0
    a[7] = 4.0
    a[i] = 5.0
    a[i] = 6.0

# a[5] again and a[2] can fail only after a[5] failed, and a[i] again only after a[i] did: no
# branch and no report of their own. The host's thread goes on after a report, so a[5] and
# a[2] keep an in-range compare that sends them to scratch (a wrapping a[i] keeps its full
# check there); a GPU thread ended at the report, so they need nothing.
# CHECK: icmp ult i64 5, %a.shape0
# CHECK: call void %{{.*}}(ptr %{{.*}}, ptr @kaji.index_site, i64 0, i64 5,
# CHECK: [[FIVE:%.*]] = icmp ult i64 5, %a.shape0
# CHECK: select i1 [[FIVE]], ptr %{{.*}}, ptr @kaji.index_scratch.0
# CHECK: [[TWO:%.*]] = icmp ult i64 2, %a.shape0
# CHECK: select i1 [[TWO]], ptr %{{.*}}, ptr @kaji.index_scratch.0
# CHECK: call void %{{.*}}(ptr %{{.*}}, ptr @kaji.index_site.1, i64 0, i64 7,
# CHECK: call void %{{.*}}(ptr %{{.*}}, ptr @kaji.index_site.2, i64 0, i64 %i,
# CHECK: call void %{{.*}}(ptr %{{.*}}, ptr @kaji.index_site.3, i64 0, i64 %i,
# CHECK-NOT: @kaji.index_site

# CUDA: cmpxchg ptr addrspace(1) @kaji_exception, i32 0, i32 1
# CUDA: store i64 5,
# CUDA: cmpxchg ptr addrspace(1) @kaji_exception, i32 0, i32 4
# CUDA: store i64 7,
# CUDA: cmpxchg ptr addrspace(1) @kaji_exception, i32 0, i32 5
# CUDA: store i64 %i,
# CUDA-NOT: cmpxchg
