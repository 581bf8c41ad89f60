"""The two sides of `csapi diff`: a file, or `git:REV` for the document as of a git revision.

Each side is read, its external `$ref`s bundled (bundle.py: every referenced file read from the
same place, a working tree or the revision) and validated as OpenAPI 3.0 or 3.1 before it is
compared: anything else (Swagger 2.0, a file that is not OpenAPI, another version, an invalid
document, a reference that cannot be followed) is a `SourceError` with one line, never a silent
"No changes".
"""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
from pathlib import Path
from typing import Any

from jsonschema.exceptions import ValidationError, best_match
from jsonschema.validators import validator_for
from openapi_spec_validator import OpenAPIV30SpecValidator, OpenAPIV31SpecValidator

from ..compat.openapi_spec_validator import SemanticValidator, as_the_validator_reads
from ..loader import DocumentError, loads, loads_any, one_line
from ..refs import pointer
from .bundle import BundleError, Read, bundle, shown_in

VERSIONS = re.compile(r"3\.[01]\.\d+(-.+)?")  # the versions read: 3.0.x and 3.1.x
MAX_MESSAGE = 200

# Canonical-text hashes of the bundled documents found valid in this process: diffing a document
# against itself, or the same revision twice, validates it once.
_VALID: set[str] = set()


class SourceError(Exception):
    """A document side (`git:REV` or a file) cannot be read or is not OpenAPI 3.0/3.1: one line."""


def load_source(source: str, reference: str | Path) -> dict[str, Any]:
    """A document from a file path, or `git:REV` for the file at `reference` as of revision REV.

    External `$ref`s are bundled (bundle.py) and the document is validated.
    """
    if source.startswith("git:"):
        revision, path = source.removeprefix("git:"), Path(reference).absolute()
        read: Read = _git_reader(revision, path.parent)
    else:
        path = Path(source).absolute()
        read = _file_reader(path.parent)
    try:
        text = read(path.name)
    except BundleError as exc:
        raise SourceError(str(exc)) from None
    document = _document(text)
    version = _version(document)
    try:
        document = bundle(document, path.parent, path.name, read)
    except BundleError as exc:
        raise SourceError(one_line(str(exc))) from None
    validate(document, version)
    return document


def _file_reader(root: Path) -> Read:
    def read(key: str) -> str:
        try:
            return (root / key).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise BundleError(f"cannot read {key}: {one_line(str(exc))}") from None

    return read


def _git_reader(revision: str, root: Path) -> Read:
    """Files as of `revision`, by their path from `root` (`git show REV:./path` run in `root`)."""

    def read(key: str) -> str:
        command = ["git", "-C", str(root), "show", f"{revision}:./{key}"]
        try:
            shown = subprocess.run(command, capture_output=True, text=True, check=False)
        except OSError as exc:
            raise BundleError(f"cannot run git: {exc}") from None
        if shown.returncode != 0:
            why = one_line(shown.stderr) or f"exit status {shown.returncode}"
            raise BundleError(f"git cannot show {key} at {revision!r}: {why}")
        return shown.stdout

    return read


def _document(text: str) -> Any:
    """The data of the root file, of any shape (a list is refused by `_version`, with its name)."""
    try:
        return loads(text)
    except DocumentError:
        try:
            return loads_any(text)
        except DocumentError as exc:
            raise SourceError(str(exc)) from None


def _version(document: Any) -> str:
    """The document's `openapi` version, when it is one csapi diff reads; else SourceError."""
    if not isinstance(document, dict):
        shape = "empty" if document is None else f"a {_json_type(document)}"
        raise SourceError(
            f"not an OpenAPI document: the file is {shape}, not a mapping with an `openapi` field"
        )
    if "swagger" in document:
        raise SourceError(
            f"Swagger {document['swagger']} is not read: convert the document to OpenAPI 3 first "
            "(e.g. with swagger2openapi or editor.swagger.io)"
        )
    version = document.get("openapi")
    if version is None:
        raise SourceError("not an OpenAPI document: it has no `openapi` field")
    if not isinstance(version, str):
        raise SourceError(f'`openapi: {json.dumps(version)}` must be a string, e.g. "3.0.3" (quote it)')
    if not VERSIONS.fullmatch(version):
        raise SourceError(f"OpenAPI {version} is not read: csapi diff reads OpenAPI 3.0.x and 3.1.x")
    return version


def _json_type(value: Any) -> str:
    names = {list: "list", str: "string", bool: "boolean", int: "number", float: "number"}
    return names.get(type(value), type(value).__name__)


def validate(document: dict[str, Any], version: str) -> None:
    """SourceError with the first error of openapi-spec-validator (the version's own validator)."""
    digest = hashlib.sha256(json.dumps(document, sort_keys=True).encode()).hexdigest()
    if digest in _VALID:
        return
    problem = first_error(as_the_validator_reads(document, version), version)
    if problem is not None:
        raise SourceError(f"not valid OpenAPI {version}: {problem}")
    _VALID.add(digest)


def first_error(document: dict[str, Any], version: str) -> str | None:
    """The first error, located, in one line; None for a valid document.

    openapi-spec-validator is fast (its jsonschema-rs backend) but its meta-schema messages quote
    whole objects; only when it finds an error does the pure-Python meta-schema pass run, for the
    error that says what is wrong where (as `csapi validate` does).
    """
    validator = OpenAPIV31SpecValidator if version.startswith("3.1") else OpenAPIV30SpecValidator
    try:
        first = next(iter(validator(document).iter_errors()), None)
    except Exception as exc:  # its semantic checks may raise on a document they did not expect
        return f"validation stopped: {_short(str(exc))}"
    if first is None:
        return None
    meta = _meta_error(document, version)
    located = meta or (None if version.startswith("3.1") else _located(document))
    if located is None:  # openapi-spec-validator places it relative to the object it checked: no place
        return shown_in(_message(first))
    where = pointer(located.absolute_path)
    return shown_in(f"at {where}: {_message(located)}" if where else _message(located))


def _meta_error(document: dict[str, Any], version: str) -> ValidationError | None:
    """The version's meta-schema error that says best what is wrong where (pure-Python jsonschema)."""
    from openapi_spec_validator.schemas import schema_v30, schema_v31  # the meta-schemas it bundles

    meta_schema = dict(schema_v31 if version.startswith("3.1") else schema_v30)
    try:
        found: ValidationError | None = best_match(
            validator_for(meta_schema)(meta_schema).iter_errors(document)
        )
        return found
    except Exception:  # only for the message: openapi-spec-validator's own error stands without it
        return None


def _located(document: dict[str, Any]) -> ValidationError | None:
    """The first semantic error with its path from the root (through `$ref`s), as `csapi validate`
    reads it; openapi-spec-validator's own stream places it relative to the object it checked.
    3.0 only: the compat door has no 3.1 form, so a 3.1 semantic error is told without a place.
    """
    try:
        return next(iter(SemanticValidator(document, "").iter_errors()), None)
    except Exception:  # only for the place: the message stands without it
        return None


def _message(error: ValidationError) -> str:
    """The error's message; for a failed anyOf/oneOf of the object itself, what each form missed."""
    reasons = sorted({_short(sub.message) for sub in error.context or () if not sub.path})
    if reasons:
        return _short(f"matches none of the allowed forms: {'; '.join(reasons)}")
    return _short(error.message)


def _short(text: str) -> str:
    text = one_line(text.strip().split("\n")[0])
    return text if len(text) <= MAX_MESSAGE else text[: MAX_MESSAGE - 1] + "…"
