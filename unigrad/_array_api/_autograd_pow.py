"""The numpy tape's ``pow``: an autograd primitive for two float arrays (see
`pow_primitive`), ``numpy.power`` otherwise."""

from __future__ import annotations

import functools
from typing import Any

__all__ = ["pow_", "pow_primitive"]


@functools.cache
def pow_primitive() -> Any:
    """``numpy.power`` of two arrays as an autograd primitive whose derivative in the base
    is ``y x**(y - 1)``, 0 where ``x = 0`` and ``y = 0``, taken with a safe exponent
    there, through this same primitive. autograd 1.9.1's rule ``y * x ** where(y, y - 1,
    1)`` changes the exponent wherever ``y = 0``, so its own derivative in ``y`` there is
    ``x`` instead of ``1 / x`` (2 instead of 0.5 at ``x = 2``); torch and paddle give
    ``1 / x``. The exponent's derivative is autograd's, ``x**y log(x)`` with ``log(1)``
    where ``x = 0``."""
    import autograd.numpy as anp
    import numpy as np
    from autograd.extend import defvjp, primitive
    from autograd.numpy.numpy_vjps import unbroadcast_f
    from autograd.tracer import getval

    @primitive  # type: ignore[untyped-decorator]
    def power(x: Any, y: Any) -> Any:
        return np.power(x, y)

    def vjp_base(ans: Any, x: Any, y: Any) -> Any:
        both = (np.asarray(getval(y)) == 0) & (np.asarray(getval(x)) == 0)
        # autograd 1.9.1's ``where`` hands its operands the gradient at the broadcast
        # shape, unreduced: ``y`` goes in broadcast to ``both``'s shape by an ``add``,
        # whose rule sums the gradient back (a (2,) exponent beside a (2, 1) base got a
        # (2, 2) gradient through a create_graph result; ``broadcast_to``'s rule refuses
        # new leading axes)
        yv = getval(y)
        yb = y if np.shape(yv) == both.shape else y + np.zeros(both.shape, np.result_type(yv))
        d = anp.where(both, 0.0, y * power(x, anp.where(both, 1.0, yb) - 1))
        return unbroadcast_f(x, lambda g: g * d)

    def vjp_exponent(ans: Any, x: Any, y: Any) -> Any:
        zero = np.asarray(getval(x)) == 0
        d = power(x, y) * anp.log(anp.where(zero, 1.0, x))
        return unbroadcast_f(y, lambda g: g * d)

    defvjp(power, vjp_base, vjp_exponent)
    return power


def pow_(anp: Any, x1: Any, x2: Any, /) -> Any:
    """``x1 ** x2``: two float arrays through `pow_primitive`, anything else (a Python
    number on either side, integers) through ``numpy.power``, whose rule is exact there."""
    import numpy as np
    from autograd.tracer import getval

    def inexact(v: Any) -> bool:
        v = getval(v)
        return isinstance(v, np.ndarray | np.generic) and np.issubdtype(v.dtype, np.inexact)

    if inexact(x1) and inexact(x2):
        return pow_primitive()(x1, x2)
    return anp.power(x1, x2)
