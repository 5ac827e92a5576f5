"""triton_matmul.py - a Triton fp16 matrix product (the tutorial's blocked
kernel, 128x128x32 tiles, fp32 accumulation) of two random 2048 x 2048
matrices, checked against torch.matmul: ||C - ref|| / ||ref|| under 1e-2.
Exits 1 when it is off."""
import sys

import torch
import triton
import triton.language as tl


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                  stride_am, stride_ak, stride_bk, stride_bn,
                  stride_cm, stride_cn,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                  BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    a = a_ptr + rm[:, None] * stride_am + rk[None, :] * stride_ak
    b = b_ptr + rk[:, None] * stride_bk + rn[None, :] * stride_bn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        acc += tl.dot(tl.load(a), tl.load(b))
        a += BLOCK_K * stride_ak
        b += BLOCK_K * stride_bk
    c = c_ptr + rm[:, None] * stride_cm + rn[None, :] * stride_cn
    tl.store(c, acc.to(tl.float16))


def matmul(a, b):
    M, K = a.shape
    _, N = b.shape
    c = torch.empty((M, N), device=a.device, dtype=torch.float16)
    grid = (M // 128, N // 128)
    matmul_kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1),
                        b.stride(0), b.stride(1), c.stride(0), c.stride(1),
                        BLOCK_M=128, BLOCK_N=128, BLOCK_K=32)
    return c


torch.manual_seed(7)
a = torch.randn(2048, 2048, device="cuda", dtype=torch.float16)
b = torch.randn(2048, 2048, device="cuda", dtype=torch.float16)
c = matmul(a, b)
ref = a.float() @ b.float()
err = ((c.float() - ref).norm() / ref.norm()).item()
print(f"triton fp16 matmul 2048^3: relative error {err:.2e}")
sys.exit(0 if err < 1e-2 else 1)
