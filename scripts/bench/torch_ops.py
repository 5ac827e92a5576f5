"""torch_ops.py - a small PyTorch program for `bankscope profile`: softmax,
layer norm, histc, sort, topk and a half-precision matmul on the GPU, each
checked against the same operation on the CPU in float64 (float32 for the
matmul's reference).  Prints one line per operation and exits 1 when one
is off.  Inputs are random (seed 7), never zeros."""
import sys

import torch

torch.manual_seed(7)
dev = "cuda"
bad = 0


def check(name, got, want, tol):
    global bad
    err = (got.double().cpu() - want.double()).norm() / want.double().norm()
    ok = bool(err <= tol)
    bad += not ok
    print(f"{name}: relative error {err:.2e} {'ok' if ok else 'TOO LARGE'}")


x = torch.randn(4096, 1024)
xd = x.to(dev)
check("softmax", torch.softmax(xd, dim=1), torch.softmax(x.double(), dim=1), 1e-6)
ln = torch.nn.functional.layer_norm
check("layer_norm", ln(xd, (1024,)), ln(x.double(), (1024,)), 1e-5)
v = torch.rand(1 << 20)
h = torch.histc(v.to(dev), bins=256, min=0, max=1)
check("histc", h, torch.histc(v.double(), bins=256, min=0, max=1), 0)
s, _ = torch.sort(v.to(dev))
check("sort", s, torch.sort(v.double())[0], 0)
t, _ = torch.topk(v.to(dev), 100)
check("topk", t, torch.topk(v.double(), 100)[0], 0)
a = torch.randn(1024, 1024)
b = torch.randn(1024, 1024)
c = (a.half().to(dev) @ b.half().to(dev)).float()
check("half matmul", c, a.half().float() @ b.half().float(), 2e-3)
torch.cuda.synchronize()
sys.exit(1 if bad else 0)
