"""Black-box conformance checks of any server over HTTP (schemathesis + hypothesis).

Never imports mock_server: it sees a target only through HTTP and the OpenAPI document.
"""
