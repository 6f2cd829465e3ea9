"""This process's resident memory, for the flood tests' before/after figures."""

from __future__ import annotations

import os


def rss_bytes() -> int:
    """Resident set size now, in bytes (Linux: ``/proc/self/statm``)."""
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
