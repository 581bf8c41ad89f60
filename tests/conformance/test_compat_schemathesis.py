"""conformance/compat/schemathesis.py: the door to schemathesis' internals."""

from csapi.conformance import driver
from csapi.conformance.compat.schemathesis import builtin_checks


def test_every_check_the_driver_names_is_built_in() -> None:
    named = {*driver.RESPONSE_CHECKS, *driver.INPUT_CHECKS, *driver.METHOD_CHECKS, *driver.STATEFUL_CHECKS}
    checks = builtin_checks()
    assert named <= set(checks)
    assert all(callable(function) for function in checks.values())
