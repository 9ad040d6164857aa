"""kernels/examples/varlen_attention.mlir on the GPU (varlen-gpu.test):
sequences of different lengths packed without padding ([rows, heads, D],
cumulative offsets), the query tiles listed on the host, against SDPA on
each sequence alone in fp32. Lengths that are and are not multiples of the
tiles, a sequence of one row, longer keys than queries (causal aligned at
the bottom right, as flash-attn's varlen does), and grouped K/V heads.

Usage: varlen_gpu_test.py KERNELS_DIR
"""
import sys

import torch
import torch.nn.functional as F

import tile_mlir as tm

BM = 128  # the kernel's default query tile

kernels_dir = sys.argv[1]
torch.manual_seed(0)
rt = tm.Runtime(0)
module = rt.load(tm.compile(f"{kernels_dir}/examples/varlen_attention.mlir"))


def ints(v):
    return torch.tensor(v, device="cuda", dtype=torch.int32)


def offsets(lengths):
    cu = [0]
    for n in lengths:
        cu.append(cu[-1] + n)
    return cu


failed = 0
for name, d, causal, group, dtype in (
        ("varlen_attention_d128_f16", 128, False, 1, torch.float16),
        ("varlen_attention_causal_d128_f16", 128, True, 1, torch.float16),
        ("varlen_attention_d64_bf16", 64, False, 1, torch.bfloat16),
        ("varlen_attention_gqa4_causal_d128_bf16", 128, True, 4,
         torch.bfloat16)):
    kernel = module.kernel(name)
    for lq, lk in (([128, 1, 300, 77], None), ([513, 1000, 64], None),
                   ([5, 200], [40, 329])):
        lk = lk or lq
        hq = 8
        hkv = hq // group
        cuq, cuk = offsets(lq), offsets(lk)
        q = torch.randn(cuq[-1], hq, d, device="cuda").to(dtype)
        k = torch.randn(cuk[-1], hkv, d, device="cuda").to(dtype)
        v = torch.randn(cuk[-1], hkv, d, device="cuda").to(dtype)
        o = torch.full_like(q, float("nan"))
        seq, row = [], []
        for s, n in enumerate(lq):
            for r in range(cuq[s], cuq[s + 1], BM):
                seq.append(s)
                row.append(r)
        scale = d ** -0.5
        # [rows, heads, D] read as [heads, rows, D], in place.
        kernel.launch(q.transpose(0, 1), k.transpose(0, 1), v.transpose(0, 1),
                      o.transpose(0, 1), ints(cuq), ints(cuk), ints(seq),
                      ints(row), scale)
        worst = 0.0
        for s in range(len(lq)):
            qs = q[cuq[s]:cuq[s + 1]].transpose(0, 1).float()
            ks = k[cuk[s]:cuk[s + 1]].transpose(0, 1).float()
            vs = v[cuk[s]:cuk[s + 1]].transpose(0, 1).float()
            ks = ks.repeat_interleave(group, dim=0)
            vs = vs.repeat_interleave(group, dim=0)
            mask = None
            if causal:  # bottom-right aligned
                i = torch.arange(lq[s], device="cuda")[:, None]
                j = torch.arange(lk[s], device="cuda")[None, :]
                mask = j <= i + lk[s] - lq[s]
            ref = F.scaled_dot_product_attention(qs, ks, vs, attn_mask=mask,
                                                 scale=scale)
            got = o[cuq[s]:cuq[s + 1]].transpose(0, 1).float()
            worst = max(worst, ((got - ref).norm() / ref.norm()).item())
        ok = worst < 2e-2
        failed += not ok
        print(f"{name} q{lq} k{lk}: "
              f"{'ok' if ok else f'FAILED rel {worst:.3g}'}")
print(f"varlen: {failed} failed")
sys.exit(1 if failed else 0)
