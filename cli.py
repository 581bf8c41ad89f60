"""The `csapi` command line: thin click commands that call functions living elsewhere.

`validate` checks the OpenAPI document (the logic is in `openapi.lint`).
"""

from __future__ import annotations

import json
from pathlib import Path

import click

import openapi
from openapi import lint


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="csapi")
def main() -> None:
    """csapi: OpenAPI contract, stateful mock server and conformance suite
    for the Collection-Sharing Service API."""


@main.command()
@click.argument("path", required=False, type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="text: one line per problem and a summary; json: one object for tools.",
)
def validate(path: Path | None, output_format: str) -> None:
    """Check the OpenAPI document at PATH (default: the project's own).

    It must be valid OpenAPI 3.0 (openapi-spec-validator) and hold exactly the spec's
    operations, each with an operationId, summary, tags and a 2xx JSON schema; every $ref
    must resolve, every component be used and every example match its schema.
    Exit status 0 when clean, 1 on any problem.
    """
    report = lint.lint(path or openapi.DOCUMENT_PATH)
    if output_format == "json":
        click.echo(json.dumps(report.as_dict(), indent=2, ensure_ascii=False))
    else:
        for problem in report.problems:
            click.echo(str(problem))
        click.echo(report.summary())
    raise SystemExit(0 if report.valid else 1)


if __name__ == "__main__":
    main()
