"""The agent's bounds: a model may only read, list and act on paths inside an indexed root.

Containment is decided by `engine.paths` on path segments after resolving `..` and symlinks, with
case folded only where the file system under the root ignores case. Out-of-bounds requests get a
refusal string for the model, never data. With no roots configured there is nothing to protect yet,
so nothing is refused.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.errors import OutOfBounds
from engine.paths import is_within, normalize


class Bounds:
    def __init__(self, roots: Callable[[], list[str]], *, fold_case: bool | None = None):
        self._roots = roots
        self._fold_case = fold_case  # None: detect per root; tests force True/False

    def roots(self) -> list[str]:
        return [normalize(r) for r in self._roots()]

    def check(self, path: str) -> str:
        """The normalised path when it lies inside a root (or no roots exist); else OutOfBounds."""
        if not isinstance(path, str) or not path.strip():
            raise OutOfBounds("An empty path was given; use an exact absolute path inside an indexed folder.")
        target = normalize(path)
        roots = self.roots()
        if not roots or any(is_within(target, root, fold_case=self._fold_case) for root in roots):
            return target
        raise OutOfBounds(
            f"{path!r} is outside the indexed folders, so it cannot be read or changed. "
            f"Indexed folders: {', '.join(roots)}. Add its folder in Settings to allow it."
        )

    def allows(self, path: str) -> bool:
        try:
            self.check(path)
        except OutOfBounds:
            return False
        return True


def refusal(exc: OutOfBounds) -> str:
    """What the model reads instead of data."""
    return f"Refused: {exc.message}"
