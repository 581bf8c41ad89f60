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


@main.command()
@click.option("--base-url", help="The server to check, e.g. https://api.example.com [CSAPI_BASE_URL]")
@click.option("--api-key", help="Its X-API-Key [CSAPI_API_KEY]")
@click.option(
    "--user",
    "users",
    multiple=True,
    metavar="ID:TOKEN",
    help="A user's Basic credentials; repeat: the first acts, the second and third are used for "
    "permission checks [CSAPI_USERS=1:a,2:b]",
)
@click.option(
    "--team-id", type=int, help="A team the first user manages and the second belongs to [CSAPI_TEAM_ID]"
)
@click.option(
    "--strict", is_flag=True, default=None, help="Also check the toolkit's own gap choices (DESIGN.md)."
)
@click.option("--read-only", is_flag=True, default=None, help="Only the checks that change nothing (GETs).")
@click.option("--quick", is_flag=True, default=None, help="A small budget: a smoke test in seconds.")
@click.option("--seed", type=int, help="Seed of the generated checks (default 0) [CSAPI_SEED]")
@click.option("--max-examples", type=int, help="Generated cases per operation [CSAPI_MAX_EXAMPLES]")
@click.option("--include", multiple=True, help="Only these operationIds or tags (repeatable).")
@click.option("--exclude", multiple=True, help="Not these operationIds or tags (repeatable).")
@click.option(
    "--junit-xml", type=click.Path(dir_okay=False, path_type=Path), help="Write a JUnit XML report."
)
@click.option(
    "--report", type=click.Path(dir_okay=False, path_type=Path), help="Write a report (.html, else Markdown)."
)
@click.option(
    "--config",
    type=click.Path(dir_okay=False, exists=True, path_type=Path),
    help="A YAML file of these settings.",
)
def conform(config: Path | None, **options: object) -> None:
    """Check a server against the spec; exit 0 iff every check passed.

    Exit status: 0 passed, 1 failures, 2 bad usage, 3 target unreachable or credentials refused.
    """
    from conformance.runner import run
    from conformance.settings import UsageError, load_settings

    try:
        settings = load_settings(options, config_file=config)
    except UsageError as exc:
        raise click.UsageError(str(exc)) from None
    raise SystemExit(run(settings))


if __name__ == "__main__":
    main()
