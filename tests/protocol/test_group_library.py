"""The group library leaves nothing behind: ``rbcl`` writes its bundled libsodium to a
temporary file at every import and never removes it (2.7 MB in the temporary folder for
every fairtable process, for ever); ``protocol._group`` removes it once it is loaded."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def test_importing_the_protocol_leaves_no_copy_of_libsodium_behind(tmp_path: Path) -> None:
    env = dict(os.environ, TMPDIR=str(tmp_path))
    done = subprocess.run(
        [sys.executable, "-c", "from fairtable import protocol; print(protocol.PROTOCOL_VERSION)"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().isdigit()  # the group works after its file is gone
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_the_group_still_multiplies_after_its_library_file_is_removed() -> None:
    import fairtable.protocol.crypto as PC

    two = (2).to_bytes(32, "little")
    assert PC.mul(two, PC.BASE) == PC.add(PC.BASE, PC.BASE)
