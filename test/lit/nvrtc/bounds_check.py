# The CUDA C++ backend checks indices as the LLVM one does under --boundscheck (or --debug):
# each access goes through kaji::checked_element with its number in the exception table, a
# negative index the frontend wrapped is checked as written, and a view's integer index
# through kaji::checked_index. Without either, accesses are unchecked.
# REQUIRES: nvrtc
# RUN: %kaji-compile %s --backend nvrtc --boundscheck --emit cuda | %FileCheck %s
# RUN: %kaji-compile %s --backend nvrtc --debug --emit cuda | %FileCheck %s
# RUN: %kaji-compile %s --backend nvrtc --emit cuda | %FileCheck %s --check-prefix=UNCHECKED
# RUN: %kaji-compile %s --backend nvrtc --boundscheck --emit ptx -o %t.ptx
# RUN: %ptxas %t.ptx
import kaji


@kaji.jit("void(float32[:, :], int64, int64)")
def k(x, i, j):
    row = x[i]
    x[i, j] = row[j]

# CHECK: __device__ u32 kaji_exception;
# CHECK: __device__ u32 kaji_raising_thread[6];
# CHECK: __device__ i64 kaji_index_error[4];
# CHECK: kaji::checked_index({{.*}}, kaji::index_site{&kaji_exception, kaji_index_error, kaji_raising_thread, 1u}, 0, false)
# CHECK: kaji::checked_element({{.*}}, kaji::index_site{&kaji_exception, kaji_index_error, kaji_raising_thread, 2u}, [[J:[a-z0-9_]+]])
# CHECK: kaji::checked_element({{.*}}, kaji::index_site{&kaji_exception, kaji_index_error, kaji_raising_thread, 3u}, [[I:[a-z0-9_]+]], [[J]])

# UNCHECKED-NOT: kaji_exception
# UNCHECKED-NOT: checked_
