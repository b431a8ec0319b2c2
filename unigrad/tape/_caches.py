"""The tape's caches: one object, one eviction policy (least recently used), one lock, one
size setting.

What is cached, all of it keyed by structure (never by values), so that a training loop
whose graph repeats reuses what its first step built:

* ``gradients``: the rebuilt gradient functions (`unigrad.tape._plan.compiled_run`), on
  jax each one ``jax.jit``-compiled;
* ``lifted``: the compiled functions of ``unigrad.lift`` (`unigrad.tape._record`);
* ``forwards``: the compiled functions that compute pending values when they are read
  (`unigrad.tape._lazy.materialize`);
* ``dependences``: which arguments each output of a ``create_graph`` gradient depends on
  (`unigrad.tape._replay`);
* ``specs``: the output shapes and dtypes of an op applied to given parent shapes and
  dtypes (`unigrad.tape._lazy`);
* ``keys``: one canonical, pre-hashed object per graph structure (`unigrad.tape._plan`);
* ``snapshots``: the latest copy of each NumPy array a node read, which the next node
  reading an equal array shares (`unigrad.tape._snapshots`);
* and each `unigrad.jit` step's compiled functions (`unigrad.tape._step`), one `LRU` per
  step made by `TapeCaches.new`.

Reads count as uses (`LRU.get`), except in ``specs`` and ``keys``, which are read on
every op or every ``grad`` call under large tuple keys (`LRU.peek`: refreshing would hash
the key a second time); those evict the entries made longest ago.

Each cache's bound follows the one setting, ``size`` (`set_cache_size`, or the
environment variable ``UNIGRAD_TAPE_CACHE_SIZE``, default 32): ``max(floor, scale *
size)``. The compiled functions take ``size`` itself (scale 1, floor 0: ``0`` disables
them); the small per-op entries (specs, keys) take a multiple of it with a floor, so that
they stay useful when compiling is off. (The snapshot buffer pool,
`unigrad.tape._snapshots.POOL`, is not a cache: it recycles memory and is bounded in
bytes.)

Lifetime: `CACHES` is made when ``unigrad.tape`` is imported and lives as long as the
process; an entry lives until it is the least recently used one of a full cache, until
`set_cache_size` shrinks its cache, or until `TapeCaches.clear`. A `unigrad.jit` step's
own cache dies with the step.

A read and its move to the most recently used end take no lock (each is one call into
``OrderedDict``, atomic under the GIL; a key evicted in between is simply not moved);
an insertion with the evictions it causes, a resize and a clear hold `TapeCaches.lock`.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from .._errors import message

__all__ = [
    "CACHES",
    "DEFAULT_CACHE_SIZE",
    "LRU",
    "Key",
    "TapeCaches",
    "cache_info",
    "canonical",
    "set_cache_size",
]

#: Compiled gradient functions kept per process. One entry holds an XLA executable
#: (about 2 MB for a small MLP step): a loop uses a handful, so 32 covers it while a loop
#: whose graph changes every step stays under ~64 MB.
DEFAULT_CACHE_SIZE = 32


class LRU:
    """One bounded cache of a `TapeCaches`: the least recently used entry goes first."""

    __slots__ = ("_data", "_floor", "_owner", "_scale", "peek")

    def __init__(self, owner: TapeCaches, scale: int, floor: int) -> None:
        self._data: OrderedDict[Any, Any] = OrderedDict()
        self._owner = owner
        self._scale = scale
        self._floor = floor
        #: ``peek(key)``: the entry for ``key``, or None, without counting the read as a
        #: use (raises TypeError for an unhashable key). For the caches read on every op
        #: or every ``grad`` call with large tuple keys (``specs``, ``keys``): refreshing
        #: would hash the key a second time, which costs more than the entry is worth;
        #: they evict the entries made longest ago. (The mapping's own ``get``: no Python
        #: frame per read.)
        self.peek: Callable[[Any], Any] = self._data.get

    def bound(self) -> int:
        """How many entries this cache keeps at the owner's current size."""
        return max(self._floor, self._scale * self._owner.size)

    def get(self, key: Any) -> Any:
        """The entry for ``key`` (now the most recently used), or None.

        Raises:
            TypeError: ``key`` is not hashable.
        """
        data = self._data
        hit = data.get(key)
        if hit is not None:
            try:  # noqa: SIM105 (contextlib.suppress would cost a context manager per read)
                data.move_to_end(key)
            except KeyError:  # another thread evicted it meanwhile
                pass
        return hit

    def put(self, key: Any, value: Any) -> None:
        """Keep ``value`` under ``key`` (the most recently used) unless the bound is 0,
        evicting the least recently used entries beyond the bound.

        Raises:
            TypeError: ``key`` is not hashable.
        """
        bound = max(self._floor, self._scale * self._owner.size)
        if not bound:
            return
        data = self._data
        with self._owner.lock:
            data[key] = value
            data.move_to_end(key)
            while len(data) > bound:
                data.popitem(last=False)

    def trim(self) -> None:
        """Evict the least recently used entries beyond the bound."""
        data, bound = self._data, self.bound()
        with self._owner.lock:
            while len(data) > bound:
                data.popitem(last=False)

    def discard(self, key: Any) -> None:
        """Forget ``key``'s entry, if any."""
        with self._owner.lock:
            self._data.pop(key, None)

    def clear(self) -> None:
        with self._owner.lock:
            self._data.clear()

    def __len__(self) -> int:
        return len(self._data)


class TapeCaches:
    """Every cache of the tape, under one size setting and one lock (module docstring)."""

    __slots__ = (
        "_all",
        "dependences",
        "forwards",
        "gradients",
        "keys",
        "lifted",
        "lock",
        "size",
        "snapshots",
        "specs",
    )

    def __init__(self, size: int) -> None:
        self.lock = threading.Lock()
        self.size = size
        self._all: list[LRU] = []
        self.gradients = self._shared(1, 0)
        self.lifted = self._shared(1, 0)
        self.forwards = self._shared(1, 0)
        self.dependences = self._shared(1, 0)
        self.specs = self._shared(128, 4096)
        self.keys = self._shared(4, 512)
        self.snapshots = self._shared(8, 256)

    def _shared(self, scale: int, floor: int) -> LRU:
        cache = LRU(self, scale, floor)
        self._all.append(cache)
        return cache

    def new(self, scale: int = 1, floor: int = 1) -> LRU:
        """A cache of its own (a `unigrad.jit` step's) under the same size and lock."""
        return LRU(self, scale, floor)

    def resize(self, size: int) -> None:
        """Set the one size setting and shrink every shared cache to its new bound."""
        with self.lock:
            self.size = size
        for cache in self._all:
            cache.trim()

    def clear(self) -> None:
        """Empty every shared cache (the size setting stays)."""
        for cache in self._all:
            cache.clear()


def _default_cache_size() -> int:
    raw = os.environ.get("UNIGRAD_TAPE_CACHE_SIZE", "")
    try:
        return max(0, int(raw)) if raw else DEFAULT_CACHE_SIZE
    except ValueError:
        msg = message(
            "UNIGRAD_TAPE_CACHE_SIZE is not a number",
            expected="a non-negative integer (compiled functions kept)",
            got=repr(raw),
            fix=f"Set it to e.g. {DEFAULT_CACHE_SIZE}, or unset it.",
        )
        raise ValueError(msg) from None


CACHES = TapeCaches(_default_cache_size())


def set_cache_size(n: int) -> None:
    """Keep at most ``n`` compiled gradient functions (least recently used go first).

    The jax tape compiles one function per graph structure and reuses it while the
    structure repeats; ``unigrad.lift`` keeps its compiled functions under the same
    bound. ``0`` disables the caches (every call compiles). The default, 32, can also
    be set with the environment variable ``UNIGRAD_TAPE_CACHE_SIZE``.

    Raises:
        ValueError: ``n`` is not a non-negative integer.
    """
    given: Any = n  # checked at run time: callers are not type-checked
    if isinstance(given, bool) or not isinstance(given, int) or given < 0:
        msg = message(
            "the tape cache size must be a non-negative integer",
            expected="an int >= 0",
            got=repr(n),
            fix="Pass e.g. unigrad.tape.set_cache_size(64); 0 disables the cache.",
        )
        raise ValueError(msg)
    CACHES.resize(n)


def cache_info() -> dict[str, int]:
    """Size and bound of the compiled-function cache (for tests and benchmarks)."""
    return {"size": len(CACHES.gradients), "max": CACHES.size}


class Key:
    """A cache key that hashes its long, nested contents once, not at every lookup.

    Raises TypeError when the contents are unhashable (an opaque static argument)."""

    __slots__ = ("hash", "value")

    def __init__(self, value: Any) -> None:
        self.value = value
        self.hash = hash(value)

    def __hash__(self) -> int:
        return self.hash

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Key) and self.hash == other.hash and self.value == other.value


def canonical(value: Any) -> Key:
    """One `Key` per structure: a step's key then nests in the next ``grad``'s key (its
    VJP node) as the same object, and equal keys compare by identity, not in depth.

    Looked up by the contents themselves (the ``keys`` cache): a repeated structure is
    hashed and compared once, and no `Key` is made for it. Raises TypeError for
    unhashable contents."""
    keys = CACHES.keys
    found = keys.peek(value)
    if found is None:
        found = Key(value)
        keys.put(value, found)
    return found  # type: ignore[no-any-return]
