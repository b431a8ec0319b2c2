"""unigrad's array API standard namespaces (2023.12) for the frameworks without one.

The standard's rules are written once in ``_common`` over a framework's primitive
namespace; ``_autograd`` makes NumPy's array API differentiable for the numpy tape (the
recording namespace in ``unigrad.tape`` wraps it and ``jax.numpy``), and ``paddle`` is
the namespace for paddle tensors. Entry point: ``unigrad.namespace(x)``; torch uses
array-api-compat with three gradient corrections (``_torch``). ``xfails/`` lists, per
namespace, the standard test suite's cases that a framework limitation makes impossible,
each with that limitation.

``PORTABLE`` (= ``STANDARD | EXTENSIONS``; ``LINALG`` and ``FFT`` for the submodules) is
the one list of the names ``unigrad.namespace(x)`` has on every backend (docs/namespace.md).
"""

from __future__ import annotations

from ._portable import EXTENSIONS, FFT, LINALG, PORTABLE, STANDARD, STANDARD_2024

__all__ = ["EXTENSIONS", "FFT", "LINALG", "PORTABLE", "STANDARD", "STANDARD_2024"]
