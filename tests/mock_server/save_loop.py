"""Run by test_state.py until it is SIGKILLed: save two states to one file in turn, forever.

python -m tests.mock_server.save_loop STATE A.json B.json
(A and B are snapshots; each is saved with the API key "key-a" or "key-b".)
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from csapi.mock_server.serve import save_state
from csapi.mock_server.store import Store


def main(state: Path, a: Path, b: Path) -> None:
    stores = [
        (Store(data=json.loads(a.read_text())), "key-a"),
        (Store(data=json.loads(b.read_text())), "key-b"),
    ]
    print("ready", flush=True)
    while True:
        for store, key in stores:
            save_state(state, store, key)
            print("saved", key, flush=True)


if __name__ == "__main__":
    main(*(Path(arg) for arg in sys.argv[1:4]))
