#pragma once

// Hand-written PTX for the GPU tests: ISA 7.0 for sm_75, which every driver since CUDA 11 JITs
// for any newer device.
namespace kaji::runtime::test {

// add_one(int *data, unsigned count): data[i] += 1 for i < count; and a module-scope counter.
inline constexpr const char *kAddOnePtx = R"(
.version 7.0
.target sm_75
.address_size 64

.visible .global .align 4 .u32 counter = 42;

.visible .entry add_one(
    .param .u64 add_one_data,
    .param .u32 add_one_count
)
{
    .reg .pred %p<2>;
    .reg .b32 %r<8>;
    .reg .b64 %rd<5>;

    ld.param.u64 %rd1, [add_one_data];
    ld.param.u32 %r1, [add_one_count];
    mov.u32 %r2, %ctaid.x;
    mov.u32 %r3, %ntid.x;
    mov.u32 %r4, %tid.x;
    mad.lo.s32 %r5, %r2, %r3, %r4;
    setp.ge.u32 %p1, %r5, %r1;
    @%p1 bra DONE;
    cvta.to.global.u64 %rd2, %rd1;
    mul.wide.u32 %rd3, %r5, 4;
    add.s64 %rd4, %rd2, %rd3;
    ld.global.u32 %r6, [%rd4];
    add.s32 %r7, %r6, 1;
    st.global.u32 [%rd4], %r7;
DONE:
    ret;
}
)";

// Uses registers it never declares: the JIT rejects it with an error log.
inline constexpr const char *kUndeclaredRegisterPtx = R"(
.version 7.0
.target sm_75
.address_size 64

.visible .entry broken()
{
    add.s32 %r1, %r2, 1;
    ret;
}
)";

} // namespace kaji::runtime::test
