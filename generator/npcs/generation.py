"""One build after another: levels that spend exactly the CP, a description, notes, minions.

Drawing is sequential, one NPC after another, so ``--count 12`` begins with the same ten
NPCs as ``--count 10`` under the same seed. Names, description traits, ability notes and
minion descriptions are drawn least used first (:class:`~.drawing.Fresh`), so a phrase's
share of a roster shrinks with the size of its pool, not with luck.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from random import Random

from ..definitions.resilience_models import Career
from ..rules.abilities import CHARACTER_ABILITIES
from .content import Archetype, archetype_book
from .drawing import Fresh, below, pick, pick_weighted
from .names import BeastNames, Names
from .options import min_cp
from .spec import NOTED_ABILITIES, MinionNpc, Npc, Plan


def _weights(archetype: Archetype, names: Sequence[str], smooth: int = 0) -> list[int]:
    return [archetype.weights.get(name, 0) + smooth for name in names]


def _add_weighted(
    rng: Random, levels: dict[str, int], archetype: Archetype, exclude: Sequence[str] = ()
) -> str | None:
    """Take one more ability by weight (catalogue order), or None when none is left."""
    candidates = [
        a
        for a in CHARACTER_ABILITIES
        if a not in levels and a not in exclude and archetype.weights.get(a, 0) > 0
    ]
    if not candidates:
        return None
    chosen = pick_weighted(rng, candidates, _weights(archetype, candidates))
    levels[chosen] = 1
    return chosen


def build_levels(
    rng: Random,
    archetype: Archetype,
    cp: int,
    max_level: int,
    required: Sequence[Sequence[str]],
    use_minimums: bool = True,
    floor: Mapping[str, int] | None = None,
) -> dict[str, int]:
    """Spend exactly ``cp`` on abilities that suit ``archetype`` (see archetypes.yaml)."""
    levels: dict[str, int] = {"toughness": 1}
    spare = cp - (1 + sum(1 for g in required if "toughness" not in g))
    for group in required:
        if any(a in levels for a in group):
            continue  # toughness already meets the group that names it
        options = list(group)
        if spare <= 0 and "toughness" in options:
            options = ["toughness"]  # no CP for anything else
        chosen = pick_weighted(rng, options, _weights(archetype, options, smooth=1))
        if chosen == "toughness":
            continue
        levels[chosen] = 1
        if "toughness" in group:
            spare -= 1
    caps = {
        a: max(1, min(max_level, archetype.max_levels.get(a, max_level)))
        for a in CHARACTER_ABILITIES
    }
    # How many abilities: the archetype's range, but enough to hold cp at the caps allowed.
    least = max(archetype.abilities[0], math.ceil(cp / max_level), len(levels))
    most = max(least, min(archetype.abilities[1], cp))
    target = min(cp, least + below(rng, most - least + 1))
    while len(levels) < target and _add_weighted(rng, levels, archetype) is not None:
        pass
    minimums = [*(floor or {}).items()]
    if use_minimums:
        minimums += archetype.min_levels.items()
    for name, wanted in minimums:
        if name in levels:
            room = cp - sum(levels.values())
            levels[name] = min(max(levels[name], min(wanted, caps[name])), levels[name] + room)
    remaining = cp - sum(levels.values())
    while remaining > 0:
        open_ = [a for a in levels if levels[a] < caps[a]]
        if not open_:
            if _add_weighted(rng, levels, archetype) is not None:
                remaining -= 1
                continue
            # Every suitable ability is full: lift the archetype's caps, then take anything.
            lifted = [a for a in levels if levels[a] < max_level]
            if lifted:
                for name in lifted:
                    caps[name] = max_level
                continue
            spare_names = [a for a in CHARACTER_ABILITIES if a not in levels]
            levels[pick(rng, spare_names)] = 1
            remaining -= 1
            continue
        weights = _weights(archetype, open_)
        chosen = pick_weighted(rng, open_, weights)
        levels[chosen] += 1
        remaining -= 1
    order = {name: i for i, name in enumerate(CHARACTER_ABILITIES)}
    return dict(sorted(levels.items(), key=lambda item: (-item[1], order[item[0]])))


def _article(phrase: str) -> str:
    # By sound, not letter: "a one-handed guard", "a young medic", "an elegant duelist".
    if phrase.lower().startswith(("one", "uni", "use")):
        return "a"
    return "an" if phrase[:1].lower() in "aeiou" else "a"


def describe(
    rng: Random, archetype: Archetype, career: Career | None = None, fresh: Fresh | None = None
) -> str:
    """ "a wiry caravan guard who never forgets a face"; a career NPC is named by its trade."""
    book = archetype_book()
    fresh = fresh or Fresh()
    adjective = fresh.pick(rng, archetype.adjectives if archetype.beast else book.adjectives)
    role = fresh.pick(rng, archetype.roles)
    if career is not None:
        role = career.name.casefold()
    shared = book.beast_traits if archetype.beast else book.traits
    trait = fresh.pick(rng, [*archetype.traits, *shared])
    return f"{_article(adjective)} {adjective} {role} {trait}"


def ability_notes(
    rng: Random,
    archetype: Archetype,
    levels: Mapping[str, int],
    fresh: Fresh | None = None,
) -> dict[str, str]:
    """A note on each of the best few abilities above level 1 (the first one in any case).

    The pool of an ability is the archetype's own notes and then the shared ones: the
    archetype's flavour first in the file, but a roster of one archetype still has enough
    phrases to go round. One NPC never gets the same phrase twice."""
    book = archetype_book()
    fresh = fresh or Fresh()
    notes: dict[str, str] = {}
    for index, (name, level) in enumerate(levels.items()):
        if len(notes) >= NOTED_ABILITIES or (index > 0 and level < 2):
            break
        shared = (book.beast_notes if archetype.beast else book.notes).get(name, [])
        pool = [*archetype.notes.get(name, []), *shared]
        if pool:
            notes[name] = fresh.pick(rng, pool, exclude=notes.values())
    return notes


def minion_budget(rng: Random, command: int) -> list[tuple[int, int]]:
    """(count, CP each) of a leader's minions: 1 or 2 of them, costing at most command."""
    if command <= 1:
        return [(1, 1)]
    shape = below(rng, 3)
    if shape == 0:
        return [(1, command)]  # one follower with every point
    if shape == 1:
        return [(2, command // 2)]  # a matched pair, like the books' Thugs
    first = 1 + below(rng, command - 1)
    return [(1, first), (1, command - first)]  # two different followers


def make_minions(
    rng: Random,
    archetype: Archetype,
    leader_given: str,
    command: int,
    max_level: int,
    fresh: Fresh | None = None,
) -> list[MinionNpc]:
    budget = minion_budget(rng, command)
    templates = list(archetype.minions)
    out: list[MinionNpc] = []
    used: list[int] = []
    for count, cp in budget:
        choices = [i for i in range(len(templates)) if i not in used] or list(range(len(templates)))
        index = pick(rng, choices)
        used.append(index)
        template = templates[index]
        minion_type = Archetype(
            label=template.one,
            summary=template.one,
            weights=template.weights,
            roles=[template.one],
            abilities=(2, 3),
        )
        # Beside toughness, a follower has the one thing it is hired for (when 2 CP allow).
        others = [a for a in template.weights if a != "toughness" and template.weights[a]]
        signature = max(others, key=lambda a: template.weights[a], default=None)
        required = [[signature]] if cp >= 2 and signature else []
        levels = build_levels(rng, minion_type, cp, max_level, required)
        noun = template.many if count > 1 else template.one
        out.append(
            MinionNpc(
                f"{leader_given}'s {noun}",
                count,
                (fresh or Fresh()).pick(rng, template.descriptions),
                levels,
            )
        )
    return out


def generate(plan_: Plan) -> list[Npc]:
    spec = plan_.spec
    book = archetype_book()
    rng = Random(spec.seed)
    names = Names(spec.name_prefix, spec.avoid_names)
    beast_names = BeastNames(spec.name_prefix, names.taken)
    fresh = Fresh()  # descriptions, notes and minion descriptions share one count
    groups = plan_.groups()
    # A small budget leaves out the archetypes whose requirements it cannot pay for.
    mix = [
        name
        for name in book.mix
        if book.mix[name] > 0 and min_cp(None, book.archetypes[name]) <= spec.cp
    ]
    mix_weights = [book.mix[name] for name in mix]
    npcs: list[Npc] = []
    for index in range(spec.count):
        key = plan_.archetype or pick_weighted(rng, mix, mix_weights)
        archetype = book.archetypes[key]
        required = plan_.career.required if plan_.career is not None else archetype.required
        levels = build_levels(
            rng,
            archetype,
            spec.cp,
            spec.max_level,
            required,
            use_minimums=plan_.career is None,
            floor=book.min_levels,
        )
        reused = names.reused
        if archetype.beast:
            name, given = beast_names.draw(rng, archetype.names), ""
        else:
            name, given = names.draw(rng)
        npc = Npc(
            name=name,
            description=describe(rng, archetype, plan_.career, fresh),
            group=groups[index],
            archetype=key,
            levels=levels,
            notes=ability_notes(rng, archetype, levels, fresh),
            career=plan_.career.name if plan_.career is not None else None,
            name_reused=names.reused > reused,
        )
        command = levels.get("command", 0)
        if archetype.minions and command >= 1:
            npc.minions = make_minions(rng, archetype, given, command, spec.max_level, fresh)
        npcs.append(npc)
    return npcs
