"""What the contract run's mixins (safety.py, things.py) use of the run they are mixed into:
`run.ContractRun` sets it all in `__init__`; declared here only, so that each mixin is typed
against it (bare annotations make no class attributes)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..settings import Settings
    from ..target import Target
    from .pool import Pool


class RunParts:
    settings: Settings
    target: Target
    document: dict[str, Any]
    pool: Pool
    ids: dict[tuple[str, str], str]  # (METHOD, path template) -> operationId
    current: dict[str, dict[str, Any]]  # path -> current values, for no-op updates
    profiles: list[dict[str, Any]]
    addresses: set[Any] | None
    counter: int

    if TYPE_CHECKING:

        def _name(self, label: str) -> str: ...  # Safety's, which Things uses
