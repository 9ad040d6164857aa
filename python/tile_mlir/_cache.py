"""The on-disk cache of the C API (include/tile-c/Cache.h): entries of a kind
keyed by named components, each a JSON record and named blobs, written
atomically (layout and rules: docs/Tuning.md, "The caches")."""

from __future__ import annotations

import os
import warnings

from . import _ffi


def _text_of(fn, *args) -> str:
    """What a C API call hands its string callback, as text."""
    chunks: list[bytes] = []
    cb = _ffi.MlirStringCallback(
        lambda ref, _: chunks.append(_ffi.string_ref_bytes(ref)))
    fn(*args, cb, None)
    return b"".join(chunks).decode("utf-8", "replace")


def default_directory() -> str:
    """$TILE_MLIR_CACHE_DIR, else $XDG_CACHE_HOME/tile-mlir, else
    ~/.cache/tile-mlir ("" when none is set)."""
    return _text_of(_ffi.capi().mlirTileCacheGetDefaultDirectory)


def compiler_build_id() -> str:
    """The compiler's identity for keys: LLVM's version, the hash of the
    compiler library and the ptxas it runs."""
    return _text_of(_ffi.capi().mlirTileCacheGetCompilerBuildId)


class _Components:
    """`components` (name -> text) as the C array, and the bytes it points
    to (kept alive with it)."""

    def __init__(self, components: dict[str, str]):
        self._keep = [(k.encode(), v.encode()) for k, v in components.items()]
        self.array = (_ffi.MlirTileCacheComponent * len(self._keep))(
            *[_ffi.MlirTileCacheComponent(_ffi.string_ref(k),
                                          _ffi.string_ref(v))
              for k, v in self._keep])
        self.count = len(self._keep)


def _ref(text: str | bytes):
    data = text.encode() if isinstance(text, str) else text
    return _ffi.string_ref(data), data


def key(kind: str, components: dict[str, str]) -> str:
    """The key (64 hex digits) of the entry of `kind` for `components`."""
    c = _Components(components)
    kind_ref, _keep = _ref(kind)
    return _text_of(_ffi.capi().mlirTileCacheComputeKey, kind_ref, c.array,
                    c.count)


def load(directory, kind: str, components: dict[str, str]
         ) -> tuple[str, dict[str, bytes]] | None:
    """The record (JSON text) and blobs of the entry, or None on a miss. An
    unreadable or stale entry is a warning, removed by the cache, and a
    miss."""
    c = _Components(components)
    dir_ref, _d = _ref(os.fsencode(directory))
    kind_ref, _k = _ref(kind)
    record: list[bytes] = []
    blobs: dict[str, bytes] = {}
    messages: list[bytes] = []
    on_record = _ffi.MlirStringCallback(
        lambda ref, _: record.append(_ffi.string_ref_bytes(ref)))
    on_blob = _ffi.MlirTileCacheBlobCallback(
        lambda name, data, _: blobs.__setitem__(
            _ffi.string_ref_bytes(name).decode(),
            _ffi.string_ref_bytes(data)))
    on_message = _ffi.MlirStringCallback(
        lambda ref, _: messages.append(_ffi.string_ref_bytes(ref)))
    result = _ffi.capi().mlirTileCacheLoad(dir_ref, kind_ref, c.array,
                                           c.count, on_record, on_blob,
                                           on_message, None)
    if result == _ffi.MLIR_TILE_CACHE_CORRUPT:
        warnings.warn("the cache entry was unreadable and is removed: " +
                      b"".join(messages).decode("utf-8", "replace"),
                      RuntimeWarning, stacklevel=3)
    if result != _ffi.MLIR_TILE_CACHE_HIT:
        return None
    return b"".join(record).decode(), blobs


def store(directory, kind: str, components: dict[str, str], record: str,
          blobs: dict[str, bytes]) -> bool:
    """Writes the entry (atomically, replacing any); a failure is a warning
    and False."""
    c = _Components(components)
    dir_ref, _d = _ref(os.fsencode(directory))
    kind_ref, _k = _ref(kind)
    record_ref, _r = _ref(record)
    keep = [(n.encode(), bytes(d)) for n, d in blobs.items()]
    array = (_ffi.MlirTileCacheBlob * len(keep))(
        *[_ffi.MlirTileCacheBlob(_ffi.string_ref(n), _ffi.string_ref(d))
          for n, d in keep])
    errors: list[bytes] = []
    on_error = _ffi.MlirStringCallback(
        lambda ref, _: errors.append(_ffi.string_ref_bytes(ref)))
    ok = _ffi.capi().mlirTileCacheStore(dir_ref, kind_ref, c.array, c.count,
                                        record_ref, array, len(keep),
                                        on_error, None)
    if not ok.value:
        warnings.warn("the result is not kept in the cache: " +
                      b"".join(errors).decode("utf-8", "replace"),
                      RuntimeWarning, stacklevel=3)
        return False
    return True
