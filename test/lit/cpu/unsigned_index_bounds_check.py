# RUN: %kaji-compile %s --kernel k --sig 'void(float32[:], uint64)' --target cpu -O0 | %FileCheck %s
import kaji


@kaji.jit
def k(a, i):
    a[i] = 1.0

# An unsigned index out of range is reported (as unsigned: the last argument) without the
# negative-index wraparound a signed one gets.
# CHECK: icmp ult i64 %{{.*}}, %{{.*}}
# CHECK-NOT: bounds.negative
# CHECK: call void %{{.*}}(ptr %{{.*}}, ptr @kaji.index_site, ptr %{{.*}}, i64 0, i64 %{{.*}}, i64 %{{.*}}, i32 1)
