"""Check that the built reference manual documents every public name (run by .ci/run).

Reads Sphinx's inventory (``objects.inv``) and the public API as
``tests/_public_api.py`` enumerates it; exits non-zero naming every public object that
has no entry in the manual.
"""

import sys
from pathlib import Path

from sphinx.util.inventory import InventoryFile

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from _public_api import public_api


def main(inventory: str) -> int:
    with open(inventory, "rb") as stream:
        inv = InventoryFile.load(stream, "", lambda base, uri: uri)
    documented = set()
    for items in (inv.data if hasattr(inv, "data") else inv).values():
        documented.update(items)
    entries, skipped = public_api()
    missing = [e.qualname for e in entries if e.qualname not in documented]
    for line in skipped:
        print(f"not checked (missing extra): {line}")
    for name in missing:
        print(f"not in the reference manual: {name}")
    print(f"{len(entries) - len(missing)} of {len(entries)} public objects in the reference")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
