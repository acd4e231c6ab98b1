# cuda.wgmma in the CUDA C++ backend: wgmma's instructions in inline assembly, the accumulator
# the prelude's kaji::fragment<f32, 64> whose elements are float registers read and written in
# place, descriptors made from the matrices' 32-bit shared window addresses, a 1024-byte
# aligned shared tile, the proxy fence before each barrier and, after the wait, the accumulator
# passed through an empty statement so that no read moves above it (the loop's blocks come
# after its exit's in the text). The kernel is ptx/wgmma.py's;
# NVRTC compiles it for sm_90a and ptxas assembles the PTX.
# REQUIRES: nvrtc
# RUN: %kaji-compile %S/../ptx/wgmma.py --kernel product --backend nvrtc --emit cuda | %FileCheck %s
# RUN: %kaji-compile %S/../ptx/wgmma.py --kernel product --backend nvrtc --emit ptx -o %t.ptx
# RUN: %FileCheck %s --check-prefix=PTX < %t.ptx
# RUN: %ptxas-for --gpu-name sm_90a %t.ptx
# CHECK-LABEL: void product(
# CHECK-DAG: __shared__ __align__(1024) bf16 {{shared[0-9]*}}[8192];
# CHECK-DAG: kaji::fragment<f32, 64> [[ACC:fragment[0-9]*]];
# CHECK: asm volatile("fence.proxy.async.shared::cta;" ::: "memory"); __syncthreads();
# CHECK: asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
# CHECK: asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
# CHECK-SAME: asm volatile("" : "+f"([[ACC]].x[0]), {{.*}}, "+f"([[ACC]].x[63]));
# CHECK: asm volatile("wgmma.fence.sync.aligned;" ::: "memory"); asm volatile("{ .reg .pred p; setp.ne.b32 p, %66, 0; wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {%0, %1, {{.*}}, %63}, %64, %65, p, 1, 1, 0, 0; }" : "+f"({{v[0-9]+}}->x[0]), {{.*}} : "l"((((u64(__cvta_generic_to_shared({{.*}}.data)) & 0x3FFFF) >> 4) | {{[0-9]+}}ull)), "l"({{.*}}), "r"(1) : "memory");
# PTX: .target sm_90a
# PTX: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
