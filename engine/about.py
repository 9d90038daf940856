"""What the app says about itself and this machine: its version and whether a CUDA GPU can embed.

Kept apart from the Engine's commands so the Engine stays a line or two per command; torch is imported
only when the page asks (it is the heaviest import of all).
"""

from __future__ import annotations

import functools

from engine.results import GpuInfo


def gpu_info() -> GpuInfo:
    import torch

    if torch.cuda.is_available():
        return GpuInfo(cuda=True, device_name=torch.cuda.get_device_name(0))
    return GpuInfo(cuda=False)


@functools.cache
def app_version() -> str:
    """The installed version, looked up once: the lookup walks every entry of sys.path (~0.4 ms of CPU),
    which made `app_version`, the page's command that does no work, cost more than the HTTP around it."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("sensetree")
    except PackageNotFoundError:
        return "0.1.0"
