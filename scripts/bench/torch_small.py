# torch_small.py - used by scripts/explain-bench.sh (issue 27).
# A small PyTorch program with shared-memory-heavy kernels (transpose copy,
# softmax, layer norm, histogram with shared atomics, column sum, topk, sort,
# half matmul). Used to try `bankscope profile` on a program nobody here wrote.
import torch
torch.manual_seed(0)
x = torch.randn(2048, 2048, device="cuda")
y = x.t().contiguous()
s = torch.softmax(x, dim=1)
ln = torch.nn.functional.layer_norm(x, (2048,))
h = torch.histc(x, bins=256, min=-4, max=4)
c = x.sum(dim=0)
v, i = torch.topk(x[:256], 16, dim=1)
srt, _ = torch.sort(x[:64], dim=1)
m = x.half() @ y.half()
torch.cuda.synchronize()
print(float(h.sum()), float(c[0]), float(m[0, 0]))
