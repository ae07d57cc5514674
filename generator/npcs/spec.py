"""What to generate: the options as given (:class:`RosterSpec`), resolved
(:class:`Plan`), and the NPCs made (:class:`Npc`), with the limits the options must keep."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..definitions.resilience_models import Career

MAX_COUNT = 2000  # a campaign file holds at most 100,000 YAML values; 2,000 NPCs fit well
MAX_CP = 1000  # the campaign settings' own limits
MAX_LEVEL = 100
MAX_PREFIX = 60
MAX_GROUP = 120
BAND_SIZE = (6, 12)  # NPCs per band without --group: a table can run a band as one group
NOTED_ABILITIES = 3  # notes go on the best few abilities; the rest print bare, as in the books


class RosterError(ValueError):
    """Options the generator cannot honour; the message says what to do instead."""


@dataclass(frozen=True)
class RosterSpec:
    count: int
    cp: int = 10
    max_level: int = 4
    archetype: str | None = None
    career: str | None = None
    name_prefix: str = ""
    group: str | None = None
    seed: int | str = 0
    # Names already in the campaign: a generated name never repeats one (check would fail).
    avoid_names: tuple[str, ...] = ()
    # The campaign folder as given on the command line (or found from the current one),
    # for the file's header only: the command it prints must make the same file again.
    campaign: str | None = None
    # The file it is written to, if any: the command replaces it (--force), so the names
    # it holds are free again and the same file comes out.
    output: str | None = None


@dataclass(frozen=True)
class Band:
    """A run of consecutive NPCs who share one initiative group."""

    name: str
    size: int


@dataclass(frozen=True)
class Plan:
    """The spec resolved against the content: which archetype(s), which career, which bands."""

    spec: RosterSpec
    archetype: str | None  # None: each NPC draws one from the mix
    career: Career | None
    bands: tuple[Band, ...]  # in roster order; their sizes add up to the count

    @property
    def group(self) -> str | None:
        """The one initiative group of the roster, or None when it is split into bands."""
        return self.bands[0].name if len(self.bands) == 1 else None

    def groups(self) -> list[str]:
        """The initiative group of each NPC, in roster order."""
        return [band.name for band in self.bands for _ in range(band.size)]


@dataclass
class MinionNpc:
    name: str
    count: int
    description: str
    levels: dict[str, int]


@dataclass
class Npc:
    name: str
    description: str
    group: str
    archetype: str
    levels: dict[str, int]  # in the order they print: best first
    notes: dict[str, str] = field(default_factory=dict)
    career: str | None = None
    minions: list[MinionNpc] = field(default_factory=list)
    name_reused: bool = False  # the name lists had run out (see name_note)

    @property
    def cp(self) -> int:
        return sum(self.levels.values())
