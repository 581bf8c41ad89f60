"""Stateful mock of the Collection-Sharing Service: a Connexion 3 app over an in-memory store.

Layers (ARCHITECTURE.md): `handlers` translate HTTP to one `store` call and back, the
`store` holds all state and behaviour, `views` render the spec's JSON shapes; `app`
builds the AsyncApp (`create_app`), `admin` adds the mock-only /__mock__/ API.
"""

# First of all, the version checks of connexion and jsonschema (compat/): outside the ranges the
# mock was tested with, importing it (e.g. `csapi serve`) stops here with one line naming them.
from . import compat  # noqa: F401
