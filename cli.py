"""The `csapi` command line: thin click commands that call functions living elsewhere.

`validate` checks the OpenAPI document (openapi.lint; with --drift, the mock against it:
conformance.drift on the mock mock_server.drift builds), `diff` compares two versions of it
(openapi.diff), `serve` runs the mock (mock_server.serve), `fixtures` prints a generated data set
(fixtures).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING

import click

from csapi import openapi
from csapi.openapi.compat import IncompatibleVersion

if TYPE_CHECKING:
    from csapi.openapi.diff import Change

# `csapi diff --fail-on`; openapi.diff holds the same tuple and the removed values (a test keeps them
# equal). Not imported from there: that pulls in the diff, time taken from every `csapi serve` start.
FAIL_ON = ("none", "breaking", "obligation", "any")
REMOVED_FAIL_ON = {
    "breaking-client": "use --fail-on breaking: a change that can fail an existing client",
    "breaking-server": "use --fail-on obligation: breaking changes and those that ask servers for more",
}


def _failure(message: str, status: int) -> click.ClickException:
    """An error click shows as `Error: message`, exiting with `status` (click types a
    ClickException's exit_code as a class variable, so the status is a subclass's)."""

    class Failure(click.ClickException):
        exit_code = status

    return Failure(message)


class _Group(click.Group):
    def invoke(self, ctx: click.Context) -> object:
        """A library outside the range csapi was tested with: one line naming the range, exit 2."""
        try:
            return super().invoke(ctx)
        except IncompatibleVersion as exc:
            click.echo(f"csapi: {exc}", err=True)
            ctx.exit(2)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
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
@click.option(
    "--drift", is_flag=True, help="Then run the mock on the document and check it still matches (about 20 s)."
)
@click.option("--include", multiple=True, help="With --drift: only these operationIds or tags (repeatable).")
def validate(path: Path | None, output_format: str, drift: bool, include: tuple[str, ...]) -> None:
    """Check the OpenAPI document at PATH (default: the project's own).

    It must be valid OpenAPI 3.0 (openapi-spec-validator) and hold exactly the spec's
    operations, each with an operationId, summary, tags and a 2xx JSON schema; every $ref
    must resolve, every component be used and every example match its schema. With --drift,
    the mock then serves the document (response validation on) and a quick schemathesis pass
    lists each operation whose answers no longer match it.
    Exit status 0 when clean, 1 on any problem.
    """
    from csapi.openapi import lint

    report = lint.lint(path or openapi.DOCUMENT_PATH)
    drifts = None
    if drift:  # conformance checks the mock it is handed, built on the document by mock_server
        from csapi.conformance.drift import check_drift
        from csapi.mock_server import drift as mock

        with mock.quiet():
            drifts = check_drift(path or openapi.DOCUMENT_PATH, mock.mock_on, include=include)
    if output_format == "json":
        verdict = report.as_dict() | ({"drift": drifts.as_dict()} if drifts else {})
        click.echo(json.dumps(verdict, indent=2, ensure_ascii=False))
    else:
        for problem in report.problems:
            click.echo(str(problem))
        click.echo(report.summary())
        for line in drifts.lines() if drifts else ():
            click.echo(line)
    raise SystemExit(0 if report.valid and (drifts is None or drifts.valid) else 1)


FIXTURE_SETS = ["default", "empty", "large"]


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Interface to bind.")
@click.option("--port", default=8000, show_default=True, type=int)
@click.option(
    "--seed",
    type=int,
    help="Seed of the fixtures (default: 0 on a loopback --host, else drawn at random).",
)
@click.option(
    "--fixtures", "fixture_set", type=click.Choice(FIXTURE_SETS), default="default", show_default=True
)
@click.option("--api-key", help="The X-API-Key to accept (default: the state file's, else a random one).")
@click.option("--no-admin", is_flag=True, help="Disable the mock-only /__mock__/ API.")
@click.option(
    "--admin-token",
    metavar="TOKEN",
    help="The admin API needs this X-Mock-Admin-Token header; on a --host other than loopback it "
    "is off without one.",
)
@click.option(
    "--admin-origin",
    "admin_origins",
    multiple=True,
    metavar="URL",
    help="A page on this origin (repeatable) may call the admin API with CORS (by default none may).",
)
@click.option(
    "--allowed-host",
    "allowed_hosts",
    multiple=True,
    metavar="NAME",
    help="On a loopback --host, also answer requests for this Host name (repeatable); "
    "others than localhost and loopback addresses are refused (DNS rebinding).",
)
@click.option(
    "--state",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Load the state from FILE at start if it exists; write it back (atomically) on shutdown. "
    "Only the default session's: X-Mock-Session sandboxes are never saved.",
)
@click.option(
    "--autosave",
    type=click.FloatRange(min=0, min_open=True),
    metavar="SECONDS",
    help="Also save --state every SECONDS while it changes (in the background).",
)
@click.option("--tls", is_flag=True, help="Serve HTTPS with a certificate made for this run (prints its CA).")
@click.option(
    "--certfile",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Serve HTTPS with this certificate (PEM); needs --keyfile.",
)
@click.option("--keyfile", type=click.Path(exists=True, dir_okay=False, path_type=Path), help="Its key.")
@click.option("--validate-responses", is_flag=True, help="Check every response against the document.")
@click.option(
    "--strict-requests",
    is_flag=True,
    help="Refuse (400) unknown query parameters and body fields; by default they are ignored and logged.",
)
@click.option(
    "--no-cache", is_flag=True, help="Compute every GET anew (by default a repeat is answered until a write)."
)
@click.option(
    "--cors-origin",
    "cors_origins",
    multiple=True,
    metavar="URL",
    help="Only this origin (repeatable) gets CORS headers, e.g. http://localhost:3000 (default: any).",
)
@click.option("--no-cors", is_flag=True, help="No CORS: no Access-Control-* headers, OPTIONS is a 405.")
@click.option(
    "--latency",
    metavar="MIN-MAX",
    help="Add MIN to MAX ms (uniform, seeded by --seed) to each API request, e.g. 50-200.",
)
@click.option(
    "--error-rate",
    type=click.FloatRange(0, 1),
    default=0.0,
    metavar="SHARE",
    help="Answer this share of API requests with a 5xx or 429, seeded by --seed, e.g. 0.02.",
)
@click.option(
    "--report",
    type=click.Path(dir_okay=False, path_type=Path),
    help="At stop, write the client's contract report to FILE (HTML if it ends in .html, else JSON).",
)
@click.option(
    "--max-sessions",
    type=click.IntRange(min=0),
    default=100,
    show_default=True,
    metavar="N",
    help="At most N X-Mock-Session sandboxes at once (one more is a 429); the default session aside.",
)
@click.option(
    "--session-ttl",
    type=click.FloatRange(min=0, min_open=True),
    default=3600.0,
    show_default=True,
    metavar="SECONDS",
    help="Drop an X-Mock-Session sandbox idle for this long.",
)
@click.option(
    "--engine",
    metavar="URL",
    envvar="CSAPI_ENGINE",
    help="Keep the state in this shared engine, e.g. redis://localhost:6379/0, so that several "
    "workers and hosts serve one state [CSAPI_ENGINE].",
)
@click.option(
    "--workers",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    metavar="N",
    help="Serve with N processes on one port; more than one needs --engine.",
)
def serve(
    host: str,
    port: int,
    seed: int | None,
    fixture_set: str,
    api_key: str | None,
    no_admin: bool,
    admin_token: str | None,
    admin_origins: tuple[str, ...],
    allowed_hosts: tuple[str, ...],
    state: Path | None,
    autosave: float | None,
    tls: bool,
    certfile: Path | None,
    keyfile: Path | None,
    validate_responses: bool,
    strict_requests: bool,
    no_cache: bool,
    cors_origins: tuple[str, ...],
    no_cors: bool,
    latency: str | None,
    error_rate: float,
    report: Path | None,
    max_sessions: int,
    session_ttl: float,
    engine: str | None,
    workers: int,
) -> None:
    """Run the stateful mock server until Ctrl-C (or SIGTERM); with --state, save the state then.

    It listens on 127.0.0.1 unless told otherwise, answering only requests for a loopback Host
    (--allowed-host adds names); web pages never reach /__mock__/ (--admin-origin admits one). On
    another interface the admin API needs --admin-token, or is off, and the fixtures' seed is
    drawn at random unless --seed is given.

    \b
    Exit status: 0 stopped, 2 bad usage (e.g. --certfile without --keyfile),
    3 cannot listen (port in use), 4 the --state file is not a usable csapi
    state (it is left untouched), 5 the --engine cannot be reached.
    """
    from csapi.mock_server.serve import (
        EXIT_ENGINE,
        EXIT_STATE_FILE,
        EngineError,
        ServeOptions,
        ServeUsageError,
        StateFileError,
        run,
    )

    options = ServeOptions(
        host=host,
        port=port,
        seed=seed,
        fixtures=fixture_set,
        api_key=api_key,
        admin=not no_admin,
        state=state,
        validate_responses=validate_responses,
        strict_requests=strict_requests,
        autosave=autosave,
        tls=tls,
        certfile=certfile,
        keyfile=keyfile,
        cache=not no_cache,
        cors=not no_cors,
        cors_origins=cors_origins,
        latency=latency,
        error_rate=error_rate,
        report=report,
        max_sessions=max_sessions,
        session_ttl=session_ttl,
        engine=engine,
        workers=workers,
        admin_token=admin_token,
        admin_origins=admin_origins,
        allowed_hosts=allowed_hosts,
    )
    try:
        run(options, echo=click.echo, warn=lambda message: click.echo(message, err=True))
    except ServeUsageError as exc:
        raise click.UsageError(str(exc)) from None
    except StateFileError as exc:
        raise _failure(str(exc), EXIT_STATE_FILE) from None
    except EngineError as exc:
        raise _failure(str(exc), EXIT_ENGINE) from None


@main.command()
@click.option("--seed", default=0, show_default=True, type=int)
@click.option("--size", type=click.Choice(FIXTURE_SETS), default="default", show_default=True)
def fixtures(seed: int, size: str) -> None:
    """Print a generated data set as JSON (the mock's snapshot format)."""
    from csapi.fixtures import generate

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
    "--strict", is_flag=True, default=None, help="Also check the toolkit's own gap choices (docs/design.md)."
)
@click.option("--read-only", is_flag=True, default=None, help="Only the checks that change nothing (GETs).")
@click.option("--quick", is_flag=True, default=None, help="A small budget: a smoke test in seconds.")
@click.option("--seed", type=int, help="Seed of the generated checks (default 0) [CSAPI_SEED]")
@click.option("--max-examples", type=int, help="Generated cases per operation [CSAPI_MAX_EXAMPLES]")
@click.option(
    "--settle",
    type=float,
    metavar="SECONDS",
    help="How long a view derived from writes (search, activity, counts, tag lists) may lag: "
    "such a check polls it that long before failing (default 5) [CSAPI_SETTLE]",
)
@click.option("--include", multiple=True, help="Only these operationIds or tags (repeatable).")
@click.option("--exclude", multiple=True, help="Not these operationIds or tags (repeatable).")
@click.option(
    "--junit-xml", type=click.Path(dir_okay=False, path_type=Path), help="Write a JUnit XML report."
)
@click.option(
    "--report",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write a report to read: summary, operations x layers, failures, coverage (.html, else Markdown).",
)
@click.option(
    "--coverage-json",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write what the run exercised, for tools (its JSON shape is above) [CSAPI_COVERAGE_JSON]",
)
@click.option(
    "--accept",
    type=click.Path(dir_okay=False, path_type=Path),
    help="A YAML list of known failures accepted (operation, kind: the check, reason, expires), as "
    "csapi diff --accept's: shown, not failing, until they expire [CSAPI_ACCEPT]",
)
@click.option(
    "--config",
    type=click.Path(dir_okay=False, exists=True, path_type=Path),
    help="A YAML file of these settings: keys base_url, base-url or CSAPI_BASE_URL [CSAPI_CONFIG]",
)
def conform(config: Path | None, **options: object) -> None:
    """Check a server against the spec; exit 0 iff every check passed.

    \b
    Exit status:
      0  every check passed (failures --accept accepts do not count)
      1  failures, or an --accept entry past its expiry date
      2  bad usage, in one line: a setting, a --base-url ending in /v1 (the suite adds it),
         an --include/--exclude name the document does not have, settings that select no
         check, an unreadable --accept file; or a run that ran no check at all
      3  the target cannot be reached, is not the API (GET /v1/ping answered a web page, a 404,
         a redirect, an error or no JSON), or refuses the key or a user's credentials

    Progress goes to stderr: a bar on a terminal; piped, a line per layer and one at least
    every 10 seconds.

    --coverage-json FILE writes what the run exercised, as one JSON object (a new key
    may appear within a version; none goes away):

    \b
      format, version  "csapi-conform-coverage", 1
      verdict, target, seed, started_at, duration_seconds, settings, left_behind
      value_kinds    {kind: meaning}: absent, empty, valid, array, invalid-type, out-of-range
      totals         checks {passed, failed, errors, skipped, left_out, accepted}, operations
                     {documented, exercised}, statuses {documented, seen}, requests,
                     requests_outside_the_document (e.g. the 405 probes)
      skip_reasons   {reason: how many checks}; left out by --read-only, not --strict,
                     --include/--exclude, or skipped (a missing user, no --team-id, ...)
      failures       [{layer, operation_id, check, rule, status, kind, message, curl, response}]
                     (not those --accept accepted: they are under accepted)
      accepted       [{operation_id, check, reason, expires, layer, id, status, kind, message}]
      accept_notes   [{entry, message, fails}]: --accept entries expired (fails) or unused
      operations     [{operation_id, method, path, tag, summary, selected, exercised,
                       requests {layer: n},
                       statuses {documented, seen {status: n}, not_seen, undocumented},
                       parameters [{name, in, required, kinds {kind: n}}],
                       layers {contract|behaviour|access: {state, passed, failed,
                               skipped, accepted, requests, reason}},
                       checks [{layer, check, rule, status, reason | kind, message,
                                accepted}]}]
      other_checks   checks about the run as a whole, as in checks
    """
    from csapi.conformance.runner import EXIT_USAGE, run
    from csapi.conformance.settings import UsageError, load_settings

    try:
        raise SystemExit(run(load_settings(options, config_file=config)))
    except UsageError as exc:  # a setup mistake: one line, before any request
        click.echo(f"csapi conform: {exc}", err=True)
        raise SystemExit(EXIT_USAGE) from None


def _fail_on(ctx: click.Context, param: click.Parameter, value: str) -> str:
    """One of FAIL_ON; the values of the old three classes are refused with what to use instead."""
    if value in REMOVED_FAIL_ON:
        raise click.BadParameter(
            f"{value!r} was removed with the three-class model: {REMOVED_FAIL_ON[value]}"
        )
    if value not in FAIL_ON:
        raise click.BadParameter(f"{value!r} is not one of {', '.join(FAIL_ON)}")
    return value


@main.command("diff")
@click.argument("old")
@click.argument("new")
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["text", "json", "markdown"]),
    default="text",
    show_default=True,
    help="text: grouped by operation; json: for tools; markdown: a pull-request comment.",
)
@click.option(
    "--fail-on",
    default="breaking",
    show_default=True,
    callback=_fail_on,
    metavar="[" + "|".join(FAIL_ON) + "]",
    help="Exit 1 on breaking changes (not accepted), also on obligations, on any change, or never.",
)
@click.option(
    "--accept",
    "accept_file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="YAML list of accepted breaks (operation or pointer, kind, reason, expires): see README.",
)
@click.option(
    "--no-proof", is_flag=True, help="Skip the payload proof (generated payloads) of changed schemas."
)
def diff_command(
    old: str, new: str, output_format: str, fail_on: str, accept_file: Path | None, no_proof: bool
) -> None:
    """List what changed from the document OLD to NEW, and whom each change can fail.

    OLD and NEW are files, or git:REV for the document as of a git revision (the file NEW
    names, else the project's own), e.g. `csapi diff git:main openapi/openapi.yaml`. A document
    may span files: `$ref`s to other files (relative or absolute paths, file:// URIs, with or
    without a #/pointer) are followed from each side's own file, at REV for a git:REV side. Each
    change is breaking (a client that follows OLD can fail against a server that follows NEW),
    an implementer obligation or compatible, with its reason (see README, Editing the spec).

    Exit status 0, or 1 when --fail-on is met or an --accept entry has expired. 2, with one
    line naming the side, when a side cannot be read or is not valid OpenAPI 3.0 or 3.1
    (Swagger 2.0, not OpenAPI, another version, an error openapi-spec-validator finds, a $ref
    that cannot be followed: missing file or target, http(s) URL), when the accept file cannot
    be read, or after the report when a change is in a keyword csapi diff does not compare
    (one line each on stderr: judge it by hand, or accept it with kind not-compared).
    """
    from csapi.openapi import diff

    files = [Path(side) for side in (new, old) if not side.startswith("git:")]
    reference = files[0] if files else openapi.DOCUMENT_PATH
    sides = {}
    for name, source in (("OLD", old), ("NEW", new)):
        try:
            sides[name] = diff.load_source(source, reference)
        except diff.SourceError as exc:
            raise _failure(f"{name} {source}: {exc}", 2) from None
    try:
        accept = diff.load_accept(accept_file) if accept_file is not None else None
    except diff.AcceptError as exc:
        raise click.UsageError(str(exc)) from None
    report = diff.compare(sides["OLD"], sides["NEW"], old, new, proof=not no_proof, accept=accept)
    if output_format == "json":
        click.echo(json.dumps(report.as_dict(), indent=2, ensure_ascii=False))
    else:
        click.echo((report.markdown() if output_format == "markdown" else report.text()).rstrip("\n"))
    for change in report.unjudged:
        click.echo(
            f"csapi diff cannot judge {_keyword(change)} at {change.where}: {change.message}", err=True
        )
    raise SystemExit(2 if report.unjudged else 1 if report.fails(fail_on) else 0)


def _keyword(change: Change) -> str:
    """The keyword a `not-compared` change is about: its reason names it in backquotes."""
    named = re.search(r"`([^`]+)`", change.reason)
    return named.group(1) if named else change.pointer.rsplit("/", 1)[-1]


if __name__ == "__main__":
    main()
