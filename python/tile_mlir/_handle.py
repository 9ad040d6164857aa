"""The owned-handle base of the runtime's Python objects."""

from __future__ import annotations

import ctypes
import weakref

from . import _ffi
from ._ffi import check


class _Handle:
    """An owned runtime handle: close() frees it once, through the
    tile_rt_*_free function named by `_free`; a context manager, also freed
    when garbage collected.

    Ownership goes one way: a handle made from a parent (a Module from its
    Runtime, say) holds the parent strongly, and the runtime's handles keep
    their context alive in C, so each one frees correctly on its own, in
    whatever order the collector or interpreter shutdown finalises them.
    Explicitly closing a parent closes its live children first (found through
    weak references, which only that explicit close relies on).
    """

    _free = None  # name of the tile_rt_*_free function
    _noun = None  # what error messages call it; default: the class name
    _ptr = None

    def __init__(self, ptr: ctypes.c_void_p, parent: _Handle | None):
        # Bound now, so that freeing needs no module globals (they may be
        # gone at interpreter shutdown).
        self._free_fn = getattr(_ffi.rt(), self._free) if self._free else None
        self._ptr = ptr
        self._parent = parent
        self._children = weakref.WeakSet()
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

    def _release(self, ptr) -> int:
        """Frees `ptr`, returning the tile_rt_status."""
        return self._free_fn(ptr)

    def close(self) -> None:
        """Closes the live handles made from this one, then frees it."""
        if self._ptr:
            for child in list(self._children):
                child.close()
            ptr, self._ptr = self._ptr, None
            check(self._release(ptr))

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __del__(self):
        # Only this handle: its children hold it (and, in C, its context)
        # alive, so none of them can still be in use here.
        ptr, self._ptr = self._ptr, None
        if ptr:
            try:
                self._release(ptr)
            except Exception:
                pass
