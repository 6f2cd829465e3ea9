"""The LAN: finding a table on the local network, and joining it by a short code.

This area owns what a host and a joiner on one network do before they hold an invite:

* ``_discovery``  -- announcements of open tables by UDP broadcast (a hint, never a credential);
* ``_lanaddress`` -- the address a host advertises, and where it broadcasts;
* ``_joincode``   -- short join codes and their SPAKE2 exchange (sans-IO);
* ``_codewords``  -- the words of join codes;
* ``_codelink``   -- the code exchange over TCP: the host's code listener, ``invite_by_code``;
* ``_coderelay``  -- the code exchange through a relay's mailbox, and a host's code offer.

The names below are the area's public part; other areas import only these.
"""

from ._codelink import CodeNotFound, announce_table, invite_by_code
from ._coderelay import CodeOffer, LanOffer, invite_at_relay, offer_code
from ._discovery import (
    BROADCAST,
    DISCOVERY_PORT,
    Announcement,
    BadAnnouncement,
    DiscoveryListener,
    announce,
    listen,
    open_listener,
)
from ._joincode import CodeExchangeError, CodeRefused, JoinCode, JoinCodeError, looks_like_code
from ._lanaddress import lan_address

__all__ = [
    "Announcement",
    "BROADCAST",
    "BadAnnouncement",
    "CodeExchangeError",
    "CodeNotFound",
    "CodeOffer",
    "CodeRefused",
    "DISCOVERY_PORT",
    "DiscoveryListener",
    "JoinCode",
    "JoinCodeError",
    "LanOffer",
    "announce",
    "announce_table",
    "invite_at_relay",
    "invite_by_code",
    "lan_address",
    "listen",
    "looks_like_code",
    "offer_code",
    "open_listener",
]
