# cuda.wmma in the CUDA C++ backend: PTX's wmma instructions in inline assembly (NVRTC has no
# <mma.h> without the toolkit's headers), fragments the prelude's kaji::fragment<T, N> passed by
# pointer, bf16 registers as their 32 bits and f32 accumulators as float registers, shared
# matrices by their 32-bit window address. The kernels are ptx/wmma.py's; NVRTC compiles them
# and ptxas assembles the PTX.
# REQUIRES: nvrtc
# RUN: %kaji-compile %S/../ptx/wmma.py --backend nvrtc --emit cuda | %FileCheck %s
# RUN: %kaji-compile %S/../ptx/wmma.py --backend nvrtc --emit ptx -o %t.ptx
# RUN: %FileCheck %s --check-prefix=PTX < %t.ptx
# RUN: %ptxas %t.ptx
# CHECK-LABEL: void bf16_tile(
# CHECK-DAG: kaji::fragment<bf16, 8> [[FA:fragment[0-9]*]];
# CHECK-DAG: kaji::fragment<f32, 8> [[FC:fragment[0-9]*]];
# CHECK: asm volatile("wmma.load.c.sync.aligned.col.m16n16k16.global.f32 {%0, %1, %2, %3, %4, %5, %6, %7}, [%8], %9;" : "=f"({{v[0-9]+}}->x[0]),
# CHECK: asm volatile("wmma.load.a.sync.aligned.row.m16n16k16.global.bf16 {%0, %1, %2, %3}, [%4], %5;" : "=r"(reinterpret_cast<u32 *>({{v[0-9]+}}->x)[0])
# CHECK: asm volatile("wmma.mma.sync.aligned.row.col.m16n16k16.f32.bf16.bf16.f32 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9, %10, %11}, {%12, %13, %14, %15}, {%16, %17, %18, %19, %20, %21, %22, %23};"
# CHECK: asm volatile("wmma.store.d.sync.aligned.col.m16n16k16.global.f32 [%0], {%1, %2, %3, %4, %5, %6, %7, %8}, %9;" :: "l"({{.*}}.data), "f"(
# CHECK-LABEL: void int8_tile(
# CHECK: for (int i = 0; i < 8; ++i)
# CHECK: asm volatile("wmma.load.a.sync.aligned.row.m16n16k16.shared.s8 {%0, %1}, [%2], %3;" : {{.*}} : "r"(unsigned(__cvta_generic_to_shared(
# CHECK: wmma.mma.sync.aligned.row.row.m16n16k16.s32.s8.s8.s32
# CHECK-LABEL: void half_tile(
# CHECK: wmma.load.a.sync.aligned.row.m32n8k16.global.f16 {%0, %1, %2, %3, %4, %5, %6, %7}
# CHECK: wmma.mma.sync.aligned.row.row.m32n8k16.f16.f16 {%0, %1, %2, %3}
# PTX: wmma.load.c.sync.aligned.col.m16n16k16.global.f32
# PTX: wmma.mma.sync.aligned.row.col.m16n16k16.f32.bf16.bf16.f32
# PTX: wmma.load.a.sync.aligned.row.m16n16k16.shared.s8
# PTX: wmma.mma.sync.aligned.row.row.m32n8k16.f16.f16
