"""The neutral kit a case's computation is written against: one kit per backend."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import unigrad

if TYPE_CHECKING:
    from unigrad import Backend, Capabilities

__all__ = ["Kit"]


class Kit:
    """Makes tensors of one backend and exposes unigrad's API, so a case runs anywhere.

    Only `unigrad.Backend` methods and unigrad's public functions are used, so a
    third-party backend gets the same kit as the built-in four.

    Examples:
        >>> import unigrad
        >>> k = Kit(unigrad.get_backend("torch"))
        >>> x = k.leaf([1.0, 2.0])
        >>> k.np(k.grad(x * x, x)[0]).tolist()
        [2.0, 4.0]
    """

    #: unigrad's functions, as attributes so that cases read ``k.grad(...)``.
    grad = staticmethod(unigrad.grad)
    backward = staticmethod(unigrad.backward)
    watch = staticmethod(unigrad.watch)

    def __init__(self, backend: Backend) -> None:
        self.backend = backend
        self.name = backend.name
        self._xp: Any = None

    def __repr__(self) -> str:
        return f"Kit({self.name!r})"

    @property
    def caps(self) -> Capabilities:
        """The backend's capability flags."""
        return self.backend.capabilities

    # ---- making tensors ----------------------------------------------------------
    def tensor(
        self, data: Any, dtype: str = "float32", shape: tuple[int, ...] | None = None
    ) -> Any:
        """A plain tensor (not requiring grad) from numbers or nested lists; ``shape``
        reshapes it (a zero-size tensor: nested lists lose its trailing dimensions)."""
        import numpy as np

        a = np.asarray(data, dtype=dtype)
        if shape is not None:
            a = a.reshape(shape)
        return self.backend.asarray(a, dtype)

    def constant(
        self, data: Any, dtype: str = "float32", shape: tuple[int, ...] | None = None
    ) -> Any:
        """A constant operand of a program (a differential program's unwatched leaf): a
        plain tensor where those are arrays of the standard (``caps.standard_arrays``),
        else the namespace's constant (``xp.asarray``: on tensorflow, whose plain
        ``tf.Tensor`` has no ``.T`` and no integer-array indexing); ``shape`` as
        `tensor`'s."""
        t = self.tensor(data, dtype, shape)
        return t if self.caps.standard_arrays else self.xp.asarray(t)

    def leaf(self, data: Any, dtype: str = "float32", shape: tuple[int, ...] | None = None) -> Any:
        """A tensor that requires grad: ``unigrad.watch(tensor(data, dtype, shape))``."""
        return unigrad.watch(self.tensor(data, dtype, shape))

    def ones(self, shape: Any, dtype: str = "float32") -> Any:
        import numpy as np

        return self.tensor(np.ones(shape), dtype)

    def zeros(self, shape: Any, dtype: str = "float32") -> Any:
        import numpy as np

        return self.tensor(np.zeros(shape), dtype)

    def full(self, shape: Any, value: Any, dtype: str = "float32") -> Any:
        import numpy as np

        return self.tensor(np.full(shape, value), dtype)

    def eye(self, n: int, dtype: str = "float32") -> Any:
        import numpy as np

        return self.tensor(np.eye(n), dtype)

    @property
    def xp(self) -> Any:
        """The array namespace of this backend's watched tensors (``unigrad.namespace``)."""
        if self._xp is None:
            self._xp = unigrad.namespace(self.leaf(0.0))
        return self._xp

    # ---- looking at tensors -------------------------------------------------------
    def np(self, x: Any) -> Any:
        """A NumPy copy of ``x``.

        A value that already is NumPy's (a case may compute a plain NumPy result on any
        backend) is read directly, without the numpy backend (which needs autograd).
        """
        import numpy as np

        if isinstance(x, (np.ndarray, np.generic)):
            return np.array(x)
        return np.asarray(unigrad.to_numpy(x))

    def value(self, x: Any) -> float:
        """A 0-d or one-element tensor as a Python float (for control flow in cases)."""
        return float(self.np(x).reshape(()))

    def requires_grad(self, x: Any) -> bool:
        return self.backend.requires_grad(x)

    def dtype(self, x: Any) -> str:
        return self.backend.dtype_name(x)

    def shape(self, x: Any) -> tuple[int, ...]:
        return self.backend.shape(x)

    @staticmethod
    def grad_of(x: Any) -> Any:
        """What ``backward`` accumulated into leaf ``x`` (its ``.grad``), or None."""
        return getattr(x, "grad", None)
