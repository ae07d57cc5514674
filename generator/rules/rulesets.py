"""The three named rulesets: the formulas that changed between revisions of the rule texts.

`current` is the newest Basic Rules; `early` keeps the older strength and initiative that
reproduce the strengths printed beside the books' examples; `classic` is the single
"defense" of the Example Characters and Vehicles chapters. RULES.md §3 names each formula
(A1, I1, S2, S4, D1, IN-001, IN-group); the docstrings below use those names.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from .derived import Derived, Levels, best_of, level

AGILITY_SOURCES = ("stealth", "acrobatics", "quickness", "flying")
INTELLIGENCE_SOURCES = ("detection", "command", "healing", "craftsmanship")


def _ten_plus_best(name: str, levels: Levels, sources: tuple[str, ...]) -> Derived:
    ability, best = best_of(levels, sources)
    if ability is None:
        return Derived(10, f"{name} 10 = 10 (none of {', '.join(sources)})")
    return Derived(10 + best, f"{name} {10 + best} = 10 + {ability} {best}")


def agility_a1(levels: Levels) -> Derived:
    """A1: 10 + the best of stealth, acrobatics, quickness and flying."""
    return _ten_plus_best("agility", levels, AGILITY_SOURCES)


def intelligence_i1(levels: Levels) -> Derived:
    """I1: 10 + the best of detection, command, healing and craftsmanship."""
    return _ten_plus_best("intelligence", levels, INTELLIGENCE_SOURCES)


def strength_s4(levels: Levels) -> Derived:
    """S4: 10 + the best of wrestling and swimming when either is had, else 7 + toughness.

    Not monotonic on purpose of the text: one level of wrestling replaces 7 + toughness.
    """
    ability, best = best_of(levels, ("wrestling", "swimming"))
    if ability is not None:
        return Derived(10 + best, f"strength {10 + best} = 10 + {ability} {best}")
    toughness = level(levels, "toughness")
    return Derived(
        7 + toughness,
        f"strength {7 + toughness} = 7 + toughness {toughness} (no wrestling or swimming)",
    )


def strength_s2(levels: Levels) -> Derived:
    """S2: the greater of 8 + toughness and 10 + wrestling (the older edit of the rules)."""
    toughness, wrestling = level(levels, "toughness"), level(levels, "wrestling")
    by_toughness, by_wrestling = 8 + toughness, 10 + wrestling
    if by_wrestling > by_toughness:
        return Derived(by_wrestling, f"strength {by_wrestling} = 10 + wrestling {wrestling}")
    return Derived(by_toughness, f"strength {by_toughness} = 8 + toughness {toughness}")


def defense_d1(levels: Levels) -> Derived:
    """D1: 10 + the best of stealth (the old "stalking"), acrobatics, quickness, flying and
    stamina. Inferred from all the single-defense blocks; swimming does not count."""
    ability, best = best_of(levels, AGILITY_SOURCES)
    stamina = level(levels, "toughness") // 2
    if stamina > best:
        return Derived(10 + stamina, f"defense {10 + stamina} = 10 + stamina {stamina}")
    if ability is None:
        return Derived(10, "defense 10 = 10 (no movement or stealth, stamina 0)")
    return Derived(10 + best, f"defense {10 + best} = 10 + {ability} {best}")


def initiative_group(levels: Levels) -> Derived:
    """IN-group for one character: 2 x stealth + 10 x detection."""
    stealth, detection = level(levels, "stealth"), level(levels, "detection")
    value = 2 * stealth + 10 * detection
    return Derived(
        value, f"initiative bonus {value} = 2 x stealth {stealth} + 10 x detection {detection}"
    )


def initiative_001(levels: Levels) -> Derived:
    """IN-001: 10 x stealth + 10 x detection, each character rolling alone."""
    stealth, detection = level(levels, "stealth"), level(levels, "detection")
    value = 10 * stealth + 10 * detection
    return Derived(
        value, f"initiative bonus {value} = 10 x stealth {stealth} + 10 x detection {detection}"
    )


def group_initiative_best(members: Sequence[Levels]) -> Derived:
    """IN-group: 2 x the group's best stealth + 10 x its best detection; the two bests may
    come from different characters."""
    stealth = max((level(m, "stealth") for m in members), default=0)
    detection = max((level(m, "detection") for m in members), default=0)
    value = 2 * stealth + 10 * detection
    return Derived(
        value,
        f"group initiative bonus {value} = 2 x best stealth {stealth}"
        f" + 10 x best detection {detection}",
        ((2, "stealth", stealth), (10, "detection", detection)),
    )


def group_initiative_individual(members: Sequence[Levels]) -> Derived:
    """Under the older text everyone rolls alone; a group card shows its best single bonus."""
    best = max((initiative_001(m).value for m in members), default=0)
    return Derived(best, f"group initiative bonus {best} = best member's own bonus (each rolls)")


# Every action of the rule texts, in the order a player looks for them on a sheet. An era
# lists the ones its text has; rules/actions.py says how each is rolled.
CURRENT_ACTIONS = (
    "basic_attack",
    "fighting",
    "wrestling_hold",
    "hold",
    "shooting",
    "blasting",
    "knockout",
    "throw_object",
    "distract",
    "surprise",
    "intimidate",
    "heal",
    "revive",
    "evade",
    "escape",
    "engage",
    "take_cover",
)
# The older edit's list has no engage and no throw object, and lets a fighter catch an
# evading target (I-19).
OLDER_ACTIONS = (
    *(name for name in CURRENT_ACTIONS if name not in {"engage", "throw_object"}),
    "catch",
)

# The movement abilities, for evade, distract and hold; the older edit's evade names
# acrobatics, quickness and flying only (RULES.md §3.2).
MOVEMENT = ("acrobatics", "quickness", "flying", "swimming")
OLDER_EVADE = ("acrobatics", "quickness", "flying")


@dataclass(frozen=True)
class ActionRules:
    """How one era's text has the actions differ (RULES.md §5.2, §5.3, I-17 to I-20): which
    actions exist, what they roll and what they do. Where the text differs in what an action
    does, the field is a key naming the era's variant; documents/actions.py words each.
    rules/actions.py reads only these fields, never the ruleset's name, so a new era is a
    new value here (and its sentences there). docs/rules.md lists every row that differs,
    per ruleset."""

    names: tuple[str, ...]  # the actions the era has, by key, in the order they are printed
    # Distract, surprise and intimidate: "unrepeatable" (once per encounter per target) or,
    # in the older texts, "once_per_battle"; psychic_limit says the same for the legends
    # ("once_per_target" or "once_per_battle").
    psychic_timing: str
    psychic_limit: str
    # The state surprise and intimidate leave a target in till its next turn: "panicked"
    # or, in the older texts, "frightened".
    upset: str
    # What intimidate rolls against: "intelligence_or_strength" (whichever is higher),
    # "intelligence_if_not_stronger" or "defense_if_not_stronger" (gated on strength).
    intimidate_target: str
    wrestling_hold_damages: bool  # older texts: the hold does no damage
    attacker_delays: bool  # older texts: knockout and injured shooters do not delay
    # A character with no fighting or wrestling adds knockout to a basic attack (later
    # revisions only).
    basic_attack_adds_knockout: bool
    hold_adds: tuple[str, ...]  # what a hold roll may add; the older text has no detection
    # A movement ability that suits the ground may be added to distract and hold (later
    # revisions); the older distract is a bare roll.
    movement_on_terrain: bool
    evade_adds: tuple[str, ...]  # the movement abilities evade may add
    # Who gains evade's movement level, and till when: "held" (agility and strength, till
    # your next turn or a hold), "early" (agility alone) or "classic" (the one defense).
    evade: str
    # A hold ends the evade bonus early (current text only; the older text has catch).
    evade_until_held: bool
    # Escape straight after evading: "evading" alone, or "unhit" (only if nobody has
    # caught or hit you since).
    escape: str
    # Take cover: "behind_cover" (+2 to the defense behind real cover, -2 to your rolls) or
    # "long_range" (the old one: before a long-range attack, -2 to it).
    take_cover: str


CURRENT_ACTION_RULES = ActionRules(
    names=CURRENT_ACTIONS,
    psychic_timing="unrepeatable",
    psychic_limit="once_per_target",
    upset="panicked",
    intimidate_target="intelligence_or_strength",
    wrestling_hold_damages=True,
    attacker_delays=True,
    basic_attack_adds_knockout=True,
    hold_adds=("wrestling", "detection"),
    movement_on_terrain=True,
    evade_adds=MOVEMENT,
    evade="held",
    evade_until_held=True,
    escape="evading",
    take_cover="behind_cover",
)

# The older edit: once per battle with a frightened target, a bare distract, holds with
# wrestling alone, evade adds to agility alone, escape only if nobody caught or hit you,
# the old take cover and the catch.
EARLY_ACTION_RULES = ActionRules(
    names=OLDER_ACTIONS,
    psychic_timing="once_per_battle",
    psychic_limit="once_per_battle",
    upset="frightened",
    # The older text gates intimidation on strength, then rolls against intelligence.
    intimidate_target="intelligence_if_not_stronger",
    wrestling_hold_damages=False,
    attacker_delays=False,
    basic_attack_adds_knockout=False,
    hold_adds=("wrestling",),
    movement_on_terrain=False,
    evade_adds=OLDER_EVADE,
    evade="early",
    evade_until_held=False,
    escape="unhit",
    take_cover="long_range",
)

# The single-defense texts print no action list; their era's nearest one is the older
# edit's, rolled against the one defense. No strength number exists to gate intimidation,
# so the gate is worded for the GM to judge (docs/rules.md).
CLASSIC_ACTION_RULES = replace(
    EARLY_ACTION_RULES,
    intimidate_target="defense_if_not_stronger",
    evade="classic",
)


@dataclass(frozen=True)
class Ruleset:
    name: str
    # For developers and docs, in English: no printable prints it (the sheets print
    # source_note, worded by documents/actions.py).
    summary: str
    agility: Callable[[Levels], Derived] | None
    intelligence: Callable[[Levels], Derived] | None
    strength: Callable[[Levels], Derived] | None
    defense: Callable[[Levels], Derived] | None
    initiative: Callable[[Levels], Derived]
    group_initiative: Callable[[Sequence[Levels]], Derived]
    # Each character rolls initiative alone (older text) rather than once per group.
    individual_initiative: bool
    actions: ActionRules
    # Where the texts this ruleset follows leave gaps, said after "<name> rules" on the
    # sheet, by key ("fragment", "early_actions"; documents/actions.py words it); "" when
    # the text is whole.
    source_note: str

    @property
    def psychic_limit(self) -> str:
        """How often distract, surprise and intimidate may be used, by key:
        "once_per_target" or "once_per_battle"."""
        return self.actions.psychic_limit

    @property
    def computes(self) -> frozenset[str]:
        """The printed header values this ruleset can compare."""
        names = {"stamina", "hit_points", "initiative_bonus"}
        for name in ("agility", "intelligence", "strength", "defense"):
            if getattr(self, name) is not None:
                names.add(name)
        return frozenset(names)

    def target(self, defense: str) -> str:
        """The defense an attack rolls against, by key; the single-defense era has only
        one."""
        return "defense" if self.defense is not None else defense


CURRENT = Ruleset(
    name="current",
    summary="newest Basic Rules: agility A1, intelligence I1, strength S4, group initiative",
    agility=agility_a1,
    intelligence=intelligence_i1,
    strength=strength_s4,
    defense=None,
    initiative=initiative_group,
    group_initiative=group_initiative_best,
    individual_initiative=False,
    actions=CURRENT_ACTION_RULES,
    source_note="",
)

EARLY = Ruleset(
    name="early",
    summary="older edit (a fragment): strength S2, initiative 10 x stealth per character,"
    " the older actions",
    agility=agility_a1,
    intelligence=intelligence_i1,
    strength=strength_s2,
    defense=None,
    initiative=initiative_001,
    group_initiative=group_initiative_individual,
    individual_initiative=True,
    actions=EARLY_ACTION_RULES,
    source_note="fragment",
)

CLASSIC = Ruleset(
    name="classic",
    summary="Example Characters era: one defense D1, plus stamina and hit points;"
    " the early actions against it",
    agility=None,
    intelligence=None,
    strength=None,
    defense=defense_d1,
    initiative=initiative_001,
    group_initiative=group_initiative_individual,
    individual_initiative=True,
    actions=CLASSIC_ACTION_RULES,
    source_note="early_actions",
)

RULESETS: dict[str, Ruleset] = {r.name: r for r in (CURRENT, EARLY, CLASSIC)}
DEFAULT_RULESET = "current"


def get_ruleset(name: str) -> Ruleset:
    try:
        return RULESETS[name]
    except KeyError:
        raise ValueError(
            f"unknown ruleset {name!r}; choose one of: {', '.join(RULESETS)}"
        ) from None
