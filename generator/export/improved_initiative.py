"""Improved Initiative's library files: the party, each other side of the campaign and
each Resilience encounter, ready for its "Import characters, statblocks, encounters and
spells from a JSON file" (Settings, Account, Local Data).

Targets Improved Initiative 3.11 (the shapes of ``common/StatBlock.ts``,
``common/SavedEncounter.ts``, ``common/CombatantState.ts`` and
``common/PersistentCharacter.ts`` in its 3.11.8 source). A file maps
``Creatures.<id>`` to a stat block, ``PersistentCharacters.<id>`` to a player character
and ``SavedEncounters.<id>`` to an encounter whose combatants carry those stat blocks;
the import files each under its id, so importing again replaces rather than duplicates.

Its stat block is Dungeons & Dragons' shape. What has a place there goes there (hit
points, one defense as AC, the initiative bonus, abilities as skills, actions); the three
defenses, the health bands, movement and carrying go into traits. The six D&D scores it
requires are left at 10.
"""

from __future__ import annotations

import json
from typing import Any

from .. import __version__
from ..definitions.campaign import Campaign
from ..documents import actions as action_words
from ..documents.registry import plays_resilience
from ..documents.roster import campaign_title
from ..encounters import compute_encounters
from ..render.names import unique_stems
from ..rules.abilities import display
from ..rules.actions import Action
from ..rules.character import CharacterStats
from ..statblocks import Computed
from ..wording import _
from .entries import Entry, entries, plain, stable_id

IE_VERSION = "3.11.8"  # the release whose formats these files follow
PARTY = "party.json"
GROUPS_DIR = "groups"
ENCOUNTERS_DIR = "encounters"
EVERYTHING = "all.json"
NO_SCORES = {"Str": 10, "Dex": 10, "Con": 10, "Int": 10, "Wis": 10, "Cha": 10}


def _signed(number: int) -> str:
    return f"+{number}" if number >= 0 else str(number)


def _defenses(stats: CharacterStats) -> list[tuple[str, int]]:
    found = [
        (name, getattr(stats, name)) for name in ("agility", "intelligence", "strength", "defense")
    ]
    return [(name, value) for name, value in found if value is not None]


def _action(action: Action) -> dict[str, str]:
    """An action as a line of the stat block: its roll, range and damage, then what it does."""
    parts = []
    values = {
        "bonus": _signed(action.bonus or 0),
        "target": action_words.target(action),
        "range": action_words.range_(action),
        "damage": action_words.damage(action),
        "auto": action_words.auto_damage(action),
    }
    if action.bonus is not None:
        roll = _("d20 %(bonus)s against %(target)s") if action.target else _("d20 %(bonus)s")
        parts.append(roll % values)
    if action.range:
        parts.append(_("%(range)s range") % values)
    head = ", ".join(parts)
    if action.damage:
        hurt = _("%(damage)s damage (%(auto)s on a natural 20)") if action.auto_damage else None
        head += "; " + (hurt or _("%(damage)s damage")) % values
    if action.unrepeatable:
        head += f"; {action_words.timing(action)}"
    effect = action_words.effect(action)
    content = f"{head}. {effect}" if head else effect
    return {"Name": action_words.name(action), "Content": content[0].upper() + content[1:]}


def _traits(entry: Entry, stats: CharacterStats) -> list[dict[str, str]]:
    block = entry.block
    defenses = ", ".join(f"{name} {value}" for name, value in _defenses(stats))
    traits = [{"Name": "Defenses", "Content": defenses}]
    bands = []
    if stats.health.healthy is not None:
        low, high = stats.health.healthy
        bands.append(f"healthy at {low} to {high} HP")
    if stats.health.injured is not None:
        low, high = stats.health.injured
        bands.append(f"injured at {low} to {high}")
    bands.append("incapacitated at 0")
    traits.append({"Name": "Health", "Content": f"Stamina {stats.stamina}: " + ", ".join(bands)})
    if entry.grouped:
        traits.append(
            {
                "Name": "Initiative",
                "Content": f"{block.group} roll once, at d20 {_signed(entry.rolls)};"
                f" own bonus {_signed(stats.initiative_bonus)}",
            }
        )
    if block.kind == "minion":
        traits.append({"Name": "Minions", "Content": f"{block.count}, commanded by {block.leader}"})
    traits += [
        {"Name": f"{display(a.name).capitalize()} {a.level}", "Content": a.note}
        for a in stats.abilities
        if a.note
    ]
    if stats.carry is not None:
        carry = stats.carry
        traits.append(
            {
                "Name": "Carrying",
                "Content": f"pack {carry.pack_kg} kg ({carry.pack_lbs} lb) all day,"
                f" carry {carry.carry_kg} kg ({carry.carry_lbs} lb) a few minutes,"
                f" lift {carry.lift_kg} kg ({carry.lift_lbs} lb)",
            }
        )
    return traits


def _speed(stats: CharacterStats) -> list[str]:
    lines = []
    for state in ("healthy", "injured"):
        move = getattr(stats.movement, state)
        terrains = ", ".join(
            f"{terrain} {getattr(move, terrain)}"
            for terrain in ("ground", "air", "rough", "water")
            if getattr(move, terrain) is not None
        )
        lines.append(f"{state}: {terrains} spaces")
    return lines


def stat_block(entry: Entry, block_id: str, path: str, rules: str) -> dict[str, Any]:
    """``entry`` as an Improved Initiative stat block (a character or a minion group)."""
    stats = entry.block.stats
    assert isinstance(stats, CharacterStats)
    block = entry.block
    defenses = _defenses(stats)
    # One number for AC: agility, which every weapon attack rolls against (the single
    # defense under the classic rules).
    armour = stats.agility if stats.agility is not None else stats.defense
    injured = (
        f"injured at {stats.stamina} HP or fewer" if stats.stamina else "never injured, only out"
    )
    career = getattr(block.definition, "career", None)
    kind = "player character" if entry.player and block.kind == "character" else block.kind
    return {
        "Id": block_id,
        "Name": block.name,
        "Path": path,
        "Version": IE_VERSION,
        "Source": f"scratchpress {__version__}, {rules} rules",
        "Type": f"{kind}, {career}" if career else kind,
        "HP": {"Value": stats.hit_points, "Notes": injured},
        "AC": {"Value": armour or 0, "Notes": ", ".join(f"{n} {v}" for n, v in defenses)},
        "InitiativeModifier": entry.rolls,
        "InitiativeAdvantage": False,
        "Speed": _speed(stats),
        "Abilities": dict(NO_SCORES),
        "DamageVulnerabilities": [],
        "DamageResistances": [],
        "DamageImmunities": [],
        "ConditionImmunities": [],
        "Saves": [],
        "Skills": [
            {"Name": display(a.name).capitalize(), "Modifier": a.level} for a in stats.abilities
        ],
        "Senses": [],
        "Languages": [],
        "Challenge": f"{stats.cp} CP",
        "Traits": _traits(entry, stats),
        "Actions": [_action(a) for a in stats.actions if a.timing != "bonus"],
        "BonusActions": [_action(a) for a in stats.actions if a.timing == "bonus"],
        "Reactions": [],
        "LegendaryActions": [],
        "MythicActions": [],
        "Description": block.description,
        # "player" is how Improved Initiative tells a player character from a monster.
        "Player": "player" if entry.player and block.kind == "character" else "",
        "ImageURL": "",
    }


def _combatant(
    combatant_id: str,
    statblock: dict[str, Any],
    group: str | None,
    index: int | None,
    character: str | None = None,
) -> dict[str, Any]:
    state: dict[str, Any] = {
        "Id": combatant_id,
        "StatBlock": statblock,
        "CurrentHP": statblock["HP"]["Value"],
        "TemporaryHP": 0,
        "Initiative": 0,
        "Alias": "",
        "IndexLabel": index,
        "Tags": [],
        "Hidden": False,
        "RevealedAC": False,
        "InterfaceVersion": IE_VERSION,
    }
    if group is not None:
        state["InitiativeGroup"] = group
    if character is not None:
        state["PersistentCharacterId"] = character
    return state


def library_file(
    name: str, found: list[Entry], scope: str, path: str, rules: str, persistent: bool = False
) -> dict[str, Any]:
    """One import file: a saved encounter ``name`` with every entry of ``found`` as its
    combatants (a minion group as one combatant per minion), their stat blocks in the
    library, and with ``persistent`` the player characters as Improved Initiative's own
    characters, whose hit points it keeps from fight to fight. ``scope`` keeps the ids
    apart from another file's (opponents' names are unique only within an encounter)."""
    library: dict[str, Any] = {}
    combatants = []
    for entry in found:
        key = stable_id(scope, entry.kind, entry.block.leader or "", entry.name)
        statblock = stat_block(entry, key, path, rules)
        group = stable_id(scope, "group", entry.block.group or "") if entry.grouped else None
        if persistent and statblock["Player"]:
            library[f"PersistentCharacters.{key}"] = {
                "Id": key,
                "Version": IE_VERSION,
                "Name": entry.name,
                "Path": path,
                "LastUpdateMs": 0,
                "CurrentHP": statblock["HP"]["Value"],
                "StatBlock": statblock,
                "Notes": "",
            }
            combatants.append(_combatant(stable_id(key, "0"), statblock, group, None, key))
            continue
        library[f"Creatures.{key}"] = statblock
        count = entry.block.count
        for number in range(1, count + 1):
            label = number if count > 1 else None
            combatants.append(_combatant(stable_id(key, str(number)), statblock, group, label))
    encounter_id = stable_id(scope, "encounter")
    library[f"SavedEncounters.{encounter_id}"] = {
        "Id": encounter_id,
        "Name": name,
        "Path": path,
        "Version": IE_VERSION,
        "Combatants": combatants,
    }
    library = dict(plain(library))
    # Improved Initiative's own export lists each library's ids under its name too.
    for listing in ("Creatures", "PersistentCharacters", "SavedEncounters"):
        ids = [k.split(".", 1)[1] for k in library if k.startswith(f"{listing}.")]
        if ids:
            library[listing] = ids
    return library


def _json(value: Any) -> bytes:
    return (json.dumps(value, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def _fights(found: list[Entry]) -> list[Entry]:
    return [e for e in found if e.kind in {"character", "minion"}]


def improved_initiative_files(campaign: Campaign, computed: Computed) -> dict[str, bytes]:
    """``party.json`` (the player characters and their minions), ``groups/<side>.json``
    for each other side of the campaign (an initiative group, or a character alone),
    ``encounters/<event>.json`` for each Resilience encounter of a campaign that plays
    Resilience, and ``all.json`` holding all of them, for one import."""
    title = campaign_title(campaign) or "Campaign"
    rules = computed.rules.name
    scope = stable_id("improved-initiative", title)
    found = _fights(entries(computed))
    files: dict[str, dict[str, Any]] = {}
    party = [e for e in found if e.party]
    if party:
        files[PARTY] = library_file(
            f"{title}: the party", party, f"{scope}:party", title, rules, persistent=True
        )
    sides = list(dict.fromkeys(e.side for e in found if not e.party))
    names = {side: next(e.block.group or e.name for e in found if e.side == side) for side in sides}
    stems = unique_stems([names[side] for side in sides])
    for side in sides:
        members = [e for e in found if e.side == side]
        files[f"{GROUPS_DIR}/{stems[names[side]]}.json"] = library_file(
            f"{title}: {names[side]}", members, f"{scope}:{side}", title, rules
        )
    if plays_resilience(campaign):
        fights = compute_encounters(campaign, rules)
        stems = unique_stems([fight.event.id for fight in fights])
        for fight in fights:
            files[f"{ENCOUNTERS_DIR}/{stems[fight.event.id]}.json"] = library_file(
                fight.event.title,
                _fights(entries(fight.computed)),
                f"{scope}:encounter:{fight.event.id}",
                f"{title} encounters",
                rules,
            )
    everything: dict[str, Any] = {}
    for library in files.values():
        for key, value in library.items():
            if isinstance(value, list):
                everything[key] = [*everything.get(key, []), *value]
            else:
                everything[key] = value
    out = {path: _json(library) for path, library in files.items()}
    if len(files) > 1:
        out[EVERYTHING] = _json(everything)
    return out


__all__ = ["IE_VERSION", "improved_initiative_files", "library_file", "stat_block"]
