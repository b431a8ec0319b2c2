"""Cut, rebuild, differentiate: how ``grad`` runs on the tape.

1. `analyse` walks back from the outputs (never through ``no_grad_vars``) and
   finds the *live* nodes: those with an input upstream. Everything else a live node
   reads (untracked arrays, tensors that do not depend on an input, cut tensors) is a
   constant.
2. The live nodes become one pure function ``forward(inputs, constants)``. A non-leaf
   input ``h`` is both computed (so gradients flow through it to inputs upstream, as in
   torch) and perturbed by a zero argument whose gradient is the gradient for ``h``.
3. ``run(inputs, constants, seeds)`` takes the VJP of ``forward`` with the engine's own
   autodiff (``jax.vjp`` / autograd's reverse mode, one root per input) and applies the
   torch convention for complex numbers, ``conj(vjp(conj(seed)))``. On jax it is
   ``jax.jit``-compiled and cached by the graph's structure; ``is_grads_batched`` maps
   it over the seeds.
4. With ``create_graph=True`` the gradients are tape tensors whose node is ``run``
   itself, so differentiating them again is the same mechanism, to any order.
5. With ``retain_graph=False`` the live nodes are consumed: they drop their function
   and hold their parents only weakly (values are released), and a later pass that
   needs them raises `GraphFreedError`.
6. Values are deferred (``_lazy``): the pass of step 3 also returns the values of the
   outputs and, before a consumption, of every pending tensor of the graph that is
   still held elsewhere, so that no value is computed twice and none is lost.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
import warnings
import weakref
from collections import OrderedDict, deque
from collections.abc import Callable, Sequence
from types import FrameType
from typing import Any

from .._errors import CompiledStepError, GraphFreedError, message
from ..contract import _carried
from ..contract._carried import FREED_MESSAGE
from . import _lazy
from ._tensor import (
    KEPT_NODES,
    Node,
    Tensor,
    _spec_of,
    _wrap_outputs,
    check_saved,
    emit,
    fresh_token,
    recorded_before_step,
    set_lift_cache_size,
    sharing_snapshots,
)

__all__ = [
    "DEFAULT_CACHE_SIZE",
    "RecompileWarning",
    "analyse",
    "cache_info",
    "grad",
    "leaves_of",
    "set_cache_size",
]


_OUTSIDE = message(
    "a unigrad.jit step consumes a graph recorded outside it",
    expected="retain_graph=True for a pass, inside a compiled step, through tensors the "
    "step closes over (or a step that records its whole graph itself)",
    got="a retain_graph=False pass through nodes recorded before the step: a compiled "
    "step would release them once, while jax traces it, and never again",
    fix="Pass retain_graph=True, or pass the leaves as arguments and compute from them "
    "inside the step.",
)


class _Ref:
    """A consumed node's parent: a weak reference plus where it came from."""

    __slots__ = ("index", "node", "ref")

    def __init__(self, t: Tensor) -> None:
        self.ref = weakref.ref(t)
        self.node = t._node
        self.index = t._index


def _parents(node: Node) -> tuple[Any, ...]:
    if not node.consumed:
        return node.parents
    out: list[Any] = []
    for p in node.parents:
        if isinstance(p, _Ref):
            t = p.ref()
            out.append(p if t is None else t)
        else:
            out.append(None)
    return tuple(out)


def _consume(nodes: Sequence[Node]) -> None:
    kept = KEPT_NODES or ()  # (a WeakSet's truth is its length: one call per pass)
    stamp = 0
    for node in nodes:
        if node.consumed or node in kept:
            continue
        node.parents = tuple([_Ref(p) if isinstance(p, Tensor) else None for p in node.parents])
        node.fn = None
        node.consumed = True
        node.consumed_at = stamp = stamp or _carried.consume_epoch()


def _consumed_at(node: Node) -> int:
    return node.consumed_at


def _carry(a: Analysis, result: Sequence[Any]) -> None:
    """Rule 6: the nodes a create_graph call's results carry, its live nodes and what
    the results of earlier calls among them carry, stamped after the call's own
    consumption (`unigrad.contract._carried`)."""
    carried: dict[Node, None] = dict.fromkeys(a.order)
    for n in a.order:
        if n.carries:
            carried.update(dict.fromkeys(n.carries))
    nodes = tuple(carried)
    since = _carried.now()
    for g in result:
        node = g._node if isinstance(g, Tensor) else None
        if node is not None:
            node.carries = nodes
            node.carried_at = since


class Analysis:
    """The cut subgraph: live nodes in order, where inputs are reached, the leaves.

    The walk also lays out the rebuilt function's steps as it finds each live node (what
    `build` completes): one pass over the graph per ``grad`` call instead of two.
    """

    __slots__ = (
        "base",
        "const_pos",
        "consts",
        "deltas",
        "in_pos",
        "keys",
        "leaves",
        "live",
        "n_slots",
        "order",
        "reached",
        "steps",
    )

    def __init__(self) -> None:
        self.live: dict[Node, bool] = {}
        self.order: list[Node] = []
        self.reached: list[bool] = []
        self.leaves: dict[int, Tensor] = {}
        #: id(input) -> its position.
        self.in_pos: dict[int, int] = {}
        #: Per live node, in order: its first slot, its step, its part of the cache key.
        self.base: dict[Node, int] = {}
        self.steps: list[Step] = []
        self.keys: list[tuple[Any, ...]] = []
        self.n_slots = 0
        #: The constants the steps read (id -> position), and the inputs computed by a
        #: live node (perturbed by their zero argument).
        self.consts: list[Any] = []
        self.const_pos: dict[int, int] = {}
        self.deltas: set[int] = set()


#: One step of a rebuilt function: (fn, sources of its arguments, first slot, outputs,
#: (slot, input) perturbations). A source is (0, input), (1, constant) or (2, slot).
Step = tuple[
    Callable[..., Any],
    tuple[tuple[int, int], ...],
    int,
    int,
    tuple[tuple[int, int], ...],
]


def analyse(
    outputs: Sequence[Any],
    inputs: Sequence[Tensor],
    cut: set[int],
    *,
    collect_leaves: bool = False,
) -> Analysis:
    """Walk back from ``outputs``; raise `GraphFreedError` on a consumed live node.

    Each live node is also laid out as a step of the rebuilt function when the walk
    decides it (post-order: its live parents have their slots by then); see `build`.
    """
    a = Analysis()
    in_pos = a.in_pos
    for k, t in enumerate(inputs):
        in_pos[id(t)] = k
    reached = a.reached = [False] * len(inputs)
    live = a.live
    leaves = a.leaves
    base = a.base
    consts, const_pos = a.consts, a.const_pos
    steps, keys = a.steps, a.keys
    # inputs computed by a node of the graph: (node -> [(output index, input position)])
    delta_at: dict[Node, list[tuple[int, int]]] = {}
    for k, x in enumerate(inputs):
        if x._node is not None and id(x) not in cut:
            delta_at.setdefault(x._node, []).append((x._index, k))
    n_slots = 0
    seen: set[Node] = set()
    stack: list[tuple[Node, bool]] = []
    for y in outputs:
        if isinstance(y, Tensor) and id(y) not in cut:
            i = in_pos.get(id(y))
            if i is not None:
                reached[i] = True
            if y._node is not None:
                stack.append((y._node, False))
            elif collect_leaves:
                leaves[id(y)] = y
    push, pop = stack.append, stack.pop
    while stack:
        node, expanded = pop()
        if expanded:
            if node.consumed:
                _decide_consumed(a, node, cut, collect_leaves)
                continue
            # Whether the node is live, and the sources of its arguments should it be:
            # (2, slot) for a live parent's output, (0, position) for an input, else a
            # constant, numbered below once the node is known to be live.
            is_live = False
            srcs_l: list[Any] = []
            const_at: list[int] | None = None  # where srcs_l holds a constant itself
            for p in node.parents:
                if isinstance(p, Tensor):
                    pid = id(p)
                    if pid not in cut:
                        n = p._node
                        i = in_pos.get(pid)
                        if i is not None:
                            reached[i] = True
                            is_live = True
                            if n is not None and live[n]:
                                srcs_l.append((2, base[n] + p._index))
                            else:
                                srcs_l.append((0, i))
                            continue
                        if n is None:
                            if collect_leaves:
                                leaves[pid] = p
                        elif live[n]:
                            is_live = True
                            srcs_l.append((2, base[n] + p._index))
                            continue
                if const_at is None:
                    const_at = []
                const_at.append(len(srcs_l))
                srcs_l.append(p)  # a constant: (1, its position) below
            live[node] = is_live
            if not is_live:
                continue
            if const_at is not None:
                for k in const_at:
                    c = srcs_l[k]
                    j = const_pos.get(id(c))
                    if j is None:
                        j = const_pos[id(c)] = len(consts)
                        consts.append(c)
                    srcs_l[k] = (1, j)
            srcs = tuple(srcs_l)
            base[node] = n_slots
            dl = delta_at.get(node) if delta_at else None
            ds: tuple[tuple[int, int], ...] = ()
            if dl:
                ds = tuple((n_slots + k, i) for k, i in dl)
                a.deltas.update(i for _, i in dl)
            if node.fn is None:  # (consumed nodes are decided above; a real check)
                raise GraphFreedError(FREED_MESSAGE)
            if node.carries is not None:  # a create_graph result's node (rule 6)
                _carried.check(node.carries, _consumed_at, node.carried_at)
            steps.append((node.fn, srcs, n_slots, node.n_out, ds))
            keys.append((node.key, srcs, ds))
            n_slots += node.n_out
            a.order.append(node)
            continue
        if node in seen:
            continue
        seen.add(node)
        push((node, True))
        for p in node.parents if not node.consumed else _parents(node):
            if isinstance(p, Tensor):
                n = p._node
                if n is None or id(p) in cut:
                    continue
            elif isinstance(p, _Ref):
                n = p.node
                if n is None:
                    continue
            else:
                continue
            if n not in seen:
                push((n, False))
    a.n_slots = n_slots
    return a


def _decide_consumed(a: Analysis, node: Node, cut: set[int], collect_leaves: bool) -> None:
    """`analyse`'s decision for a consumed node: not live, or `GraphFreedError`."""
    live, in_pos, reached = a.live, a.in_pos, a.reached
    is_live = False
    for p in _parents(node):
        if isinstance(p, Tensor):
            pid = id(p)
            if pid in cut:
                continue
            i = in_pos.get(pid)
            if i is not None:
                reached[i] = True
                is_live = True
            elif p._node is None:
                if collect_leaves:
                    a.leaves[pid] = p
            elif live[p._node]:
                is_live = True
        elif isinstance(p, _Ref) and p.node is not None and live[p.node]:
            is_live = True
    live[node] = is_live
    if is_live:
        raise GraphFreedError(FREED_MESSAGE)


def leaves_of(outputs: Sequence[Any]) -> list[Tensor]:
    """Every watched leaf the outputs depend on (for ``backward`` without ``inputs``)."""
    leaves = analyse(outputs, (), set(), collect_leaves=True).leaves.values()
    return [t for t in leaves if t.requires_grad]  # constants get no .grad


# ---- rebuilding ---------------------------------------------------------------
class Plan:
    """A rebuilt pure function and what to call it with."""

    __slots__ = ("consts", "deltas", "keep_srcs", "key", "n_slots", "out_srcs", "steps")

    def __init__(self) -> None:
        self.steps: list[Step] = []
        self.consts: list[Any] = []
        self.out_srcs: tuple[tuple[int, int], ...] = ()
        self.keep_srcs: tuple[tuple[int, int], ...] = ()
        self.deltas: frozenset[int] = frozenset()
        self.n_slots = 0
        self.key: Any = None


def build(
    a: Analysis,
    outputs: Sequence[Any],
    inputs: Sequence[Tensor],
    cut: set[int],
    keep: Sequence[Tensor] = (),
) -> Plan:
    """The live nodes as steps of one function; ``keep``: pending values it also returns.

    `analyse` has laid out the steps; this adds where the outputs and ``keep`` are read
    and the cache key."""
    plan = Plan()
    in_pos = a.in_pos
    live = a.live
    base = a.base
    const_pos = a.const_pos
    consts = plan.consts = a.consts

    def source(p: Any) -> tuple[int, int]:
        if isinstance(p, Tensor):
            pid = id(p)
            if pid not in cut:
                n = p._node
                if n is not None and live.get(n):
                    return (2, base[n] + p._index)
                i = in_pos.get(pid)
                if i is not None:
                    return (0, i)
        j = const_pos.get(id(p))
        if j is None:
            j = const_pos[id(p)] = len(consts)
            consts.append(p)
        return (1, j)

    plan.steps = a.steps
    plan.n_slots = a.n_slots
    plan.out_srcs = tuple(source(y) for y in outputs)
    plan.keep_srcs = tuple(source(t) for t in keep)
    plan.deltas = frozenset(a.deltas)
    plan.key = (
        tuple(a.keys),
        plan.out_srcs,
        plan.keep_srcs,
        len(inputs),
        len(consts),
        plan.deltas,
    )
    return plan


def _forward(plan: Plan) -> Callable[..., tuple[tuple[Any, ...], tuple[Any, ...]]]:
    steps = tuple(plan.steps)
    out_srcs = plan.out_srcs
    keep_srcs = plan.keep_srcs
    n_slots = plan.n_slots

    def forward(
        ins: Sequence[Any], consts: Sequence[Any]
    ) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
        slots: list[Any] = [None] * n_slots
        srcs_of = (ins, consts, slots)
        for fn, srcs, b, n_out, ds in steps:
            outs = fn(*[srcs_of[k][i] for k, i in srcs])
            slots[b : b + n_out] = outs
            for s, i in ds:
                slots[s] = slots[s] + ins[i]
        kept = tuple(srcs_of[k][i] for k, i in keep_srcs)
        return tuple(srcs_of[k][i] for k, i in out_srcs), kept

    return forward


_COMPLEX: dict[Any, bool] = {}


def _is_complex(dtype: Any) -> bool:
    try:
        return _COMPLEX[dtype]
    except (KeyError, TypeError):  # (TypeError: an unhashable dtype, asked each time)
        pass
    import numpy as np

    try:
        answer = bool(np.issubdtype(dtype, np.complexfloating))
    except TypeError:
        answer = False
    with contextlib.suppress(TypeError):
        _COMPLEX[dtype] = answer
    return answer


def make_run(
    engine: Any, plan: Plan, seed_none: tuple[bool, ...], values: bool = False
) -> Callable[..., Any]:
    """``run(ins, consts, seeds) -> one gradient per input``, in the torch convention.

    With ``values``, ``(gradients, outputs, kept)``: the forward's values of the outputs
    and of ``plan.keep_srcs``, computed by the same pass."""
    forward = _forward(plan)
    deltas = plan.deltas
    xnp = engine.np
    dtype_of = engine.dtype_of

    def run(ins: Sequence[Any], consts: Sequence[Any], seeds: Sequence[Any]) -> Any:
        # zeros(shape)/ones(shape) rather than *_like(x): autograd records zeros_like
        # as a function of x, which would make gradients "depend" on what they do not
        primals = tuple(
            xnp.zeros(x.shape, x.dtype) if i in deltas else x for i, x in enumerate(ins)
        )

        def f(*p: Any) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
            return forward(p, consts)

        outs, pull, kept = engine.vjp(f, primals)
        cts = tuple(
            xnp.ones(o.shape, dtype_of(o))
            if none
            else (xnp.conj(s) if _is_complex(dtype_of(s)) else s)
            for o, s, none in zip(outs, seeds, seed_none, strict=True)
        )
        gs = pull(cts)
        result = []
        for x, g in zip(primals, gs, strict=True):
            dt = dtype_of(g)
            if dt is None:  # autograd: a Python scalar for some 0-d gradients
                g = xnp.asarray(g)
                dt = dtype_of(g)
            if _is_complex(dt):
                g = xnp.conj(g)
            x_dt = dtype_of(x)
            if dt != x_dt:
                g = engine.cast(g, x_dt)
            result.append(g)
        if values:
            return tuple(result), outs, kept
        return tuple(result)

    return run


class _Key:
    """A cache key that hashes its long, nested contents once, not at every lookup.

    Raises TypeError when the contents are unhashable (an opaque static argument)."""

    __slots__ = ("hash", "value")

    def __init__(self, value: Any) -> None:
        self.value = value
        self.hash = hash(value)

    def __hash__(self) -> int:
        return self.hash

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Key) and self.hash == other.hash and self.value == other.value


_KEYS: dict[Any, _Key] = {}


def _canonical(value: Any) -> _Key:
    """One `_Key` per structure: a step's key then nests in the next ``grad``'s key (its
    VJP node) as the same object, and equal keys compare by identity, not in depth.

    Looked up by the contents themselves: a repeated structure is hashed and compared
    once, and no `_Key` is made for it. Raises TypeError for unhashable contents."""
    canonical = _KEYS.get(value)
    if canonical is None:
        canonical = _KEYS.setdefault(value, _Key(value))
        if len(_KEYS) > 4 * max(_CACHE_SIZE, 128):  # a bound; forgetting costs a _Key
            _KEYS.clear()
    return canonical


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


#: Compiled gradient functions kept per process. One entry holds an XLA executable
#: (about 2 MB for a small MLP step, measured): a loop uses a handful, so 32 covers it
#: while a loop whose graph changes every step stays under ~64 MB.
DEFAULT_CACHE_SIZE = 32
_CACHE: OrderedDict[Any, Callable[..., Any]] = OrderedDict()
_CACHE_SIZE = _default_cache_size()
_LOCK = threading.Lock()
set_lift_cache_size(_CACHE_SIZE)
_lazy.set_forward_cache_size(_CACHE_SIZE)


def set_cache_size(n: int) -> None:
    """Keep at most ``n`` compiled gradient functions (least recently used go first).

    The jax tape compiles one function per graph structure and reuses it while the
    structure repeats; ``unigrad.lift`` keeps its compiled functions under the same
    bound. ``0`` disables the caches (every call compiles). The default, 32, can also
    be set with the environment variable ``UNIGRAD_TAPE_CACHE_SIZE``.

    Raises:
        ValueError: ``n`` is not a non-negative integer.
    """
    global _CACHE_SIZE
    given: Any = n  # checked at run time: callers are not type-checked
    if isinstance(given, bool) or not isinstance(given, int) or given < 0:
        msg = message(
            "the tape cache size must be a non-negative integer",
            expected="an int >= 0",
            got=repr(n),
            fix="Pass e.g. unigrad.tape.set_cache_size(64); 0 disables the cache.",
        )
        raise ValueError(msg)
    with _LOCK:
        _CACHE_SIZE = n
        while len(_CACHE) > n:
            _CACHE.popitem(last=False)
    set_lift_cache_size(n)
    _lazy.set_forward_cache_size(n)


class _Recompiles:
    """Notices a loop that compiles on every call because one static argument changes.

    Each cache miss is compared with the last few: a miss that differs from one of them
    only in one static argument of one op counts; ``_WARN_AFTER`` such misses in a row
    warn, once per process.
    """

    __slots__ = ("recent", "run", "warned")

    def __init__(self) -> None:
        self.recent: deque[Any] = deque(maxlen=4)
        self.run = 0
        self.warned = False

    def miss(self, key: Any) -> None:
        if self.warned:
            return
        what = None
        for prev in reversed(self.recent):
            what = _changed_static(prev, key)
            if what is not None:
                break
        self.recent.append(key)
        self.run = 0 if what is None else self.run + 1
        if what is not None and self.run >= _WARN_AFTER:
            self.warned = True
            warnings.warn(
                message(
                    "the jax tape compiles a new gradient function on every call",
                    expected="a graph whose static arguments repeat between calls",
                    got=f"{what}, new on each of the last {self.run + 1} compilations",
                    fix="Pass the changing value as an array (jnp.asarray(v)) or as an "
                    "operand of an operator (x * v), which are not compiled in; see "
                    "unigrad.tape.set_cache_size for the cache bound.",
                ),
                RecompileWarning,
                stacklevel=_user_stacklevel(),
            )


_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _user_stacklevel() -> int:
    """The ``stacklevel`` of the first caller outside the unigrad package."""
    frame: FrameType | None = sys._getframe(1)
    level = 1
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE_DIR):
        frame = frame.f_back
        level += 1
    return level


class RecompileWarning(UserWarning):
    """A loop recompiles the jax tape's gradient function on every call."""


RecompileWarning.__module__ = "unigrad.tape"
_WARN_AFTER = 8
_RECOMPILES = _Recompiles()


def _changed_static(old: Any, new: Any) -> str | None:
    """Which static argument of which op differs between two keys of one graph, or None."""
    if isinstance(old, _Key) and isinstance(new, _Key):
        old, new = old.value, new.value
    try:
        (old_nodes, *old_rest), *old_call = old
        (new_nodes, *new_rest), *new_call = new
    except (TypeError, ValueError):
        return None
    if old_call != new_call or old_rest != new_rest or len(old_nodes) != len(new_nodes):
        return None
    found = None
    for (k1, *r1), (k2, *r2) in zip(old_nodes, new_nodes, strict=True):
        if r1 != r2:
            return None
        if k1 == k2:
            continue
        if found is not None or not (isinstance(k1, tuple) and isinstance(k2, tuple)):
            return None
        if len(k1) != len(k2) or k1[0] != k2[0]:
            return None
        # a create_graph gradient's node: the difference is inside the graph it replays
        found = _changed_static(k1[1], k2[1]) if k1[0] == "vjp" else _describe(k1, k2)
        if found is None:
            return None
    return found


def _describe(k1: tuple[Any, ...], k2: tuple[Any, ...]) -> str:
    """``argument 1 of clip (0.1, then 0.2)`` from two node keys (op, ..., statics, ...)."""
    op = getattr(k1[0], "__name__", None) or repr(k1[0])
    for part1, part2 in zip(k1[1:], k2[1:], strict=True):
        if part1 == part2 or not isinstance(part1, tuple) or len(part1) != len(part2):
            continue
        for s1, s2 in zip(part1, part2, strict=True):
            if s1 != s2 and isinstance(s1, tuple) and len(s1) == 2 and isinstance(s1[0], int):
                v1, v2 = _static_value(s1[1]), _static_value(s2[1])
                return f"argument {s1[0]} of {op} ({v1!r}, then {v2!r})"
    return f"a static argument of {op}"


def _static_value(skey: Any) -> Any:
    """The value in a static key ``(type, value)``; the key itself otherwise."""
    if isinstance(skey, tuple) and len(skey) == 2 and isinstance(skey[0], type):
        return skey[1]
    return skey


def compiled_run(
    engine: Any, plan: Plan, seed_none: tuple[bool, ...], batched: bool, values: bool = False
) -> tuple[Callable[..., Any], Any]:
    """The (cached, on jax compiled) run function for this plan, and its cache key."""
    key: Any
    try:
        key = _canonical((plan.key, seed_none, batched, values))
    except TypeError:  # an unhashable static argument: no cache
        key = None
    if engine.compiles and key is not None:
        fn = _CACHE.get(key)
        if fn is not None:
            with _LOCK, contextlib.suppress(KeyError):  # (another thread evicted it)
                _CACHE.move_to_end(key)
            return fn, key
    run = make_run(engine, plan, seed_none, values)
    if batched:
        run = engine.batched(run)
    if engine.compiles:
        run = engine.jit(run)
        if key is not None:
            _RECOMPILES.miss(key)
            with _LOCK:
                if _CACHE_SIZE:
                    _CACHE[key] = run
                    while len(_CACHE) > _CACHE_SIZE:
                        _CACHE.popitem(last=False)
    return run, key


def cache_info() -> dict[str, int]:
    """Size and bound of the compiled-function cache (for tests and benchmarks)."""
    return {"size": len(_CACHE), "max": _CACHE_SIZE}


def grad(
    cls: type[Tensor],
    outputs: Sequence[Any],
    inputs: Sequence[Tensor],
    seeds: Sequence[Any],
    *,
    retain_graph: bool,
    create_graph: bool,
    batched: bool,
    no_grad_vars: Sequence[Any] = (),
) -> list[Any | None]:
    """One gradient per input (None where unreachable); see the module docstring."""
    engine = cls._engine
    cut = {id(v) for v in no_grad_vars if isinstance(v, Tensor)}
    if cut:
        # no_grad_vars never excuse a consumed graph (rule 15): the uncut pass's walk
        # toward the inputs that are not themselves cut raises where it would
        analyse(outputs, [x for x in inputs if id(x) not in cut], set())
    a = analyse(outputs, inputs, cut)
    if not retain_graph and recorded_before_step(a.order):
        raise CompiledStepError(_OUTSIDE)
    result: list[Any | None] = [None] * len(inputs)
    if not any(a.reached):
        if not retain_graph:
            _consume_keeping_values(cls, a, outputs)
        return result
    check_saved(a.order)
    # The pass that computes the gradients also computes the values still wanted: the
    # outputs', and, when the graph is consumed, those of pending tensors held elsewhere.
    values = not create_graph and not batched
    keep = _held(a, outputs) if values and not retain_graph else []
    plan = build(a, outputs, inputs, cut, keep)
    seed_none = tuple(s is None for s in seeds)
    run, key = compiled_run(engine, plan, seed_none, batched, values)
    consts = plan.consts
    _lazy.materialize(cls, _pending_arguments(plan, inputs, seeds))
    if not create_graph:
        args = (
            tuple(_primal(engine, x) for x in inputs),
            tuple(c._v if isinstance(c, Tensor) else c for c in consts),
            tuple(s._v if isinstance(s, Tensor) else s for s in seeds),
        )
        # (inside a trace, a graph recorded outside it stays concrete: see `evaluating`)
        with engine.evaluating(*args):
            gs = run(*args)
        if values:
            gs, outs, kept = gs
            for y, v in zip(outputs, outs, strict=True):
                if isinstance(y, Tensor) and y._v is None:
                    y._store(v)
            for t, v in zip(keep, kept, strict=True):
                t._store(v)
        for i, g in enumerate(gs):
            if a.reached[i]:
                result[i] = engine.canon(g)
        if values and not retain_graph:
            _consume(a.order)  # the pass above returned every value still held
        elif not retain_graph:
            _consume_keeping_values(cls, a, outputs)
    else:
        with sharing_snapshots(a.order):  # checked above: no array copied twice
            result = _differentiable(cls, run, key, inputs, consts, seeds, a.reached)
        if not retain_graph:
            _consume_keeping_values(cls, a, outputs)
        _carry(a, result)
    return result


def _pending_arguments(plan: Plan, inputs: Sequence[Tensor], seeds: Sequence[Any]) -> list[Any]:
    """The pending values the rebuilt function takes as arguments: constants, seeds, and
    inputs that it does not compute itself."""
    pending = [c for c in plan.consts if isinstance(c, Tensor) and c._v is None]
    for s in seeds:
        if isinstance(s, Tensor) and s._v is None:
            pending.append(s)
    deltas = plan.deltas
    for i, x in enumerate(inputs):
        if x._v is None and i not in deltas:
            pending.append(x)
    return pending


def _primal(engine: Any, x: Tensor) -> Any:
    """An input's value; zeros for a pending non-leaf input (it only gives the shape:
    the rebuilt function computes the input itself and adds this as a perturbation)."""
    if x._v is not None:
        return x._v
    shape, dtype, _ = x._aval
    return engine.zeros(shape, dtype)


def _held(a: Analysis, outputs: Sequence[Any]) -> list[Tensor]:
    """Pending outputs of the live nodes that something outside the graph still holds:
    they need their values before ``_consume`` drops the recipes."""
    candidates, occurrences = _candidates(a, {id(y) for y in outputs})
    return _lazy.held_elsewhere(candidates, occurrences)


def _candidates(a: Analysis, out_ids: set[int]) -> tuple[dict[int, Tensor], dict[int, int]]:
    # A function of its own: its loop variables must not hold a candidate when the
    # references are counted.
    live = a.live
    candidates: dict[int, Tensor] = {}
    occurrences: dict[int, int] = {}
    for node in a.order:
        for p in node.parents:
            if (
                isinstance(p, Tensor)
                and p._v is None
                and p._node is not None
                and live.get(p._node)
                and id(p) not in out_ids
            ):
                candidates[id(p)] = p
                occurrences[id(p)] = occurrences.get(id(p), 0) + 1
        for ref in node.outs:
            t = ref()
            if t is not None and t._v is None and id(t) not in out_ids:
                candidates[id(t)] = t
                occurrences.setdefault(id(t), 0)
    return candidates, occurrences


def _consume_keeping_values(cls: type[Tensor], a: Analysis, outputs: Sequence[Any]) -> None:
    """Consume the live nodes, after computing the pending values that are held
    elsewhere (the path of passes that did not return them: create_graph, batched)."""
    rest = _held(a, ())
    rest += [y for y in outputs if isinstance(y, Tensor) and y._v is None and _live(a, y)]
    _lazy.materialize(cls, rest)
    _consume(a.order)


def _live(a: Analysis, t: Tensor) -> bool:
    return t._node is not None and bool(a.live.get(t._node))


_DEPS: OrderedDict[Any, list[frozenset[int]]] = OrderedDict()


def _dependencies(
    engine: Any, key: Any, fn: Callable[..., Any], vals: Sequence[Any]
) -> tuple[tuple[Any, ...], list[frozenset[int]]]:
    """``fn(*vals)`` and, per output, the argument positions it depends on (cached by
    the graph's structure: the dependence does not depend on the values)."""
    from . import _deps

    deps = None
    if key is not None:
        try:
            deps = _DEPS.get(key)
        except TypeError:
            key = None
    if engine.name == "numpy" and deps is None:
        values, deps = _deps.numpy_trace(fn, vals)
    else:
        values = tuple(fn(*vals))
        if deps is None:
            deps = _deps.jax_dependencies(fn, vals)
    if key is not None:
        _DEPS[key] = deps
        if len(_DEPS) > _CACHE_SIZE:
            _DEPS.popitem(last=False)
    return values, deps


def _cached_dependencies(key: Any) -> list[frozenset[int]] | None:
    if key is None:
        return None
    try:
        return _DEPS.get(key)
    except TypeError:
        return None


def _dtype_of(p: Any) -> Any:
    return p._aval[1] if isinstance(p, Tensor) else getattr(p, "dtype", type(p))


def _output(fn: Callable[..., Any], i: int) -> Callable[..., Any]:
    def one(*vals: Any) -> Any:
        return fn(*vals)[i]

    return one


def _differentiable(
    cls: type[Tensor],
    run: Callable[..., Any],
    key: Any,
    inputs: Sequence[Tensor],
    consts: Sequence[Any],
    seeds: Sequence[Any],
    reached: Sequence[bool],
) -> list[Any | None]:
    """Gradients as tape tensors whose node is ``run``: differentiable to any order.

    Each gradient's node holds, as tape parents, only the tensors it really depends on
    (the others enter as constants): a gradient that depends on nothing that requires
    grad is a plain array, and a later ``grad`` finds an input it does not depend on
    unused, as torch does (``docs/semantics.md``, structure follows torch).

    The first pass of a graph structure computes the gradients now (the dependence
    analysis runs on values: autograd's trace on numpy); once the dependence is cached,
    the gradients are pending (``_lazy``) like any other recorded op.
    """
    n_in, n_c = len(inputs), len(consts)
    seed_idx = tuple(i for i, s in enumerate(seeds) if s is not None)
    n_s = len(seeds)

    def fn(*vals: Any) -> tuple[Any, ...]:
        full: list[Any] = [None] * n_s
        for j, i in enumerate(seed_idx):
            full[i] = vals[n_in + n_c + j]
        return tuple(run(vals[:n_in], vals[n_in : n_in + n_c], tuple(full)))

    parents = (*inputs, *consts, *(seeds[i] for i in seed_idx))
    node_key = ("vjp", key) if key is not None else ("vjp-uncached", fresh_token())
    engine = cls._engine
    # the dependence follows the dtypes too (real abs's gradient is a constant, complex
    # abs's is z/|z|): the cache key holds them besides the graph's structure
    deps_key = None if key is None else (node_key, tuple(_dtype_of(p) for p in parents))
    deps = _cached_dependencies(deps_key)
    plain: list[Any] | None = None
    values: tuple[Any, ...] | None = None
    if deps is None:  # first time: compute now, and learn the dependence
        plain = [p._value if isinstance(p, Tensor) else p for p in parents]
        values, deps = _dependencies(engine, deps_key, fn, plain)
    out: list[Any | None] = []
    for i, r in enumerate(reached):
        if not r:
            out.append(None)
            continue
        tracked = frozenset(j for j in deps[i] if isinstance(parents[j], Tensor))
        if not tracked:  # a constant: it requires no grad (torch's answer)
            if values is None:
                plain = [p._value if isinstance(p, Tensor) else p for p in parents]
                values = tuple(fn(*plain))
            out.append(engine.canon(values[i]))
            continue
        own = tuple(
            p if j in tracked else (p._value if isinstance(p, Tensor) else p)
            for j, p in enumerate(parents)
        )
        node_fn = _output(fn, i)
        sub_key = (node_key, i, tracked)
        if values is None:  # deferred once the call's spec is known
            out.append(emit(cls, node_fn, sub_key, own))
            continue
        sig = _lazy.signature(engine, sub_key, own, cls)
        if sig is not None:
            _lazy.remember(sig, _spec_of(engine, values[i]))
        out.append(_wrap_outputs(cls, node_fn, sub_key, own, values[i]))
    return out


def backward(
    cls: type[Tensor],
    outputs: Sequence[Any],
    seeds: Sequence[Any],
    *,
    retain_graph: bool,
    create_graph: bool,
    inputs: Sequence[Tensor] | None,
) -> None:
    """Accumulate into ``.grad`` of the given tensors, or of every leaf."""
    targets = leaves_of(outputs) if inputs is None else list(inputs)
    if not targets:
        # nothing to accumulate into; still consume the graph as torch would
        if not retain_graph:
            _consume(analyse(outputs, (), set()).order)
        return
    grads = grad(
        cls,
        outputs,
        targets,
        seeds,
        retain_graph=retain_graph,
        create_graph=create_graph,
        batched=False,
    )
    for t, g in zip(targets, grads, strict=True):
        if g is None:
            continue
        t.grad = g if t.grad is None else t.grad + g
