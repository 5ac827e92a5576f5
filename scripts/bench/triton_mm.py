# triton_mm.py - a Triton fp16 matmul (1024^3, 128x128x32 tiles); its check
# against a.float() @ b.float() runs a cuBLAS sm80 xmma GEMM, whose LDGSTS
# copies 4 bytes a lane.  Used by scripts/explain-bench.sh.
# A Triton fp16 matmul (ldmatrix/mma or wgmma with swizzled shared tiles).
import torch, triton, triton.language as tl

@triton.jit
def mm(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pm = tl.program_id(0); pn = tl.program_id(1)
    rm = pm * BM + tl.arange(0, BM); rn = pn * BN + tl.arange(0, BN); rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        at = tl.load(a + rm[:, None] * K + (k + rk)[None, :])
        bt = tl.load(b + (k + rk)[:, None] * N + rn[None, :])
        acc += tl.dot(at, bt)
    tl.store(c + rm[:, None] * N + rn[None, :], acc.to(tl.float16))

M = N = K = 1024
a = torch.randn(M, K, device="cuda", dtype=torch.float16)
b = torch.randn(K, N, device="cuda", dtype=torch.float16)
c = torch.empty(M, N, device="cuda", dtype=torch.float16)
mm[(M // 128, N // 128)](a, b, c, M, N, K, BM=128, BN=128, BK=32)
torch.cuda.synchronize()
print(float((c.float() - (a.float() @ b.float())).abs().max()))
