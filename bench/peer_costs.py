"""Run one ``fairtable`` peer with CPU counters: where a networked game's CPU goes.

``bench/netplay.py`` starts every peer through this wrapper: it imports the CLI, wraps
the protocol's costly functions and libsodium's group operations with CPU-time counters
(``time.process_time``, this process only: the machine is shared, so CPU is the fair
figure, not wall time), runs the command, and at exit writes the counters as JSON to the
file named by ``FAIRTABLE_BENCH_COSTS``.  Nothing in the packages changes: the wrappers
are installed here, by replacing the functions in the modules that hold them.

Categories nest (a shuffle-proof check does multiplications); each category's ``cpu`` is
inclusive, and every group operation is also counted in the innermost category around
it, so "mults in shuffle verify" and "mults elsewhere" add up to all mults.

    python bench/peer_costs.py host reign --bot random ...   (as ``fairtable``)
"""

from __future__ import annotations

import atexit
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

# bench/ is this script's folder: its protocol.py must not shadow the package (which comes
# from PYTHONPATH or the editable install, so a same-run reference can run other code)
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

import nacl.bindings  # noqa: E402
import nacl.signing  # noqa: E402

try:  # the deck's group since protocol version 5; a base run (older code) may lack it
    import rbcl  # noqa: E402
except ImportError:  # pragma: no cover
    rbcl = None

from fairtable.client import cli  # noqa: E402  (imports every package the peer uses)

clock = time.process_time
stack: list[str] = []
costs: dict[str, dict[str, float]] = {}
GROUP_OPS = {  # name -> kind, on rbcl (ristretto255, version 5) or nacl.bindings (older base)
    "crypto_scalarmult_ristretto255": "mult",
    "crypto_scalarmult_ristretto255_base": "base mult",
    "crypto_core_ristretto255_add": "add",
    "crypto_core_ristretto255_sub": "add",
    "crypto_core_ristretto255_is_valid_point": "validation",
    "crypto_scalarmult_ed25519_noclamp": "mult",
    "crypto_scalarmult_ed25519_base_noclamp": "base mult",
    "crypto_core_ed25519_add": "add",
    "crypto_core_ed25519_sub": "add",
    "crypto_core_ed25519_is_valid_point": "validation",
}
CATEGORIES = {  # (defining module, function) -> category
    ("fairtable.protocol._shuffle_proof", "verify_shuffle"): "shuffle verify",
    ("fairtable.protocol._shuffle_proof", "prove_shuffle"): "shuffle prove",
    ("fairtable.protocol._deck", "shuffle"): "shuffle (re-randomise)",
    ("fairtable.protocol._deck", "verify_shares"): "shares verify",
    ("fairtable.protocol._deck", "decryption_shares"): "shares prove",
    ("fairtable.protocol._deck", "verify_hand_over"): "re-encryption verify",
    ("fairtable.protocol._deck", "hand_over"): "re-encryption prove",
    ("fairtable.protocol._deck", "verify_key_share"): "key verify",
    ("fairtable.protocol._deck", "parse_cards"): "point validation",
    ("fairtable.protocol._codec", "decode"): "codec decode",
    ("fairtable.protocol._codec", "encode"): "codec encode",
}


def _bump(name: str, key: str, amount: float) -> None:
    entry = costs.setdefault(name, {})
    entry[key] = entry.get(key, 0.0) + amount


def timed(category: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        stack.append(category)
        start = clock()
        try:
            return fn(*args, **kwargs)
        finally:
            stack.pop()
            if category not in stack:  # count recursion once
                _bump(category, "cpu", clock() - start)
                _bump(category, "calls", 1)

    wrapper.__wrapped__ = fn  # type: ignore[attr-defined]
    return wrapper


def group_op(kind: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    def wrapper(*args: Any) -> Any:
        start = clock()
        try:
            return fn(*args)
        finally:
            spent = clock() - start
            where = stack[-1] if stack else "elsewhere"
            _bump(f"{kind} [{where}]", "cpu", spent)
            _bump(f"{kind} [{where}]", "calls", 1)

    return wrapper


def install() -> None:
    """Wrap the group operations (looked up on ``rbcl`` -- or, in an older base run,
    ``nacl.bindings`` -- at every call) and the protocol functions in every protocol
    module that imported them by name."""
    for name, kind in GROUP_OPS.items():
        for home in (rbcl, nacl.bindings):
            if home is not None and hasattr(home, name):
                setattr(home, name, group_op(kind, getattr(home, name)))
    modules = [m for n, m in list(sys.modules.items()) if n.startswith("protocol") and m]
    for (home, name), category in CATEGORIES.items():
        original = getattr(sys.modules[home], name)
        wrapped = timed(category, original)
        for module in modules:
            if getattr(module, name, None) is original:
                setattr(module, name, wrapped)
    verify_key = nacl.signing.VerifyKey
    verify_key.verify = timed("signature verify", verify_key.verify)  # type: ignore[method-assign]
    signing_key = nacl.signing.SigningKey
    signing_key.sign = timed("signature sign", signing_key.sign)  # type: ignore[method-assign]
    import fairtable.protocol._port as port
    import fairtable.protocol._session as session

    port.Port.apply = timed("engine apply + digest", port.Port.apply)  # type: ignore[method-assign]
    session.TableSession.record_digest = timed(  # type: ignore[method-assign]
        "state digest", session.TableSession.record_digest
    )


def dump(path: str) -> None:
    usage = os.times()
    costs["process"] = {"cpu": usage.user + usage.system, "calls": 1}
    Path(path).write_text(json.dumps(costs, sort_keys=True))


if __name__ == "__main__":
    target = os.environ.get("FAIRTABLE_BENCH_COSTS")
    if target:
        install()
        atexit.register(dump, target)
    sys.exit(cli.main(sys.argv[1:]))
