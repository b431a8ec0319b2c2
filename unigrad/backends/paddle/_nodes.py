"""paddle's grad nodes, each read once while its graph is in use (a memo).

paddle's node API is slow from Python: ``next_functions`` builds a fresh list of
wrappers (0.5 to 1 us), ``node_ptr()`` and ``name()`` cross into C++ (~0.4 us each),
and the adapter walks the same nodes several times: a PINN step makes three
``create_graph`` calls over one forward graph, each walked for its structure
(`unigrad.backends.paddle._structure`), then its consuming call walks all of it again to
mark the nodes it ran. `kids` and `name` read a node's edges and name once, and keep
them in one memo (`_Memo`).

The memo is keyed by the node's wrapper, by identity: paddle's wrappers are pybind11
objects, and pybind11 gives back the live wrapper of a C++ object rather than a new
one, so while the memo holds a node's wrapper every route to that node (a tensor's
``grad_fn``, another node's ``next_functions``) returns that same object, and no
``node_ptr()`` is needed. An entry cannot go stale: its wrapper holds the C++ node,
and paddle never changes a node's edges once the node is built (an in-place op makes
a new node). What the memo must not do is keep a graph alive after the user let it
go: every walk first holds (`hold`) the tensors it starts from (weak references), and the
whole memo is emptied as soon as one of them is freed, and whenever it reaches
`_LIMIT` nodes. A node a walk reads is reachable from the tensors it holds, so while
they all live the memo keeps nothing that is not alive anyway (but a graph a held
tensor drops in place, ``detach_()``, until the memo is emptied).
"""

from __future__ import annotations

import functools
import sys
import weakref
from collections.abc import Callable, Iterable, Iterator
from typing import Any

__all__ = [
    "PinnedHooks",
    "cast_walked",
    "clean",
    "forgetter",
    "hold",
    "kids",
    "mark_cast_walked",
    "mark_clean",
    "memo",
    "name",
    "next_functions",
    "node_ptr",
    "peek",
    "peek_name",
    "reach",
    "remember",
]


class _Memo:
    """The memo's tables, which live and die together: each is emptied when a tensor the
    memo holds is freed (`empty`), and each starts afresh on its own at `_LIMIT` entries.

    Attributes:
        kids: ``node -> its children in edge order`` (None for an edge to nothing).
        names: ``node -> its name``, read when first asked for (most walks need none).
        derived: ``node -> what a walk derived from the node alone`` (`remember`).
        clean: nodes whose whole graph a walk found free of rule 14's cut nodes
            (`clean`, `_cuts._cuts_dependence`).
        casts: nodes whose whole graph a walk gave its cast nodes' hooks
            (`cast_walked`, `_quirks.watch_complex_casts`).
        held: ``id(tensor) -> a weak reference to it``, for each tensor whose graph the
            memo may hold; the first one freed empties the memo.
    """

    __slots__ = ("casts", "clean", "derived", "held", "kids", "names")

    def __init__(self) -> None:
        self.kids: dict[Any, list[Any]] = {}
        self.names: dict[Any, str] = {}
        self.derived: dict[Any, Any] = {}
        self.clean: set[Any] = set()
        self.casts: set[Any] = set()
        self.held: dict[int, weakref.ref[Any]] = {}

    def empty(self, _: weakref.ref[Any] | None = None) -> None:
        """Forget everything (a held tensor's weak-reference callback). What this frees, it
        frees with the GIL held: the hooks paddle's nodes hold are never freed where
        paddle's engine has released it."""
        self.held.clear()
        self.kids.clear()
        self.names.clear()
        self.derived.clear()
        self.clean.clear()
        self.casts.clear()


#: The one memo, for the life of the process (see the module docstring).
_MEMO = _Memo()

#: The most nodes each table holds (more, and it starts afresh).
_LIMIT = 20_000


def hold(tensors: Iterable[Any]) -> None:
    """Let the memo read the graphs of ``tensors``: it is emptied when one is freed."""
    held, empty = _MEMO.held, _MEMO.empty
    for t in tensors:
        if t is not None and id(t) not in held:
            # an id in ``held`` is a live tensor's: a freed one has emptied it
            held[id(t)] = weakref.ref(t, empty)


def kids(node: Any) -> list[Any]:
    """``node``'s children in edge order (None for an edge to nothing); not to be
    changed."""
    table = _MEMO.kids
    found = table.get(node)
    if found is None:
        if len(table) >= _LIMIT:  # (the held tensors stay held: this walk's are)
            table.clear()
        found = table[node] = node.next_functions  # (a fresh list: no one else has it)
    return found


def peek(node: Any) -> list[Any]:
    """``node``'s children, from the memo or read now without keeping them: for a walk
    that holds no tensor (a consuming call's, usually the last walk of its graphs)."""
    found = _MEMO.kids.get(node)
    return node.next_functions if found is None else found


def name(node: Any) -> str:
    """``node``'s name (``MultiplyGradNode``)."""
    table = _MEMO.names
    found = table.get(node)
    if found is None:
        if len(table) >= _LIMIT:
            table.clear()
        found = table[node] = str(node.name())
    return found


def peek_name(node: Any) -> str:
    """``node``'s name, from the memo or read now without keeping it (see `peek`)."""
    found = _MEMO.names.get(node)
    return str(node.name()) if found is None else found


def memo(node: Any) -> Any:
    """What `remember` kept for ``node``, or None."""
    return _MEMO.derived.get(node)


def remember(node: Any, value: Any) -> None:
    """Keep ``value``, derived from ``node`` (and nodes it leads to) alone, for as long as
    the memo holds ``node``'s graph."""
    table = _MEMO.derived
    if len(table) >= _LIMIT:
        table.clear()
    table[node] = value


def clean() -> set[Any]:
    """The nodes whose whole graph a walk found free of rule 14's cut nodes (read only;
    `mark_clean` adds to it)."""
    return _MEMO.clean


def mark_clean(nodes: Iterable[Any]) -> None:
    """Note that the whole graph of each of ``nodes`` is free of rule 14's cut nodes,
    for as long as the memo holds their graphs (a walk that holds its tensors)."""
    table = _MEMO.clean
    if len(table) >= _LIMIT:
        table.clear()
    table.update(nodes)


def cast_walked() -> set[Any]:
    """The nodes whose whole graph a walk gave its cast nodes' hooks (read only;
    `mark_cast_walked` adds to it)."""
    return _MEMO.casts


def mark_cast_walked(nodes: Iterable[Any]) -> None:
    """Note that every cast node in the graph of each of ``nodes`` has its hook, for as
    long as the memo holds their graphs."""
    table = _MEMO.casts
    if len(table) >= _LIMIT:
        table.clear()
    table.update(nodes)


def forgetter(table: dict[Any, Any], key: Any) -> Callable[[Any], None]:
    """A weak reference's callback that deletes ``table[key]`` while the entry (a tuple
    whose first item is the reference) is still that reference's (a later entry at the
    same key stays)."""

    def forget(ref: Any) -> None:
        entry = table.get(key)
        if entry is not None and entry[0] is ref:
            del table[key]

    return forget


class PinnedHooks:
    """One post-hook per node pointer, held by the table so that no node is ever the
    last owner of its hook.

    paddle's nodes hold their post-hooks, and so do the copies paddle's engine makes of
    a node for a pass (its ``GeneralGrad`` keeps them until the next pass) and destroys
    with the GIL released: a hook freed there aborts the process ("PyThreadState_Get:
    the function must be called with the GIL held"). A hook is ``hook(ptr, *args)``
    bound to its node's pointer and says nothing more, so a node that takes an address
    again takes the hook already there. `sweep` frees, with the GIL held, the hooks no
    node holds any more.

    Attributes:
        hooks: ``node_ptr -> the hook bound to it``.
        swept: the size of ``hooks`` after the last sweep. Entries are only added by
            `register` and only removed by `sweep`: while the table has not grown
            since, every registration reused a hook already there, and the sweep (which
            reads every hook's reference count) is skipped; a dead hook stays a while
            longer, harmless, and live objects do not grow.
    """

    __slots__ = ("_hook", "hooks", "swept")

    def __init__(self, hook: Callable[..., Any]) -> None:
        self._hook = hook
        self.hooks: dict[int, Callable[..., Any]] = {}
        self.swept = 0

    def __bool__(self) -> bool:
        return bool(self.hooks)

    def __contains__(self, ptr: int) -> bool:
        return ptr in self.hooks

    def register(self, node: Any) -> int:
        """Give ``node`` its pointer's hook as a post-hook; the pointer. (The
        remove-helper paddle returns is dropped: the hook lives as long as the node.)"""
        ptr = int(node.node_ptr())
        hook = self.hooks.get(ptr)
        if hook is None:
            hook = self.hooks[ptr] = functools.partial(self._hook, ptr)
        node._register_post_hook(hook)
        return ptr

    def held(self, ptr: int) -> bool:
        """Whether a node (or an engine's copy of one) holds the hook of ``ptr``."""
        hook = self.hooks.get(ptr)
        # 3: the table's reference, this name's and getrefcount's argument
        return hook is not None and sys.getrefcount(hook) > 3

    def sweep(self) -> list[int]:
        """Free the hooks no node holds (see ``swept``); their pointers."""
        hooks = self.hooks
        if not hooks or len(hooks) <= self.swept:
            return []
        getrefcount = sys.getrefcount
        # 2: the table's reference and getrefcount's argument
        freed = [p for p in hooks if getrefcount(hooks[p]) <= 2]
        for p in freed:
            del hooks[p]
        self.swept = len(hooks)
        return freed


def next_functions(node: Any) -> list[Any]:
    """``node``'s children read from paddle, not the memo (None for an edge to nothing)."""
    return node.next_functions  # type: ignore[no-any-return]


def node_ptr(node: Any) -> int:
    """``node``'s address: its identity where the walk holds no wrapper."""
    return int(node.node_ptr())


def reach(
    roots: Iterable[Any],
    children: Callable[[Any], Iterable[Any]],
    *,
    through: Callable[[Any], bool] | None = None,
    key: Callable[[Any], Any] | None = None,
    exclude: Iterable[Any] = (),
) -> Iterator[Any]:
    """Each node reachable from ``roots``, once, depth first: the walk every
    reachability question about paddle's graph asks (which nodes a pass reaches, whether
    a leaf or a cut is among them, which create_graph results it crosses).

    Args:
        roots: where the walk starts; None entries are skipped, as are children that
            are None (an edge to nothing).
        children: what a node leads to: `kids` (the memo), `peek`, `next_functions`
            (paddle's own edges), `edges` (a recorded result's roots), or a function
            of a path state (a tuple of a node and what the path crossed).
        through: whether to go on past a yielded node (its children are read only
            then, after the caller has seen it, so a caller that stops at a node reads
            nothing below it); None: always.
        key: a node's identity in the walk; None: the object itself (a wrapper the memo
            holds is the node's one wrapper), `node_ptr` where the walk holds none.
        exclude: keys of nodes the walk neither yields nor goes past (a pass's cuts).

    Yields:
        Each node (or path state) once, in depth-first order.
    """
    seen: set[Any] = set(exclude)
    stack = list(roots)
    pop, push = stack.pop, stack.extend
    while stack:
        node = pop()
        if node is None:
            continue
        k = node if key is None else key(node)
        if k in seen:
            continue
        seen.add(k)
        yield node
        if through is None or through(node):
            push(children(node))
