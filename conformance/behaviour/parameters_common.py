"""What the parameter checks (parameters_*.py) share: their failure is a parameter not honoured."""

from __future__ import annotations

from ..failures import NotHonoured
from ..http import Session
from ..target import Exchange


def honoured(s: Session, cond: object, message: str, exchange: Exchange | None = None) -> None:
    """Fail as NotHonoured (with the last exchange) unless the parameter's effect shows."""
    s.expect(cond, message, exchange, kind=NotHonoured)
