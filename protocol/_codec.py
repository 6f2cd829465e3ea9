"""Canonical byte encoding of protocol messages (the only codec in fairtable).

This module owns how a message becomes bytes and back:

* messages are frozen attrs classes registered under a ``type`` tag with the
  :func:`message` decorator (adding a message type is one decorated class);
* one cattrs converter, :data:`CONVERTER`, with strict hooks (no coercion:
  an int is a JSON integer, a string a JSON string, bytes an unpadded
  base64url string, a tuple a JSON array);
* the canonical form is JSON, UTF-8, keys sorted, no whitespace, no floats,
  integers within +-2**53, with the envelope fields ``type`` and ``v``
  (protocol version) at the top level;
* hard limits: a frame is at most :data:`MAX_FRAME` bytes, and every string,
  bytes and list field declares its own cap;
* :func:`decode` accepts only the canonical form (re-encoding must give back
  the same bytes), rejects unknown or extra fields, and raises nothing but
  :class:`~protocol.DecodeError` for any bytes whatsoever.
"""

from __future__ import annotations

import binascii
import json
import re
from collections.abc import Callable
from typing import Any, TypeVar, cast, get_args, get_origin

import attrs
import cattrs

from ._errors import DecodeError, FieldError, FrameTooLarge, LocalProtocolError, UnsupportedVersion
from ._untrusted import Bounds, check_bounds

__all__ = [
    "CONVERTER",
    "MAX_FRAME",
    "MAX_INT",
    "MAX_ITEMS",
    "MAX_LABEL",
    "MESSAGE_TYPES",
    "PROTOCOL_VERSION",
    "b64encode",
    "blob",
    "canonical_json",
    "decode",
    "decode_as",
    "encode",
    "integer",
    "items",
    "label",
    "message",
    "nested",
]

PROTOCOL_VERSION = 10
"""The ``v`` field of every top-level message."""

MAX_FRAME = 1 << 20
"""Largest encoded message, in bytes (1 MiB); longer input is rejected unread."""

MAX_INT = 1 << 53
"""Every integer field lies in ``[-MAX_INT, MAX_INT]`` (exact in any JSON reader)."""

MAX_LABEL = 128
"""Longest label (purpose, deck and step names)."""

MAX_ITEMS = 1024
"""Default longest list."""

_LABEL_RE = re.compile(rf"[A-Za-z0-9._:/-]{{1,{MAX_LABEL}}}")
_B64_RE = re.compile(r"[A-Za-z0-9_-]*")
_ENVELOPE = ("type", "v")

MESSAGE_TYPES: dict[str, type] = {}
"""Registry of top-level message classes by their ``type`` tag."""

T = TypeVar("T")


# --------------------------------------------------------------------------- fields


_TO_URLSAFE = bytes.maketrans(b"+/", b"-_")
_FROM_URLSAFE = bytes.maketrans(b"-_", b"+/")


def b64encode(data: bytes) -> str:
    """Unpadded base64url text of ``data`` (the encoding of every bytes field)."""
    # base64.urlsafe_b64encode without its wrappers (a few fields per message, every message)
    return (
        binascii.b2a_base64(data, newline=False).translate(_TO_URLSAFE).rstrip(b"=").decode("ascii")
    )


_B64_VALUE = {
    c: i for i, c in enumerate("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
}
_STRAY_BITS = {2: 0b1111, 3: 0b11}  # text length mod 4 -> bits the last character must not set


def _b64decode(text: str) -> bytes:
    tail = len(text) % 4
    if tail == 1 or _B64_RE.fullmatch(text) is None:
        raise DecodeError("bytes field is not unpadded base64url")
    if tail and _B64_VALUE[text[-1]] & _STRAY_BITS[tail]:
        raise DecodeError("bytes field has non-canonical base64 (stray low bits)")
    try:  # base64.urlsafe_b64decode without its wrappers (the text is checked above)
        return binascii.a2b_base64(
            (text + "=" * (-len(text) % 4)).encode("ascii").translate(_FROM_URLSAFE)
        )
    except (binascii.Error, ValueError) as exc:
        raise DecodeError("bytes field is not unpadded base64url") from exc


def _fail(attribute: attrs.Attribute[Any], why: str) -> FieldError:
    return FieldError(f"field {attribute.name!r}: {why}")


def _check_label(value: Any, attribute: attrs.Attribute[Any]) -> None:
    if type(value) is not str or _LABEL_RE.fullmatch(value) is None:
        raise _fail(attribute, f"a label is 1-{MAX_LABEL} chars of [A-Za-z0-9._:/-]")


def _check_bytes(
    value: Any, attribute: attrs.Attribute[Any], exact: int | None, max_len: int
) -> None:
    if type(value) is not bytes:
        raise _fail(attribute, "expected bytes")
    if exact is not None and len(value) != exact:
        raise _fail(attribute, f"expected exactly {exact} bytes, got {len(value)}")
    if len(value) > max_len:
        raise _fail(attribute, f"at most {max_len} bytes, got {len(value)}")


def _check_int(value: Any, attribute: attrs.Attribute[Any], lo: int, hi: int) -> None:
    if type(value) is not int:
        raise _fail(attribute, "expected an integer")
    if not lo <= value <= hi:
        raise _fail(attribute, f"integer {value} outside [{lo}, {hi}]")


def label() -> Any:
    """An attrs field holding a label: 1..128 chars from ``[A-Za-z0-9._:/-]``."""
    return attrs.field(validator=lambda _i, a, v: _check_label(v, a))


def blob(
    *, exact: int | None = None, max_len: int | None = None, default: bytes | None = None
) -> Any:
    """An attrs field holding bytes, of ``exact`` length or at most ``max_len`` (with a
    ``default`` when given)."""
    cap = exact if max_len is None else max_len
    if cap is None:
        raise LocalProtocolError("a bytes field needs a size cap")
    if default is not None:
        return attrs.field(
            default=default, validator=lambda _i, a, v: _check_bytes(v, a, exact, cap)
        )
    return attrs.field(validator=lambda _i, a, v: _check_bytes(v, a, exact, cap))


def integer(*, lo: int = 0, hi: int = MAX_INT, default: int | None = None) -> Any:
    """An attrs field holding an integer in ``[lo, hi]`` (never a bool; with a ``default``
    when given, for building a message in Python: the wire always carries the field)."""
    if not -MAX_INT <= lo <= hi <= MAX_INT:
        raise LocalProtocolError("integer bounds must lie within +-2**53")
    if default is not None:
        return attrs.field(default=default, validator=lambda _i, a, v: _check_int(v, a, lo, hi))
    return attrs.field(validator=lambda _i, a, v: _check_int(v, a, lo, hi))


def nested(cls: type) -> Any:
    """An attrs field holding one instance of the nested attrs class ``cls``."""

    def check(_inst: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
        if type(value) is not cls:
            raise _fail(attribute, f"expected a {cls.__name__}")

    return attrs.field(validator=check)


def items(
    item: Callable[[Any, attrs.Attribute[Any]], None] | type,
    *,
    max_items: int,
    empty_default: bool = False,
) -> Any:
    """An attrs tuple field of at most ``max_items`` items (``()`` by default when
    ``empty_default``, for building a message in Python: the wire always carries the field).

    ``item`` is either a class (each item must be an instance: use this for
    nested attrs classes) or a check ``(value, attribute) -> None``; the
    helpers :func:`item_bytes`, :func:`item_int` and :func:`item_label` build
    the common checks.
    """

    def check(_inst: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
        if type(value) is not tuple:
            raise _fail(attribute, "expected a tuple")
        if len(value) > max_items:
            raise _fail(attribute, f"at most {max_items} items, got {len(value)}")
        for one in value:
            if isinstance(item, type):
                if type(one) is not item:
                    raise _fail(attribute, f"items must be {item.__name__}")
            else:
                item(one, attribute)

    if empty_default:
        return attrs.field(default=(), validator=check)
    return attrs.field(validator=check)


def item_bytes(*, exact: int | None = None, max_len: int | None = None) -> Callable[..., None]:
    """Item check for :func:`items`: bytes of ``exact`` length or at most ``max_len``."""
    cap = exact if max_len is None else max_len
    if cap is None:
        raise LocalProtocolError("a bytes item needs a size cap")
    return lambda v, a: _check_bytes(v, a, exact, cap)


def item_int(*, lo: int = 0, hi: int = MAX_INT) -> Callable[..., None]:
    """Item check for :func:`items`: an integer in ``[lo, hi]``."""
    return lambda v, a: _check_int(v, a, lo, hi)


# --------------------------------------------------------------------------- registry


def message(tag: str) -> Callable[[type[T]], type[T]]:
    """Class decorator registering an attrs class as a top-level message ``tag``."""
    if _LABEL_RE.fullmatch(tag) is None:
        raise LocalProtocolError(f"bad message tag {tag!r}")

    def register(cls: type[T]) -> type[T]:
        if not attrs.has(cls):
            raise LocalProtocolError(f"{cls.__name__} is not an attrs class")
        if tag in MESSAGE_TYPES and MESSAGE_TYPES[tag] is not cls:
            raise LocalProtocolError(f"message tag {tag!r} already registered")
        clash = {f.name for f in attrs.fields(cls)} & set(_ENVELOPE)
        if clash:
            raise LocalProtocolError(f"{cls.__name__} uses reserved field names {clash}")
        MESSAGE_TYPES[tag] = cls
        setattr(cls, "TYPE", tag)  # noqa: B010 -- a class attribute mypy cannot see
        return cast(type[T], cls)

    return register


# --------------------------------------------------------------------------- converter


def _structure_int(value: Any, _t: Any) -> int:
    if type(value) is not int:
        raise DecodeError("expected an integer")
    return value


def _structure_str(value: Any, _t: Any) -> str:
    if type(value) is not str:
        raise DecodeError("expected a string")
    return value


def _structure_bytes(value: Any, _t: Any) -> bytes:
    if type(value) is not str:
        raise DecodeError("expected a base64url string")
    return _b64decode(value)


def _is_homogeneous_tuple(t: Any) -> bool:
    args = get_args(t)
    return get_origin(t) is tuple and len(args) == 2 and args[1] is Ellipsis


def _structure_tuple(value: Any, t: Any) -> tuple[Any, ...]:
    if type(value) is not list:
        raise DecodeError("expected a list")
    if len(value) > MAX_ITEMS * 64:  # a coarse cap before per-field caps apply
        raise DecodeError("list too long")
    inner = get_args(t)[0]
    return tuple(CONVERTER.structure(one, inner) for one in value)


def _make_converter() -> cattrs.Converter:
    conv = cattrs.Converter(forbid_extra_keys=True)
    conv.register_structure_hook(int, _structure_int)
    conv.register_structure_hook(str, _structure_str)
    conv.register_structure_hook(bytes, _structure_bytes)
    conv.register_unstructure_hook(bytes, b64encode)
    conv.register_structure_hook_func(_is_homogeneous_tuple, _structure_tuple)
    conv.register_unstructure_hook_func(
        _is_homogeneous_tuple, lambda v: [CONVERTER.unstructure(x) for x in v]
    )
    return conv


CONVERTER = _make_converter()
"""The one cattrs converter for all protocol messages."""


# --------------------------------------------------------------------------- bytes


_CANONICAL = json.JSONEncoder(
    ensure_ascii=False, sort_keys=True, separators=(",", ":"), allow_nan=False
)  # json.dumps's settings, built once


def canonical_json(obj: Any) -> bytes:
    """Canonical JSON bytes of plain data: UTF-8, sorted keys, no whitespace."""
    try:
        return _CANONICAL.encode(obj).encode("utf-8")
    except (TypeError, ValueError, UnicodeError) as exc:
        raise LocalProtocolError(f"not canonically encodable: {exc}") from exc


def to_plain(msg: Any) -> dict[str, Any]:
    """The plain (JSON-ready) form of a registered message, envelope included."""
    tag = getattr(type(msg), "TYPE", None)
    if tag is None or MESSAGE_TYPES.get(tag) is not type(msg):
        raise LocalProtocolError(f"{type(msg).__name__} is not a registered message")
    plain: dict[str, Any] = CONVERTER.unstructure(msg)
    plain["type"] = tag
    plain["v"] = PROTOCOL_VERSION
    return plain


def encode(msg: Any) -> bytes:
    """Canonical bytes of a registered message; raises LocalProtocolError if over a limit."""
    data = canonical_json(to_plain(msg))
    if len(data) > MAX_FRAME:
        raise LocalProtocolError(f"message encodes to {len(data)} bytes > {MAX_FRAME}")
    return data


def _reject_float(text: str) -> Any:
    raise DecodeError(f"floats are not allowed ({text[:20]!r})")


def _reject_constant(text: str) -> Any:
    raise DecodeError(f"{text} is not allowed")


def _parse_int(text: str) -> int:
    if len(text) > 17:
        raise DecodeError("integer out of range")
    value = int(text)
    if not -MAX_INT <= value <= MAX_INT:
        raise DecodeError("integer out of range")
    return value


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out = dict(pairs)
    if len(out) != len(pairs):
        raise DecodeError("duplicate key")
    return out


_STRICT = json.JSONDecoder(
    parse_float=_reject_float,
    parse_int=_parse_int,
    parse_constant=_reject_constant,
    object_pairs_hook=_pairs,
)
"""json.loads's decoder with our hooks, built once (json.loads builds one per call)."""


MESSAGE_BOUNDS = Bounds(size=MAX_FRAME, depth=16)
"""A message's nesting limit: every message type is at most a few levels deep (what nests
deeper, a body or the table options, travels as bytes and is read on its own)."""


def _structure(data: bytes, source: str) -> Any:
    if len(data) > MAX_FRAME:
        raise FrameTooLarge(f"frame of {len(data)} bytes exceeds {MAX_FRAME}")
    check_bounds(data, source, MESSAGE_BOUNDS)  # before the parser recurses into anything
    text = data.decode("utf-8")
    if text.startswith("\ufeff"):  # what json.loads refuses before decoding
        raise json.JSONDecodeError("Unexpected UTF-8 BOM (decode using utf-8-sig)", text, 0)
    obj = _STRICT.decode(text)
    if type(obj) is not dict:
        raise DecodeError("a message is a JSON object")
    tag = obj.pop("type", None)
    version = obj.pop("v", None)
    if type(version) is not int:
        raise DecodeError("missing protocol version")
    if version != PROTOCOL_VERSION:
        raise UnsupportedVersion(f"protocol version {version} (we speak {PROTOCOL_VERSION})")
    if type(tag) is not str or tag not in MESSAGE_TYPES:
        raise DecodeError(f"unknown message type {str(tag)[:40]!r}")
    msg: Any = CONVERTER.structure(obj, MESSAGE_TYPES[tag])
    if canonical_json(to_plain(msg)) != data:
        raise DecodeError("not the canonical encoding")
    return msg


def decode(data: bytes, source: str = "message") -> Any:
    """Parse canonical bytes into a registered message (from ``source``, which a refusal
    names).

    Raises :class:`~protocol.DecodeError` (or its subclasses
    :class:`~protocol.FrameTooLarge`, :class:`~protocol.UnsupportedVersion`)
    and nothing else, whatever the bytes.
    """
    if not isinstance(data, bytes | bytearray | memoryview):
        raise LocalProtocolError("decode() takes bytes")
    try:
        return _structure(bytes(data), source)
    except DecodeError:
        raise
    except (
        cattrs.BaseValidationError,
        LocalProtocolError,  # field validators and re-encoding
        ValueError,  # JSON syntax, UTF-8 (UnicodeDecodeError), int parsing
        TypeError,
        KeyError,
        AttributeError,
        RecursionError,  # absurdly nested arrays
    ) as exc:
        raise DecodeError(f"malformed {source}: {_describe(exc)}") from exc


def decode_as(data: bytes, cls: type[T], source: str = "message") -> T:
    """:func:`decode`, then require the message to be a ``cls``."""
    msg = decode(data, source)
    if type(msg) is not cls:
        raise DecodeError(f"expected a {cls.__name__}, got a {type(msg).__name__}")
    return msg


def _describe(exc: BaseException) -> str:
    if isinstance(exc, BaseExceptionGroup):
        return "; ".join(_describe(e) for e in exc.exceptions)[:300]
    return f"{type(exc).__name__}: {exc}"[:300]
