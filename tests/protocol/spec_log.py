"""A verifier of a saved table log written from docs/protocol.md alone.

It imports nothing of ours -- no ``engine``, no ``protocol`` -- only the standard library,
PyNaCl (Ed25519) and ``rbcl`` (libsodium's ristretto255), and checks every cryptographic
claim of a log by the spec's rules: feed signatures and chains (§4), commitments opened by
reveals (§5), key shares (§8.1), every shuffle, re-mix and re-handle proof (§8.5) on the
inputs §7.5 names, every hand-over proof (§8.3), every batch of decryption shares (§8.2)
against the ciphertext the request it answers denotes (§7.5, §7.6), and that every public
decryption is a card; a seat that leaves (§11.10) must send shares for exactly the deck
cards still face down, which strip its layer, and the later rounds are the remaining seats'.
A seat that vanished (§11.11, §7.11): every deal's public checks, every answer to a complaint,
and where every other seat's vote carried, their recovery shares for exactly the face-down
deck cards, each checked against its public share, combined by Lagrange and stripped; a
shuffle the seat owed restarts under its new label among the remaining seats; a pool of the
step is stripped likewise once complete (its re-mix skipped), or never built (``spec_vanish``).
It never searches: what each part answers is carried in the part
or fixed by a stated rule.  ``tests/protocol/test_vectors.py`` runs it on real logs.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from collections import defaultdict
from typing import Any

import nacl.exceptions
import nacl.signing

from .spec_crypto import (
    G,
    add,
    b64,
    canonical,
    card_point,
    commitment,
    dleq_ok,
    reencrypt_ok,
    schnorr_ok,
    shuffle_verify,
    sub,
    total,
)
from .spec_vanish import CouldNotRecover, Parts, SpecFailure, VanishChecks

__all__ = ["LogVerifier", "SpecFailure", "verify_log"]

VERSION = 10


def _k(step: str) -> int:
    match = re.match(r"s(\d+)", step)
    if match is None:
        raise SpecFailure(f"step label {step!r} names no engine step")
    return int(match.group(1))


def read_feeds(log: str) -> tuple[bytes, dict[str, Any], list[tuple[int, dict[str, Any]]]]:
    """§12.3 and §4: the table id, its spec and every part with its seat, each feed in order."""
    lines = log.splitlines()
    head = json.loads(lines[0])
    spec_bytes = b64(head["table"])
    spec = json.loads(spec_bytes)
    table = hashlib.sha256(b"fairtable/table/v1\x00" + spec_bytes).digest()
    keys = [b64(p) for p in spec["players"]]
    feeds: dict[int, dict[int, tuple[int, dict[str, Any]]]] = defaultdict(dict)
    for number, line in enumerate(lines[1:], start=2):
        entry = json.loads(line)
        feeds[entry["seat"]][entry["seq"]] = (number, entry)
    parts: list[tuple[int, dict[str, Any]]] = []
    for seat, feed in sorted(feeds.items()):
        prev = bytes(32)
        if sorted(feed) != list(range(len(feed))):
            raise SpecFailure(f"seat {seat}'s feed has gaps")
        for seq in range(len(feed)):
            number, entry = feed[seq]
            body = b64(entry["body"])
            if entry["v"] != VERSION or b64(entry["table"]) != table:
                raise SpecFailure(f"line {number}: another version or table")
            if b64(entry["prev"]) != prev:
                raise SpecFailure(f"line {number}: broken chain")
            body_hash = base64.urlsafe_b64encode(hashlib.sha256(body).digest()).rstrip(b"=")
            header = canonical(
                {
                    "body_hash": body_hash.decode(),
                    "prev": entry["prev"],
                    "seat": seat,
                    "seq": seq,
                    "table": entry["table"],
                    "type": "entry-header",
                    "v": VERSION,
                }
            )
            try:
                nacl.signing.VerifyKey(keys[seat]).verify(
                    b"fairtable/entry/v1\x00" + header, b64(entry["sig"])
                )
            except nacl.exceptions.BadSignatureError:
                raise SpecFailure(f"line {number}: bad signature") from None
            prev = hashlib.sha256(header).digest()
            batch = json.loads(body)
            parts += [(seat, json.loads(b64(raw))) for raw in batch["parts"]]
    return table, spec, parts


def _ct(text: str) -> bytes:
    ct = b64(text)
    if len(ct) != 64:
        raise SpecFailure("a ciphertext is not 64 bytes")
    return ct


class LogVerifier(VanishChecks):
    """Walks a log's parts step by step (§11.3) and checks each cryptographic claim."""

    def __init__(self, log: str) -> None:
        self.table, spec, self.parts = read_feeds(log)
        self.seats = list(range(len(spec["players"])))
        self.keys: dict[int, bytes] = {}
        self.joint = b""
        # (deck, slot) -> (holder, or None while in the deck; the ciphertext it denotes), §7.5
        self.slots: dict[tuple[str, int], tuple[int | None, bytes]] = {}
        self.pooled: dict[tuple[int, int, str, int], bytes] = {}  # (k, placer, deck, slot) -> ct
        # k -> pool -> position -> (placer, deck, slot), as the placers' hand-overs say (§7.5)
        self.places: dict[int, dict[str, dict[int, tuple[int, str, int]]]] = defaultdict(dict)
        self.points: dict[bytes, tuple[str, int]] = {}  # every card point of every deck
        self.flipped: set[tuple[str, int]] = set()  # deck slots turned face up
        self.piles: dict[str, str] = {}  # pile -> its current deck (the latest shuffled)
        self.leaves: dict[int, int] = {}  # k -> the seat that left at step k
        self.deals: dict[int, list[bytes]] = {}  # dealer -> its Feldman commitments (§7.11)
        self.votes: dict[tuple[int, int, int], set[int]] = defaultdict(set)  # (d, k, seen)
        self.vote_parts: dict[tuple[tuple[int, int, int], int], dict[str, Any]] = {}
        self.order = {id(part): i for i, (_seat, part) in enumerate(self.parts)}  # feed order
        self.departed: list[int] = []  # seats that left or vanished, in order
        self.checked: dict[str, int] = defaultdict(int)

    def proven(
        self, seat: int, msg: dict[str, Any], before: list[bytes], key: bytes, what: str
    ) -> list[bytes]:
        """A shuffle, re-mix or re-handle step's output, its proof checked on ``before``."""
        out = [_ct(c) for c in msg["cards"]]
        if not shuffle_verify(
            self.table,
            before,
            out,
            b64(msg["proof"]),
            key,
            msg["step"].encode(),
            seat,
            msg["deck"].encode(),
        ):
            raise self.fail(seat, what)
        return out

    def run(self) -> dict[str, int]:
        by_step: dict[int, list[tuple[int, dict[str, Any]]]] = defaultdict(list)
        commits: dict[tuple[int, str], bytes] = {}
        reveals: list[tuple[int, dict[str, Any]]] = []
        answers: list[tuple[int, dict[str, Any]]] = []
        for seat, part in self.parts:
            kind = part["type"]
            if kind == "key-share":
                y = b64(part["key"])
                if not schnorr_ok(self.table, seat, y, b64(part["proof"])):
                    raise self.fail(seat, "key share proof")
                self.keys[seat] = y
                self.checked["key shares"] += 1
            elif kind == "commit":
                commits[(seat, part["purpose"])] = b64(part["digest"])
            elif kind == "reveal":
                reveals.append((seat, part))
            elif kind in ("shuffle", "shares", "hand-over"):
                by_step[_k(part["step"])].append((seat, part))
            elif kind == "leave":
                self.leaves[part["step"]] = seat
                by_step[part["step"]] += []
            elif kind == "vss-deal":
                self.deals[seat] = [b64(c) for c in part["commitments"]]
            elif kind == "vss-answer":
                answers.append((seat, part))
            elif kind == "vanish":
                vote = (part["seat"], part["step"], part["seen"])
                self.votes[vote].add(seat)
                self.vote_parts[(vote, seat)] = part
                by_step[part["step"]] += []
            elif kind == "vss-recover":
                by_step[_k(part["step"])].append((seat, part))
            elif kind == "move":
                if part["commit"]:
                    commits[(seat, f"move:s{part['step']}")] = b64(part["commit"])
                by_step[part["step"]] += [(seat, shown) for shown in part["shown"]]
            elif kind == "opening":
                reveals.append((seat, part))
                for shown in part["shown"]:
                    by_step[_k(shown["step"])].append((seat, shown))
        for seat, part in reveals:
            if part["type"] == "reveal":
                purpose, payload = part["purpose"], b64(part["payload"])
            else:
                purpose = f"move:s{part['step']}"
                payload = canonical([[h["deck"], h["slot"]] for h in part["slots"]])
            if commitment(self.table, seat, purpose, b64(part["nonce"]), payload) != commits.get(
                (seat, purpose)
            ):
                raise self.fail(seat, f"{purpose} is not opened by its reveal")
            self.checked["commitments opened"] += 1
        if sorted(self.keys) != self.seats:
            raise SpecFailure("a key share is missing")
        self.joint = total([self.keys[s] for s in self.seats])
        self.check_deals(answers)
        for k in sorted(by_step):
            try:
                self.step(k, by_step[k])
            except CouldNotRecover:
                self.checked["vanishings not recovered"] += 1
                break  # the game ended there (§11.11 "end"): nothing comes after it
        return dict(self.checked)

    # -- one engine step ------------------------------------------------------------------
    def step(self, k: int, parts: list[tuple[int, dict[str, Any]]]) -> None:
        def of(kind: str, pattern: str) -> list[tuple[int, dict[str, Any]]]:
            return [
                (seat, p)
                for seat, p in parts
                if p.get("type", "shares") == kind and re.fullmatch(pattern, p["step"])
            ]

        if k in self.leaves:
            self.leave(k, self.leaves[k], of("shares", rf"s{k}/leave"))
        shuffles = of("shuffle", rf"s{k}/\d+")
        gone = self.carried(k)
        pooled = of("hand-over", rf"s{k}/pool\d+")
        recovery: Parts = []
        before = self.joint
        complete = False
        if gone is not None:  # §11.11: what was shuffled before is abandoned, then restarted
            recovery = of("vss-recover", rf"s{k}/vanish")
            self.before_votes(gone, k, recovery)
            if self.departed:  # a second departure: the table cannot recover, the game ends
                if recovery:
                    raise SpecFailure(f"s{k}: recovery shares where the table cannot recover")
                raise CouldNotRecover
            old = [(seat, m) for seat, m in shuffles if not re.search(r"\.v\d+$", m["deck"])]
            self.abandoned(old)
            # a pooled reveal's hand-overs came before, under the joint key of their time; the
            # pools were complete if every placer's hand-over is in, else they are never used
            complete = self.pools_complete(k, gone, pooled, parts)
            for seat, msg in pooled:
                self.hand_over(k, seat, msg, abandoned=not complete)
            pooled = []
            self.vanish(k, gone, recovery)
            shuffles = [(seat, m) for seat, m in shuffles if (seat, m) not in old]
        self.deck_shuffles(k, shuffles)
        self.shares(of("shares", rf"s{k}"))
        for seat, msg in of("hand-over", rf"s{k}(/peek)?") + pooled:
            self.hand_over(k, seat, msg)
        for seat, msg in of("shuffle", rf"s{k}/rehandle"):
            self.rehandle(k, seat, msg)
        pools = (of("shuffle", rf"s{k}/mix\d+"), of("shares", rf"s{k}/open"))
        self.pools(k, *pools, (gone, recovery, before, complete))

    def deck_shuffles(self, k: int, steps: list[tuple[int, dict[str, Any]]]) -> None:
        decks: dict[str, list[tuple[int, dict[str, Any]]]] = defaultdict(list)
        for seat, msg in steps:
            if msg["step"] != f"s{k}/{seat}" or msg["inputs"]:
                raise self.fail(seat, f"deck shuffle {msg['step']} is not its own, or names inputs")
            decks[msg["deck"]].append((seat, msg))
        for deck, chain in decks.items():
            chain.sort(key=lambda one: one[0])
            if [seat for seat, _ in chain] != self.seats[: len(chain)]:
                raise SpecFailure(f"{deck}: the shufflers are not seats 0, 1, ... in turn")
            self.piles[re.sub(r"\.\d+(\.v\d+)?$", "", deck)] = deck
            n = len(chain[0][1]["cards"])
            cards = []
            for i in range(n):
                point = card_point(self.table, deck, i)
                self.points[point] = (deck, i)
                cards.append(G + add(point, self.joint))
            for seat, msg in chain:
                out = self.proven(
                    seat, msg, cards, self.joint, f"shuffle proof of {deck} {msg['step']}"
                )
                self.checked["deck shuffle steps"] += 1
                cards = out
            for j, ct in enumerate(cards):
                self.slots[(deck, j)] = (None, ct)

    def dleq(self, seat: int, msg: dict[str, Any], cts: list[bytes]) -> list[bytes]:
        """Check a `shares` part against the ciphertexts of its slots; its shares."""
        shares = [b64(s["share"]) for s in msg["shares"]]
        cards = [
            (s["slot"], ct[:32], d) for s, ct, d in zip(msg["shares"], cts, shares, strict=True)
        ]
        if not dleq_ok(self.table, msg["step"], seat, self.keys[seat], cards, b64(msg["proof"])):
            raise self.fail(seat, f"shares proof of {msg['deck']} {msg['step']}")
        self.checked["shares parts"] += 1
        return shares

    def card(self, point: bytes, what: str) -> None:
        if point not in self.points:
            raise SpecFailure(f"{what} decrypts to no card")
        self.checked["public cards"] += 1

    def shares(self, parts: list[tuple[int, dict[str, Any]]]) -> None:
        """Shares at `s<k>`: a private draw (`to_seat` the drawer), a holder's reveal of its
        own held cards, or a flip of deck cards by every seat (§7.6, §7.7)."""
        draws: dict[tuple[str, int], dict[int, list[bytes]]] = defaultdict(dict)
        flips: dict[str, dict[int, list[bytes]]] = defaultdict(dict)
        order: dict[str, list[int]] = {}
        for seat, msg in parts:
            deck, to = msg["deck"], msg["to_seat"]
            slots = [s["slot"] for s in msg["shares"]]
            if msg["cards"]:
                raise self.fail(seat, "names pool cards outside a pool")
            where = [self.slots.get((deck, slot)) for slot in slots]
            if any(w is None for w in where):
                raise self.fail(seat, f"shares for an empty slot of {deck}")
            holders = {w[0] for w in where if w is not None}
            cts = [w[1] for w in where if w is not None]
            shares = self.dleq(seat, msg, cts)
            if to >= 0 or holders == {None}:
                if holders != {None} or to == seat:
                    raise self.fail(seat, "draw shares for cards not in the deck")
                key = f"{deck}/{to}"
                if order.setdefault(key, slots) != slots:
                    raise self.fail(seat, "draw or flip shares for other slots")
                (draws[(deck, to)] if to >= 0 else flips[deck])[seat] = shares
            elif holders == {seat}:  # the holder shows its own cards: M = B - D
                for slot, ct, d in zip(slots, cts, shares, strict=True):
                    self.card(sub(ct[32:], d), f"{deck} slot {slot} shown by seat {seat}")
            else:
                raise self.fail(seat, f"shares for cards of {deck} another seat holds")
        for (deck, to), got in draws.items():
            if sorted(got) != [s for s in self.seats if s != to]:
                raise SpecFailure(f"{deck}: a draw for seat {to} lacks shares")
            for i, slot in enumerate(order[f"{deck}/{to}"]):
                ct = self.slots[(deck, slot)][1]
                b = ct[32:]
                for d in got.values():
                    b = sub(b, d[i])
                self.slots[(deck, slot)] = (to, ct[:32] + b)
        for deck, got in flips.items():
            if sorted(got) != self.seats:
                raise SpecFailure(f"{deck}: a flip lacks shares")
            for i, slot in enumerate(order[f"{deck}/-1"]):
                b = self.slots[(deck, slot)][1][32:]
                for d in got.values():
                    b = sub(b, d[i])
                self.card(b, f"{deck} slot {slot} flipped")
                self.flipped.add((deck, slot))

    def leave(self, k: int, seat: int, parts: list[tuple[int, dict[str, Any]]]) -> None:
        """§11.10: shares to -1 for exactly the face-down cards of every pile's current deck,
        each checked; the seat's layer is stripped and the remaining seats go on."""
        down: dict[str, list[int]] = defaultdict(list)
        for (deck, slot), (holder, _) in sorted(self.slots.items()):
            if holder is None and deck in self.piles.values() and (deck, slot) not in self.flipped:
                down[deck].append(slot)
        sent = {msg["deck"]: msg for who, msg in parts if who == seat}
        if sorted(sent) != sorted(down):
            raise self.fail(seat, f"leaves at s{k} without shares for exactly the face-down decks")
        for deck, msg in sent.items():
            slots = [s["slot"] for s in msg["shares"]]
            if slots != down[deck] or msg["to_seat"] != -1 or msg["cards"]:
                raise self.fail(seat, f"leave shares of {deck} are not its face-down cards")
            cts = [self.slots[(deck, slot)][1] for slot in slots]
            for slot, ct, d in zip(slots, cts, self.dleq(seat, msg, cts), strict=True):
                self.slots[(deck, slot)] = (None, ct[:32] + sub(ct[32:], d))
                self.checked["cards stripped"] += 1
        self.seats = [s for s in self.seats if s != seat]
        self.joint = sub(self.joint, self.keys[seat])
        self.departed.append(seat)

    def hand_over(self, k: int, seat: int, msg: dict[str, Any], *, abandoned: bool = False) -> None:
        deck, to = msg["deck"], msg["to_seat"]
        target = self.joint if to == -1 else self.keys[to]
        if len(msg["places"]) != (len(msg["cards"]) if to == -1 else 0):
            raise self.fail(seat, "a hand-over's places do not match its cards")
        for i, item in enumerate(msg["cards"]):
            holder, held = self.slots.get((deck, item["slot"]), (None, b""))
            if holder != seat:
                raise self.fail(seat, f"hands over {deck} slot {item['slot']}, not its card")
            fresh = _ct(item["card"])
            if not reencrypt_ok(
                self.table,
                msg["step"],
                seat,
                item["slot"],
                self.keys[seat],
                (held[:32], held[32:]),
                target,
                fresh,
                b64(item["proof"]),
            ):
                raise self.fail(seat, f"hand-over proof of {deck} slot {item['slot']}")
            self.checked["hand-over cards"] += 1
            if msg["step"].endswith("/peek") or abandoned:
                continue  # a copy for the peeking seat (§11.4 Peek), or a pool never built
            if to == -1:
                self.pooled[(k, seat, deck, item["slot"])] = fresh
                place = msg["places"][i]
                spots = self.places[k].setdefault(place["pool"], {})
                if place["index"] in spots:
                    raise SpecFailure(f"{place['pool']}: two cards at place {place['index']}")
                spots[place["index"]] = (seat, deck, item["slot"])
                del self.slots[(deck, item["slot"])]
            else:
                self.slots[(deck, item["slot"])] = (to, fresh)

    def rehandle(self, k: int, seat: int, msg: dict[str, Any]) -> None:
        label = msg["deck"]
        if label != f"hand{seat}.{k}":
            raise self.fail(seat, f"re-handles into {label}")
        refs = [(r["seat"], r["deck"], r["slot"]) for r in msg["inputs"]]
        if not refs or any(
            self.slots.get((d, s), (None,))[0] != seat or r != seat for r, d, s in refs
        ):
            raise self.fail(seat, "re-handles cards it does not hold")
        before = [self.slots[(d, s)][1] for _, d, s in refs]
        after = self.proven(seat, msg, before, self.keys[seat], f"re-handle proof {msg['step']}")
        self.checked["re-handles"] += 1
        for _, d, s in refs:
            del self.slots[(d, s)]
        for j, ct in enumerate(after):
            self.slots[(label, j)] = (seat, ct)

    def pools(
        self,
        k: int,
        remixes: Parts,
        opens: Parts,
        vanished: tuple[int | None, Parts, bytes, bool],
    ) -> None:
        """A pool's cards are those its placers' hand-overs put at its places 0, 1, ... (§7.5),
        which each re-mix and each opening must name; re-mixed by its placers in seat order
        (none for one card), then opened by every seat's shares.  A place taken twice or
        left empty is the placers' fault, which the text alone cannot pin on one of them:
        whose card goes where is the game's rule, which the peers check with their engine.
        ``vanished``: the seat that vanished at this step, the recovery shares, the joint key
        before, and whether the pools were complete (§11.11): if they were, every pool is
        stripped of its layer where its re-mix was owed (its step skipped), or after the
        re-mixes, by every remaining seat's recovery shares for exactly the step's pools."""
        named: dict[str, list[tuple[int, str, int]]] = {}
        for label, places in self.places.pop(k, {}).items():
            if sorted(places) != list(range(len(places))):
                raise SpecFailure(f"{label}: the placers' places are not 0, 1, ... once each")
            named[label] = [places[i] for i in range(len(places))]
        current: dict[str, list[bytes]] = {}

        def members(seat: int, label: str, refs: list[dict[str, Any]]) -> None:
            got = [(r["seat"], r["deck"], r["slot"]) for r in refs]
            if named.get(label) != got:
                raise self.fail(seat, f"names other cards of {label} than its placers put in")

        chains: dict[str, list[tuple[int, dict[str, Any]]]] = defaultdict(list)
        for seat, msg in remixes:
            members(seat, msg["deck"], msg["inputs"])
            if msg["step"] != f"s{k}/mix{seat}":
                raise self.fail(seat, f"re-mix {msg['step']} is not its own")
            chains[msg["deck"]].append((seat, msg))
        gone, recovery, before, complete = vanished
        pooled = [(j, m) for j, m in recovery if m["deck"].startswith("pool")]
        if pooled and not complete:
            raise SpecFailure(f"s{k}: recovery shares for pools that were never complete")
        for j in self.seats if complete else []:
            if sorted(m["deck"] for s, m in pooled if s == j) != sorted(named):
                raise self.fail(j, f"recovers {gone} at s{k} without exactly the complete pools")
        for label in sorted(set(chains) | (set(named) if complete else set())):
            chain = sorted(chains.get(label, []), key=lambda one: one[0])
            refs = named[label]
            placers = sorted({seat for seat, _, _ in refs})
            mixers = [seat for seat, _ in chain]
            skipped = complete and gone in placers and gone not in mixers
            if mixers != [s for s in placers if not (skipped and s == gone)] * (len(refs) > 1):
                raise SpecFailure(f"{label}: not re-mixed by its placers in seat order")
            cards = [self.pooled[(k, *ref)] for ref in refs]
            stripped, mixed_by_gone = not complete, None
            for seat, msg in chain:
                if skipped and not stripped and seat > gone:
                    cards, stripped = self.pool_recovered(gone, label, refs, cards, pooled), True
                key = self.joint if stripped else before
                if seat == gone:
                    mixed_by_gone = cards
                cards = self.proven(seat, msg, cards, key, f"re-mix proof of {label} {msg['step']}")
                self.checked["re-mix steps"] += 1
            if not stripped:
                self.stale(gone, label, refs, mixed_by_gone, cards, pooled)
                cards = self.pool_recovered(gone, label, refs, cards, pooled)
            current[label] = cards
        opened: dict[str, dict[int, list[bytes]]] = defaultdict(dict)
        for seat, msg in opens:
            label = msg["deck"]
            members(seat, label, msg["cards"])
            refs = named[label]
            if label not in current:
                if len(refs) != 1:
                    raise SpecFailure(f"{label}: a pool of several cards was not re-mixed")
                current[label] = [self.pooled[(k, *refs[0])]]
            if msg["to_seat"] != -1 or [s["slot"] for s in msg["shares"]] != list(range(len(refs))):
                raise self.fail(seat, f"shares of {label} are not its public opening")
            opened[label][seat] = self.dleq(seat, msg, current[label])
        for label, got in opened.items():
            if sorted(got) != self.seats:
                raise SpecFailure(f"{label}: an opening lacks shares")
            for i, ct in enumerate(current[label]):
                b = ct[32:]
                for d in got.values():
                    b = sub(b, d[i])
                self.card(b, f"{label} card {i}")
                self.checked["pooled cards"] += 1


def verify_log(log: str) -> dict[str, int]:
    """Every check above on the log text; how many of each passed.  Raises SpecFailure."""
    return LogVerifier(log).run()
