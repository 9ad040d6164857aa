"""Exceptions raised by tile_mlir.

Every failing runtime call raises a subclass of :class:`RuntimeCallError`
chosen by its ``tile_rt_status``; the message is ``tile_rt_last_error()``,
which names the failing CUDA call, its error and the kernel involved.
"""

from __future__ import annotations


class TileError(Exception):
    """Base class of every tile_mlir error."""


class LibraryNotFoundError(TileError, OSError):
    """libTileCAPI.so or libtile_rt.so could not be found or loaded."""


class CompileError(TileError):
    """Parsing or compiling a module failed.

    ``diagnostics`` holds the MLIR diagnostics emitted, one formatted string
    each (``file:line:col: error: message``, notes indented below).
    """

    def __init__(self, message: str, diagnostics: tuple[str, ...] = ()):
        self.diagnostics = tuple(diagnostics)
        if self.diagnostics:
            message = message + ":\n" + "\n".join(self.diagnostics)
        super().__init__(message)


class DisassemblerError(TileError):
    """No SASS: the CUDA toolkit's nvdisasm was not found (the message says
    where it was looked for and how to name one), or it refused the image."""


class RuntimeCallError(TileError):
    """A tile_rt call failed.

    ``status`` is the ``tile_rt_status`` value, ``status_name`` its name
    ("NO_DRIVER", "PARSE", ...) and ``message`` the runtime's own message.
    """

    def __init__(self, status: int, status_name: str, message: str):
        self.status = status
        self.status_name = status_name
        self.message = message
        super().__init__(f"{status_name}: {message}" if message
                         else status_name)


class NoDriverError(RuntimeCallError):
    """libcuda could not be opened or used."""


class NoDeviceError(RuntimeCallError):
    """The driver reports no (such) GPU."""


class CudaError(RuntimeCallError):
    """A CUDA call failed."""


class InvalidArgumentError(RuntimeCallError, ValueError):
    """The runtime rejected an argument (kernel arguments included)."""


class ParseError(RuntimeCallError, ValueError):
    """Malformed kernel info text."""


class NotFoundError(RuntimeCallError, LookupError):
    """No kernel (or symbol) of that name."""


class RuntimeIOError(RuntimeCallError, OSError):
    """A file could not be read or written."""


class DeviceOutOfMemoryError(RuntimeCallError, MemoryError):
    """Host or device allocation failed."""


class UnsupportedError(RuntimeCallError):
    """The device or driver cannot do it."""


class RuntimeTimeoutError(RuntimeCallError, TimeoutError):
    """Work did not finish in the time allowed (a hung kernel)."""
