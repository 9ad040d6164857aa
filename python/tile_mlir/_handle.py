"""The owned-handle base of the runtime's Python objects."""

from __future__ import annotations

import ctypes

from . import _ffi
from ._ffi import check


class _Handle:
    """An owned runtime handle: close() frees it once, through the
    tile_rt_*_free function named by `_free`; a context manager, also freed
    when garbage collected. A handle made from a Runtime (its parent) is
    closed with it."""

    _free = None  # name of the tile_rt_*_free function
    _noun = None  # what error messages call it; default: the class name
    _ptr = None

    def __init__(self, ptr: ctypes.c_void_p, parent: _Handle | None):
        self._ptr = ptr
        self._parent = parent
        if parent is not None:
            parent._children.add(self)

    @property
    def closed(self) -> bool:
        return not self._ptr

    def _handle(self) -> ctypes.c_void_p:
        if not self._ptr:
            raise ValueError(
                f"the {self._noun or type(self).__name__} is closed")
        return self._ptr

    def _release(self, ptr) -> None:
        check(getattr(_ffi.rt(), self._free)(ptr))

    def close(self) -> None:
        if self._ptr:
            ptr, self._ptr = self._ptr, None
            self._release(ptr)

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass
