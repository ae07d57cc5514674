"""Pydantic models for Resilience content: events, careers and project ideas.

These are the shapes of the three top-level lists a campaign may write in its YAML
(``events:``, ``careers:`` and ``project_ideas:``) and of the built-in content in
``generator/content/resilience/``. Structural rules of the game are enforced here
(a threat belongs to exactly one of the three E's, a decision offers 2 or 3 choices,
a career never needs more than level 1 of an ability, a project never develops and
sacrifices the same defense). Word budgets for printing on a poker card are exposed as
data (:data:`EVENT_WORD_LIMITS`, :func:`event_word_counts`) so documents can warn about
overflow without rejecting a user's longer text.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from typing import Annotated, Final, Literal, get_args

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    field_validator,
    model_validator,
)

from ..rules.community import project_difficulty

# --------------------------------------------------------------------------------------
# Enumerations
# --------------------------------------------------------------------------------------

Defense = Literal["economy", "environment", "equity"]

Threat = Literal[
    # economy
    "emergency",
    "breakdown",
    "sabotage",
    "bankruptcy",
    # environment
    "attrition",
    "biological hazard",
    "siege",
    # equity
    "demoralization",
    "propaganda",
    "psy-ops",
]

Ability = Literal[
    "fighting",
    "wrestling",
    "knockout",
    "shooting",
    "blasting",
    "toughness",
    "quickness",
    "acrobatics",
    "healing",
    "command",
    "craftsmanship",
    "stealth",
    "detection",
    "flying",
    "swimming",
    "piloting",
    "driving",
    "navigation",
]

CombatRole = Literal["attack", "defense", "support", "strategy"]

# In alphabetical order: an index of themes to pick from.
ProjectTheme = Literal[
    "aerial rope transport",
    "agriculture",
    "cooperation",
    "culture",
    "defense",
    "DIY",
    "education",
    "energy",
    "health",
    "human power",
    "industrialization",
    "low tech",
    "old tech",
    "salvage",
    "steam power",
    "trade",
    "water",
]

AbilityCategory = Literal["attack", "defense", "support", "other"]

DEFENSES: Final[tuple[Defense, ...]] = get_args(Defense)
THREATS: Final[tuple[Threat, ...]] = get_args(Threat)
ABILITIES: Final[tuple[Ability, ...]] = get_args(Ability)

#: Which of the three E's defends against each threat (Resilience, "Create Your Community").
THREAT_DEFENSE: Final[Mapping[Threat, Defense]] = {
    "emergency": "economy",
    "breakdown": "economy",
    "sabotage": "economy",
    "bankruptcy": "economy",
    "attrition": "environment",
    "biological hazard": "environment",
    "siege": "environment",
    "demoralization": "equity",
    "propaganda": "equity",
    "psy-ops": "equity",
}

#: The career categories of Resilience's career notes; abilities outside them are "other".
ABILITY_CATEGORY: Final[Mapping[Ability, AbilityCategory]] = {
    "fighting": "attack",
    "wrestling": "attack",
    "knockout": "attack",
    "shooting": "attack",
    "blasting": "attack",
    "toughness": "defense",
    "quickness": "defense",
    "acrobatics": "defense",
    "healing": "support",
    "command": "support",
    "craftsmanship": "support",
    "stealth": "other",
    "detection": "other",
    "flying": "other",
    "swimming": "other",
    "piloting": "other",
    "driving": "other",
    "navigation": "other",
}

#: The only level a career may require of any ability.
CAREER_REQUIRED_LEVEL: Final = 1

#: Largest development of any project (a large project); see Resilience, "Projects".
MAX_PROJECT_DEVELOPMENT: Final = 5

#: Word budgets for an event printed on a 63 x 88 mm card at 7.5-8.5 pt.
EVENT_WORD_LIMITS: Final[Mapping[str, int]] = {
    "story": 70,
    "temporary": 25,
    "success": 20,
    "failure": 20,
    "choice": 22,  # one choice plus its consequence
    "encounter": 30,
    "remembers": 14,
    "total": 170,  # everything printed on the card except the title and the stat line
}
EVENT_STORY_MIN_WORDS: Final = 40

# Every id (events, careers, marks ...): lower-case words joined by hyphens.
ID_PATTERN: Final = r"^[a-z0-9]+(?:-[a-z0-9]+)*$"

Id = Annotated[str, StringConstraints(pattern=ID_PATTERN, max_length=60)]
# A campaign entry with a built-in id replaces that entry (content/loader.py).
ID_DESCRIPTION: Final = "Lower-case words and hyphens; a built-in id here replaces that entry."
Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=60)]
Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=1000)]


def word_count(text: str) -> int:
    """Count words the way a reader would: runs of non-space characters."""
    return len(re.findall(r"\S+", text))


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


# --------------------------------------------------------------------------------------
# Events
# --------------------------------------------------------------------------------------


class EventChallenge(_Model):
    """The PCs' roll against the event: d20 + ability level vs. difficulty."""

    ability: Ability = Field(description="The character ability the PCs roll.")
    difficulty: int = Field(ge=8, le=18, description="The number the roll must reach.")
    success: Text = Field(description="What happens when the roll succeeds.")
    failure: Text = Field(description="What happens when it fails.")


MarkName = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=32)]


class Mark(_Model):
    """A named consequence: what an answer leaves in the campaign's history, for later
    cards to read ("Owes the Salt Guild")."""

    id: Id = Field(description="Lower-case words and hyphens; later cards' `remembers` name it.")
    name: MarkName = Field(description="How the history and the cards print it.")


class DecisionChoice(_Model):
    """One answer the community may give, with its mechanical consequence."""

    choice: Name = Field(description="The answer, in a few words.")
    consequence: Text = Field(description="What choosing it does to the community.")
    leaves: Mark | None = Field(
        default=None,
        description="A named consequence this answer writes into the history, which later"
        " cards read.",
    )


class Memory(_Model):
    """What a card does differently when the history holds a mark an earlier answer left."""

    mark: Id = Field(description="The id of a mark some answer `leaves`.")
    text: Text = Field(description="What changes this year, in a short sentence.")
    attack_bonus: int = Field(
        default=0, ge=-4, le=4, description="Added to this card's attack bonus while it holds."
    )


class EventDecision(_Model):
    """The question the community faces this year: 2 or 3 choices."""

    prompt: Text = Field(description="The question put to the community.")
    choices: list[DecisionChoice] = Field(description="Two or three answers it may give.")

    @field_validator("choices")
    @classmethod
    def _two_or_three(cls, choices: list[DecisionChoice]) -> list[DecisionChoice]:
        if not 2 <= len(choices) <= 3:
            raise ValueError(f"a decision needs 2 or 3 choices, not {len(choices)}")
        labels = [c.choice.casefold() for c in choices]
        if len(set(labels)) != len(labels):
            raise ValueError("two choices of one decision have the same label")
        return choices


class Event(_Model):
    """A year's event: the GM rolls d20 + attack_bonus against one of the three E's."""

    id: Id = Field(description=ID_DESCRIPTION)
    title: Name = Field(description="The card's title.")
    threat: Threat = Field(description="The kind of danger the year brings.")
    attacks: Defense = Field(description="The defense the threat attacks; fixed by the threat.")
    attack_bonus: int = Field(
        ge=0, le=12, description="What the GM adds to the d20 attack roll, before the year's."
    )
    damage: int = Field(
        ge=1, le=8, description="Levels the defense loses if the attack hits, before the year's."
    )
    windfall: bool = Field(
        default=False,
        description="Good fortune with a catch: the community comes out ahead on average,"
        " and the attack is the price.",
    )
    story: Text = Field(description="What the GM reads aloud.")
    temporary: Text = Field(description="A modifier that lasts until the year ends.")
    challenge: EventChallenge = Field(description="The roll the PCs make against the event.")
    decision: EventDecision = Field(description="The choice the community faces.")
    encounter: Text = Field(description="The fight or meeting the event leads to.")
    remembers: list[Memory] = Field(
        default_factory=list,
        max_length=2,
        description="What this card does differently when the history holds a mark.",
    )

    @model_validator(mode="after")
    def _threat_matches_defense(self) -> Event:
        expected = THREAT_DEFENSE[self.threat]
        if self.attacks != expected:
            raise ValueError(
                f"threat {self.threat!r} attacks {expected}, not {self.attacks} "
                f"(set attacks: {expected})"
            )
        return self


def event_marks(event: Event) -> dict[str, Mark]:
    """The marks this event's answers leave, by id."""
    return {c.leaves.id: c.leaves for c in event.decision.choices if c.leaves is not None}


def marks_left(events: Sequence[Event]) -> dict[str, tuple[Mark, Event]]:
    """Every mark the deck's answers leave, by id, with the event whose answer leaves it."""
    return {mark.id: (mark, event) for event in events for mark in event_marks(event).values()}


def memories_held(event: Event, held: Collection[str]) -> list[Memory]:
    """The lines of ``event`` that the history's marks (ids in ``held``) call up."""
    return [memory for memory in event.remembers if memory.mark in held]


def marks_bonus(event: Event, held: Collection[str]) -> int:
    """What the history's marks (ids in ``held``) add to this event's attack bonus."""
    return sum(memory.attack_bonus for memory in memories_held(event, held))


def events_by_name(events: Sequence[Event]) -> dict[str, Event]:
    """The events as a history names them: by title in any case, or by id."""
    return {key: e for e in events for key in (e.title.casefold(), e.id)}


def answer_named(event: Event, words: str) -> DecisionChoice | None:
    """The answer of ``event`` a history writes in ``words`` (the card's, in any case)."""
    wanted = words.strip().casefold()
    return next((c for c in event.decision.choices if c.choice.casefold() == wanted), None)


def event_word_counts(event: Event) -> dict[str, int]:
    """Words per printed part of an event card; ``choice`` is the longest choice."""
    choices = [
        word_count(c.choice)
        + word_count(c.consequence)
        + (word_count(c.leaves.name) if c.leaves else 0)
        for c in event.decision.choices
    ]
    counts = {
        "story": word_count(event.story),
        "temporary": word_count(event.temporary),
        "success": word_count(event.challenge.success),
        "failure": word_count(event.challenge.failure),
        "choice": max(choices),
        "encounter": word_count(event.encounter),
        "remembers": sum(word_count(m.text) for m in event.remembers),
    }
    counts["total"] = (
        counts["story"]
        + counts["temporary"]
        + counts["success"]
        + counts["failure"]
        + word_count(event.decision.prompt)
        + sum(choices)
        + counts["encounter"]
        + counts["remembers"]
    )
    return counts


def event_over_budget(event: Event) -> list[str]:
    """Human-readable notes for every part of ``event`` over its card word budget."""
    counts = event_word_counts(event)
    notes = [
        f"{part} has {counts[part]} words (card budget {limit})"
        for part, limit in EVENT_WORD_LIMITS.items()
        if counts[part] > limit
    ]
    if counts["story"] < EVENT_STORY_MIN_WORDS:
        notes.append(f"story has {counts['story']} words (at least {EVENT_STORY_MIN_WORDS})")
    return notes


# --------------------------------------------------------------------------------------
# Careers
# --------------------------------------------------------------------------------------

AbilityGroup = Annotated[list[Ability], Field(min_length=1, max_length=5)]


class Career(_Model):
    """A PC career: each ``required`` group asks for level 1 in any one of its abilities."""

    id: Id = Field(description=ID_DESCRIPTION)
    name: Name = Field(description="The career's name, as characters' `career:` gives it.")
    description: Text | None = Field(default=None, description="What people of this career do.")
    combat_role: CombatRole | None = Field(default=None, description="Its part in a fight.")
    required: list[AbilityGroup] = Field(
        default_factory=list,
        max_length=6,
        description="Groups of abilities; the character needs level 1 in one of each group.",
    )
    project: Text | None = Field(default=None, description="A project this career might start.")
    wants: Text | None = Field(
        default=None,
        description="What this career pushes for when the council meets: the interest that"
        " sets it against the others.",
    )
    favors: Defense | None = Field(
        default=None,
        description="The defense its wants serve: the one its player argues for at the"
        " council, and develops first (the career-driven table of `resilience simulate`).",
    )

    @field_validator("required")
    @classmethod
    def _level_one_only(cls, groups: list[list[Ability]]) -> list[list[Ability]]:
        # An ability listed twice (in one group or across groups) would ask a character
        # for more than one level of it; careers never require more than level 1.
        seen: set[str] = set()
        for group in groups:
            for ability in group:
                if ability in seen:
                    raise ValueError(
                        f"{ability!r} is required more than once; a career requires at most "
                        f"level {CAREER_REQUIRED_LEVEL} of any ability"
                    )
                seen.add(ability)
        return groups

    def off_type_requirements(self) -> list[str]:
        """Required abilities outside the three types the rules build careers from
        (attack, defense, support), in the order written."""
        return [
            ability
            for group in self.required
            for ability in group
            if ABILITY_CATEGORY.get(ability, "other") == "other"
        ]

    def required_levels(self) -> dict[str, int]:
        """Every ability named in a requirement, at the single level careers require."""
        return {ability: CAREER_REQUIRED_LEVEL for group in self.required for ability in group}

    def is_met_by(self, levels: Mapping[str, int]) -> bool:
        """True if a character with these ability levels meets every requirement group."""
        return all(
            any(levels.get(ability, 0) >= CAREER_REQUIRED_LEVEL for ability in group)
            for group in self.required
        )


# --------------------------------------------------------------------------------------
# Project ideas
# --------------------------------------------------------------------------------------

Levels = Annotated[int, Field(ge=1, le=MAX_PROJECT_DEVELOPMENT)]


def _check_levels(develops: Mapping[Defense, int], sacrifices: Mapping[Defense, int]) -> None:
    developed = sum(develops.values())
    if not 1 <= developed <= MAX_PROJECT_DEVELOPMENT:
        raise ValueError(
            f"a project develops 1 to {MAX_PROJECT_DEVELOPMENT} levels in total, not {developed}"
        )
    both = sorted(set(develops) & set(sacrifices))
    if both:
        raise ValueError(f"a project cannot develop and sacrifice {', '.join(both)}")
    if sum(sacrifices.values()) > developed:
        raise ValueError(
            f"a project cannot sacrifice more levels ({sum(sacrifices.values())}) "
            f"than it develops ({developed})"
        )


class LargeProject(_Model):
    """The same idea built big, for groups whose projects are large (1, 2 or 4 players)."""

    develops: dict[Defense, Levels] = Field(description="Defense name to levels gained (5 in all).")
    sacrifices: dict[Defense, Levels] = Field(
        default_factory=dict, description="Defense name to the levels given up for it."
    )
    summary: Text = Field(description="What building it big means, in a sentence.")

    @model_validator(mode="after")
    def _large(self) -> LargeProject:
        _check_levels(self.develops, self.sacrifices)
        developed = sum(self.develops.values())
        if developed != MAX_PROJECT_DEVELOPMENT:
            raise ValueError(
                f"a large variant develops {MAX_PROJECT_DEVELOPMENT} levels in all, not {developed}"
            )
        return self

    @property
    def difficulty(self) -> int:
        return project_difficulty(sum(self.develops.values()), sum(self.sacrifices.values()))


class ProjectIdea(_Model):
    """A ready-made community project: what it develops and what it sacrifices."""

    id: Id = Field(description=ID_DESCRIPTION)
    name: Name = Field(description="The project's name.")
    theme: ProjectTheme = Field(description="What sort of project it is.")
    develops: dict[Defense, Levels] = Field(
        description="Defense name to the levels gained on success (1 to 5 in all)."
    )
    sacrifices: dict[Defense, Levels] = Field(
        default_factory=dict, description="Defense name to the levels given up for it."
    )
    summary: Text = Field(description="The project in a sentence or two.")
    failure: Text | None = Field(
        default=None,
        description="What a failed roll looks like: the sacrifice is paid, nothing is gained.",
    )
    large: LargeProject | None = Field(
        default=None,
        description="The idea built big (5 levels), for an idea that is small or medium.",
    )

    @model_validator(mode="after")
    def _develop_and_sacrifice(self) -> ProjectIdea:
        _check_levels(self.develops, self.sacrifices)
        if self.large is not None and self.developed_total == MAX_PROJECT_DEVELOPMENT:
            raise ValueError("a large idea is its own large variant; leave out large:")
        return self

    @property
    def developed_total(self) -> int:
        return sum(self.develops.values())

    @property
    def sacrificed_total(self) -> int:
        return sum(self.sacrifices.values())

    @property
    def size(self) -> Literal["small", "medium", "large"]:
        """The smallest project size that allows this much development."""
        if self.developed_total <= 3:
            return "small"
        return "medium" if self.developed_total == 4 else "large"

    @property
    def difficulty(self) -> int:
        """7 + 2 x levels developed - 5 x levels sacrificed (1 or less always succeeds)."""
        return project_difficulty(sum(self.develops.values()), sum(self.sacrifices.values()))


# --------------------------------------------------------------------------------------
# Factions: the powers that come back year after year
# --------------------------------------------------------------------------------------


class Faction(_Model):
    """A recurring power around the community, for the faction sheet and cards."""

    id: Id = Field(description=ID_DESCRIPTION)
    name: Name = Field(description="What everyone calls them.")
    kind: Name = Field(description="What sort of power they are, in a few words.")
    want: Text = Field(description="What they are after, year after year.")
    strength: Text = Field(description="What they hold that the town does not.")
    weakness: Text = Field(description="Where they can be pushed or bargained with.")
    dealing: Text = Field(description="How to talk to them, and the roll it takes.")
    appears_in: list[Id] = Field(
        default_factory=list, description="Ids of the events they appear in."
    )


# --------------------------------------------------------------------------------------
# A campaign's Resilience content, as written in YAML
# --------------------------------------------------------------------------------------


class ResilienceContent(_Model):
    """The three optional top-level lists of Resilience content in a campaign file."""

    events: list[Event] = Field(default_factory=list, description="Events for the yearly deck.")
    careers: list[Career] = Field(default_factory=list, description="Careers for PCs.")
    project_ideas: list[ProjectIdea] = Field(
        default_factory=list, description="Ready-made community projects."
    )
    factions: list[Faction] = Field(
        default_factory=list, description="The powers that come back year after year."
    )

    @model_validator(mode="after")
    def _unique_ids(self) -> ResilienceContent:
        for kind, ids in (
            ("event", [e.id for e in self.events]),
            ("career", [c.id for c in self.careers]),
            ("project idea", [p.id for p in self.project_ideas]),
            ("faction", [f.id for f in self.factions]),
        ):
            dupes = sorted({i for i in ids if ids.count(i) > 1})
            if dupes:
                raise ValueError(f"duplicate {kind} id: {', '.join(dupes)}")
        return self
