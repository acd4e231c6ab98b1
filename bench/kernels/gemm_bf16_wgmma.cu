// examples/gemm_warpgroup.py in CUDA C++: c = a @ bt.T, bf16 inputs, f32 result, on Hopper's
// tensor cores through wgmma (inline PTX: CUDA C++ has no API for it short of CUTLASS); a block
// of 2 warpgroups computes a 128 x 256 tile of c (each warpgroup 64 x 256 in one accumulator),
// along k in steps of 64 staged by cp.async into a ring of four stages in dynamic shared memory,
// rows of 128 bytes with their 16-byte chunks swizzled as wgmma reads them (chunk j of row r at
// chunk j ^ (r % 8)). Needs sm_90a.
#include <cuda_bf16.h>
#include <cstdint>

typedef __nv_bfloat16 bf16;

#define BM 128
#define BN 256
#define BK 64
#define STAGES 4
#define THREADS 256
#define A_STAGE (BM * BK)
#define B_STAGE (BN * BK)

// A shared-memory matrix descriptor: 128-byte swizzle, 8-row groups 1024 bytes apart.
__device__ __forceinline__ uint64_t descriptor(const void *p) {
  uint32_t address = (uint32_t)__cvta_generic_to_shared(p);
  return (uint64_t)((address & 0x3FFFF) >> 4) | (1ull << 16) | (64ull << 32) | (1ull << 62);
}

__device__ __forceinline__ void copy16(void *shared, const void *global) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(
                   (uint32_t)__cvta_generic_to_shared(shared)),
               "l"(global));
}

__device__ __forceinline__ void keep_in_registers(float *d) {
  for (int i = 0; i < BN / 2; ++i)
    asm volatile("" : "+f"(d[i])::"memory");
}

__device__ __forceinline__ void mma(float *d, uint64_t a, uint64_t b) {
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 {"
               "%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,"
               "%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31,"
               "%32,%33,%34,%35,%36,%37,%38,%39,%40,%41,%42,%43,%44,%45,%46,%47,"
               "%48,%49,%50,%51,%52,%53,%54,%55,%56,%57,%58,%59,%60,%61,%62,%63,"
               "%64,%65,%66,%67,%68,%69,%70,%71,%72,%73,%74,%75,%76,%77,%78,%79,"
               "%80,%81,%82,%83,%84,%85,%86,%87,%88,%89,%90,%91,%92,%93,%94,%95,"
               "%96,%97,%98,%99,%100,%101,%102,%103,%104,%105,%106,%107,%108,%109,%110,%111,"
               "%112,%113,%114,%115,%116,%117,%118,%119,%120,%121,%122,%123,%124,%125,%126,%127"
               "}, %128, %129, p, 1, 1, 0, 0;\n}\n"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
                 "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
                 "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
                 "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
                 "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
                 "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
                 "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
                 "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]),
                 "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
                 "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]),
                 "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]),
                 "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]),
                 "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]),
                 "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]),
                 "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]),
                 "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
               : "l"(a), "l"(b), "r"(1));
}

__device__ __forceinline__ void copy_rows(bf16 *tile, const bf16 *matrix, int row0, int k0,
                                          int rows, int n) {
  for (int chunk = threadIdx.x; chunk < rows * 8; chunk += THREADS) {
    int r = chunk / 8, j = chunk % 8;
    copy16(tile + r * BK + ((j ^ (r % 8)) * 8), matrix + (size_t)(row0 + r) * n + k0 + j * 8);
  }
}

extern "C" __global__ void __launch_bounds__(THREADS)
    gemm_bf16_wgmma(const bf16 *a, const bf16 *bt, float *c, int n) {
  extern __shared__ __align__(1024) unsigned char raw[];
  bf16 *sa = (bf16 *)raw, *sb = sa + STAGES * A_STAGE;
  int half = threadIdx.x / 128, lane = threadIdx.x % 32, warp = threadIdx.x / 32 % 4;
  int row0 = blockIdx.y * BM, column0 = blockIdx.x * BN;
  float d[BN / 2];
  for (int i = 0; i < BN / 2; ++i)
    d[i] = 0.0f;
  int steps = n / BK;
  auto copy_step = [&](int step) {
    if (step < steps) {
      copy_rows(sa + step % STAGES * A_STAGE, a, row0, step * BK, BM, n);
      copy_rows(sb + step % STAGES * B_STAGE, bt, column0, step * BK, BN, n);
    }
    asm volatile("cp.async.commit_group;\n" ::: "memory");
  };
  for (int step = 0; step < STAGES - 2; ++step)
    copy_step(step);
  for (int step = 0; step < steps; ++step) {
    asm volatile("cp.async.wait_group %0;\n" ::"n"(STAGES - 3) : "memory");
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
    __syncthreads();
    const bf16 *tile_a = sa + step % STAGES * A_STAGE + 64 * half * BK;
    const bf16 *tile_b = sb + step % STAGES * B_STAGE;
    keep_in_registers(d);
    asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
    for (int kk = 0; kk < BK; kk += 16)
      mma(d, descriptor(tile_a + kk), descriptor(tile_b + kk));
    asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
    keep_in_registers(d);
    copy_step(step + STAGES - 2);
    asm volatile("wgmma.wait_group.sync.aligned 1;\n" ::: "memory");
    keep_in_registers(d);
  }
  asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
  keep_in_registers(d);
  int row = row0 + 64 * half + 16 * warp + lane / 4;
  for (int j = 0; j < BN / 8; ++j) {
    int column = column0 + 8 * j + 2 * (lane % 4);
    *(float2 *)(c + (size_t)row * n + column) = make_float2(d[4 * j], d[4 * j + 1]);
    *(float2 *)(c + (size_t)(row + 8) * n + column) = make_float2(d[4 * j + 2], d[4 * j + 3]);
  }
}
