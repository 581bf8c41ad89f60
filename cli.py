"""The `csapi` command line: thin click commands that call functions living elsewhere.

`validate` checks the OpenAPI document (openapi.lint), `serve` runs the mock
(mock_server.serve), `fixtures` prints a generated data set (fixtures).
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


FIXTURE_SETS = ["default", "empty", "large"]


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Interface to bind.")
@click.option("--port", default=8000, show_default=True, type=int)
@click.option("--seed", default=0, show_default=True, type=int, help="Seed of the fixtures.")
@click.option(
    "--fixtures", "fixture_set", type=click.Choice(FIXTURE_SETS), default="default", show_default=True
)
@click.option("--api-key", help="The X-API-Key to accept (default: the state file's, else a random one).")
@click.option("--no-admin", is_flag=True, help="Disable the mock-only /__mock__/ API.")
@click.option(
    "--state",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Load the state from FILE at start if it exists; write it back on shutdown.",
)
@click.option("--validate-responses", is_flag=True, help="Check every response against the document.")
def serve(
    host: str,
    port: int,
    seed: int,
    fixture_set: str,
    api_key: str | None,
    no_admin: bool,
    state: Path | None,
    validate_responses: bool,
) -> None:
    """Run the stateful mock server until Ctrl-C."""
    from mock_server.serve import ServeOptions, StateFileError, run

    options = ServeOptions(host, port, seed, fixture_set, api_key, not no_admin, state, validate_responses)
    try:
        run(options, echo=click.echo)
    except StateFileError as exc:
        raise click.ClickException(str(exc)) from None


@main.command()
@click.option("--seed", default=0, show_default=True, type=int)
@click.option("--size", type=click.Choice(FIXTURE_SETS), default="default", show_default=True)
def fixtures(seed: int, size: str) -> None:
    """Print a generated data set as JSON (the mock's snapshot format)."""
    from fixtures import generate

    click.echo(json.dumps(generate(size, seed), indent=1, sort_keys=True))


if __name__ == "__main__":
    main()
