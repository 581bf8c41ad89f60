"""`csapi diff` of documents spread over files: every external `$ref` followed from its own file, on
each side (two directories, or a file and `git:REV`), and a change inside a referenced file reported
at the file's pointer and at the root document's `$ref` that leads there (`via`).
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from csapi.cli import main
from csapi.openapi.diff import compare, load_source

READ_BOOK = "/paths/~1books~1{isbn}/get"
SCHEMA = f"{READ_BOOK}/responses/200/content/application~1json/schema"
BOOK = {"type": "object", "required": ["title"], "properties": {"title": {"type": "string"}}}


def root(schema: Any) -> dict[str, Any]:
    """A document of our own whose one operation answers with `schema`."""
    return {
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
                            "content": {"application/json": {"schema": schema}},
                        }
                    },
                }
            }
        },
    }


def write(files: dict[str, Any], where: Path) -> Path:
    """The files (name: text or JSON data) written under `where`; the first one is the root."""
    for name, content in files.items():
        path = where / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content if isinstance(content, str) else json.dumps(content), encoding="utf-8")
    return where / next(iter(files))


def run(*args: str | Path) -> Result:
    return CliRunner().invoke(main, ["diff", "--no-proof", *map(str, args)])


def retitled(book: dict[str, Any]) -> dict[str, Any]:
    """`book` with its title now a number: breaking in a response."""
    return {**book, "properties": {**book["properties"], "title": {"type": "integer"}}}


def test_a_relative_ref_to_a_whole_file(tmp_path: Path) -> None:
    old = write(
        {"openapi.yaml": root({"$ref": "./schemas/book.yaml"}), "schemas/book.yaml": BOOK}, tmp_path / "a"
    )
    new = write(
        {"openapi.yaml": root({"$ref": "schemas/book.yaml"}), "schemas/book.yaml": retitled(BOOK)},
        tmp_path / "b",
    )
    result = run(old, new)
    assert result.exit_code == 1, result.output
    assert (
        f"breaking    schemas/book.yaml#/properties/title/type (via {SCHEMA}): [type-changed]"
        in result.output
    ), result.output
    assert run(old, old).output.startswith("No changes between")


@pytest.mark.parametrize("style", ["relative", "absolute", "file-uri"])
def test_a_ref_with_a_fragment_in_any_spelling(tmp_path: Path, style: str) -> None:
    """Relative paths, absolute paths and file:// URIs: each side keys its files from its own root."""

    def side(where: Path, book: dict[str, Any]) -> Path:
        target = where / "shared" / "library.yaml"
        address = {"relative": "shared/library.yaml", "absolute": str(target), "file-uri": target.as_uri()}
        return write(
            {
                "openapi.yaml": root({"$ref": address[style] + "#/Book"}),
                "shared/library.yaml": {"Book": book},
            },
            where,
        )

    old, new = side(tmp_path / "old", BOOK), side(tmp_path / "new", retitled(BOOK))
    result = run(old, new)
    assert result.exit_code == 1, result.output
    assert f"shared/library.yaml#/Book/properties/title/type (via {SCHEMA})" in result.output, result.output
    assert run(old, side(tmp_path / "again", BOOK)).output.startswith("No changes between")


def test_a_nested_file_refers_to_a_sibling_directory(tmp_path: Path) -> None:
    """Refs inside a referenced file are read relative to that file (`../`); its own `#/` refs into itself."""
    author = {
        "Author": {"type": "object", "properties": {"name": {"$ref": "#/Name"}}},
        "Name": {"type": "string"},
    }

    def side(where: Path, name: dict[str, Any]) -> Path:
        book = {
            **BOOK,
            "properties": {**BOOK["properties"], "author": {"$ref": "../people/author.yaml#/Author"}},
        }
        return write(
            {
                "api/openapi.yaml": root({"$ref": "../schemas/book.yaml"}),
                "schemas/book.yaml": book,
                "people/author.yaml": {**author, "Name": name},
            },
            where,
        )

    old, new = (
        side(tmp_path / "old", {"type": "string"}),
        side(tmp_path / "new", {"type": "string", "maxLength": 9}),
    )
    bundled = load_source(str(new), new)
    assert set(bundled["x-csapi-files"]) == {"../schemas/book.yaml", "../people/author.yaml"}
    assert bundled["x-csapi-files"]["../people/author.yaml"]["Author"]["properties"]["name"] == {
        "$ref": "#/x-csapi-files/..~1people~1author.yaml/Name"
    }
    result = run(old, new)
    assert f"../people/author.yaml#/Name/maxLength (via {SCHEMA})" in result.output, result.output


def test_a_cycle_across_two_files(tmp_path: Path) -> None:
    def side(where: Path, nickname: str) -> Path:
        person = {
            "type": "object",
            "properties": {"friend": {"$ref": "friend.yaml"}, "nick": {"type": nickname}},
        }
        friend = {"type": "object", "properties": {"person": {"$ref": "person.yaml"}}}
        return write(
            {"openapi.yaml": root({"$ref": "person.yaml"}), "person.yaml": person, "friend.yaml": friend},
            where,
        )

    old = side(tmp_path / "old", "string")
    assert run(old, side(tmp_path / "same", "string")).output.startswith("No changes between")
    result = run(old, side(tmp_path / "new", "integer"))
    assert f"person.yaml#/properties/nick/type (via {SCHEMA})" in result.output, result.output


def test_a_schema_moved_from_inline_to_its_own_file_changes_nothing(tmp_path: Path) -> None:
    inline = write({"openapi.yaml": root(BOOK)}, tmp_path / "inline")
    moved = write({"openapi.yaml": root({"$ref": "book.yaml"}), "book.yaml": BOOK}, tmp_path / "moved")
    for old, new in ((inline, moved), (moved, inline)):
        result = run(old, new)
        assert result.exit_code == 0 and result.output.startswith("No changes between"), result.output


def test_a_change_inside_a_file_in_every_format(tmp_path: Path) -> None:
    old = write({"openapi.yaml": root({"$ref": "book.yaml"}), "book.yaml": BOOK}, tmp_path / "old")
    new = write({"openapi.yaml": root({"$ref": "book.yaml"}), "book.yaml": retitled(BOOK)}, tmp_path / "new")
    report = compare(load_source(str(old), old), load_source(str(new), new), proof=False)
    (change,) = report.changes
    assert (change.pointer, change.via, change.operation) == (
        "book.yaml#/properties/title/type",
        SCHEMA,
        "GET /books/{isbn}",
    )
    assert json.loads(run(old, new, "--format", "json").output)["changes"][0]["via"] == SCHEMA
    assert (
        f"`book.yaml#/properties/title/type` via `{SCHEMA}`" in run(old, new, "--format", "markdown").output
    )


def test_accept_matches_a_change_in_a_file_by_the_root_pointer_or_the_operation(tmp_path: Path) -> None:
    old = write({"openapi.yaml": root({"$ref": "book.yaml"}), "book.yaml": BOOK}, tmp_path / "old")
    new = write({"openapi.yaml": root({"$ref": "book.yaml"}), "book.yaml": retitled(BOOK)}, tmp_path / "new")
    for where in (f"pointer: '{READ_BOOK}/responses/200'", "operation: readBook"):
        accept = tmp_path / "accept.yaml"
        accept.write_text(
            f"- {{{where}, kind: type-changed, reason: titles are numbers now}}\n", encoding="utf-8"
        )
        result = run(old, new, "--accept", accept)
        assert result.exit_code == 0 and "[accepted: titles are numbers now]" in result.output, result.output


def test_a_path_item_in_its_own_file(tmp_path: Path) -> None:
    """`paths` entries may be refs too; the via is then the path item's `$ref` in the root document."""

    def side(where: Path, book: dict[str, Any]) -> Path:
        document = root({"$ref": "../book.yaml"})  # read from paths/book.yaml, where the item is
        item = document["paths"]["/books/{isbn}"]
        document["paths"]["/books/{isbn}"] = {"$ref": "paths/book.yaml"}
        return write({"openapi.yaml": document, "paths/book.yaml": item, "book.yaml": book}, where)

    result = run(side(tmp_path / "old", BOOK), side(tmp_path / "new", retitled(BOOK)))
    assert "book.yaml#/properties/title/type (via /paths/~1books~1{isbn})" in result.output, result.output


def test_a_json_root_refers_to_a_yaml_file(tmp_path: Path) -> None:
    yaml_book = "type: object\nrequired: [title]\nproperties:\n  title: {type: string}\n"
    old = write({"openapi.json": root({"$ref": "book.yaml"}), "book.yaml": yaml_book}, tmp_path / "old")
    new = write(
        {
            "openapi.json": root({"$ref": "book.yaml"}),
            "book.yaml": yaml_book.replace("{type: string}", "{type: string, maxLength: 80}"),
        },
        tmp_path / "new",
    )
    assert load_source(str(old), old)["x-csapi-files"] == {"book.yaml": BOOK}
    result = run(old, new)
    assert "book.yaml#/properties/title/maxLength" in result.output and f"(via {SCHEMA})" in result.output, (
        result.output
    )


def git(repo: Path, *args: str) -> str:
    command = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", "-C", str(repo), *args]
    return subprocess.run(command, check=True, capture_output=True, text=True).stdout


def test_git_sides_read_the_referenced_files_at_the_revision(tmp_path: Path) -> None:
    """Only the referenced file changed between the commits: git:REV reads it as of REV."""
    repo = tmp_path / "repo"
    document = write(
        {
            "api/openapi.yaml": root({"$ref": "../schemas/book.yaml#/Book"}),
            "schemas/book.yaml": {"Book": BOOK},
        },
        repo,
    )
    git(repo, "init", "-q")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "the book")
    write({"schemas/book.yaml": {"Book": retitled(BOOK)}}, repo)
    git(repo, "commit", "-q", "-am", "titles are numbers")

    result = run("git:HEAD~1", document)
    assert result.exit_code == 1, result.output
    assert f"../schemas/book.yaml#/Book/properties/title/type (via {SCHEMA})" in result.output, result.output
    assert "from git:HEAD~1 to" in result.output
    assert run("git:HEAD", document).output.startswith("No changes between git:HEAD and")

    # The working tree moves the book into a new file, not committed: that side reads it from disk.
    write({"schemas/book.yaml": {"Book": {"$ref": "author.yaml"}}, "schemas/author.yaml": BOOK}, repo)
    assert run("git:HEAD~1", document).output.startswith("No changes between git:HEAD~1 and")
    result = run("git:HEAD", document)
    assert f"../schemas/author.yaml#/properties/title/type (via {SCHEMA})" in result.output, result.output


def test_git_side_with_a_file_missing_at_the_revision(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    document = write({"openapi.yaml": root(BOOK)}, repo)
    git(repo, "init", "-q")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "inline")
    write({"openapi.yaml": root({"$ref": "book.yaml"}), "book.yaml": BOOK}, repo)
    git(repo, "commit", "-q", "-m", "moved: the commit forgot book.yaml", "openapi.yaml")
    assert run(document, document).exit_code == 0
    result = run("git:HEAD", document)
    assert result.exit_code == 2, result.output
    assert (
        f"OLD git:HEAD: {READ_BOOK}/responses/200/content/application~1json/schema/$ref: $ref 'book.yaml': "
        "git cannot show book.yaml at 'HEAD'" in result.output
    ), result.output
    assert len(result.output.strip().splitlines()) == 1


def test_an_invalid_schema_in_a_referenced_file_is_refused(tmp_path: Path) -> None:
    """openapi-spec-validator follows the bundled refs: a 3.0 schema with `required: []` is not valid."""
    new = write(
        {"openapi.yaml": root({"$ref": "book.yaml"}), "book.yaml": {**BOOK, "required": []}}, tmp_path / "new"
    )
    result = run(write({"openapi.yaml": root(BOOK)}, tmp_path / "old"), new)
    assert result.exit_code == 2 and len(result.output.strip().splitlines()) == 1, result.output
    assert f"not valid OpenAPI 3.0.3: at {SCHEMA}/required: [] should be non-empty" in result.output, (
        result.output
    )


def test_a_file_refers_back_into_the_root_document(tmp_path: Path) -> None:
    """However the path to the root document is spelled, its refs become local ones of the root."""
    document = root({"$ref": "../schemas/book.yaml"})
    document["components"] = {
        "schemas": {"Title": {"$ref": "openapi.yaml#/components/schemas/Text"}, "Text": {"type": "string"}}
    }
    book = {**BOOK, "properties": {"title": {"$ref": "../api/openapi.yaml#/components/schemas/Title"}}}
    new = write({"api/openapi.yaml": document, "schemas/book.yaml": book}, tmp_path)
    bundled = load_source(str(new), new)
    assert bundled["x-csapi-files"]["../schemas/book.yaml"]["properties"]["title"] == {
        "$ref": "#/components/schemas/Title"
    }
    assert bundled["components"]["schemas"]["Title"] == {"$ref": "#/components/schemas/Text"}
    assert run(write({"openapi.yaml": root(BOOK)}, tmp_path / "inline"), new).output.startswith("No changes")


def test_discriminator_mappings_and_escaped_names_reach_their_files(tmp_path: Path) -> None:
    novel = {"type": "object", "properties": {"kind": {"type": "string"}}}
    schema = {
        "oneOf": [{"$ref": "kinds/a%20novel.yaml"}],
        "discriminator": {
            "propertyName": "kind",
            "mapping": {"novel": "kinds/a%20novel.yaml", "other": "Other"},
        },
    }
    new = write({"openapi.yaml": root(schema), "kinds/a novel.yaml": novel}, tmp_path)
    bundled = load_source(str(new), new)
    written = bundled["paths"]["/books/{isbn}"]["get"]["responses"]["200"]["content"]["application/json"][
        "schema"
    ]
    assert written["oneOf"] == [{"$ref": "#/x-csapi-files/kinds~1a novel.yaml"}]
    assert written["discriminator"]["mapping"] == {
        "novel": "#/x-csapi-files/kinds~1a novel.yaml",
        "other": "Other",
    }
    assert bundled["x-csapi-files"] == {"kinds/a novel.yaml": novel}


def test_a_part_of_a_file_no_reference_reaches_has_no_via(tmp_path: Path) -> None:
    """A change in a file's unused part is reported (never silent) at the file's pointer, without a
    `via`: no `$ref` of the root document leads there."""
    library = {"Book": BOOK, "Shelf": {"type": "string"}}
    old = write({"openapi.yaml": root({"$ref": "lib.yaml#/Book"}), "lib.yaml": library}, tmp_path / "a")
    library = {**library, "Shelf": {"type": "integer"}}
    new = write({"openapi.yaml": root({"$ref": "lib.yaml#/Book"}), "lib.yaml": library}, tmp_path / "b")
    result = CliRunner().invoke(main, ["diff", "--no-proof", "--format", "json", str(old), str(new)])
    changes = json.loads(result.output)["changes"]
    assert [(c["pointer"], c["via"], c["classification"]) for c in changes] == [
        ("lib.yaml#/Shelf", "", "compatible")
    ]
