# cuda.ldcg and friends by the nvrtc backend: the prelude's inline-assembly loads and stores,
# whose PTX is the llvm backend's (the kernel and its PTX checks: ../ptx/cache_operators.py).
# REQUIRES: nvrtc
# RUN: %kaji-compile %S/../ptx/cache_operators.py --backend nvrtc --emit cuda | %FileCheck %s
# RUN: %kaji-compile %S/../ptx/cache_operators.py --backend nvrtc --emit ptx -o %t.ptx
# RUN: %FileCheck %S/../ptx/cache_operators.py < %t.ptx
# RUN: %ptxas %t.ptx
# CHECK-DAG: kaji::store_wb_b32(kaji::element(
# CHECK-DAG: kaji::bit_cast<f32>(u32(kaji::load_cg_b32(kaji::element(
# CHECK-DAG: (u8(kaji::load_cg_b8(kaji::element({{.*}})) != 0)
