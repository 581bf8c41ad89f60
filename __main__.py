"""`python -m csapi`: the console script `csapi`, run as a module.

The repository's root is the `csapi` package once installed (pyproject.toml maps it), so this file
is `csapi/__main__.py` there.
"""

from csapi.cli import main

main()
