# cuda.ldcg and friends are PTX loads and stores with the cache operator, one per element
# width; the access still reads the element a[i] would.
# RUN: %kaji-compile %s --emit ptx -o %t.ptx
# RUN: %FileCheck %s < %t.ptx
# RUN: %ptxas %t.ptx
from kaji import cuda


@cuda.jit("void(float32[:], int8[:, :], float64[:], float16[:], bool_[:])")
def hinted(f, b, d, h, flags):
    i = cuda.grid(1)
    cuda.stwb(f, i, cuda.ldcg(f, i + 1))
    cuda.stcs(b, (i, 1), cuda.ldca(b, (1, i)))
    cuda.stwt(d, i, cuda.ldcv(d, i) + cuda.ldlu(d, 0))
    cuda.stcg(h, i, cuda.ldcs(h, i))
    cuda.stcg(flags, i, cuda.ldcg(flags, 0))

# CHECK-DAG: ld.global.cg.b32
# CHECK-DAG: st.global.wb.b32
# CHECK-DAG: ld.global.ca.b8
# CHECK-DAG: st.global.cs.b8
# CHECK-DAG: ld.global.cv.b64
# CHECK-DAG: ld.global.lu.b64
# CHECK-DAG: st.global.wt.b64
# CHECK-DAG: ld.global.cs.b16
# CHECK-DAG: st.global.cg.b16
# CHECK-DAG: ld.global.cg.b8
# CHECK-DAG: st.global.cg.b8
