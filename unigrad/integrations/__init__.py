"""Integrations of unigrad into libraries that compute gradients once per framework.

Each integration is a submodule that imports its library only when it is used
(``import unigrad.integrations.deepxde`` imports neither DeepXDE nor a framework).
"""
