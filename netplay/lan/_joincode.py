"""Short join codes and the password-authenticated exchange that turns one into an invite.

This module is sans-IO.  It owns:

* :class:`JoinCode` -- ``NUMBER-word-word-word-word``: the number names the table on the LAN
  (announced openly, :mod:`netplay.lan._discovery`), the words (from
  :data:`netplay.lan._codewords.WORDS`, 11 bits each, 44 bits in all) are the password;
* the exchange messages (:class:`Hello`, :class:`Pake`, :class:`Confirm`,
  :class:`SealedInvite`, :class:`Refused`) and their byte forms;
* :class:`CodeHost` (the host's code: attempt counting and retirement) and its
  per-connection :class:`HostExchange`, and :class:`CodeJoiner`, the joiner's side.

The exchange (each message one frame, ``netplay.links._frames``)::

    joiner                                         host
      Hello(version, number, X = SPAKE2_A(pw))  ->   number ours? code retired?
                                                <-   Pake(Y = SPAKE2_B(pw))
      Confirm(HMAC(k_confirm, "joiner"))        ->   right? else a failure is counted
                                                <-   SealedInvite(nonce, AEAD(k_seal, invite))
                                                     or Refused(reason)

``pw`` is the whole code text; both SPAKE2 identities name this protocol and its version.
From the SPAKE2 key, HKDF-SHA256 derives ``k_confirm`` and ``k_seal`` (ChaCha20-Poly1305).
The joiner proves the key first, so a wrong code learns nothing but ``Refused``; the sealed
invite opening is the host's proof.  A wrong guess is one online try: the host retires the
code after :data:`MAX_FAILURES` of them (the invite itself keeps working).
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re
import secrets
from typing import Any

import attrs
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from ..table import Invite, InviteError
from ._codewords import WORDS, nearest_words

__all__ = [
    "CODE_WORDS",
    "MAX_FAILURES",
    "CodeExchangeError",
    "CodeHost",
    "CodeJoiner",
    "CodeRefused",
    "Confirm",
    "Hello",
    "HostExchange",
    "JoinCode",
    "JoinCodeError",
    "Pake",
    "Refused",
    "SealedInvite",
    "decode",
    "looks_like_code",
]


def _pake() -> Any:
    """The ``spake2`` package, imported when a join code is first used: building its group
    costs ~40 ms, which every peer that never uses a code (a bot seat, an invite) is spared."""
    import spake2  # type: ignore[import-untyped]  # noqa: PLC0415

    return spake2


VERSION = 1
CODE_WORDS = 4
MAX_NUMBER = 999
MAX_FAILURES = 5
MAX_MESSAGE = 1200  # a sealed invite of at most 1024 characters, plus the rest
_ID_JOINER = b"fairtable/joincode/v1/joiner"
_ID_HOST = b"fairtable/joincode/v1/host"
_SEAL_AAD = b"fairtable/joincode/v1/invite"
_CODE_RE = re.compile(r"([1-9][0-9]{0,2})((?:-[a-z]+)+)")
_INDEX = {word: i for i, word in enumerate(WORDS)}

# reasons a host refuses, on the wire as one byte
WRONG, RETIRED, NO_TABLE, BUSY = 1, 2, 3, 4
_REASONS = {
    WRONG: "wrong code",
    RETIRED: "the host retired this code after too many wrong tries: ask for the invite",
    NO_TABLE: "no table with that code on the LAN",
    BUSY: "the host is busy: try again",
}


class JoinCodeError(ValueError):
    """Text that is not a join code; the message says what is wrong."""


class CodeExchangeError(ValueError):
    """The other end broke the exchange (malformed or unexpected message)."""


class CodeRefused(Exception):
    """The host refused the code; ``reason`` is one of the wire reasons, ``str`` the line."""

    def __init__(self, reason: int) -> None:
        super().__init__(_REASONS.get(reason, "refused"))
        self.reason = reason

    @property
    def wrong_code(self) -> bool:
        """Whether the host said the code was wrong."""
        return self.reason == WRONG


def looks_like_code(text: str) -> bool:
    """Whether ``text`` is meant as a join code (a number and a dash) rather than an invite."""
    return re.match(r"\s*[0-9]+-", text) is not None


@attrs.frozen
class JoinCode:
    """``NUMBER-word-...``: a table's number on the LAN and its secret words."""

    number: int
    words: tuple[str, ...] = attrs.field(repr=lambda _w: "<hidden>")

    def __attrs_post_init__(self) -> None:
        if not 1 <= self.number <= MAX_NUMBER:
            raise JoinCodeError(f"a code's number is 1 to {MAX_NUMBER}")
        if len(self.words) != CODE_WORDS:
            raise JoinCodeError(f"a code has a number and {CODE_WORDS} words")
        for word in self.words:
            if word not in _INDEX:
                raise JoinCodeError(_unknown_word(word))

    @classmethod
    def generate(cls, number: int | None = None) -> JoinCode:
        """A fresh code (words from the OS's randomness)."""
        if number is None:
            number = 1 + secrets.randbelow(99)
        return cls(number, tuple(secrets.choice(WORDS) for _ in range(CODE_WORDS)))

    @classmethod
    def parse(cls, text: str) -> JoinCode:
        """Read a code as a person types it (case, spaces around and between are forgiven)."""
        if not isinstance(text, str) or len(text) > 100:
            raise JoinCodeError("a code is a number and words, like 7-amber-falcon-orbit-tidal")
        plain = "-".join(text.strip().lower().replace(" ", "-").split("-"))
        plain = re.sub(r"-+", "-", plain)
        match = _CODE_RE.fullmatch(plain)
        if match is None:
            raise JoinCodeError("a code is a number and words, like 7-amber-falcon-orbit-tidal")
        return cls(int(match.group(1)), tuple(match.group(2)[1:].split("-")))

    def text(self) -> str:
        return "-".join((str(self.number), *self.words))

    @property
    def password(self) -> bytes:
        return self.text().encode("ascii")


def _unknown_word(word: str) -> str:
    """What is wrong with a word that is no code word: the nearest ones, when some are close."""
    near = nearest_words(word) if len(word) <= 20 else ()
    if not near:
        return f"{word[:20]!r} is not a code word (check the spelling)"
    listed = ", ".join(map(repr, near[:-1])) + " or " if len(near) > 1 else ""
    return f"{word!r} is not a code word: did you mean {listed}{near[-1]!r}?"


# --------------------------------------------------------------------------- messages
@attrs.frozen
class Hello:
    number: int
    pake: bytes

    def to_bytes(self) -> bytes:
        return bytes([1, VERSION]) + self.number.to_bytes(2, "big") + self.pake


@attrs.frozen
class Pake:
    pake: bytes

    def to_bytes(self) -> bytes:
        return b"\x02" + self.pake


@attrs.frozen
class Confirm:
    mac: bytes

    def to_bytes(self) -> bytes:
        return b"\x03" + self.mac


@attrs.frozen
class SealedInvite:
    nonce: bytes
    sealed: bytes

    def to_bytes(self) -> bytes:
        return b"\x04" + self.nonce + self.sealed


@attrs.frozen
class Refused:
    reason: int

    def to_bytes(self) -> bytes:
        return bytes([5, self.reason])


Message = Hello | Pake | Confirm | SealedInvite | Refused
_PAKE_SIZE = 33


def decode(data: bytes) -> Message:
    """One exchange message from its bytes; CodeExchangeError for anything else."""
    if not data or len(data) > MAX_MESSAGE:
        raise CodeExchangeError("malformed")
    kind, body = data[0], data[1:]
    if kind == 1 and len(body) == 3 + _PAKE_SIZE:
        if body[0] != VERSION:
            raise CodeExchangeError("another version of the code exchange")
        return Hello(int.from_bytes(body[1:3], "big"), body[3:])
    if kind == 2 and len(body) == _PAKE_SIZE:
        return Pake(body)
    if kind == 3 and len(body) == 32:
        return Confirm(body)
    if kind == 4 and len(body) > 12 + 16:
        return SealedInvite(body[:12], body[12:])
    if kind == 5 and len(body) == 1 and body[0] in _REASONS:
        return Refused(body[0])
    raise CodeExchangeError("malformed")


def _keys(spake_key: bytes) -> tuple[bytes, bytes]:
    okm = HKDF(hashes.SHA256(), 64, salt=None, info=b"fairtable/joincode/v1/keys").derive(spake_key)
    return okm[:32], okm[32:]


def _confirmation(confirm_key: bytes) -> bytes:
    return hmac.new(confirm_key, b"joiner confirms", hashlib.sha256).digest()


def _finish(side: Any, pake: bytes) -> bytes:
    try:
        return bytes(side.finish(pake))
    except Exception:  # noqa: BLE001 -- spake2 raises assorted errors for a bad element
        raise CodeExchangeError("malformed key exchange message") from None


# --------------------------------------------------------------------------- host side
@attrs.frozen
class WrongCodeTried:
    """A wrong code was tried; ``failures`` so far, of ``limit``."""

    failures: int
    limit: int


@attrs.frozen
class CodeRetired:
    """Too many wrong codes: the code is retired (the invite keeps working)."""

    failures: int


@attrs.frozen
class InviteHanded:
    """A joiner proved the code and was handed the invite."""


HostEvent = WrongCodeTried | CodeRetired | InviteHanded


class CodeHost:
    """A host's join code: hands ``invite_text`` to whoever proves the code."""

    def __init__(self, code: JoinCode, invite_text: str, max_failures: int = MAX_FAILURES) -> None:
        self.code = code
        self.invite_text = invite_text
        self.max_failures = max_failures
        self.failures = 0

    @property
    def retired(self) -> bool:
        return self.failures >= self.max_failures

    def exchange(self) -> HostExchange:
        """The host's side of one connection."""
        return HostExchange(self)


class HostExchange:
    """One connection's exchange, host side: feed it each message, send back what it returns."""

    def __init__(self, host: CodeHost) -> None:
        self.host = host
        self.finished = False
        self._spake: Any = None
        self._keys: tuple[bytes, bytes] | None = None

    def _end(
        self, reply: Message, event: HostEvent | None = None
    ) -> tuple[bytes, HostEvent | None]:
        self.finished = True
        return reply.to_bytes(), event

    def receive(self, data: bytes) -> tuple[bytes, HostEvent | None]:
        """The reply to ``data`` and what it means; CodeExchangeError ends the connection."""
        if self.finished:
            raise CodeExchangeError("the exchange is over")
        msg = decode(data)
        if self._keys is None and isinstance(msg, Hello):
            if msg.number != self.host.code.number:
                return self._end(Refused(NO_TABLE))
            if self.host.retired:
                return self._end(Refused(RETIRED))
            self._spake = _pake().SPAKE2_B(self.host.code.password, idA=_ID_JOINER, idB=_ID_HOST)
            reply = Pake(bytes(self._spake.start()))
            self._keys = _keys(_finish(self._spake, msg.pake))
            return reply.to_bytes(), None
        if self._keys is not None and isinstance(msg, Confirm):
            if self.host.retired:  # retired while this exchange ran: no more checks at all
                return self._end(Refused(RETIRED))
            if not hmac.compare_digest(msg.mac, _confirmation(self._keys[0])):
                self.host.failures += 1
                if self.host.retired:
                    return self._end(Refused(WRONG), CodeRetired(self.host.failures))
                return self._end(
                    Refused(WRONG), WrongCodeTried(self.host.failures, self.host.max_failures)
                )
            nonce = os.urandom(12)
            sealed = ChaCha20Poly1305(self._keys[1]).encrypt(
                nonce, self.host.invite_text.encode("ascii"), _SEAL_AAD
            )
            return self._end(SealedInvite(nonce, sealed), InviteHanded())
        raise CodeExchangeError(f"unexpected {type(msg).__name__}")


# --------------------------------------------------------------------------- joiner side
class CodeJoiner:
    """The joiner's side of one exchange with one host."""

    def __init__(self, code: JoinCode, fingerprint: str | None = None) -> None:
        """``fingerprint``: the host's, as announced; the invite must be that host's."""
        self.code = code
        self.fingerprint = fingerprint
        self._spake = _pake().SPAKE2_A(code.password, idA=_ID_JOINER, idB=_ID_HOST)
        self._hello: bytes | None = None
        self._keys: tuple[bytes, bytes] | None = None

    def hello(self) -> bytes:
        """The first message."""
        if self._hello is None:
            self._hello = Hello(self.code.number, bytes(self._spake.start())).to_bytes()
        return self._hello

    def receive(self, data: bytes) -> bytes | Invite:
        """The next message to send, or the invite at the end.

        Raises :class:`CodeRefused` (wrong code, retired, no such table, busy) or
        :class:`CodeExchangeError` (the host broke the exchange).
        """
        msg = decode(data)
        if isinstance(msg, Refused):
            raise CodeRefused(msg.reason)
        if self._hello is not None and self._keys is None and isinstance(msg, Pake):
            self._keys = _keys(_finish(self._spake, msg.pake))
            return Confirm(_confirmation(self._keys[0])).to_bytes()
        if self._keys is not None and isinstance(msg, SealedInvite):
            try:
                text = ChaCha20Poly1305(self._keys[1]).decrypt(msg.nonce, msg.sealed, _SEAL_AAD)
                invite = Invite.parse(text.decode("ascii"))
            except (InvalidTag, UnicodeDecodeError, InviteError):
                raise CodeExchangeError("the host's invite does not open with this code") from None
            if self.fingerprint is not None and invite.fingerprint != self.fingerprint:
                raise CodeExchangeError("the invite is not the announcing host's")
            return invite
        raise CodeExchangeError(f"unexpected {type(msg).__name__}")
