"""Inspection from Python (inspect.test): Compiled.ptx of a cubin, .ir(),
.resources() with the planner's stages and the instruction mix, .sass()
without a disassembler, and the mix counter on hand-written PTX and SASS.

Usage: inspect_test.py KERNELS_DIR
"""
import sys
from pathlib import Path

import tile_mlir

kernels = Path(sys.argv[1])

gemm = tile_mlir.compile(kernels / "gemm.mlir", kernels=["gemm_f16"])
print("ptx of a cubin:", ".entry gemm_f16(" in gemm.ptx,
      gemm.ptx.count("wgmma.mma_async"))
ir = gemm.ir(after="tile-infer-layouts")
print("ir:", ir.splitlines()[0])
print("ir layout:", "#tile.mma<warpgroups = 2>" in ir)
try:
    gemm.ir(after="no-such-pass")
except tile_mlir.CompileError as e:
    print("CompileError:", "no pass 'no-such-pass' ran" in str(e),
          "tile-infer-layouts" in str(e))

r = gemm.resources("gemm_f16")
print("resources:", r.threads, r.dynamic_smem, r.stages, r.stage_bytes,
      r.frame_bytes)
m = r.ptx_mix
print("ptx mix:", m.wgmma, m.mma, m.shuffle, m.local_loads, m.local_stores,
      m.tma > 0, m.mbarrier > 0, m.global_stores, m.shared_stores > 0)

softmax = tile_mlir.compile(kernels / "softmax.mlir",
                            kernels=["softmax_n4096_f16"])
s = softmax.resources("softmax_n4096_f16")
print("softmax:", s.threads, s.stages, s.stage_bytes, s.ptx_mix.wgmma,
      s.ptx_mix.shuffle > 0)

try:
    gemm.sass()
except tile_mlir.DisassemblerError as e:
    print("DisassemblerError:", e)
print("no sass mix:", r.sass_mix, r.spill_stores)

loaded = tile_mlir.Compiled(gemm.binary, gemm.kernel_info)
try:
    loaded.ir()
except ValueError as e:
    print("ValueError:", e)

# The counter on hand-written code: guards, braces, comments, directives
# and labels are handled; only the named kernel counts.
ptx = """
.visible .entry other() { bar.sync 0; ret; }
.visible .entry k(
    .param .u64 k_param_0
)
.maxntid 128, 1, 1
{
    .reg .pred %p<2>;
    // wgmma.mma_async in a comment does not count
$L__BB0_1:
    @%p1 bra $L__BB0_1;
    @!%p1 st.local.u32 [%rd1], %r1;
    ld.local.u32 %r2, [%rd1];
    { .reg .b32 t; shfl.sync.bfly.b32 %r3, %r4, 1, 31, -1; }
    wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 {%r5, %r6}, %rd2, %rd3, p, 1, 1, 0, 1;
    cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%rd4], [%rd5, {%r7, %r8}], [%rd6];
    mbarrier.try_wait.parity.shared::cta.b64 %p1, [%rd6], %r9;
    ld.global.nc.v4.u32 {%r1, %r2, %r3, %r4}, [%rd7];
    ld.volatile.global.u32 %r1, [%rd7];
    st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [%r1], %r2, [%r3];
    ld.param.u64 %rd1, [k_param_0];
    st.shared.u32 [%r1], %r2;
    ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r1, %r2, %r3, %r4}, [%r5];
    ret;
}
"""
print("ptx counts:", tile_mlir.count_instructions(ptx, "k"))
sass = """
\t.section\t.text.k,"ax",@progbits
.text.k:
        /*0000*/                   LDC R1, c[0x0][0x28] ;
        /*0010*/               @P0 BRA `(.L_x_1) ;
        /*0020*/                   HGMMA.64x256x16.F32 R24, gdesc[UR28].tnspB, R24 ;
        /*0030*/                   UTMALDG.2D [UR8], [UR4] ;
        /*0038*/                   UTMACCTL.PF [UR4] ;
        /*0040*/                   SYNCS.PHASECHK.TRANS64.TRYWAIT P0, [UR4], R3 ;
        /*0050*/                   STL [R1], R2 ;
        /*0060*/                   LDL R2, [R1] ;
        /*0070*/                   SHFL.BFLY PT, R3, R4, 0x1, 0x1f ;
        /*0080*/                   BAR.SYNC.DEFER_BLOCKING 0x0 ;
        /*0090*/                   NOP ;
\t.section\t.text.other,"ax",@progbits
        /*0000*/                   HGMMA.64x256x16.F32 R24, gdesc[UR28].tnspB, R24 ;
"""
print("sass counts:", tile_mlir.count_instructions(sass, "k", "sass"))
try:
    tile_mlir.count_instructions(ptx, "missing")
except KeyError as e:
    print("KeyError:", e)
