"""`csapi diff`: what changed between two versions of an OpenAPI document, and whom it breaks.

Pure functions over two loaded documents (`compare(old, new)`); `$ref`s are followed (local
ones, with cycle protection) and `allOf` members are read as one schema, so moving a field
into a shared component, renaming a component or reordering keys changes nothing. Operations
are matched by method and path with path parameter names blanked: `/v1/items/{id}` and
`/v1/items/{item_id}` are the same operation, and the rename alone is compatible (the URL on
the wire does not change). Parameters are matched by where they are and their name (path
parameters by position); responses by status; media types, headers and links by name.

Every change is a `Change`: the operation (summary, "METHOD /path", operationId), a JSON
pointer into the NEW document where the changed thing exists there, else into the OLD one,
a rule, a message and a classification:

- ``breaking-client``: a client that worked against servers of the old document may fail
  against servers of the new one: a request it sends is now refused, or an answer it gets
  is one it was not told to expect.
- ``breaking-server``: a server (the mock included) that implemented the old document no
  longer implements the new one: it must now accept something new, or answer something
  it did not have to.
- ``compatible``: neither (documentation, a path parameter rename, an optional response
  field, a new error status, ...).

The model. Most changes make a schema (or a list of parameters, media types, statuses)
accept fewer values (*tighten*), more values (*loosen*), or both (a type or format
replaced). What that means depends on the direction the data travels, and a schema used
in a request and in a response is classified where it is reached:

==========================  =====================  =====================
effect                      in a request           in a response
==========================  =====================  =====================
tighten (fewer values)      breaking-server        breaking-server
loosen (more values)        breaking-server        breaking-client
both                        breaking-server        breaking-client
meaning (a default)         breaking-client        compatible
obligation (a new field)    breaking-server        compatible
neutral                     compatible             compatible
==========================  =====================  =====================

This is the model of issue 8: "breaking for servers/implementers (e.g. a request field made
required, an enum value removed from a request, a new required parameter)", "breaking for
clients (e.g. a response field removed or made nullable, an enum value added to a response,
a status code removed)". A request change moves what every server must accept or refuse,
so implementers must follow (a tightened request also fails clients that send what is now
refused; the report names the side that must change its code to conform). A loosened
response is output clients must now read (breaking-client); a tightened response is a
promise every server must now keep (breaking-server: `csapi validate --drift` then shows
where the mock does not keep it). A changed default changes what clients get when they
leave a field out.

The rules (rule name: effect):

- ``operation-removed``: breaking-client. ``operation-added``: breaking-server (every
  server must now implement it). ``operation-id-changed``: breaking-server (the wire is the
  same, but implementations routed by operationId, like the mock, must follow).
  ``deprecated``: neutral.
- ``parameter-added``: tighten when required, else loosen (servers must honour a new
  optional parameter; strict servers, like the mock, refuse unknown query parameters).
  ``parameter-removed``: tighten (plus loosen when it was required).
  ``parameter-required``: tighten / loosen. ``parameter-style``: both.
  ``path-parameter-renamed``: neutral.
- ``request-body-added``: tighten when required, else loosen. ``request-body-removed``:
  tighten. ``request-body-required``: tighten / loosen.
- ``media-type-added``: loosen. ``media-type-removed``: tighten in a request, both in a
  response (a client reads the body in the type it knows).
- ``response-removed``: breaking-client (the situation it signalled is now answered with
  another status, which clients read as that status' meaning). ``response-added``:
  breaking-client for 1xx-3xx, compatible for 4xx, 5xx and default (RFC 9110 section 15:
  a client treats an unknown status as the x00 of its class).
- ``header-added``: tighten when required, else neutral. ``header-removed``: loosen.
  ``header-required``: tighten / loosen.
- ``link-added``: tighten (a new promise about the response). ``link-removed``: loosen.
  ``link-changed``: both. Link parameters naming path parameters are compared by position.
- ``security-requirement-added``: loosen (a new way in that servers must accept).
  ``security-requirement-removed``: tighten. Schemes are compared by their definition, not
  their component name; a requirement only counts as removed when no requirement of the
  new document asks for a subset of it (and the other way round for added).
- Schemas: ``property-added``: tighten when required; loosen when the object was closed
  (`additionalProperties: false`); else an obligation: an open request object's unknown fields
  are ignored (docs/design.md, request tolerance), so servers must now act on the new one.
  ``property-removed``: tighten when the object is closed (plus loosen when it was
  required); else loosen. ``required-added``: tighten. ``required-removed``: loosen.
  ``type-changed``: tighten / loosen (integer -> number loosens) / both.
  ``format-changed``, ``pattern-changed``, ``multiple-of``: tighten when added, loosen when
  removed, both when replaced. ``nullable``: loosen when made nullable, else tighten.
  ``enum-value-added``: loosen. ``enum-value-removed``: tighten (an enum added or dropped
  as a whole tightens or loosens). ``bound-tightened`` / ``bound-loosened``: minimum,
  maximum (and exclusive), minLength, maxLength, minItems, maxItems, minProperties,
  maxProperties. ``unique-items``: tighten / loosen. ``additional-properties``: closing
  tightens, opening loosens. ``alternative-added`` / ``alternative-removed`` (oneOf and
  anyOf, compared by position): loosen / tighten. ``default-changed``: meaning.
  ``deprecated``: neutral.

Not compared: descriptions, summaries, examples, tags, `servers`, `info`, `not`,
`discriminator`, `readOnly`/`writeOnly`, media type `encoding`, extensions (`x-`), and
components no operation reaches. `null` in an `enum` counts under ``nullable``, not as an
enum value. `allOf` members are merged (properties and `required` united, the tightest bound
kept); conflicting members are not analysed further.
"""

from __future__ import annotations

from typing import Any

from .accept import Acceptance, AcceptError, load_accept
from .evidence import default_prover
from .model import FAIL_ON, REMOVED_FAIL_ON, Change, Classification, Direction, Effect, Report, classify
from .operations import Differ
from .sides import Side, Stability
from .sources import SourceError, load_source, parse

__all__ = [
    "FAIL_ON",
    "REMOVED_FAIL_ON",
    "AcceptError",
    "Acceptance",
    "load_accept",
    "Change",
    "Classification",
    "Direction",
    "Effect",
    "Report",
    "SourceError",
    "Stability",
    "classify",
    "compare",
    "diff",
    "load_source",
    "parse",
]


def compare(
    old: dict[str, Any],
    new: dict[str, Any],
    old_label: str = "old",
    new_label: str = "new",
    *,
    proof: bool = True,
    accept: Acceptance | None = None,
) -> Report:
    """The report of every change from `old` to `new` (two parsed documents).

    `proof`: run the payload proof on changed schemas (evidence.py); `accept`: the known breaks a
    team accepts (accept.py).
    """
    report = Report(old_label, new_label, tuple(diff(old, new, proof=proof)))
    return accept.apply(report) if accept is not None else report


def diff(old: dict[str, Any], new: dict[str, Any], *, proof: bool = False) -> list[Change]:
    """Every change from `old` to `new`, grouped by operation (new document order, removed last)."""
    return Differ(Side(old), Side(new), default_prover() if proof else None).run()
