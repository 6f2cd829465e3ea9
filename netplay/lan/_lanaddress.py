"""Which address of this machine friends on the LAN reach it at, and where to announce.

This module owns the choice of the address a host puts in its invite when no
``--advertise`` is given, and of the broadcast addresses its table is announced
to.  The choice is sans-IO (:func:`choose_address`, :func:`broadcast_addresses`
take a list of :class:`Interface`); :func:`local_interfaces` reads the machine's
interfaces with ``ifaddr`` (and, where the system shows it, whether each is up).

Rules of :func:`choose_address`:

* a loopback listen host (``127.x``, ``localhost``) advertises loopback: only
  this machine can reach such a listener anyway;
* a specific (non-wildcard) listen host is advertised as it is;
* otherwise the first private IPv4 address (RFC 1918, not link-local) of an
  up, non-loopback interface, interfaces whose names say they are virtual
  (``docker``, ``veth``, ``br-``, ``virbr``...) last;
* with none of those, loopback -- and a one-line note saying so.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from pathlib import Path

import attrs

__all__ = [
    "LOOPBACK",
    "AddressChoice",
    "Interface",
    "broadcast_addresses",
    "choose_address",
    "lan_address",
    "local_interfaces",
]

LOOPBACK = "127.0.0.1"
_WILDCARDS = ("", "0.0.0.0", "::")
_VIRTUAL = (
    "docker",
    "veth",
    "br-",
    "virbr",
    "vmnet",
    "vboxnet",
    "tun",
    "tap",
    "wg",
    "zt",
    "tailscale",
    "utun",
    "lxc",
    "cni",
    "flannel",
    "podman",
)
_IFF_UP = 0x1
_NO_LINK = ("down", "lowerlayerdown", "notpresent", "dormant")


@attrs.frozen
class Interface:
    """One IPv4 address of one network interface."""

    name: str
    ip: str
    prefix: int
    up: bool = True


@attrs.frozen
class AddressChoice:
    """The address to advertise, and a note for the user when it is loopback by necessity."""

    host: str
    note: str = ""


def _is_loopback_host(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _lan_candidates(interfaces: Iterable[Interface]) -> list[Interface]:
    """Up interfaces with a private, non-loopback, non-link-local IPv4 address; real first."""
    found = []
    for face in interfaces:
        try:
            ip = ipaddress.IPv4Address(face.ip)
        except ValueError:
            continue
        if (
            face.up
            and ip.is_private
            and not ip.is_loopback
            and not ip.is_link_local
            and not ip.is_unspecified
            and not ip.is_reserved
            and not ip.is_multicast
        ):
            found.append(face)
    return sorted(found, key=lambda f: f.name.lower().startswith(_VIRTUAL))  # stable sort


def choose_address(interfaces: Iterable[Interface], listen_host: str = "0.0.0.0") -> AddressChoice:
    """The address to put in an invite for a listener on ``listen_host``."""
    if _is_loopback_host(listen_host):
        return AddressChoice(LOOPBACK if listen_host == "localhost" else listen_host)
    if listen_host not in _WILDCARDS:
        return AddressChoice(listen_host)
    candidates = _lan_candidates(interfaces)
    if candidates:
        return AddressChoice(candidates[0].ip)
    return AddressChoice(
        LOOPBACK,
        "no LAN address found: the invite says 127.0.0.1, so only "
        "this machine can join (pass --advertise ADDRESS)",
    )


def broadcast_addresses(interfaces: Iterable[Interface]) -> list[str]:
    """The directed broadcast address of each LAN interface (in the order of the choice).

    A machine without a default route cannot send to 255.255.255.255 at all, and one with
    several LANs sends it out of one only; the directed broadcasts reach every LAN.
    """
    out: list[str] = []
    for face in _lan_candidates(interfaces):
        if face.prefix >= 31:
            continue
        net = ipaddress.IPv4Network(f"{face.ip}/{face.prefix}", strict=False)
        address = str(net.broadcast_address)
        if address not in out:
            out.append(address)
    return out


def _is_up(name: str, sys_net: Path) -> bool:
    """Whether the system says the interface is up with a link (True where it cannot say).

    Linux shows the administrative flags (``IFF_UP``) and the link's state (``operstate``:
    ``up``, or ``unknown`` for loopback and some tunnels, but not ``down`` and the like).
    """
    try:
        flags = int((sys_net / name / "flags").read_text().strip(), 16)
    except (OSError, ValueError):
        return True
    try:
        state = (sys_net / name / "operstate").read_text().strip()
    except OSError:
        state = "unknown"
    return flags & _IFF_UP != 0 and state not in _NO_LINK


def local_interfaces(sys_net: Path = Path("/sys/class/net")) -> list[Interface]:
    """This machine's IPv4 interface addresses (empty if they cannot be read)."""
    import ifaddr  # only a host choosing its address needs it

    try:
        adapters = ifaddr.get_adapters()
    except OSError:
        return []
    out = []
    for adapter in adapters:
        name = str(adapter.nice_name)
        up = _is_up(str(adapter.name), sys_net)
        for ip in adapter.ips:
            if isinstance(ip.ip, str):  # IPv6 addresses come as tuples
                out.append(Interface(name, ip.ip, int(ip.network_prefix), up))
    return out


def lan_address(listen_host: str = "0.0.0.0") -> AddressChoice:
    """:func:`choose_address` among this machine's interfaces."""
    if _is_loopback_host(listen_host) or listen_host not in _WILDCARDS:
        return choose_address((), listen_host)
    return choose_address(local_interfaces(), listen_host)
