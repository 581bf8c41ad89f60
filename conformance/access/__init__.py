"""The access layer (issue 5): who may call, see and do what, with two or three users and a team.

Each property is its own check. The actors are the settings' users: user 1 owns what the
run creates, the *stranger* (user 3, else user 2) has no part in it, and user 2 must be a
plain member of `--team-id` for the managers-only checks. Checks needing more users than
were given are skipped by the runner; the team checks skip themselves without a team.

Safe on a real server: everything is created by user 1 with the run's names and registered
for cleanup; collaborator additions are undone by the checks that make them. The one touch
on pre-existing data is the managers-only team checks: a plain member's requests there would
change nothing even if wrongly accepted (the team's own name, the member's own kind, an
existing member, a non-member), and anything a faulty server did change is put back.

Statuses: 401 for missing or wrong credentials; outside --strict an invisible thing may be a
403 or a 404 and a refusal any 4xx; --strict demands docs/design.md's 404 and 403, the
WWW-Authenticate header and error body of a 401, and the permissions objects.

The checks are in a module per concern (credentials, visibility, collaborators, teams); every
module of this package is imported here, so a module dropped in registers its checks.
"""

from ..registry import import_all

import_all(__name__, __path__)
