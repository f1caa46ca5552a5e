/*
 * What a GPU driver's OpenCL library gives the kernels, for clang's own code
 * generation (tests/source/codegen.sh): clang compiles OpenCL C for
 * nvptx64-nvidia-cuda and amdgcn-amd-amdhsa but links no built-in library
 * there (NVIDIA's is inside its driver; ROCm's device libraries are not
 * installed), so get_global_id, fma, vload4 ... would stay calls to undefined
 * functions. Included after clang's opencl-c.h (-finclude-default-header), it
 * maps the built-ins the kernels in kernels/ use onto the instructions a
 * driver emits for them: work-item ids from the special registers
 * (%tid/%ctaid/%ntid, the AMD work-item and work-group ids and the dispatch
 * packet's sizes), fma as the hardware fma (LLVM's llvm.fma, vectors
 * included), vloadN/vstoreN as one vector access of element alignment (the
 * only alignment OpenCL promises; the back end splits it where it cannot
 * prove more, as a driver's does), barrier as the work-group barrier with its
 * local-memory fences, dot_acc_sat as the 4x8-bit dot product instruction
 * (with a saturation after PTX's dp4a, which has none), convert_ as a plain
 * conversion. as_* and the types are clang's header's own. Only the global
 * offset is left out (clbench launches none). Names are macros onto static
 * clb_ functions, so no definition lands in the output.
 * A built-in a kernel uses that is not here stays an undefined call, which
 * codegen.sh reports as a failure: add it here, written as a driver would.
 */
#ifndef CLB_GPU_PRELUDE_H
#define CLB_GPU_PRELUDE_H

#define CLB_INL static inline __attribute__((always_inline, overloadable))

/* Work-item functions: dimension d is a constant in every kernel, so the switch folds. */
#if defined(__NVPTX__)
#define CLB_SREG(r, d)                                                                     \
    ((d) == 0 ? __nvvm_read_ptx_sreg_##r##_x()                                             \
              : (d) == 1 ? __nvvm_read_ptx_sreg_##r##_y()                                  \
                         : (d) == 2 ? __nvvm_read_ptx_sreg_##r##_z() : 0)
CLB_INL size_t clb_local_id(uint d) { return (size_t)(uint)CLB_SREG(tid, d); }
CLB_INL size_t clb_group_id(uint d) { return (size_t)(uint)CLB_SREG(ctaid, d); }
CLB_INL size_t clb_local_size(uint d) { return d < 3 ? (size_t)(uint)CLB_SREG(ntid, d) : 1; }
CLB_INL size_t clb_num_groups(uint d) { return d < 3 ? (size_t)(uint)CLB_SREG(nctaid, d) : 1; }
#elif defined(__AMDGCN__)
CLB_INL size_t clb_local_id(uint d)
{
    return d == 0 ? __builtin_amdgcn_workitem_id_x()
                  : d == 1 ? __builtin_amdgcn_workitem_id_y()
                           : d == 2 ? __builtin_amdgcn_workitem_id_z() : 0;
}
CLB_INL size_t clb_group_id(uint d)
{
    return d == 0 ? __builtin_amdgcn_workgroup_id_x()
                  : d == 1 ? __builtin_amdgcn_workgroup_id_y()
                           : d == 2 ? __builtin_amdgcn_workgroup_id_z() : 0;
}
CLB_INL size_t clb_local_size(uint d)
{
    return d == 0 ? __builtin_amdgcn_workgroup_size_x()
                  : d == 1 ? __builtin_amdgcn_workgroup_size_y()
                           : d == 2 ? __builtin_amdgcn_workgroup_size_z() : 1;
}
CLB_INL size_t clb_global_size(uint d)
{
    return d == 0 ? __builtin_amdgcn_grid_size_x()
                  : d == 1 ? __builtin_amdgcn_grid_size_y()
                           : d == 2 ? __builtin_amdgcn_grid_size_z() : 1;
}
#else
#error "gpu_prelude.h: compile for nvptx64-nvidia-cuda or amdgcn-amd-amdhsa"
#endif
CLB_INL size_t clb_global_id(uint d) { return clb_group_id(d) * clb_local_size(d) + clb_local_id(d); }
#if defined(__NVPTX__)
CLB_INL size_t clb_global_size(uint d) { return clb_num_groups(d) * clb_local_size(d); }
#else
CLB_INL size_t clb_num_groups(uint d)
{
    return (clb_global_size(d) + clb_local_size(d) - 1) / clb_local_size(d);
}
#endif
#define get_global_id clb_global_id
#define get_local_id clb_local_id
#define get_group_id clb_group_id
#define get_local_size clb_local_size
#define get_global_size clb_global_size
#define get_num_groups clb_num_groups

/* barrier: NVIDIA's bar.sync orders shared memory by itself; AMD's s_barrier needs the
 * work-group fences around it (what ROCm's library emits). */
#if defined(__NVPTX__)
CLB_INL void clb_barrier(cl_mem_fence_flags f) { (void)f; __syncthreads(); }
#else
CLB_INL void clb_barrier(cl_mem_fence_flags f)
{
    (void)f;
    __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
    __builtin_amdgcn_s_barrier();
    __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}
#endif
#define barrier clb_barrier

/* fma and mad: the fused instruction, element-wise on vectors (mad may be fused in OpenCL,
 * and drivers fuse it). The operands must have one type, as they do in the kernels. */
#define fma(a, b, c) __builtin_elementwise_fma((a), (b), (c))
#define mad(a, b, c) __builtin_elementwise_fma((a), (b), (c))

/* convert_T, convert_Tn: the default rounding, which is exact for every use here. */
#define convert_float(x) ((float)(x))
#define convert_double(x) ((double)(x))
#define convert_int(x) ((int)(x))
#define convert_uint(x) ((uint)(x))
#define convert_float2(x) __builtin_convertvector((x), float2)
#define convert_float4(x) __builtin_convertvector((x), float4)
#define convert_float8(x) __builtin_convertvector((x), float8)
#define convert_float16(x) __builtin_convertvector((x), float16)
#define convert_double2(x) __builtin_convertvector((x), double2)
#define convert_double4(x) __builtin_convertvector((x), double4)
#define convert_double8(x) __builtin_convertvector((x), double8)
#define convert_double16(x) __builtin_convertvector((x), double16)
#define convert_int2(x) __builtin_convertvector((x), int2)
#define convert_int4(x) __builtin_convertvector((x), int4)
#define convert_int8(x) __builtin_convertvector((x), int8)
#define convert_int16(x) __builtin_convertvector((x), int16)
#define convert_uint2(x) __builtin_convertvector((x), uint2)
#define convert_uint4(x) __builtin_convertvector((x), uint4)
#define convert_uint8(x) __builtin_convertvector((x), uint8)
#define convert_uint16(x) __builtin_convertvector((x), uint16)

/*
 * vloadN / vstoreN: one access of the vector type at the element's alignment. Defined for
 * the element types and address spaces the kernels can use (constant memory is read-only).
 */
#define CLB_VLOAD(t, n, as)                                                                 \
    CLB_INL t##n clb_vload##n(size_t o, const as t *p)                                     \
    {                                                                                       \
        return *(const as clb_##t##n##_e *)(p + (size_t)n * o);                             \
    }
#define CLB_VSTORE(t, n, as)                                                                \
    CLB_INL void clb_vstore##n(t##n v, size_t o, as t *p)                                   \
    {                                                                                       \
        *(as clb_##t##n##_e *)(p + (size_t)n * o) = v;                                      \
    }
#define CLB_VTYPE(t, n)                                                                     \
    typedef t clb_##t##n##_e __attribute__((ext_vector_type(n), aligned(sizeof(t))));       \
    CLB_VLOAD(t, n, __global)                                                               \
    CLB_VLOAD(t, n, __local)                                                                \
    CLB_VLOAD(t, n, __constant)                                                             \
    CLB_VLOAD(t, n, __private)                                                              \
    CLB_VSTORE(t, n, __global)                                                              \
    CLB_VSTORE(t, n, __local)                                                               \
    CLB_VSTORE(t, n, __private)
#define CLB_VTYPES(t) CLB_VTYPE(t, 2) CLB_VTYPE(t, 4) CLB_VTYPE(t, 8) CLB_VTYPE(t, 16)
CLB_VTYPES(float)
CLB_VTYPES(double)
#ifdef cl_khr_fp16
CLB_VTYPES(half)
#endif
CLB_VTYPES(uint)
CLB_VTYPES(int)
#define vload2 clb_vload2
#define vload4 clb_vload4
#define vload8 clb_vload8
#define vload16 clb_vload16
#define vstore2 clb_vstore2
#define vstore4 clb_vstore4
#define vstore8 clb_vstore8
#define vstore16 clb_vstore16

/*
 * cl_khr_integer_dot_product, unsigned, saturating. AMD: v_dot4_u32_u8 with clamp, which
 * is dot_acc_sat. PTX's dp4a wraps, so the saturation is a compare and a select after it
 * (the dot of two 4x8-bit vectors is below 2^18: the sum wraps at most once).
 */
#if defined(__NVPTX__)
CLB_INL uint clb_dot_acc_sat_uu(uint x, uint y, uint acc)
{
    uint r;
    __asm__("dp4a.u32.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(acc));
    return r < acc ? 0xffffffffu : r;
}
#else
CLB_INL uint clb_dot_acc_sat_uu(uint x, uint y, uint acc)
{
    return __builtin_amdgcn_udot4(x, y, acc, true);
}
#endif
CLB_INL uint clb_dot_acc_sat(uchar4 x, uchar4 y, uint acc)
{
    return clb_dot_acc_sat_uu(as_uint(x), as_uint(y), acc);
}
#define dot_acc_sat_4x8packed_uu_uint clb_dot_acc_sat_uu
#define dot_acc_sat clb_dot_acc_sat

#endif
