"""The contract layer: schemathesis over every operation of the document, over real HTTP.

For each selected operation, hypothesis draws requests from the document (valid ones, and
fewer invalid ones) and sends them to the target as the first user; schemathesis' checks
judge each answer: no server error, a documented status, content type, headers and body,
invalid input rejected, valid input accepted, authentication enforced. Every path is also
sent the methods it does not document (405 with Allow), and schemathesis' stateful phase
follows the document's links (create -> get/update/delete) for use-after-free and
resource-availability bugs. One outcome per (operation, check): the first failing request
is kept, shown as a curl line with the trimmed response.

Safe on a real server: path, query and body ids are mapped onto ids the run created itself
(a pool made first: collections, items, a stack, a comment, a like, a tag, an email, a
collaborator, a team membership), so no write ever names anything the run did not create.
Update current user and Update a team send the current values back (a no-op), and an
invalid update the server takes anyway is undone. Names and addresses the run creates start
with the run's prefix, and every 201 is registered for the runner's cleanup. Under
--read-only only GET operations run, on ids read from the lists, with no stateful phase.

Outside --strict a server is not failed for what only docs/design.md chose where the spec is
silent: any 4xx is an acceptable error status, and error bodies and their content type are
not checked. With --strict, errors must have a documented status and the `{code, message}` body.

Modules: data.py (schemathesis' checks and their rules, what operations make), pool.py (the ids),
safety.py and things.py (what is sent and what it is sent on), tolerated.py (request tolerance),
run.py (the run and its check). Every module of this package is imported here.
"""

from ..registry import import_all
from .run import contract
from .tolerated import valid_as_tolerated

__all__ = ["contract", "valid_as_tolerated"]

import_all(__name__, __path__)
