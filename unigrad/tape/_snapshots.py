"""In-place snapshots: how the numpy tape notices an array changed since a node read it.

NumPy has no version counter. When a node is recorded, each writeable NumPy array among
its parents' values (a watched array, a constant operand: values the tape computed are
read-only, `owned`) is copied (`take`); before a gradient or a read recomputes the node,
`check_saved` compares the array with its copy and raises `InplaceModifiedError` if they
differ (torch's "modified by an inplace operation"). jax arrays are immutable.

Copies are made cheap three ways: a node that reads an array equal to its latest copy
shares that copy (the ``snapshots`` cache of `unigrad.tape._caches.CACHES`); large
copies are recycled from a buffer pool (`POOL`); comparisons of large arrays reuse one
scratch buffer per thread.
"""

from __future__ import annotations

import sys
import threading
import weakref
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .._errors import InplaceModifiedError, message
from ._caches import CACHES

if TYPE_CHECKING:
    from ._node import Node

__all__ = ["POOL", "SharingSnapshots", "check_saved", "equal", "owned", "take", "track_numpy"]

#: ``numpy.ndarray``, once a node exists (`track_numpy`).
ndarray: Any = None


def track_numpy() -> Any:
    """The NumPy array type, remembered for `unigrad.tape._node` and `owned`."""
    global ndarray
    import numpy as np

    ndarray = np.ndarray
    return np.ndarray


def owned(value: Any) -> Any:
    """A value the tape computed, as the tensor keeps it: a NumPy array becomes a
    read-only view, so that an in-place change through ``t.value`` / ``t.detach()``
    fails at once (the op's own result object stays as it was, in case a lifted
    function returned a user's array)."""
    if type(value) is ndarray:
        value = value.view()
        value.flags.writeable = False
    return value


#: Per thread, while `SharingSnapshots` is active: id(array) -> (array, copy) pairs
#: that `check_saved` has just found equal.
_VERIFIED = threading.local()


def take(v: Any) -> tuple[Any, Any]:
    """``(v, copy of v)`` for a node that reads the writeable NumPy array ``v``."""
    verified = getattr(_VERIFIED, "pairs", None)
    pair = None if verified is None else verified.get(id(v))
    if pair is not None and pair[0] is v:
        return pair  # type: ignore[no-any-return]
    return _snapshot(v)


def _snapshot(v: Any) -> tuple[Any, Any]:
    """``(v, copy of v)``, sharing the latest copy of ``v`` when ``v`` still equals it.

    A step reads the same watched arrays (a layer's weight, a batch) in several nodes; a
    node that reads an array equal to its latest copy shares that copy (one comparison
    instead of a new copy: the copy is then a snapshot of now, exactly). The cache holds
    ``id(array) -> (weak reference to the array, weak reference to its latest copy)``.
    """
    latest = CACHES.snapshots
    entry = latest.get(id(v))
    if entry is not None:
        copy = entry[1]()
        if (
            copy is not None
            and entry[0]() is v
            and copy.shape == v.shape
            and copy.dtype == v.dtype
            and equal(v, copy)
        ):
            return (v, copy)
    copy = POOL.copy(v)
    latest.put(id(v), (weakref.ref(v), weakref.ref(copy)))
    return (v, copy)


def _free_refcount() -> int:
    """What `BufferPool.copy` reads for a pooled copy held by nothing but the pool (0: no
    pool, outside CPython)."""
    getrefcount = getattr(sys, "getrefcount", None)
    if getrefcount is None:
        return 0
    bufs = [object()]
    for b in bufs:
        return int(getrefcount(b))
    return 0


class BufferPool:
    """Copies of large arrays that snapshots recycle.

    A step reads the same arrays every time, and a fresh copy of a large array is a
    fresh allocation (pages the kernel maps and zeroes, then unmaps when the step's graph
    dies). A copy whose only holder is this pool (CPython's reference count) takes the
    next snapshot of its shape and dtype. Lifetime: `POOL` lives as long as the process;
    it starts over when it would hold more than ``max_keys`` (shape, dtype) pairs.
    """

    __slots__ = ("bufs", "depth", "free", "max_bytes", "max_keys", "min_bytes", "nbytes")

    def __init__(self) -> None:
        #: (shape, dtype) -> the pooled copies.
        self.bufs: dict[tuple[Any, Any], list[Any]] = {}
        self.min_bytes = 1 << 16  # smaller arrays are copied afresh
        self.depth = 8  # copies kept per (shape, dtype)
        self.max_keys = 64  # (shape, dtype) pairs kept; beyond, the pool starts over
        self.max_bytes = 1 << 28  # what the pool may keep in all (256 MiB)
        self.nbytes = 0
        self.free = _free_refcount()

    def copy(self, v: Any) -> Any:
        """``v.copy()``, in a recycled buffer when ``v`` is large and one is free."""
        if v.nbytes < self.min_bytes or not self.free or v.dtype.kind not in "biufc":
            return v.copy()
        key = (v.shape, v.dtype)
        bufs = self.bufs.get(key)
        if bufs is None:
            if len(self.bufs) >= self.max_keys:
                self.bufs.clear()
                self.nbytes = 0
            bufs = self.bufs[key] = []
        free = self.free
        for b in bufs:  # (the loop variable holds b: another thread cannot take it too)
            if sys.getrefcount(b) <= free:
                b[...] = v
                return b
        copy = v.copy()
        if len(bufs) < self.depth and self.nbytes + copy.nbytes <= self.max_bytes:
            bufs.append(copy)
            self.nbytes += copy.nbytes
        return copy


POOL = BufferPool()

#: Per thread: a boolean buffer reused by `equal`, so that comparing a large array
#: does not allocate (and fault in) a fresh result array each time.
_SCRATCH = threading.local()
_SCRATCH_MAX = 1 << 22  # elements; larger arrays are compared with a fresh result

#: Arrays up to this many bytes are compared by their bytes first (`equal`).
_BYTES_MAX = 1 << 16


def equal(arr: Any, copy: Any) -> bool:
    """Whether ``arr`` still holds what ``copy`` saved (NaNs equal)."""
    # A small numeric array: equal bytes are equal values (a NaN equals itself here, as
    # with equal_nan), twenty times faster than a NumPy comparison of a few elements.
    # Bytes that differ may still be equal values (0.0 and -0.0, two NaN payloads): the
    # comparisons below decide those.
    if (
        copy.nbytes <= _BYTES_MAX
        and arr.shape == copy.shape
        and arr.dtype == copy.dtype
        and copy.dtype.kind in "biufc"
        and arr.tobytes() == copy.tobytes()
    ):
        return True
    import numpy as np

    # plain equality first: ten times faster than equal_nan=True, which is only
    # needed when the arrays differ somewhere (same answer either way)
    if _plain_equal(np, arr, copy):
        return True
    return bool(np.array_equal(arr, copy, equal_nan=True))


def _plain_equal(np: Any, arr: Any, copy: Any) -> bool:
    n = copy.size
    if arr.shape != copy.shape or copy.dtype.kind not in "biufc" or not 0 < n <= _SCRATCH_MAX:
        return bool(np.array_equal(arr, copy))
    buf = getattr(_SCRATCH, "buf", None)
    if buf is None or buf.size < n:
        buf = _SCRATCH.buf = np.empty(n, dtype=bool)
    out = buf[:n].reshape(copy.shape)
    np.equal(arr, copy, out=out)
    return bool(out.all())


class SharingSnapshots:
    """Context manager: nodes recorded inside reuse the snapshots of ``nodes`` instead of
    copying again.

    For the nodes of a ``create_graph`` gradient, recorded by the same ``grad`` call that
    has just compared ``nodes``' snapshots with their arrays (`check_saved`): an array
    equal to its copy then is unchanged since, so the copy is a snapshot of now.
    """

    __slots__ = ("pairs",)

    def __init__(self, nodes: Sequence[Node]) -> None:
        self.pairs = {id(pair[0]): pair for node in nodes for pair in node.saved}

    def __enter__(self) -> None:
        if self.pairs:
            _VERIFIED.pairs = self.pairs

    def __exit__(self, *exc: object) -> None:
        if self.pairs:
            _VERIFIED.pairs = None


def check_saved(nodes: Sequence[Node]) -> None:
    """Raise `InplaceModifiedError` if an array a node read changed since."""
    seen: set[int] = set()
    for node in nodes:
        for arr, copy in node.saved:
            if id(copy) in seen:  # a snapshot shared by two nodes (`SharingSnapshots`)
                continue
            seen.add(id(copy))
            if not equal(arr, copy):
                msg = message(
                    "an array used by the forward pass was modified in place",
                    expected="watched arrays and constant operands unchanged between "
                    "the forward pass and the gradient",
                    got=f"an in-place change of a {arr.dtype} array of shape {arr.shape}",
                    fix="Use out-of-place updates (w = w - lr * g), or copy the array "
                    "before modifying it, or recompute the forward pass.",
                )
                raise InplaceModifiedError(msg)
