"""Choosing the address a host advertises, and where it announces, from a list of interfaces."""

from __future__ import annotations

from pathlib import Path

from fairtable.netplay.lan._lanaddress import (
    Interface,
    _is_up,
    broadcast_addresses,
    choose_address,
    local_interfaces,
)

LO = Interface("lo", "127.0.0.1", 8)
WIFI = Interface("wlan0", "192.168.1.20", 24)
DOCKER = Interface("docker0", "172.17.0.1", 16)
PUBLIC = Interface("eth1", "8.8.4.4", 24)
LINK_LOCAL = Interface("eth2", "169.254.3.4", 16)


def test_private_address_of_a_real_interface_is_chosen() -> None:
    assert choose_address([LO, DOCKER, PUBLIC, LINK_LOCAL, WIFI]).host == "192.168.1.20"
    assert choose_address([LO, WIFI], "").host == "192.168.1.20"
    assert choose_address([LO, DOCKER]).host == "172.17.0.1"  # virtual only: still the LAN


def test_down_interfaces_are_skipped() -> None:
    down = Interface("eth0", "10.0.0.5", 8, up=False)
    assert choose_address([down, DOCKER]).host == "172.17.0.1"


def test_loopback_only_when_asked_or_nothing_else_and_then_said() -> None:
    assert choose_address([LO, WIFI], "127.0.0.1").host == "127.0.0.1"
    assert choose_address([LO, WIFI], "127.0.0.1").note == ""
    assert choose_address([LO, WIFI], "localhost").host == "127.0.0.1"
    alone = choose_address([LO, PUBLIC, LINK_LOCAL])
    assert alone.host == "127.0.0.1"
    assert "no LAN address" in alone.note and "\n" not in alone.note


def test_a_specific_listen_host_is_advertised() -> None:
    assert choose_address([LO, WIFI], "10.9.8.7").host == "10.9.8.7"


def test_directed_broadcasts_of_lan_interfaces() -> None:
    assert broadcast_addresses([LO, WIFI, DOCKER, PUBLIC]) == ["192.168.1.255", "172.17.255.255"]
    assert broadcast_addresses([Interface("p2p", "10.0.0.1", 32)]) == []


def test_up_state_read_from_sys(tmp_path: Path) -> None:
    for name, flags, state in (
        ("up0", "0x1003", "up"),
        ("nolink0", "0x1003", "down"),
        ("down0", "0x1002", "down"),
        ("lo", "0x9", "unknown"),
    ):
        (tmp_path / name).mkdir()
        (tmp_path / name / "flags").write_text(flags + "\n")
        (tmp_path / name / "operstate").write_text(state + "\n")
    assert _is_up("up0", tmp_path)
    assert not _is_up("nolink0", tmp_path)
    assert _is_up("lo", tmp_path)
    assert not _is_up("down0", tmp_path)
    assert _is_up("unknown0", tmp_path)  # the system cannot say: assume up
    assert any(face.ip == "127.0.0.1" for face in local_interfaces(tmp_path))
