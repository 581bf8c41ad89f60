"""The mock's one door to library internals: a module per library, each checking its version first.

`connexion.py` holds every use of connexion beyond its documented API (the validators with the
mock's format checker, and the fast paths of `create_app(fast_paths=True)`), with its routing
middlewares' fast paths in `routing.py` (connexion's too, split off for size); `jsonschema.py`
holds the mock's own format checker (int64), so that no format is registered on jsonschema's
global checker. Each starts with `openapi.compat.require` and its tested release range: outside
it, importing the mock fails with one line naming the range (`csapi` prints it and exits 2),
instead of an AttributeError deep in a request. Importing this package imports both.
`uvicorn.py` (the connection in each request's scope, for a `drop` fault) is imported by serve only.
"""

from . import connexion, jsonschema  # noqa: F401
