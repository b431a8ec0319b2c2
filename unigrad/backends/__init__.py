"""Backend adapters, one module per framework, each exporting ``BACKEND``.

Modules here import their framework at the top; `unigrad._dispatch` imports them
only when a value of that framework is seen.
"""

from __future__ import annotations

from ._base import Backend, BackwardRequest, Capabilities, GradRequest, Kind

__all__ = ["Backend", "BackwardRequest", "Capabilities", "GradRequest", "Kind"]
