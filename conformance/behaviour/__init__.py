"""Behaviour layer: what the spec states that no schema can express, checked over HTTP.

Two kinds of checks, each named by the operation it is about:
- a hypothesis `RuleBasedStateMachine` (machine/: machine.py) over a small reference model of what
  the run made; it records one outcome per property it exercised, and when a step breaks one, a
  single failure for that property with the request that showed it;
- targeted example checks, in the module of the resource of their operation (the operationId's
  prefix, the spec's section 4.x): behaviour/<resource>.py, grouped under comment headings by rule
  family, or the package behaviour/<resource>/ with a module per family (collections, items).
  Helpers one resource uses live with it; helpers several share are in common.py.
  tests/conformance/test_registry.py keeps every check in its resource's module.

Only what the spec itself states is required; docs/design.md's gap choices (a deleted item's GET
is a 404, default and maximum page sizes, ...) are separate checks that run with --strict.
Everything is made with the run's prefix, registered for cleanup, and nothing the run did
not create is changed. Under --read-only this layer does nothing (every check writes).

Every module of this package is imported here (a subpackage imports its own), so a module dropped
in registers its checks.
"""

from ..registry import import_all

import_all(__name__, __path__)
