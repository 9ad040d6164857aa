"""tile_mlir.timing on the GPU (timing-gpu.test): the tools' timing
protocol driven from Python through tile_tune_time_in_turns, on torch's
current stream. A copy of 256 MiB takes longer than one of 1 MiB, with
the L2 flushed before each run or not; an exception in a timed callable
comes back as itself."""
import torch

from tile_mlir import timing

big = torch.empty(256 << 20, dtype=torch.uint8, device="cuda")
small = torch.empty(1 << 20, dtype=torch.uint8, device="cuda")
big_dst, small_dst = torch.empty_like(big), torch.empty_like(small)
fns = [lambda: big_dst.copy_(big), lambda: small_dst.copy_(small)]
for flush in (None, timing.l2_flush()):
    slow, fast = timing.time_in_turns(fns, warmup=3, iters=20, flush=flush)
    print(f"flush {flush is not None}: ordered {slow > 10 * fast > 0}, "
          f"big copy {2 * big.numel() / slow / 1e9:.0f} GB/s")

# On another stream: the events are recorded on torch's current one.
side = torch.cuda.Stream()
with torch.cuda.stream(side):
    (ms,) = timing.time_in_turns([fns[1]], warmup=1, iters=5)
print("side stream:", ms > 0)


def boom():
    raise ValueError("from the timed callable")


try:
    timing.time_in_turns([boom], warmup=1, iters=2)
except ValueError as e:
    print("ValueError:", e)
