"""Black-box conformance checks of any server (schemathesis + hypothesis).

Never imports mock_server: it sees a target only over HTTP and through the OpenAPI document, or,
for `csapi validate --drift`, through an ASGI app and plain data it is handed (drift.py).
schemathesis is driven by driver.py alone, its internals reached through compat/schemathesis.py.
"""
