"""conformance/driver.py on a tiny app in process: the ids it puts in requests, the checks a run
turns on (and only those), what `judge` reports, and the loop's seed."""

from __future__ import annotations

import json
from typing import Any

from csapi.conformance import driver

DOCUMENT = {
    "openapi": "3.0.3",
    "info": {"title": "things", "version": "1"},
    "paths": {
        "/things/{thing_id}": {
            "get": {
                "operationId": "things.get_thing",
                "tags": ["Things"],
                "parameters": [
                    {"name": "thing_id", "in": "path", "required": True, "schema": {"type": "integer"}}
                ],
                "responses": {
                    "200": {
                        "description": "a thing",
                        "content": {
                            "application/json": {
                                "schema": {
                                    "type": "object",
                                    "required": ["id"],
                                    "properties": {"id": {"type": "integer"}},
                                }
                            }
                        },
                    }
                },
            }
        }
    },
}
BROKEN = 13  # the thing whose answer lacks its id


async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """Serves DOCUMENT at /openapi.json and {"id": n} at /things/n ({} for BROKEN)."""
    if scope["path"] == "/openapi.json":
        body: Any = DOCUMENT
    else:
        thing = int(scope["path"].rsplit("/", 1)[1]) if scope["path"].rsplit("/", 1)[1].isdigit() else 0
        body = {} if thing == BROKEN else {"id": thing}
    content = json.dumps(body).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(content)).encode())]
    await send({"type": "http.response.start", "status": 200, "headers": headers})
    await send({"type": "http.response.body", "body": content})


def _operation(options: driver.Options, ids: driver.Ids | None = None) -> tuple[Any, driver.Operation]:
    schema = driver.from_app(app, options, path="/openapi.json")
    if ids is not None:
        driver.map_ids(schema, ids)
    (operation,) = driver.operations(schema)
    return schema, operation


def _sent(operation: driver.Operation, seed: int, examples: int = 10) -> list[tuple[Any, Any]]:
    answers: list[tuple[Any, Any]] = []
    driver.fuzz(operation, "positive", examples, seed, lambda case: answers.append((case, case.call())))
    return answers


def test_operations_carry_the_documents_names() -> None:
    _, operation = _operation(driver.Options())
    assert (operation.id, operation.label, operation.tags) == (
        "things.get_thing",
        "GET /things/{thing_id}",
        ("Things",),
    )


def test_drawn_ids_become_the_ids_given() -> None:
    _, operation = _operation(driver.Options(), driver.Ids({"thing_id": [BROKEN, 21]}))
    sent = {case.path_parameters["thing_id"] for case, _ in _sent(operation, seed=1)}
    assert sent and sent <= {BROKEN, 21} | {value for value in sent if value < 1}


def test_judge_names_the_check_that_fails() -> None:
    _, operation = _operation(driver.Options(), driver.Ids({"thing_id": [BROKEN]}))
    case, response = next(
        (c, r) for c, r in _sent(operation, seed=2) if c.path_parameters["thing_id"] == BROKEN
    )
    (failed,) = driver.judge(case, response, driver.RESPONSE_CHECKS)
    assert failed.check == "response_schema_conformance"
    assert "is a required property" in failed.text


def test_a_run_turns_on_only_the_checks_it_names() -> None:
    """`validate_response` (and call_and_validate) run the checks the options name: off, a broken
    answer passes."""
    for checks in (driver.RESPONSE_CHECKS, ("not_a_server_error",)):
        _, operation = _operation(driver.Options(checks=checks), driver.Ids({"thing_id": [BROKEN]}))
        case, response = next(
            (c, r) for c, r in _sent(operation, seed=3) if c.path_parameters["thing_id"] == BROKEN
        )
        try:
            case.validate_response(response)
        except BaseExceptionGroup as group:  # schemathesis.errors.FailureGroup
            assert [driver.checks_of(e) for e in group.exceptions] == [
                ("response_schema_conformance", "response_headers_conformance")
            ]
            assert "response_schema_conformance" in checks
        else:
            assert "response_schema_conformance" not in checks


def test_the_same_seed_draws_the_same_cases() -> None:
    _, operation = _operation(driver.Options())
    first = [case.path_parameters for case, _ in _sent(operation, seed=driver.derive_seed(5, "x"))]
    again = [case.path_parameters for case, _ in _sent(operation, seed=driver.derive_seed(5, "x"))]
    assert first == again


def test_without_links_there_is_no_stateful_run() -> None:
    schema, _ = _operation(driver.Options())
    assert driver.run_stateful(schema, driver.Scenario(), examples=1, steps=2, seed=1) is False
