"""The relay's probation of tables without a signed start, sans-IO (``relay._relay_quota``)."""

from __future__ import annotations

import pytest

from fairtable.netplay.relay._relay_quota import (
    OVER_BUDGET,
    RELAY_FULL,
    TOO_LARGE,
    TOO_MANY_FROM_YOU,
    RelayLimits,
    RelayQuota,
    network_of,
    source_of,
)


def scope(n: int) -> bytes:
    return n.to_bytes(32, "big")


@pytest.mark.parametrize(
    "address, source",
    [
        ("127.0.0.2:5000", "127.0.0.2"),
        ("2001:db8:1:2:aaaa::1:5000", "2001:db8:1:2::/64"),
        ("2001:db8:1:2:bbbb::9:6000", "2001:db8:1:2::/64"),  # same /64: same source
        ("::ffff:10.0.0.1:7", "10.0.0.1"),
        ("?", "?"),
    ],
)
def test_a_source_is_an_ipv4_address_or_an_ipv6_64(address: str, source: str) -> None:
    assert source_of(address) == source


@pytest.mark.parametrize(
    "source, network",
    [
        ("127.0.0.2", "127.0.0.0/24"),
        ("10.1.2.3", "10.1.2.0/24"),
        ("2001:db8:1:2::/64", "2001:db8:1::/48"),
        ("?", "?"),
    ],
)
def test_a_network_is_an_ipv4_24_or_an_ipv6_48(source: str, network: str) -> None:
    assert network_of(source) == network


def test_addresses_of_one_network_hold_only_its_share_of_probation_places() -> None:
    quota = RelayQuota(RelayLimits(unstarted=32, unstarted_per_source=4, unstarted_per_network=8))
    opened = [quota.open(scope(n), f"127.0.0.{2 + n // 4}", 0) for n in range(40)]
    assert opened.count(None) == 8  # 40 tables from 10 addresses of one /24
    assert set(opened) == {None, TOO_MANY_FROM_YOU}
    assert quota.open(scope(100), "127.0.1.1", 0) is None  # another network gets in


def test_a_full_relay_makes_room_from_the_network_holding_the_most_places() -> None:
    quota = RelayQuota(RelayLimits(unstarted=32, unstarted_per_source=4, unstarted_per_network=8))
    for n in range(32):  # four /24s of strangers fill every place, oldest first
        assert quota.open(scope(n), f"127.0.{1 + n // 8}.{2 + n % 8 // 4}", float(n)) is None
    assert quota.evicted() == []
    assert quota.open(scope(100), "127.0.0.1", 50.0) is None  # a real host still gets in
    assert quota.evicted() == [scope(0)]  # the oldest table of a network holding the most
    assert not quota.known(scope(0)) and len(quota.unstarted) == 32
    for n in range(200, 220):  # strangers churn: they push out each other, not the host
        assert quota.open(scope(n), f"127.{n}.0.9", float(n)) is None
    assert quota.known(scope(100)) and len(quota.evicted()) == 20
    assert sum(quota.opened_by.values()) == 32  # evicted tables no longer count


def test_one_source_opens_only_its_share_and_others_still_get_in() -> None:
    quota = RelayQuota(RelayLimits(unstarted=3, unstarted_per_source=2))
    assert quota.open(scope(1), "a", 0) is None
    assert quota.open(scope(2), "a", 0) is None
    assert quota.open(scope(3), "a", 0) == TOO_MANY_FROM_YOU
    assert quota.open(scope(1), "a", 0) is None  # a table it already has: another link
    assert quota.open(scope(4), "b", 0) is None
    assert quota.open(scope(5), "c", 0) is None  # full: a holds the most, its oldest goes
    assert quota.evicted() == [scope(1)] and quota.evicted() == []
    assert quota.open(scope(6), "c", 0) == RELAY_FULL  # c holds as many as anyone: no room
    quota.start(scope(2))  # a signed start: off probation, room for another
    assert quota.open(scope(6), "c", 0) is None
    assert quota.held_bytes() == 0


def test_a_source_opens_at_most_per_source_tables_in_a_run() -> None:
    quota = RelayQuota(RelayLimits(per_source=2))
    for n in (1, 2):
        assert quota.open(scope(n), "a", 0) is None
        quota.start(scope(n))  # a self-signed start does not reset the count
    assert quota.open(scope(3), "a", 0) == TOO_MANY_FROM_YOU


def test_the_table_total_bounds_started_tables_too() -> None:
    quota = RelayQuota(RelayLimits(tables=2))
    for n in (1, 2):
        assert quota.open(scope(n), str(n), 0) is None
        quota.start(scope(n))
    assert quota.open(scope(3), "3", 0) == RELAY_FULL


def test_an_unstarted_table_holds_a_bounded_number_of_bytes_and_messages() -> None:
    quota = RelayQuota(RelayLimits(unstarted_bytes=100, unstarted_messages=3))
    quota.open(scope(1), "a", 0)
    assert quota.hold(scope(1), 60) is None
    assert quota.hold(scope(1), 41) == OVER_BUDGET  # nothing counted
    assert quota.hold(scope(1), 40) is None
    assert quota.held_bytes() == 100
    quota.open(scope(2), "b", 0)
    for _ in range(3):
        assert quota.hold(scope(2), 1) is None
    assert quota.hold(scope(2), 1) == OVER_BUDGET
    quota.start(scope(2))
    assert quota.hold(scope(2), 10_000) is None  # started: not on probation


def test_a_started_table_holds_a_bounded_number_of_bytes_too() -> None:
    quota = RelayQuota(RelayLimits(unstarted_bytes=100, table_bytes=1000))
    quota.open(scope(1), "a", 0)
    assert quota.hold(scope(1), 100) is None
    quota.start(scope(1))  # a start anyone could sign for a table of their own
    assert quota.hold(scope(1), 900) is None
    assert quota.hold(scope(1), 1) == TOO_LARGE
    quota.start(scope(2), 1000)  # reloaded from disk, full
    assert quota.hold(scope(2), 1) == TOO_LARGE
    assert quota.hold(scope(3), 10) is None  # not a table it keeps: nothing to count


def test_unstarted_tables_expire_and_started_ones_do_not() -> None:
    quota = RelayQuota(RelayLimits(unstarted_seconds=10))
    quota.open(scope(1), "a", 0)
    quota.open(scope(2), "b", 5)
    quota.open(scope(3), "c", 0)
    quota.start(scope(3))
    assert quota.expired(9.9) == []
    assert quota.expired(10) == [scope(1)]
    quota.drop(scope(1))
    assert quota.expired(100) == [scope(2)]
    assert not quota.known(scope(1)) and quota.known(scope(3))


@pytest.mark.parametrize("field", ["tables", "unstarted", "unstarted_bytes", "unstarted_seconds"])
def test_limits_must_be_positive(field: str) -> None:
    with pytest.raises(ValueError, match=field):
        RelayLimits(**{field: 0})


def test_a_dropped_lobby_no_longer_counts_against_its_source_but_a_started_table_does() -> None:
    quota = RelayQuota(RelayLimits(unstarted_per_source=1, per_source=2))
    assert quota.open(scope(1), "a", 0) is None
    assert quota.open(scope(2), "a", 0) == TOO_MANY_FROM_YOU
    quota.drop(scope(1))  # its last link left before any start
    assert quota.open(scope(2), "a", 0) is None
    quota.start(scope(2))
    assert quota.open(scope(3), "a", 0) is None
    quota.start(scope(3))
    assert quota.open(scope(4), "a", 0) == TOO_MANY_FROM_YOU  # two started: its share


def test_links_are_bounded_per_source_and_overall() -> None:
    quota = RelayQuota(RelayLimits(links=3, links_per_source=2))
    assert quota.link("a") is None
    assert quota.link("a") is None
    assert quota.link("a") == TOO_MANY_FROM_YOU
    assert quota.link("b") is None
    assert quota.link("c") == RELAY_FULL
    quota.unlink("a")
    assert quota.link("c") is None
    assert quota.links_from == {"a": 1, "b": 1, "c": 1}
