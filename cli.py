"""The `csapi` command line: thin click commands that call functions living elsewhere."""

from __future__ import annotations

import click


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="csapi")
def main() -> None:
    """csapi: OpenAPI contract, stateful mock server and conformance suite
    for the Collection-Sharing Service API."""


if __name__ == "__main__":
    main()
