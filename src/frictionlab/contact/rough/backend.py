"""Array backends for the rough-contact numerics: numpy (default), CuPy or PyTorch.

The solver and the elastic operator are written against a small common subset of the
array API (elementwise arithmetic, ``where``, ``sum``, boolean masks, ``maximum``) plus four
FFTs, so the same code runs on the CPU with :mod:`scipy.fft` (multi-threaded through
``workers``) or on a GPU with ``cupy.fft`` / ``torch.fft``. :class:`Backend` hides the few
places where the libraries differ (FFT keyword names, host transfer, scalar extraction).

At one thread in double precision the numpy backend transforms with :mod:`numpy.fft`, which
gives the same bits as :mod:`scipy.fft` (both run pocketfft; the one place they differ, the
scaling of a 2-D inverse, is done as scipy does it: see :meth:`Backend.irfft2`), so a contact
solve at that size never imports scipy.fft (issue 19; ``tests/unit/test_rough_backend_fft.py``).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

import numpy as np

from ...core.errors import ParameterError

__all__ = ["Backend", "get_backend"]

_DOUBLE = (np.dtype(np.float64), np.dtype(np.complex128))


@dataclass
class Backend:
    """One array library and its FFTs.

    Parameters
    ----------
    name : {"numpy", "cupy", "torch"}
    workers : int
        Threads for :mod:`scipy.fft` (numpy backend only); ``-1`` = all cores.
    device : str
        Torch device (``"cuda"`` when available); ignored otherwise.
    """

    name: str = "numpy"
    workers: int = -1
    device: str | None = None

    def __post_init__(self) -> None:
        if self.name == "numpy":
            self.xp: Any = np  # scipy.fft is imported on first use (``_fft``): one thread in double
            # precision transforms with numpy.fft (``_numpy_fft``, ``BoussinesqFFT.apply_into``) and skips it
        elif self.name == "cupy":
            try:
                import cupy  # type: ignore[import-not-found]
            except ImportError:  # pragma: no cover - no GPU in CI
                raise ParameterError("backend='cupy' needs the cupy package (pip install cupy-cuda12x)") from None
            self.xp = cupy
            self._fft = cupy.fft
        elif self.name == "torch":
            try:
                import torch  # type: ignore[import-not-found]
            except ImportError:  # pragma: no cover
                raise ParameterError("backend='torch' needs the torch package") from None
            self.xp = torch
            self._fft = torch.fft
            if self.device is None:
                self.device = "cuda" if torch.cuda.is_available() else "cpu"
        else:
            raise ParameterError(f"backend = {self.name!r} is not one of ['numpy', 'cupy', 'torch']")
        if self.workers == -1 and self.name == "numpy":
            self.workers = os.cpu_count() or 1

    def __getattr__(self, attr: str) -> Any:
        """``_fft`` of the numpy backend: :mod:`scipy.fft`, imported on first use."""
        if attr == "_fft" and self.__dict__.get("name") == "numpy":
            import scipy.fft as sfft

            self._fft = sfft
            return sfft
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {attr!r}")

    # --- conversion -------------------------------------------------------------------
    def asarray(self, a: Any, dtype: Any = None) -> Any:
        if self.name == "torch":
            import torch  # type: ignore[import-not-found]

            dt = {None: torch.float64, np.float64: torch.float64, np.float32: torch.float32}.get(dtype, dtype)
            if isinstance(a, torch.Tensor):
                return a.to(device=self.device, dtype=dt)
            return torch.as_tensor(np.asarray(a), dtype=dt, device=self.device)
        return self.xp.asarray(a, dtype=dtype if dtype is not None else self.xp.float64)

    def to_numpy(self, a: Any) -> np.ndarray:
        if self.name == "cupy":
            return a.get()
        if self.name == "torch":
            return a.detach().cpu().numpy()
        return np.asarray(a)

    def cast_like(self, a: Any, like: Any) -> Any:
        """``a`` with the dtype of ``like`` (torch tensors have no ``astype``)."""
        if a.dtype == like.dtype:
            return a
        if self.name == "torch":
            return a.to(dtype=like.dtype)
        return a.astype(like.dtype)

    def scalar(self, a: Any) -> float:
        return float(a.item()) if hasattr(a, "item") else float(a)

    def clip0(self, a: Any) -> Any:
        """``max(a, 0)`` elementwise (torch needs ``clamp``)."""
        if self.name == "torch":
            return a.clamp(min=0.0)
        return self.xp.maximum(a, 0.0)

    def clip_neg(self, a: Any) -> Any:
        """``min(a, 0)`` elementwise."""
        if self.name == "torch":
            return a.clamp(max=0.0)
        return self.xp.minimum(a, 0.0)

    # --- FFTs along one axis (real input / output where noted) -------------------------
    def _numpy_fft(self, a: Any) -> bool:
        """Whether this transform runs in :mod:`numpy.fft` (numpy backend, one thread, double
        precision: same bits as :mod:`scipy.fft`, no scipy import) rather than ``self._fft``."""
        return self.name == "numpy" and self.workers == 1 and getattr(a, "dtype", None) in _DOUBLE

    def rfft(self, a: Any, n: int, axis: int) -> Any:
        if self._numpy_fft(a):
            return np.fft.rfft(a, n=n, axis=axis)
        if self.name == "numpy":
            return self._fft.rfft(a, n=n, axis=axis, workers=self.workers)
        if self.name == "torch":
            return self._fft.rfft(a, n=n, dim=axis)
        return self._fft.rfft(a, n=n, axis=axis)

    def irfft(self, a: Any, n: int, axis: int) -> Any:
        if self._numpy_fft(a):
            return np.fft.irfft(a, n=n, axis=axis)
        if self.name == "numpy":
            return self._fft.irfft(a, n=n, axis=axis, workers=self.workers)
        if self.name == "torch":
            return self._fft.irfft(a, n=n, dim=axis)
        return self._fft.irfft(a, n=n, axis=axis)

    def fft(self, a: Any, n: int, axis: int) -> Any:
        if self._numpy_fft(a):
            return np.fft.fft(a, n=n, axis=axis)
        if self.name == "numpy":
            return self._fft.fft(a, n=n, axis=axis, workers=self.workers, overwrite_x=True)
        if self.name == "torch":
            return self._fft.fft(a, n=n, dim=axis)
        return self._fft.fft(a, n=n, axis=axis)

    def ifft(self, a: Any, n: int, axis: int) -> Any:
        if self._numpy_fft(a):
            return np.fft.ifft(a, n=n, axis=axis)
        if self.name == "numpy":
            return self._fft.ifft(a, n=n, axis=axis, workers=self.workers, overwrite_x=True)
        if self.name == "torch":
            return self._fft.ifft(a, n=n, dim=axis)
        return self._fft.ifft(a, n=n, axis=axis)

    def rfft2(self, a: Any) -> Any:
        if self._numpy_fft(a):
            return np.fft.rfft2(a)
        if self.name == "numpy":
            return self._fft.rfft2(a, workers=self.workers)
        if self.name == "torch":
            return self._fft.rfft2(a)
        return self._fft.rfft2(a)

    def irfft2(self, a: Any, s: tuple[int, int]) -> Any:
        if self._numpy_fft(a):
            # scipy.fft scales the 2-D inverse once, by 1/(s0 s1) in pocketfft's long double, after
            # both passes; numpy.fft scales each pass. Unscaled passes and that one factor
            # reproduce scipy.fft's bits (``numpy.longdouble`` is pocketfft's ``ldbl_t``).
            f = np.fft.irfft(np.fft.ifft(a, n=s[0], axis=0, norm="forward"), n=s[1], axis=1, norm="forward")
            f *= float(np.longdouble(1) / np.longdouble(s[0] * s[1]))
            return f
        if self.name == "numpy":
            return self._fft.irfft2(a, s=s, workers=self.workers)
        if self.name == "torch":
            return self._fft.irfft2(a, s=s)
        return self._fft.irfft2(a, s=s)


_CACHE: dict[tuple, Backend] = {}


def get_backend(backend: str | Backend | None = None, workers: int = -1) -> Backend:
    """Return a (cached) :class:`Backend` for ``backend`` (a name, a Backend or None = numpy)."""
    if isinstance(backend, Backend):
        return backend
    key = (backend or "numpy", workers)
    if key not in _CACHE:
        _CACHE[key] = Backend(name=backend or "numpy", workers=workers)
    return _CACHE[key]
