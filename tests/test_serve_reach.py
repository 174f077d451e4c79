"""Whom the scoreboard's address reaches, said by ``serve`` and chosen in the window (its Qt-free
model): the loopback reaches this machine only, a network address the phones on that network; a
machine with no network says so instead of sending the players to an address their phones cannot open."""

from __future__ import annotations

import _thread
import io
import re
import signal
import sys
from pathlib import Path

import pytest

import scorekeeper.cli.serve as serve_command
import scorekeeper.serve.address as address
from scorekeeper.cli import main
from scorekeeper.serve import LOOPBACK, NoNetwork, Reach, Sharing, reach_said
from tests.test_serve import journal_game

LAN = "192.168.1.20"


class StopsOnceTheAddressIsSaid(io.StringIO):
    """Standard output that presses Ctrl+C once ``serve`` has said how to stop it."""

    def write(self, text: str) -> int:
        written = super().write(text)
        if "Ctrl+C stops" in text:
            _thread.interrupt_main()
        return written


def serve_says(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *options: str) -> list[str]:
    """The lines ``scorekeeper serve GAME OPTIONS...`` prints until Ctrl+C."""
    game, journal = journal_game(tmp_path)
    journal.close()
    monkeypatch.setenv("SCOREKEEPER_HOME", str(tmp_path / "home"))
    out = StopsOnceTheAddressIsSaid()
    monkeypatch.setattr(sys, "stdout", out)
    # Ctrl+C as at a terminal, even where the suite was started in the background (with SIGINT ignored)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        assert main(["serve", str(journal.path), *options]) == 0
    finally:
        signal.signal(signal.SIGINT, previous)
    return out.getvalue().splitlines()


def test_serve_with_no_network_says_only_this_machine_can_open_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # no route to any network: the probe's connect fails as it does on a machine with no network
    monkeypatch.setattr(address, "PROBE", ("256.0.0.1", 9))
    lines = serve_says(tmp_path, monkeypatch)
    assert re.search(rf"at http://{re.escape(LOOPBACK)}:\d+/", lines[0]), lines
    assert lines[1] == (
        f"This machine has no network, so only it can open that address ({LOOPBACK} is its loopback), not the phones. "
        "To share it with the phones, connect it to the phones' network (their Wi-Fi) and start serve again. Ctrl+C stops."
    )
    assert lines[-1] == "Stopped."


def test_serve_on_the_loopback_says_only_this_machine_can_open_it_and_how_to_share(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(serve_command, "network_address", lambda: LAN)
    lines = serve_says(tmp_path, monkeypatch, "--host", LOOPBACK)
    assert "same network" not in lines[1] and "Open that address on the phones" not in lines[1]
    assert lines[1] == (
        f"Only this machine can open that address ({LOOPBACK} is its loopback), not the phones; its address on the "
        f"network is {LAN}. To share it with the phones, leave --host out (or give --host {LAN}). Ctrl+C stops."
    )


def test_what_serve_says_of_a_network_address_and_of_every_address() -> None:
    assert serve_command.whom_it_reaches(LAN, LAN, named=False) == (
        f"Any phone on the same network as this machine ({LAN}) can open that address. "
        "Open it on the phones at the table. Ctrl+C stops."
    )
    assert serve_command.whom_it_reaches("0.0.0.0", LAN, named=True).startswith(
        f"It listens on every network of this machine: any phone on the same network opens it with this machine's "
        f"address there, {LAN}, in place of 0.0.0.0."
    )
    assert serve_command.whom_it_reaches("0.0.0.0", None, named=True) == (
        f"This machine has no network, so only it can open that address (as {LOOPBACK} in place of 0.0.0.0), not the "
        "phones. To share it with the phones, connect it to the phones' network (their Wi-Fi) and start serve again "
        "without --host. Ctrl+C stops."
    )


def test_the_loopback_reaches_this_machine_only_whatever_its_spelling() -> None:
    for host in ("127.0.0.1", "127.0.0.2", "::1", "localhost"):
        assert address.reach_of(host, LAN) is Reach.THIS_MACHINE, host
        assert reach_said(host, LAN).startswith("Only this machine can open that address"), host
    for host in (LAN, "10.0.0.5", "0.0.0.0"):
        assert address.reach_of(host, LAN) is Reach.NETWORK, host


def test_the_windows_sharing_chooses_whom_it_reaches_and_the_address_for_it() -> None:
    first = Sharing.first(LAN)
    assert first.reach is Reach.NETWORK and first.host == LAN and first.choices == (Reach.NETWORK, Reach.THIS_MACHINE)
    assert first.label(Reach.NETWORK) == f"Phones on the same network ({LAN})"
    here = first.choose(Reach.THIS_MACHINE, LAN)
    assert here.host == LOOPBACK and here.label(Reach.THIS_MACHINE) == f"This machine only ({LOOPBACK})"
    assert here.said.startswith("Only this machine can open that address")
    assert here.again(LAN) == here, "the choice holds"
    gone = first.again(None)
    assert gone.reach is Reach.THIS_MACHINE and gone.host == LOOPBACK and gone.choices == (Reach.THIS_MACHINE,)
    assert gone.said.startswith("This machine has no network")
    with pytest.raises(NoNetwork, match="'the network': this machine has no network now"):
        gone.choose(Reach.NETWORK, None)
    assert Sharing.first(None).host == LOOPBACK
    assert gone.choose(Reach.NETWORK, "10.0.0.5").host == "10.0.0.5", "a network found again can be chosen"
