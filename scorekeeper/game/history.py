"""The finished turns of a game as an immutable sequence that grows in constant time.

Every state of a game holds the turns finished before it. As tuples, each turn's end copied all the
turns before (a long game replayed in quadratic time), and every state kept for undo held its own
copy (quadratic memory). A :class:`TurnHistory` shares one list with the history it grew from: it
sees only its first :func:`len` records, and that list only ever grows at its end.

>>> empty = TurnHistory()
>>> one = empty.plus("turn 1")
>>> two = one.plus("turn 2")
>>> other = one.plus("turn 2, played another way")
>>> list(one), list(two), list(other), two[-1], two[0:1]
(['turn 1'], ['turn 1', 'turn 2'], ['turn 1', 'turn 2, played another way'], 'turn 2', ('turn 1',))
>>> two == ("turn 1", "turn 2"), two == other
(True, False)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Generic, TypeVar, overload

T = TypeVar("T")


class TurnHistory(Sequence[T], Generic[T]):
    """An immutable sequence of records; :meth:`plus` makes a longer one in constant time (amortised)
    as long as each history is grown once, and copies only when one is grown a second time (a turn
    played again after an undo). A game is grown from one thread only, as a :class:`Game` is."""

    __slots__ = ("_shared", "_length")

    def __init__(self, records: Iterable[T] = ()) -> None:
        self._shared: list[T] = list(records)
        self._length = len(self._shared)

    def plus(self, record: T) -> TurnHistory[T]:
        """This history with ``record`` after its last."""
        shared = self._shared if len(self._shared) == self._length else self._shared[: self._length]
        shared.append(record)
        grown: TurnHistory[T] = TurnHistory()
        grown._shared, grown._length = shared, self._length + 1
        return grown

    def __len__(self) -> int:
        return self._length

    @overload
    def __getitem__(self, index: int) -> T: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[T, ...]: ...

    def __getitem__(self, index: int | slice) -> T | tuple[T, ...]:
        if isinstance(index, slice):
            return tuple(self._shared[position] for position in range(self._length)[index])
        return self._shared[range(self._length)[index]]

    def __iter__(self) -> Iterator[T]:
        return (self._shared[position] for position in range(self._length))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, TurnHistory):
            if other._shared is self._shared and other._length == self._length:
                return True
            return len(other) == self._length and all(a == b for a, b in zip(self, other))
        if isinstance(other, tuple):
            return tuple(self) == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"TurnHistory({list(self)!r})"
