"""Stateful mock of the Collection-Sharing Service: a Connexion 3 app over an in-memory store.

Layers (ARCHITECTURE.md): `handlers` translate HTTP to one `store` call and back, the
`store` holds all state and behaviour, `views` render the spec's JSON shapes; `app`
builds the AsyncApp (`create_app`), `admin` adds the mock-only /__mock__/ API.
"""

import warnings

# `import connexion` imports starlette's TestClient, which warns (StarletteDeprecationWarning,
# a UserWarning) that httpx is deprecated there; under -W error that import would fail,
# so it is done once here, quietly.
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    import connexion  # noqa: F401
