"""The behaviour layer's state machine: machine.py (the machine and its check, stateful_model), model.py
(the reference model), base.py and items/moves/social/reads.py (its steps), properties.py (what it
records, ids stateful_model.<name>).

Every module of this package is imported here, so a module dropped in registers its checks."""

from ...registry import import_all

import_all(__name__, __path__)
