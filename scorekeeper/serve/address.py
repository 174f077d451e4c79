"""The address the phones at the table reach this machine at."""

from __future__ import annotations

import socket

PROBE = ("192.0.2.1", 9)
"""An address of the documentation range (TEST-NET-1): "connecting" a UDP socket to it sends
nothing, but makes the system choose the interface it would leave by, which is the LAN's."""
LOOPBACK = "127.0.0.1"


def lan_address() -> str:
    """This machine's address on its local network; the loopback address when it has no network.

    >>> import ipaddress
    >>> ipaddress.ip_address(lan_address()).version
    4
    """
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(PROBE)
            address: str = probe.getsockname()[0]
        except OSError:
            return LOOPBACK
    return address
