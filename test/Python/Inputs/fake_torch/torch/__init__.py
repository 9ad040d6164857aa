"""A stand-in for torch on a machine without it (ops-host.test): tensors
that are only sizes, strides, an offset and a dtype, with the views and
copies tile_mlir.ops makes of them. No data: what the test reads is which
kernels ops launches on which layouts, and which copies it makes."""
import math

from . import nn  # noqa: F401


class dtype:
    def __init__(self, name, size):
        self.name, self.itemsize = name, size

    def __repr__(self):
        return f"torch.{self.name}"


float16, bfloat16, float32 = (dtype("float16", 2), dtype("bfloat16", 2),
                              dtype("float32", 4))
int32 = dtype("int32", 4)
contiguous_format = object()
copies = []  # (what, shape) of every copy made, for the test to read
_next_address = [1 << 20]


class device:
    def __init__(self, kind="cuda", index=0):
        self.type, self.index = kind, index

    def __repr__(self):
        return f"{self.type}:{self.index}"


def _contiguous_strides(shape):
    strides, step = [], 1
    for size in reversed(shape):
        strides.insert(0, step)
        step *= max(size, 1)
    return tuple(strides)


class Tensor:
    def __init__(self, shape, dt, strides=None, base=None, offset=0,
                 dev=None):
        self.shape = tuple(shape)
        self.dtype = dt
        self._strides = tuple(strides or _contiguous_strides(self.shape))
        if base is None:
            base = _next_address[0]
            _next_address[0] += 1 << 30  # 16-byte aligned, far apart
        self._base, self._offset = base, offset
        self.device = dev or device()
        self.is_cuda = self.device.type == "cuda"

    def dim(self):
        return len(self.shape)

    def stride(self, i=None):
        return self._strides if i is None else self._strides[i]

    def element_size(self):
        return self.dtype.itemsize

    def data_ptr(self):
        return self._base + self._offset * self.dtype.itemsize

    def numel(self):
        return math.prod(self.shape)

    def _view(self, shape, strides, offset=None):
        return Tensor(shape, self.dtype, strides, self._base,
                      self._offset if offset is None else offset, self.device)

    def is_contiguous(self):
        return all(st == c for st, c, n in zip(
            self._strides, _contiguous_strides(self.shape), self.shape)
            if n > 1)

    def t(self):
        return self.transpose(0, 1)

    def transpose(self, i, j):
        shape, strides = list(self.shape), list(self._strides)
        shape[i], shape[j] = shape[j], shape[i]
        strides[i], strides[j] = strides[j], strides[i]
        return self._view(shape, strides)

    def as_strided(self, shape, strides):
        return self._view(shape, strides)

    def unsqueeze(self, d):
        assert d == 0
        return self._view((1,) + self.shape, (0,) + self._strides)

    def _sizes(self, shape):
        if len(shape) == 1 and isinstance(shape[0], tuple):
            shape = shape[0]
        shape = list(shape)
        if -1 in shape:
            known = math.prod(s for s in shape if s != -1)
            shape[shape.index(-1)] = self.numel() // known if known else 0
        return tuple(shape)

    def view(self, *shape):
        assert self.is_contiguous(), "view of a non-contiguous stand-in"
        shape = self._sizes(shape)
        return self._view(shape, _contiguous_strides(shape))

    def reshape(self, *shape):
        """A view where torch makes one (the same sizes, contiguous, or
        the leading two dimensions merged where their strides allow),
        else a copy."""
        shape = self._sizes(shape)
        if shape == self.shape:
            return self._view(shape, self._strides)
        if self.is_contiguous():
            return self.view(*shape)
        if self.dim() == 3 and len(shape) == 2 and \
                self._strides[0] == self._strides[1] * self.shape[1]:
            return self._view(shape, self._strides[1:])
        return self.contiguous().view(*shape)

    def contiguous(self):
        if self.is_contiguous():
            return self
        copies.append(("contiguous", self.shape))
        return Tensor(self.shape, self.dtype, dev=self.device)

    def clone(self, memory_format=None):
        copies.append(("clone", self.shape))
        return Tensor(self.shape, self.dtype, dev=self.device)

    def copy_(self, src):
        copies.append(("copy_", self.shape))
        return self

    def zero_(self):
        return self

    def __getitem__(self, key):
        if isinstance(key, int):
            return self._view(self.shape[1:], self._strides[1:],
                              self._offset + key * self._strides[0])
        rows, cols = key  # [:, :n]
        assert rows == slice(None) and cols.start is None
        return self._view((self.shape[0], cols.stop), self._strides)


def empty(*shape, dtype=float16, device=None):
    if len(shape) == 1 and isinstance(shape[0], tuple):
        shape = shape[0]
    return Tensor(shape, dtype)


def zeros(*shape, dtype=float16, device=None):
    return empty(*shape, dtype=dtype, device=device)


class _Stream:
    cuda_stream = 0


class cuda:  # noqa: N801  (torch.cuda, as a namespace)
    @staticmethod
    def current_stream(device=None):
        return _Stream()


def empty_like(t, memory_format=None):
    return Tensor(t.shape, t.dtype, dev=t.device)


def randn(*shape, dtype=float16, device="cuda"):
    return Tensor(shape, dtype,
                  dev=globals()["device"]("cpu" if device == "cpu" else
                                          "cuda"))
