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
# report of their own. The checks of the constants a[5] and a[7] are deferred: one branch
# before a[i]'s check reports the first that failed. The host's thread goes on after a
# report, so every constant access keeps an in-range compare that sends it to scratch (a
# wrapping a[i] keeps its full check there); a GPU thread ends at the report, so past it the
# checks held.
# CHECK: [[FIRST:%.*]] = icmp ult i64 5, %a.shape0
# CHECK: select i1 [[FIRST]], ptr %{{.*}}, ptr @kaji.index_scratch.0
# CHECK: [[FIVE:%.*]] = icmp ult i64 5, %a.shape0
# CHECK: select i1 [[FIVE]], ptr %{{.*}}, ptr @kaji.index_scratch.0
# CHECK: [[TWO:%.*]] = icmp ult i64 2, %a.shape0
# CHECK: select i1 [[TWO]], ptr %{{.*}}, ptr @kaji.index_scratch.0
# CHECK: [[SEVEN:%.*]] = icmp ult i64 7, %a.shape0
# CHECK: select i1 [[SEVEN]], ptr %{{.*}}, ptr @kaji.index_scratch.0
# CHECK: br i1 %{{.*}}, label %bounds.deferred_ok, label %bounds.deferred_fail
# CHECK-DAG: call void %{{.*}}(ptr %{{.*}}, ptr @kaji.index_site, ptr %{{.*}}, i64 0, i64 5,
# CHECK-DAG: call void %{{.*}}(ptr %{{.*}}, ptr @kaji.index_site.1, ptr %{{.*}}, i64 0, i64 7,
# CHECK-DAG: call void %{{.*}}(ptr %{{.*}}, ptr @kaji.index_site.2, ptr %{{.*}}, i64 0, i64 %i,
# CHECK-DAG: call void %{{.*}}(ptr %{{.*}}, ptr @kaji.index_site.3, ptr %{{.*}}, i64 0, i64 %i,
# CHECK-NOT: @kaji.index_site

# CUDA: br i1 %{{.*}}, label %bounds.deferred_ok, label %bounds.deferred_fail
# CUDA-DAG: cmpxchg ptr addrspace(1) @kaji_exception, i32 0, i32 5
# CUDA-DAG: store i64 %i,
# CUDA-DAG: cmpxchg ptr addrspace(1) @kaji_exception, i32 0, i32 1
# CUDA-DAG: store i64 5,
# CUDA-DAG: cmpxchg ptr addrspace(1) @kaji_exception, i32 0, i32 4
# CUDA-DAG: store i64 7,
# CUDA-NOT: cmpxchg
