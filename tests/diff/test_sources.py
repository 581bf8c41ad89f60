"""`csapi diff` never compares what it cannot read: each side is OpenAPI 3.0 or 3.1, valid, with every
`$ref` followed, or the command exits 2 with one line naming the side and what is wrong.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from csapi.cli import main
from csapi.openapi import diff
from csapi.openapi.diff import Change, Classification, Report, load_source
from csapi.openapi.diff.sources import SourceError

# A small valid 3.0 document of our own: one operation reading a book.
BOOKS: dict[str, Any] = {
    "openapi": "3.0.3",
    "info": {"title": "Shelf", "version": "1"},
    "paths": {
        "/books/{isbn}": {
            "get": {
                "operationId": "readBook",
                "parameters": [
                    {"name": "isbn", "in": "path", "required": True, "schema": {"type": "string"}}
                ],
                "responses": {
                    "200": {
                        "description": "the book",
                        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Book"}}},
                    }
                },
            }
        }
    },
    "components": {"schemas": {"Book": {"type": "object", "properties": {"title": {"type": "string"}}}}},
}


def run(*args: str | Path) -> Result:
    return CliRunner().invoke(main, ["diff", "--no-proof", *map(str, args)])


def write(path: Path, content: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(content if isinstance(content, str) else json.dumps(content), encoding="utf-8")
    return path


def books(**changes: Any) -> dict[str, Any]:
    document = json.loads(json.dumps(BOOKS))
    document.update(changes)
    return document


def refusal(result: Result) -> str:
    """The one line a refused side gives (exit 2, nothing else printed)."""
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    return lines[0]


SWAGGER = """\
swagger: "2.0"
info: {title: Shelf, version: "1"}
paths:
  /books:
    get:
      responses:
        "200": {description: the books, schema: {type: array, items: {type: string}}}
"""

INVALID_30 = books()
INVALID_30["paths"]["/books/{isbn}"]["get"]["responses"]["200"]["description"] = 42

INVALID_31 = books(openapi="3.1.0")
INVALID_31["components"]["schemas"]["Book"] = {"type": "object"}
INVALID_31["paths"]["/books/{isbn}"]["get"]["parameters"][0]["in"] = "body"


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (SWAGGER, "Swagger 2.0 is not read: convert the document to OpenAPI 3 first"),
        ("shelves:\n  - fiction\n  - poetry\n", "not an OpenAPI document: it has no `openapi` field"),
        ('["a", "list"]', "not an OpenAPI document: the file is a list"),
        ("just words", "not an OpenAPI document: the file is a string"),
        ("", "not an OpenAPI document: the file is empty"),
        (books(openapi="3.2.0"), "OpenAPI 3.2.0 is not read: csapi diff reads OpenAPI 3.0.x and 3.1.x"),
        (books(openapi="2.0"), "OpenAPI 2.0 is not read"),
        ("openapi: 3.0\ninfo: {title: t, version: '1'}\npaths: {}\n", "`openapi: 3.0` must be a string"),
        (INVALID_30, "not valid OpenAPI 3.0.3: at /paths/~1books~1{isbn}/get/responses/200/description: 42"),
        (INVALID_31, "not valid OpenAPI 3.1.0: at /paths/~1books~1{isbn}/get/parameters/0"),
        ("openapi: [3.0.3\n", "not valid YAML or JSON"),
    ],
)
def test_a_side_that_is_not_openapi_3_exits_2_with_one_line(
    tmp_path: Path, content: Any, expected: str
) -> None:
    good, bad = write(tmp_path / "good.json", BOOKS), write(tmp_path / "bad.yaml", content)
    line = refusal(run(good, bad))
    assert f"NEW {bad}: {expected}" in line, line
    line = refusal(run(bad, good))
    assert line.startswith(f"Error: OLD {bad}: "), line


def test_an_unresolvable_local_ref_names_the_ref_and_where_it_is(tmp_path: Path) -> None:
    document = books()
    document["components"]["schemas"]["Book"]["properties"]["author"] = {
        "$ref": "#/components/schemas/Author"
    }
    line = refusal(run(write(tmp_path / "a.json", BOOKS), write(tmp_path / "b.json", document)))
    assert (
        "/components/schemas/Book/properties/author/$ref: "
        "$ref '#/components/schemas/Author' points to nothing" in line
    )


def test_a_missing_file_ref_names_the_ref_and_the_file(tmp_path: Path) -> None:
    document = books()
    document["components"]["schemas"]["Book"]["properties"]["author"] = {"$ref": "people/author.yaml"}
    line = refusal(run(write(tmp_path / "a.json", BOOKS), write(tmp_path / "b.json", document)))
    assert (
        "/components/schemas/Book/properties/author/$ref: "
        "$ref 'people/author.yaml': cannot read people/author.yaml" in line
    )


def test_a_ref_into_a_file_that_points_nowhere(tmp_path: Path) -> None:
    write(tmp_path / "people.yaml", "Author: {type: string}\n")
    document = books()
    document["components"]["schemas"]["Book"]["properties"]["author"] = {"$ref": "people.yaml#/Editor"}
    line = refusal(run(write(tmp_path / "a.json", BOOKS), write(tmp_path / "b.json", document)))
    assert "$ref 'people.yaml#/Editor' points to nothing" in line


def test_a_ref_in_a_referenced_file_is_named_at_its_file(tmp_path: Path) -> None:
    write(tmp_path / "people.yaml", "Author:\n  type: object\n  properties:\n    born: {$ref: '#/Date'}\n")
    document = books()
    document["components"]["schemas"]["Book"]["properties"]["author"] = {"$ref": "people.yaml#/Author"}
    line = refusal(run(write(tmp_path / "a.json", BOOKS), write(tmp_path / "b.json", document)))
    assert "people.yaml#/Author/properties/born/$ref: $ref '#/Date' points to nothing" in line


@pytest.mark.parametrize(
    "url", ["https://example.com/schemas/author.yaml", "http://example.com/a.json#/Author"]
)
def test_a_remote_ref_is_refused(tmp_path: Path, url: str) -> None:
    document = books()
    document["components"]["schemas"]["Book"]["properties"]["author"] = {"$ref": url}
    line = refusal(run(write(tmp_path / "a.json", document), write(tmp_path / "b.json", BOOKS)))
    assert (
        line.startswith("Error: OLD ")
        and f"$ref {url!r}: remote (http/https) references are not read" in line
    )


def test_a_fragment_that_is_not_a_pointer_is_refused(tmp_path: Path) -> None:
    document = books()
    document["components"]["schemas"]["Book"]["properties"]["author"] = {"$ref": "people.yaml#Author"}
    write(tmp_path / "people.yaml", "Author: {type: string}\n")
    line = refusal(run(write(tmp_path / "a.json", BOOKS), write(tmp_path / "b.json", document)))
    assert "the fragment is not a JSON pointer" in line


def test_a_ref_inside_an_example_is_data_not_followed(tmp_path: Path) -> None:
    document = books()
    document["components"]["schemas"]["Book"]["example"] = {"$ref": "nowhere.yaml"}
    assert (
        load_source(str(write(tmp_path / "b.json", document)), tmp_path)["components"]
        == document["components"]
    )


def test_a_valid_document_is_returned_as_written(tmp_path: Path) -> None:
    assert load_source(str(write(tmp_path / "b.json", BOOKS)), tmp_path) == BOOKS
    assert "No changes between" in run(tmp_path / "b.json", tmp_path / "b.json").output


@pytest.mark.parametrize("version", ["3.0.3", "3.1.0"])
def test_what_the_validator_library_misreads_does_not_refuse_a_valid_document(
    tmp_path: Path, version: str
) -> None:
    """openapi-spec-validator 0.9 raises on an `x-` key in `paths` and its 3.1 meta-schema refuses a
    Link Object's `server`: both are valid OpenAPI, so the diff reads them (compat module)."""
    link = {"operationId": "readBook"} | (
        {"server": {"url": "https://b.example.com"}} if version == "3.1.0" else {}
    )
    old = books(openapi=version)
    old["paths"]["x-owner"] = "team-a"
    for response in old["paths"]["/books/{isbn}"]["get"]["responses"].values():
        response["links"] = {"again": link}
    new = json.loads(json.dumps(old))
    new["paths"]["x-owner"] = "team-b"
    result = run(write(tmp_path / "old.json", old), write(tmp_path / "new.json", new))
    assert result.exit_code == 0, result.output
    assert "extension-changed" in result.output and "/paths/x-owner" in result.output


def _not_compared(pointer: str = "/components/schemas/Book/contains") -> Change:
    return Change(
        "GET /books/{isbn}",
        "readBook",
        "",
        pointer,
        diff.NOT_COMPARED,
        "`contains` changed",
        Classification.BREAKING,
        "response",
        "csapi diff does not compare `contains`: judge this change by hand",
    )


def test_report_unjudged_lists_the_not_compared_changes_not_accepted() -> None:
    change = _not_compared()
    report = Report("a", "b", (change, change.accept("judged: clients ignore it")))
    assert report.unjudged == (change,)


def test_a_keyword_not_compared_exits_2_after_the_report(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Exit 2 wins over exit 1; stderr names each keyword and where it changed."""
    found = [_not_compared()]
    monkeypatch.setattr(diff, "diff", lambda old, new, *, proof=False: found)
    a = write(tmp_path / "a.json", BOOKS)
    result = run(a, a)
    assert result.exit_code == 2
    assert result.stdout.startswith("GET /books/{isbn} [readBook]")
    assert "1 change(s) from" in result.stdout
    assert result.stderr.strip().splitlines() == [
        "csapi diff cannot judge contains at /components/schemas/Book/contains: `contains` changed"
    ]
    assert json.loads(run(a, a, "--format", "json").stdout)["summary"]["not_compared"] == 1
    accept = write(tmp_path / "accept.yaml", "- {operation: readBook, kind: not-compared, reason: checked}\n")
    assert run(a, a, "--accept", accept).exit_code == 0


def test_source_errors_are_one_line(tmp_path: Path) -> None:
    with pytest.raises(SourceError) as raised:
        load_source(str(tmp_path / "missing.yaml"), tmp_path)
    assert "\n" not in str(raised.value) and "cannot read missing.yaml" in str(raised.value)
