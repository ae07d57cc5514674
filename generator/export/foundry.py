"""Foundry VTT actors for the Simple Worldbuilding system, and a module holding them as a
compendium.

Targets: Foundry VTT version 12 (checked against the shapes of build 12.331) and the Simple
Worldbuilding system (id ``worldbuilding``) release 0.8.2, whose ``template.json`` gives
every actor ``health`` and ``power`` bars, a ``biography`` and free ``attributes`` in
named ``groups``. Each actor file is what Foundry's own "Export Data" writes, so "Import
Data" on an actor reads it; ``packs/actors/_source/`` holds the same actors with the
``_id`` and ``_key`` that Foundry's packing tool (``fvtt package pack``) turns into the
compendium that ``module.json`` declares. docs/vtt.md walks a GM through both.

Every number is one ``stats --json`` prints for the entry; hit points are the token's
first bar (``health``), and a vehicle's fuel boxes its second (``power``).
"""

from __future__ import annotations

import html
import json
import re
from typing import Any

from .. import __version__
from ..definitions.campaign import Campaign
from ..documents import actions as action_words
from ..documents.roster import campaign_title
from ..render.names import slug
from ..render.tokens import TOKEN_SIZES
from ..rules.abilities import display
from ..rules.actions import Action
from ..rules.character import CharacterStats
from ..rules.health import HealthBands
from ..rules.vehicles import VehicleStats, Weapon
from ..statblocks import Computed
from .entries import Entry, entries, plain, stable_id
from .tokens import token_path

FOUNDRY_CORE = "12.331"  # the build whose document shapes these files follow
FOUNDRY_GENERATION = "12"
SYSTEM_ID = "worldbuilding"
SYSTEM_VERSION = "0.8.2"
FORMAT = 1  # of our own flags (flags.scratchpress): raised when their meaning changes
PACK = "actors"
HTML_FIELDS = frozenset({"biography", "description", "flags"})
ACTORS_DIR = "actors"
PACK_SOURCE = f"packs/{PACK}/_source"  # where `fvtt package pack` looks by default
ARTWORK_SIZE, TOKEN_SIZE = max(TOKEN_SIZES), min(TOKEN_SIZES)
FORMULA = re.compile(r"1d20(?: \+ \d+)?|\d+(?: \+ \d+)*")

# CONST.TOKEN_DISPLAY_MODES and CONST.TOKEN_DISPOSITIONS
DISPLAY_HOVER, DISPLAY_OWNER = 30, 40
FRIENDLY, NEUTRAL, HOSTILE = 1, 0, -1

# Core icons that ship with every Foundry, by what the action does.
ICONS = {
    "close": "icons/svg/sword.svg",
    "long": "icons/svg/target.svg",
    "psychic": "icons/svg/daze.svg",
    "healing": "icons/svg/heal.svg",
    "other": "icons/svg/wingfoot.svg",
    "weapon": "icons/svg/explosion.svg",
}


def module_id(campaign: Campaign) -> str:
    """The module's id and folder name: ``scratchpress-lantern-weir``."""
    return f"scratchpress-{slug(campaign_title(campaign) or 'campaign')}"


def _attribute(value: Any, label: str, group: str = "") -> dict[str, Any]:
    """One worldbuilding attribute, as its sheet saves it."""
    if isinstance(value, int):
        dtype = "Number"
    elif isinstance(value, str) and _is_formula(value):
        dtype = "Formula"
    else:
        dtype, value = "String", str(value)
    return {"value": value, "label": label, "dtype": dtype, "group": group}


def _is_formula(text: str) -> bool:
    """A roll Foundry can make (``1d20 + 3``, damage ``2`` or ``1 + 1``), as a button on
    the sheet; damage such as ``4 (2 injured)`` stays text."""
    return FORMULA.fullmatch(text) is not None


def _group(key: str, label: str) -> dict[str, Any]:
    return {"key": key, "label": label, "dtype": "Number"}


def _stats() -> dict[str, Any]:
    return {
        "coreVersion": FOUNDRY_CORE,
        "systemId": SYSTEM_ID,
        "systemVersion": SYSTEM_VERSION,
        "createdTime": None,
        "modifiedTime": None,
        "lastModifiedBy": None,
    }


def _html(*paragraphs: str) -> str:
    return "".join(f"<p>{html.escape(p)}</p>" for p in paragraphs if p)


def _health(bands: HealthBands) -> dict[str, dict[str, Any]]:
    found: dict[str, dict[str, Any]] = {}
    for state, band in (("healthy", bands.healthy), ("injured", bands.injured)):
        if band is not None:
            found[f"{state}_from"] = _attribute(band[0], f"{state.title()} from (HP)", "bands")
            found[f"{state}_to"] = _attribute(band[1], f"{state.title()} up to (HP)", "bands")
    return found


def _ability_label(name: str, note: str) -> str:
    return f"{display(name).capitalize()}: {note}" if note else display(name).capitalize()


def _roll(bonus: int) -> str:
    return f"1d20 + {bonus}" if bonus else "1d20"


def _action_icon(action: Action) -> str:
    if action.attack == "psychic":
        return ICONS["psychic"]
    if action.name in {"heal", "revive"}:
        return ICONS["healing"]
    if action.bonus is None:
        return ICONS["other"]
    return ICONS["long" if action.range == "long" else "close"]


def _item(
    owner: str, index: int, name: str, img: str, description: str, attributes: dict[str, Any]
) -> dict[str, Any]:
    return {
        "_id": stable_id(owner, "item", str(index), name),
        "name": name,
        "type": "item",
        "img": img,
        "system": {
            "description": description,
            "quantity": 1,
            "weight": 0,
            "attributes": attributes,
            "groups": {},
        },
        "effects": [],
        "folder": None,
        "sort": (index + 1) * 100000,
        "ownership": {"default": 0},
        "flags": {},
        "_stats": _stats(),
    }


def _action_item(owner: str, index: int, action: Action) -> dict[str, Any]:
    attributes: dict[str, Any] = {}
    if action.bonus is not None:
        attributes["roll"] = _attribute(_roll(action.bonus), action_words.roll_label(action))
    if action.damage:
        attributes["damage"] = _attribute(action_words.damage(action), "Damage on a success")
    if action.auto_damage:
        attributes["auto_damage"] = _attribute(
            action_words.auto_damage(action), "Damage on a natural 20"
        )
    if action.target:
        attributes["target"] = _attribute(action_words.target(action), "Rolled against")
    if action.range:
        attributes["range"] = _attribute(action_words.range_(action), "Range")
    attributes["timing"] = _attribute(action_words.timing(action), "Action")
    description = _html(action_words.effect(action))
    name = action_words.name(action)
    return _item(owner, index, name, _action_icon(action), description, attributes)


def _weapon_item(owner: str, index: int, weapon: Weapon) -> dict[str, Any]:
    attributes = {
        "roll": _attribute(_roll(weapon.level), f"d20 + {display(weapon.name)} {weapon.level}"),
        "damage": _attribute(str(weapon.damage), "Damage on a hit"),
        "auto_damage": _attribute(str(weapon.auto_damage), "Damage on a natural 20"),
        "reach": _attribute(weapon.reach, "Can hit"),
        "gunner": _attribute(weapon.gunner or "nobody", "Fired by"),
    }
    name = display(weapon.name).capitalize()
    return _item(owner, index, name, ICONS["weapon"], _html(weapon.reach), attributes)


def _character_system(entry: Entry, stats: CharacterStats) -> dict[str, Any]:
    block = entry.block
    rolls_label = (
        f"Initiative bonus: {block.group} roll once, with this"
        if entry.grouped
        else "Initiative bonus"
    )
    attributes: dict[str, Any] = {
        "stamina": _attribute(stats.stamina, "Stamina: injured at this many HP or fewer"),
        "initiative": _attribute(entry.rolls, rolls_label),
        "cp": _attribute(stats.cp, "Character points spent"),
    }
    if entry.grouped:
        attributes["own_initiative"] = _attribute(
            stats.initiative_bonus, "Own initiative bonus (the group rolls with the one above)"
        )
    if block.kind == "minion":
        attributes["count"] = _attribute(block.count, "How many this actor stands for")
        attributes["leader"] = _attribute(block.leader or "", "Commanded by")
    defenses = {"agility": stats.agility, "intelligence": stats.intelligence}
    defenses |= {"strength": stats.strength, "defense": stats.defense}
    attributes["defenses"] = {
        name: _attribute(value, name.capitalize(), "defenses")
        for name, value in defenses.items()
        if value is not None
    }
    attributes["bands"] = _health(stats.health)
    attributes["abilities"] = {
        a.name: _attribute(a.level, _ability_label(a.name, a.note), "abilities")
        for a in stats.abilities
    }
    movement = {}
    for state in ("healthy", "injured"):
        move = getattr(stats.movement, state)
        for terrain in ("ground", "air", "rough", "water"):
            spaces = getattr(move, terrain)
            if spaces is not None:
                movement[f"{state}_{terrain}"] = _attribute(
                    spaces, f"{state.title()}, {terrain} (spaces)", "movement"
                )
    attributes["movement"] = movement
    groups = {
        "defenses": _group("defenses", "Defenses"),
        "bands": _group("bands", "Health bands"),
        "abilities": _group("abilities", "Abilities"),
        "movement": _group("movement", "Movement"),
    }
    if stats.carry is not None:
        carry = stats.carry
        attributes["carry"] = {
            key: _attribute(getattr(carry, key), label, "carry")
            for key, label in (
                ("pack_kg", "Pack all day (kg)"),
                ("carry_kg", "Carry a few minutes (kg)"),
                ("lift_kg", "Lift in place (kg)"),
                ("pack_lbs", "Pack all day (lb)"),
                ("carry_lbs", "Carry a few minutes (lb)"),
                ("lift_lbs", "Lift in place (lb)"),
            )
        }
        groups["carry"] = _group("carry", "Carrying")
    definition = block.definition
    about = [
        f"Played by {entry.player}." if entry.player and block.kind == "character" else "",
        f"Career: {definition.career}." if getattr(definition, "career", None) else "",
        f"{block.count} of them, commanded by {block.leader}." if block.kind == "minion" else "",
        f"Initiative group: {block.group}." if block.group else "",
    ]
    abilities = "".join(
        f"<li><strong>{html.escape(display(a.name))} {a.level}</strong>"
        + (f": {html.escape(a.note)}" if a.note else "")
        + "</li>"
        for a in stats.abilities
    )
    biography = (
        _html(block.description, " ".join(p for p in about if p))
        + (f"<ul>{abilities}</ul>" if abilities else "")
        + _html(f"Computed by scratchpress {__version__} under the {stats.ruleset} rules.")
    )
    system = {
        "biography": biography,
        "health": {"value": stats.hit_points, "min": 0, "max": stats.hit_points},
        "power": {"value": 0, "min": 0, "max": 0},
        "attributes": attributes,
        "groups": groups,
    }
    return system


def _vehicle_system(entry: Entry, stats: VehicleStats) -> dict[str, Any]:
    attributes: dict[str, Any] = {
        "stamina": _attribute(stats.stamina, "Stamina: damaged at this many HP or fewer"),
        "initiative": _attribute(stats.initiative_bonus, "Initiative bonus"),
        "movement": _attribute(display(stats.movement), "Movement ability in use"),
        "defenses": {
            key: _attribute(getattr(stats, key), label, "defenses")
            for key, label in (
                ("defense", "With crew"),
                ("defense_uncrewed", "Without crew"),
                ("defense_evading", "Evading"),
            )
        },
        "bands": _health(stats.health),
        "abilities": {
            a.name: _attribute(a.level, _ability_label(a.name, a.note), "abilities")
            for a in stats.abilities
        },
        "crewed": {
            a.name: _attribute(
                a.crewed,
                f"{display(a.name).capitalize()}"
                + (f" with {a.crew.name} as {a.crew.title}" if a.crew else " (no crew helps)"),
                "crewed",
            )
            for a in stats.abilities
        },
        "crew": {
            member.role: _attribute(
                member.level,
                f"{member.role.title()}: {member.name} ({display(member.ability)})",
                "crew",
            )
            for member in (stats.operator, stats.gunner)
            if member is not None
        },
    }
    groups = {
        "defenses": _group("defenses", "Defense"),
        "bands": _group("bands", "Health bands"),
        "abilities": _group("abilities", "Abilities"),
        "crewed": _group("crewed", "Abilities with crew"),
        "crew": _group("crew", "Crew"),
    }
    crew = ", ".join(f"{m.title} {m.name}" for m in (stats.operator, stats.gunner) if m is not None)
    biography = _html(
        entry.block.description,
        f"Crew: {crew}." if crew else "No crew aboard.",
        f"Fuel: {stats.fuel} boxes, one spent for each route travelled (the second bar).",
        f"Computed by scratchpress {__version__}.",
    )
    return {
        "biography": biography,
        "health": {"value": stats.hit_points, "min": 0, "max": stats.hit_points},
        "power": {"value": stats.fuel, "min": 0, "max": stats.fuel},
        "attributes": attributes,
        "groups": groups,
    }


def _disposition(entry: Entry) -> int:
    if entry.party:
        return FRIENDLY
    return HOSTILE if entry.side.startswith("group:") else NEUTRAL


def actor(entry: Entry, computed: Computed, campaign: Campaign) -> dict[str, Any]:
    """One actor as Foundry's "Export Data" writes it (no ``_id``: Foundry gives one)."""
    module = module_id(campaign)
    owner = stable_id(module, entry.kind, entry.block.leader or "", entry.name)
    stats = entry.block.stats
    if isinstance(stats, VehicleStats):
        system = _vehicle_system(entry, stats)
        items = [_weapon_item(owner, i, w) for i, w in enumerate(stats.weapons)]
    else:
        assert isinstance(stats, CharacterStats)
        system = _character_system(entry, stats)
        items = [_action_item(owner, i, a) for i, a in enumerate(stats.actions)]
    block = entry.block
    flags = {
        "format": FORMAT,
        "kind": entry.kind,
        "campaign": campaign_title(campaign),
        "rules": computed.rules.name,
        "scratchpress": __version__,
        "foundry": FOUNDRY_CORE,
        "system": f"{SYSTEM_ID} {SYSTEM_VERSION}",
        "player": entry.player,
        "group": block.group or "",
        "leader": block.leader or "",
        "count": block.count,
    }
    exported = {
        "name": entry.name,
        "type": "character",
        "img": f"modules/{module}/{token_path(entry, ARTWORK_SIZE)}",
        "system": system,
        "prototypeToken": {
            "name": entry.name,
            "displayName": DISPLAY_HOVER,
            # A group of minions stands for several tokens, each hurt on its own.
            "actorLink": entry.kind != "minion",
            "appendNumber": entry.kind == "minion" and block.count > 1,
            "width": 2 if entry.kind == "vehicle" else 1,
            "height": 2 if entry.kind == "vehicle" else 1,
            "texture": {"src": f"modules/{module}/{token_path(entry, TOKEN_SIZE)}"},
            "lockRotation": True,
            "disposition": _disposition(entry),
            "displayBars": DISPLAY_OWNER,
            "bar1": {"attribute": "health"},
            "bar2": {"attribute": "power" if entry.kind == "vehicle" else None},
        },
        "items": items,
        "effects": [],
        "folder": None,
        "flags": {"scratchpress": flags},
        "_stats": _stats(),
    }
    # Biographies and descriptions are HTML, escaped as they are made; flags are data.
    return dict(plain(exported, HTML_FIELDS))


def pack_source(exported: dict[str, Any], actor_id: str) -> dict[str, Any]:
    """An exported actor as the packing tool reads it: with its ``_id``, and a ``_key``
    on it and on every item (``!actors!<id>``, ``!actors.items!<actor>.<item>``)."""
    items = [
        {**item, "_key": f"!{PACK}.items!{actor_id}.{item['_id']}"} for item in exported["items"]
    ]
    return {
        "_id": actor_id,
        **exported,
        "items": items,
        "sort": 0,
        "ownership": {"default": 0},
        "_key": f"!{PACK}!{actor_id}",
    }


def module_manifest(campaign: Campaign, computed: Computed) -> dict[str, Any]:
    """``module.json``: the module and its one compendium of actors."""
    title = campaign_title(campaign) or "Campaign"
    return {
        "id": module_id(campaign),
        "title": f"{title} (scratchpress)",
        "description": (
            f"The characters, minions and vehicles of {title}, with every number computed by"
            f" scratchpress {__version__} under the {computed.rules.name} rules."
        ),
        "version": __version__,
        "authors": [{"name": "scratchpress"}],
        "compatibility": {"minimum": FOUNDRY_GENERATION, "verified": FOUNDRY_CORE},
        "relationships": {
            "systems": [
                {
                    "id": SYSTEM_ID,
                    "type": "system",
                    "compatibility": {"minimum": SYSTEM_VERSION, "verified": SYSTEM_VERSION},
                }
            ]
        },
        "packs": [
            {
                "name": PACK,
                "label": f"{title} actors",
                "path": f"packs/{PACK}",
                "type": "Actor",
                "system": SYSTEM_ID,
                "ownership": {"PLAYER": "OBSERVER", "ASSISTANT": "OWNER"},
            }
        ],
        "flags": {"scratchpress": {"format": FORMAT, "scratchpress": __version__}},
    }


def _json(value: Any) -> bytes:
    return (json.dumps(value, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def foundry_files(
    campaign: Campaign, computed: Computed, found: list[Entry] | None = None
) -> dict[str, bytes]:
    """Every file of the Foundry export but the tokens, as ``{path: bytes}``: an actor
    file per entry, the same actors as compendium sources, and ``module.json``."""
    found = entries(computed) if found is None else found
    module = module_id(campaign)
    files: dict[str, bytes] = {}
    for entry in found:
        exported = actor(entry, computed, campaign)
        actor_id = stable_id(module, entry.kind, entry.block.leader or "", entry.name)
        files[f"{ACTORS_DIR}/{entry.stem}.json"] = _json(exported)
        files[f"{PACK_SOURCE}/{entry.stem}_{actor_id}.json"] = _json(
            pack_source(exported, actor_id)
        )
    files["module.json"] = _json(module_manifest(campaign, computed))
    return files


__all__ = [
    "FOUNDRY_CORE",
    "PACK_SOURCE",
    "SYSTEM_ID",
    "SYSTEM_VERSION",
    "actor",
    "foundry_files",
    "module_id",
    "module_manifest",
    "pack_source",
]
