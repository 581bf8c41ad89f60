"""The conformance suite's doors to libraries' undocumented names: one module per library.

Each module starts with `require` (openapi/compat) and holds every use of names its library does
not promise to keep, so that a new release is checked, and adapted, in one file.
"""
