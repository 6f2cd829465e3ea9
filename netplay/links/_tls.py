"""TLS 1.3 around every link, pinned to Ed25519 identity keys.

This module owns the transport security of a link, below the handshake of
``_wire``:

* :func:`certificate_pem` -- the self-signed X.509 certificate of an identity:
  its subject key *is* the identity's Ed25519 key, so the certificate carries
  nothing a peer does not already pin (the invite's host key, a roster key, a
  relay's key).  It is built in memory with ``cryptography`` and is the same
  for the same identity (Ed25519 signatures are deterministic, the dates and
  serial are fixed).
* :func:`server_context` / :func:`client_context` -- ``ssl`` contexts that
  speak TLS 1.3 only.  The server presents the identity's certificate; the
  client presents none and does no CA check (there is no CA): it reads the
  server's certificate and the caller compares its key (:func:`peer_key`).
* :func:`wrap_client` / :func:`wrap_server` -- a ``trio.SSLStream`` over a
  fresh TCP stream.

The private key never goes to a file that outlives the call: ``ssl`` can only
load a key from a path, so it is written to an anonymous in-memory file
(``memfd_create`` on Linux, read through ``/proc/self/fd``) or, where that
does not exist, to a ``0600`` temporary file that is removed at once.  The
contexts are cached per identity for the life of the process.
"""

from __future__ import annotations

import contextlib
import datetime
import os
import ssl
import tempfile
from collections.abc import Iterator

import trio
from cryptography import x509
from cryptography.exceptions import UnsupportedAlgorithm
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ed25519
from cryptography.x509.oid import NameOID

from fairtable.protocol import Identity

__all__ = [
    "CERT_NAME",
    "certificate_pem",
    "client_context",
    "peer_key",
    "server_context",
    "wrap_client",
    "wrap_server",
]

CERT_NAME = "fairtable"
"""Subject and issuer common name of every link certificate (the key is what counts)."""

_NOT_BEFORE = datetime.datetime(2000, 1, 1, tzinfo=datetime.UTC)
_NOT_AFTER = datetime.datetime(9999, 12, 31, 23, 59, 59, tzinfo=datetime.UTC)
_RAW = (serialization.Encoding.Raw, serialization.PublicFormat.Raw)
_CACHE_LIMIT = 16

_server_contexts: dict[bytes, ssl.SSLContext] = {}
_client_context: ssl.SSLContext | None = None


def _private_key(identity: Identity) -> ed25519.Ed25519PrivateKey:
    return ed25519.Ed25519PrivateKey.from_private_bytes(identity.seed)


def certificate_pem(identity: Identity) -> bytes:
    """The identity's self-signed certificate (PEM); its public key is ``identity.public.key``."""
    key = _private_key(identity)
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, CERT_NAME)])
    serial = int.from_bytes(identity.public.key[:8], "big") >> 1 or 1
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(serial)
        .not_valid_before(_NOT_BEFORE)
        .not_valid_after(_NOT_AFTER)
        .sign(key, None)
    )
    return cert.public_bytes(serialization.Encoding.PEM)


@contextlib.contextmanager
def _secret_file(data: bytes) -> Iterator[str]:
    """A path holding ``data`` that only this process can read, gone when the block ends."""
    memfd_create = getattr(os, "memfd_create", None)
    if memfd_create is not None and os.path.isdir("/proc/self/fd"):
        fd = memfd_create("fairtable-link", getattr(os, "MFD_CLOEXEC", 0))
        try:
            os.write(fd, data)
            yield f"/proc/self/fd/{fd}"
        finally:
            os.close(fd)
        return
    fd, path = tempfile.mkstemp(prefix="fairtable-link-")  # created 0600
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        yield path
    finally:
        os.unlink(path)


def _base_context(purpose: ssl.Purpose) -> ssl.SSLContext:
    ctx = ssl.SSLContext(
        ssl.PROTOCOL_TLS_SERVER if purpose is ssl.Purpose.CLIENT_AUTH else ssl.PROTOCOL_TLS_CLIENT
    )
    ctx.minimum_version = ssl.TLSVersion.TLSv1_3
    ctx.maximum_version = ssl.TLSVersion.TLSv1_3
    ctx.options |= ssl.OP_NO_TICKET  # no session resumption: every link proves the key afresh
    return ctx


def server_context(identity: Identity) -> ssl.SSLContext:
    """The accepting side's context: TLS 1.3, presenting the identity's certificate."""
    public = identity.public.key
    ctx = _server_contexts.get(public)
    if ctx is not None:
        return ctx
    ctx = _base_context(ssl.Purpose.CLIENT_AUTH)
    ctx.num_tickets = 0  # TLS 1.3 sends no session tickets
    key_pem = _private_key(identity).private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    with _secret_file(certificate_pem(identity) + key_pem) as path:
        ctx.load_cert_chain(path)
    if len(_server_contexts) >= _CACHE_LIMIT:
        _server_contexts.pop(next(iter(_server_contexts)))
    _server_contexts[public] = ctx
    return ctx


def client_context() -> ssl.SSLContext:
    """The connecting side's context: TLS 1.3, no CA and no host name (the key is pinned)."""
    global _client_context
    if _client_context is None:
        ctx = _base_context(ssl.Purpose.SERVER_AUTH)
        ctx.check_hostname = False
        ctx.verify_mode = ssl.CERT_NONE  # verified by peer_key() against the pinned key
        _client_context = ctx
    return _client_context


def peer_key(stream: trio.SSLStream[trio.abc.Stream]) -> bytes | None:
    """The Ed25519 key of the certificate the server presented, or None if it is not one."""
    der = stream.getpeercert(binary_form=True)
    if not der:
        return None
    try:
        key = x509.load_der_x509_certificate(der).public_key()
    except (ValueError, UnsupportedAlgorithm):
        return None
    if not isinstance(key, ed25519.Ed25519PublicKey):
        return None
    return key.public_bytes(*_RAW)


def wrap_client(stream: trio.abc.Stream) -> trio.SSLStream[trio.abc.Stream]:
    """The connecting side's TLS stream over ``stream`` (call ``do_handshake`` next)."""
    return trio.SSLStream(stream, client_context(), server_side=False)


def wrap_server(stream: trio.abc.Stream, identity: Identity) -> trio.SSLStream[trio.abc.Stream]:
    """The accepting side's TLS stream over ``stream`` (call ``do_handshake`` next)."""
    return trio.SSLStream(stream, server_context(identity), server_side=True)
