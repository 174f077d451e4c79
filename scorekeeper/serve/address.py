"""Where the scoreboard server listens and whom that reaches: this machine only (its loopback
address) or the phones on its network; and the window's choice between the two."""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass, replace
from enum import Enum

PROBE = ("192.0.2.1", 9)
"""An address of the documentation range (TEST-NET-1): "connecting" a UDP socket to it sends
nothing, but makes the system choose the interface it would leave by, which is the LAN's."""
LOOPBACK = "127.0.0.1"
"""The address only this machine reaches."""


def network_address() -> str | None:
    """This machine's address on its local network; None when it has no network.

    >>> found = network_address()
    >>> found is None or not ipaddress.ip_address(found).is_loopback
    True
    """
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(PROBE)
            address: str = probe.getsockname()[0]
        except OSError:
            return None
    return None if ipaddress.ip_address(address).is_loopback or address == "0.0.0.0" else address


class Reach(Enum):
    """Who can open the scoreboard's address."""

    NETWORK = "the network"
    """Any phone on the same network as this machine."""
    THIS_MACHINE = "this machine only"
    """Only this machine (a loopback address): no phone."""


def _addresses(host: str) -> list[ipaddress.IPv4Address | ipaddress.IPv6Address]:
    try:
        return [ipaddress.ip_address(host)]
    except ValueError:
        pass
    try:
        found = socket.getaddrinfo(host, None)
    except OSError:
        return []
    return [ipaddress.ip_address(str(entry[4][0]).split("%")[0]) for entry in found]


def reach_of(host: str, network: str | None) -> Reach:
    """Whom a server listening on ``host`` (an address or a name) reaches, ``network`` being this
    machine's network address (None: it has none): a loopback address, or every address of a
    machine with no network, reaches only this machine.

    >>> reach_of("127.0.0.1", "192.168.1.20"), reach_of("::1", None), reach_of("localhost", None)
    (<Reach.THIS_MACHINE: 'this machine only'>, <Reach.THIS_MACHINE: 'this machine only'>, <Reach.THIS_MACHINE: 'this machine only'>)
    >>> reach_of("192.168.1.20", "192.168.1.20"), reach_of("0.0.0.0", "192.168.1.20"), reach_of("0.0.0.0", None)
    (<Reach.NETWORK: 'the network'>, <Reach.NETWORK: 'the network'>, <Reach.THIS_MACHINE: 'this machine only'>)
    """
    addresses = _addresses(host)
    if addresses and all(address.is_loopback for address in addresses):
        return Reach.THIS_MACHINE
    if network is None and addresses and all(address.is_unspecified for address in addresses):
        return Reach.THIS_MACHINE
    return Reach.NETWORK


def reach_said(host: str, network: str | None, reach: Reach | None = None) -> str:
    """Whom the address of a server listening on ``host`` reaches, in a sentence for the players
    (``network``: this machine's network address, None: it has none; ``reach``: whom it was chosen
    to reach, else :func:`reach_of` it).

    >>> reach_said("192.168.1.20", "192.168.1.20")
    'Any phone on the same network as this machine (192.168.1.20) can open that address.'
    >>> reach_said("127.0.0.1", "192.168.1.20")
    'Only this machine can open that address (127.0.0.1 is its loopback), not the phones; its address on the network is 192.168.1.20.'
    >>> reach_said("127.0.0.1", None)
    'This machine has no network, so only it can open that address (127.0.0.1 is its loopback), not the phones.'
    """
    addresses = _addresses(host)
    every = bool(addresses) and all(address.is_unspecified for address in addresses)
    if (reach or reach_of(host, network)) is Reach.NETWORK:
        if every and network is not None:
            return (
                f"It listens on every network of this machine: any phone on the same network opens it with this "
                f"machine's address there, {network}, in place of {host}."
            )
        return f"Any phone on the same network as this machine ({host}) can open that address."
    if every:
        return f"This machine has no network, so only it can open that address (as {LOOPBACK} in place of {host}), not the phones."
    if network is None:
        return f"This machine has no network, so only it can open that address ({host} is its loopback), not the phones."
    return f"Only this machine can open that address ({host} is its loopback), not the phones; its address on the network is {network}."


@dataclass(frozen=True)
class Sharing:
    """The window's choice of whom its scoreboard reaches, and the address to listen on for it."""

    reach: Reach
    """Whom the scoreboard is shared with."""
    network: str | None
    """This machine's address on its network; None: it has no network (only this machine can then
    be chosen)."""

    @classmethod
    def first(cls, network: str | None) -> Sharing:
        """The choice before any is made: the network where there is one, else this machine only."""
        return cls(Reach.NETWORK if network is not None else Reach.THIS_MACHINE, network)

    @property
    def host(self) -> str:
        """The address to listen on: this machine's network address, or the loopback."""
        return self.network if self.reach is Reach.NETWORK and self.network is not None else LOOPBACK

    @property
    def choices(self) -> tuple[Reach, ...]:
        """What can be chosen now: the network only where this machine has one."""
        return tuple(Reach) if self.network is not None else (Reach.THIS_MACHINE,)

    def label(self, reach: Reach) -> str:
        """A choice's words, with the address it listens on."""
        if reach is Reach.THIS_MACHINE:
            return f"This machine only ({LOOPBACK})"
        if self.network is None:
            return "Phones on the same network (this machine has no network now)"
        return f"Phones on the same network ({self.network})"

    @property
    def said(self) -> str:
        """Whom the address reaches, in a sentence."""
        return reach_said(self.host, self.network, self.reach)

    def again(self, network: str | None) -> Sharing:
        """The same choice with this machine's network address as found now (this machine only
        where the network has gone)."""
        return Sharing(self.reach if network is not None else Reach.THIS_MACHINE, network)

    def choose(self, reach: Reach, network: str | None) -> Sharing:
        """This choice, ``network`` being this machine's network address as found now; the network
        where there is none is refused, saying so.

        >>> Sharing.first("192.168.1.20").choose(Reach.THIS_MACHINE, "192.168.1.20").host
        '127.0.0.1'
        >>> Sharing.first(None).choose(Reach.NETWORK, None)
        Traceback (most recent call last):
        ...
        scorekeeper.serve.address.NoNetwork: 'the network': this machine has no network now; connect it to the phones' network (their Wi-Fi) and choose again
        """
        if reach is Reach.NETWORK and network is None:
            raise NoNetwork(f"{reach.value!r}: this machine has no network now; connect it to the phones' network (their Wi-Fi) and choose again")
        return replace(self, reach=reach, network=network)


class NoNetwork(ValueError):
    """The network was chosen for the scoreboard on a machine that has none."""
