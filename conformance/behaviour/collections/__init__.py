"""Behaviour checks of the collections operations (operationIds collections.*), a module per rule family.

Every module of this package is imported here, so a module dropped in registers its checks."""

from ...registry import import_all

import_all(__name__, __path__)
