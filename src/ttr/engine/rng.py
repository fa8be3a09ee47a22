"""The game's random numbers: SplitMix64, specified here so any program can reproduce a shuffle.

`shuffle` is Fisher-Yates from the last index down; `below(n)` rejects the top partial block of
2**64 so every result is unbiased. The state is one 64-bit integer that lives inside the game and in
no view. Python's `random` is avoided so that a seed gives the same game on every Python version.
"""

from __future__ import annotations

from typing import TypeVar

_MASK = (1 << 64) - 1
T = TypeVar("T")


class Rng:
    """SplitMix64 (Steele, Lea, Flood 2014)."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK

    def __reduce__(self) -> tuple[type[Rng], tuple[int]]:
        """Pickled as its state, which is also the seed that makes it (the compiled class needs the argument)."""
        return (Rng, (self.state,))

    def next64(self) -> int:
        """The next 64-bit output."""
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in [0, n)."""
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def shuffle(self, items: list[T]) -> None:
        """Shuffle in place (Fisher-Yates, from the end)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def copy(self) -> Rng:
        """An independent generator in the same state."""
        return Rng(self.state)
