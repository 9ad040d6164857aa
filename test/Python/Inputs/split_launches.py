"""The check the kernels that split K and combine their partials inside
the kernel (tile.arrive) share: three launches on the same counters, each
within `tol` of `ref` (relative Frobenius norm), leaving every counter zero
and giving the same bits as the first."""
import torch


def split_launch_problems(launch, out, count, ref, tol):
    """What went wrong in three calls of `launch()`, writing `out` with the
    counters `count`; empty when nothing did."""
    first = None
    for n in range(3):
        out.fill_(float("nan"))
        launch()
        torch.cuda.synchronize()
        err = ((out.double() - ref).norm() / ref.norm()).item()
        problems = []
        if not err < tol:
            problems.append(f"rel {err:.3g}")
        if int(count.abs().sum()) != 0:
            problems.append(f"counters left at {count.nonzero().numel()} "
                            "nonzero")
        if first is None:
            first = out.clone()
        elif not torch.equal(out.view(torch.int16), first.view(torch.int16)):
            problems.append(f"launch {n} differs from the first")
        if problems:
            return problems
    return []
