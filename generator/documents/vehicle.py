"""Vehicle sheets: one page per vehicle with its crewed stat block, tracks, weapons and seats.

The view model carries every number and sentence already worded; the template only lays
it out. The rules text is our own short summary of RULES.md §9, not the book's sentences.
"""

from __future__ import annotations

from typing import Any

from ..definitions.campaign import Campaign
from ..definitions.models import BuildOptions
from ..render.names import unique_stems
from ..rules.vehicles import (
    RAM_DAMAGE,
    WEAPON_AUTO_DAMAGE,
    Caution,
    CrewMember,
    VehicleAbility,
    VehicleStats,
    Weapon,
    ram_self_damage,
)
from ..statblocks import Block, Computed
from ..typesetting.measure import lines_for
from ..typesetting.paper import page_area_mm
from ..typesetting.units import MM_PER_PT, mm_short, pt
from ..wording import N_, _, pgettext
from . import terms
from .base import Document, page_context
from .common import health_text, hp_track, signed
from .sources import Origins

TEMPLATE = "vehicle/vehicle.html"

# Decades make a long track easy to count: ten boxes a row, units digits in columns.
TRACK_ROW = 10

# Each column ends in a write-in panel that vehicle.css runs down to the foot of the page;
# at its least, in flow, it is its title band, a white strip and 7 mm for one line (mm).
NOTES_MIN_MM = 15.5
# The sheet is a fixed-height page so those panels can take what is left; a little short
# of the page area (inside base.css's 12 mm margin), so rounding never pushes a hairline
# onto a second page.
PAGE_MARGIN_MM, PAGE_SLACK_MM = 12.0, 1.0
# The page grid's columns under the stat block: the left one, and the gutter beside it.
LEFT_COLUMN_MM, GUTTER_MM = 66.0, 3.0

# The sizes below are vehicle.css's too: it takes them from the view's "css" lengths.
# The six stat boxes share the page's width as the flex row that laid them out before did,
# so they keep their widths in vehicle.css's fixed table: 2 mm gaps, and what is left after
# each box's padding and border split 1.25 : 1 between the three big boxes and the three
# small ones. Each box's side padding, by density, and border.
STAT_GAP_MM = 2.0
STAT_PAD_MM = {"normal": 1.8, "dense": 1.5}
STAT_BORDER_PT = {"big": 1.5, "small": 0.75}
STAT_BORDER_MM = {size: width * MM_PER_PT for size, width in STAT_BORDER_PT.items()}
STAT_GROW = {"big": 1.25, "small": 1.0}
# The flex row was as tall as a box laid out at its narrowest (its min-content width): the
# constant "Without crew" box, its label and its "no one at the controls" on two lines
# each. The table's boxes keep that height: two label lines (base.css's 7 pt .label at the
# body's leading of 1.3), the big figure's line and two lines of the "why" under it.
LABEL_PT, LABEL_LEADING = 7.0, 1.3
STAT_VALUE_TYPE = {"normal": (24.0, 1.1), "dense": (18.0, 1.05)}  # a big box's figure: pt, leading
STAT_WHY_PT, STAT_WHY_LEADING = 7.0, 1.2
STAT_TEXT_MM = {
    density: (2 * LABEL_PT * LABEL_LEADING + size * leading + 2 * STAT_WHY_PT * STAT_WHY_LEADING)
    * MM_PER_PT
    for density, (size, leading) in STAT_VALUE_TYPE.items()
}

# What kind of vehicle each movement ability makes it (where it takes the vehicle), for
# the sheet's subtitle.
KIND = {
    "quickness": N_("Ground vehicle"),
    "land_sailing": N_("Ground vehicle"),
    "swimming": N_("Water vehicle"),
    "sailing": N_("Water vehicle"),
    "diving": N_("Underwater vehicle"),
    "flying": N_("Air vehicle"),
    "soaring": N_("Air vehicle"),
    "spaceflight": N_("Space vehicle"),
    "solar_sailing": N_("Space vehicle"),
}

# Who each weapon can hit, worded short enough for one table line.
REACH = {
    "guns": N_("one vehicle or character in its group"),
    "missiles": N_("one vehicle in any group"),
    "bombs": N_("every vehicle in one group"),
    "countermeasures": N_("every enemy vehicle in its group; delays each one hit"),
}

# Movement abilities that let some routes cost no fuel; worded for the fuel panel.
FREE_ROUTES = {
    "sailing": N_(
        "Under sail a water route costs no fuel, unless it is harder than sailing %(level)s."
    ),
    "land_sailing": N_("Land sailing: some ground routes cost no fuel."),
    "soaring": N_("Soaring: some air routes cost no fuel."),
    "solar_sailing": N_("Solar sailing: some space routes cost no fuel."),
}

# The rules' cautions about a vehicle, as its sheet prints them under the name.
CAUTIONS = {
    "operator_unskilled": N_("operator %(who)s has no %(skill)s, so adds nothing to %(movement)s"),
    "gunner_unskilled": N_("gunner %(who)s has neither shooting nor blasting, so adds nothing"),
    "no_toughness": N_("has no toughness"),
    "cannot_steer": N_("has no operator and no autopilot, so it cannot move, grapple or ram"),
    "weapons_unusable": N_(
        "has %(weapons)s but no gunner and no targeting, so none of them can be used"
    ),
    "movement_missing": N_("moves by %(movement)s but has no %(movement)s ability"),
}


def _caution(caution: Caution) -> str:
    values: dict[str, str] = {}
    for name, value in caution.values.items():
        if isinstance(value, tuple):
            values[name] = _and_list([terms.ability(v) for v in value])
        elif name in ("skill", "movement"):
            values[name] = terms.ability(value)
        else:
            values[name] = value
    return _(CAUTIONS[caution.key]) % values


def _crew_title(member: CrewMember) -> str:
    """How the stat block names the job: the operator's by its ability ("pilot"), else
    "gunner"."""
    if member.role == "operator":
        return terms.operator_title(member.ability)
    return _("gunner")


def _ability(stats: VehicleStats, name: str) -> VehicleAbility | None:
    return next((a for a in stats.abilities if a.name == name), None)


def _crewed_phrase(ability: VehicleAbility) -> dict[str, str]:
    """The book's crewed wording split for typesetting: ``5`` + ``with Chokestar as pilot``."""
    if ability.crew is None or ability.crewed == ability.level:
        return {"number": "", "rest": ""}
    return {
        "number": str(ability.crewed),
        "rest": _("with %(name)s as %(title)s")
        % {"name": ability.crew.name, "title": _crew_title(ability.crew)},
    }


def _abilities(stats: VehicleStats, origins: Origins) -> list[dict[str, Any]]:
    # The author's order, as the books print stat blocks (RULES.md §15).
    return [
        {
            "level": str(a.level),
            "source": origins.ability(a.name, a.level),
            "name": terms.ability(a.name),
            "crewed": _crewed_phrase(a) | {"source": origins.crewed(a)},
            "note": a.note,
        }
        for a in stats.abilities
    ]


def _track_rows(count: int, injured_at: int, zero: bool) -> list[list[dict[str, Any]]]:
    """Boxes in rows of ten, highest first, grouped by decade (30-21, 20-11, 10-1).

    When there is more than one row the top row is padded on the left, so each column
    shares a units digit; the round zero box (incapacitated) closes the last row.
    """
    rows: list[list[dict[str, Any]]] = []
    for box in hp_track(count, injured_at):
        decade = (box["hp"] - 1) // TRACK_ROW
        if not rows or (rows[-1][-1]["hp"] - 1) // TRACK_ROW != decade:
            rows.append([])
        rows[-1].append({"kind": "box", "hp": box["hp"], "injured": box["injured"]})
    if len(rows) > 1:
        rows[0] = [{"kind": "pad"}] * (TRACK_ROW - len(rows[0])) + rows[0]
    if zero:
        if not rows:
            rows.append([])
        rows[-1].append({"kind": "zero", "hp": 0, "injured": False})
    return rows


def _stat_boxes(stats: VehicleStats, origins: Origins) -> list[dict[str, str]]:
    moving = _ability(stats, stats.movement)
    moving_level = moving.crewed if moving is not None else 0
    stalking = _ability(stats, "stalking")
    if stalking is not None and stalking.crewed:
        initiative_why = _("= 10 × %(ability)s %(level)s") % {
            "ability": terms.ability("stalking"),
            "level": stalking.crewed,
        }
    else:
        initiative_why = _("no %(ability)s") % {"ability": terms.ability("stalking")}
    # What the defense adds to 10, as the rules found it: "= 10 + quickness 4".
    if stats.defense_from is None:
        defense_why = _("= 10")
    else:
        defense_why = _("= 10 + %(ability)s %(level)s") % {
            "ability": terms.ability(stats.defense_from[0]),
            "level": stats.defense_from[1],
        }
    # A vehicle that cannot move cannot evade either: the box repeats its defense.
    evading_why = (
        _("cannot move: no bonus")
        if stats.cannot_move
        else _("defense + %(ability)s %(level)s")
        % {"ability": terms.ability(stats.movement), "level": moving_level}
    )

    def box(frame: str, value: str, why: str, size: str, stat: str) -> dict[str, str]:
        # ``frame`` names the box in the layout lint's English report; ``label`` prints.
        source = origins.stat(stat)
        label = _(frame)
        return {
            "frame": frame,
            "label": label,
            "value": value,
            "why": why,
            "size": size,
            "source": source,
        }

    return [
        box(N_("Defense"), str(stats.defense), defense_why, "big", "defense"),
        box(
            N_("Without crew"),
            str(stats.defense_uncrewed),
            _("no one at the controls"),
            "big",
            "defense_uncrewed",
        ),
        box(N_("Evading"), str(stats.defense_evading), evading_why, "big", "defense_evading"),
        box(
            N_("Hit points"),
            str(stats.hit_points),
            _("= %(ability)s") % {"ability": terms.ability("toughness")},
            "small",
            "hit_points",
        ),
        box(N_("Stamina"), str(stats.stamina), _("injured at or below"), "small", "stamina"),
        box(
            N_("Initiative"),
            signed(stats.initiative_bonus),
            initiative_why,
            "small",
            "initiative_bonus",
        ),
    ]


def _and_list(names: list[str]) -> str:
    if len(names) == 1:
        return names[0]
    return _("%(names)s and %(last)s") % {"names": ", ".join(names[:-1]), "last": names[-1]}


def _seat(
    stats: VehicleStats, member: CrewMember | None, role: str, origins: Origins
) -> dict[str, str]:
    if role == "operator":
        title = _("Operator")
        cost = _("Moving, evading, grappling or ramming delays them.")
        fallback = _ability(stats, "autopilot")
        missing = _("Nobody steers: the vehicle cannot move, grapple or ram.")
    else:
        title = _("Gunner")
        cost = _("Firing any weapon delays them.")
        fallback = _ability(stats, "targeting")
        missing = _("Nobody on the weapons: they cannot fire.")
    if member is None:
        if fallback is not None:
            missing = _("%(ability)s %(level)s stands in.") % {
                "ability": _sentence_case(terms.ability(fallback.name)),
                "level": fallback.level,
            }
        return {
            "title": title,
            "name": "",
            "ability": "",
            "skill": "",
            "level": "",
            "source": "",
            "adds": missing,
            "cost": "",
        }
    boosted = [
        terms.ability(a.name) for a in stats.abilities if a.crew is not None and a.crew.role == role
    ]
    skill = terms.ability(member.ability)
    adds = (
        _("adds %(level)s to %(abilities)s")
        % {"level": member.level, "abilities": _and_list(boosted)}
        if boosted
        else _("adds nothing here")
    )
    return {
        # The gunner's job title is the seat's name, so "Gunner (gunner)" is not repeated.
        "title": title
        if member.role == "gunner"
        else _("%(seat)s (%(title)s)") % {"seat": title, "title": _crew_title(member)},
        "name": member.name,
        "ability": f"{skill} {member.level}",  # for the height estimate only
        # The same words, split so the preview can link the level alone.
        "skill": skill,
        "level": str(member.level),
        "source": origins.seat(member),
        "adds": adds,
        "cost": cost,
    }


def _sentence_case(text: str) -> str:
    """``text`` with its first letter a capital, the rest as written."""
    return text[:1].upper() + text[1:]


def _fired_by(stats: VehicleStats) -> str:
    """Who works the weapons: every weapon answers to the one gunner seat."""
    if stats.gunner is not None:
        return _("Fired by the gunner, %(name)s, who adds %(ability)s %(level)s to each.") % {
            "name": stats.gunner.name,
            "ability": terms.ability(stats.gunner.ability),
            "level": stats.gunner.level,
        }
    targeting = _ability(stats, "targeting")
    if targeting is not None:
        return _("No gunner aboard: %(ability)s %(level)s aims and fires them.") % {
            "ability": terms.ability("targeting"),
            "level": targeting.level,
        }
    return _("No gunner aboard and no targeting: these weapons cannot fire.")


def _weapon(stats: VehicleStats, weapon: Weapon, origins: Origins) -> dict[str, str]:
    if weapon.name == "countermeasures":
        damage, auto = "–", "–"  # it delays instead of damaging; the reach says so
    else:
        damage, auto = str(weapon.damage), str(weapon.auto_damage)
    return {
        "name": terms.ability(weapon.name),
        "level": str(weapon.level),
        # A weapon's level is its ability's, with the gunner's added.
        "source": origins.crewed(line) if (line := _ability(stats, weapon.name)) else "",
        "damage": damage,
        "auto": auto,
        "reach": _(REACH[weapon.name]) if weapon.name in REACH else weapon.reach,
    }


def _fuel(stats: VehicleStats, origins: Origins) -> dict[str, Any]:
    notes = []
    for name, text in FREE_ROUTES.items():
        found = _ability(stats, name)
        if found is not None:
            notes.append(_(text) % {"level": found.crewed})
    if stats.fuel:
        rule = _("1 fuel per out-of-combat route: mark a box for each route travelled.")
    else:
        rule = _("No range: it cannot travel routes, but still moves in combat.")
    return {
        "count": str(stats.fuel),
        "source": origins.stat("fuel"),
        "rows": _track_rows(stats.fuel, 0, zero=False),
        "rule": rule,
        "notes": notes,
    }


def _rules(stats: VehicleStats, agility_word: str, origins: Origins) -> list[dict[str, str]]:
    """The vehicle's own actions and upkeep, each as a titled paragraph in our words. A
    title with a computed number in it (``Grapple 3``, ``Injured``: at stamina or less)
    carries the number's source for the preview; ``key`` names the paragraph."""
    light, heavy = ram_self_damage(10), ram_self_damage(20)
    full, healthy_at = stats.hit_points, stats.stamina + 1
    # What a repair mends to; toughness 1 has no injured band, so a repair only ever
    # restores the one hit point.
    if stats.health.injured is not None:
        mended = _("injured to %(injured)s HP, healthy to %(healthy)s")
        mended_back = _("injured back to %(injured)s HP, healthy back to %(healthy)s")
    else:
        mended = _("healthy to %(healthy)s")
        mended_back = _("healthy back to %(healthy)s")
    levels = {"injured": healthy_at, "healthy": full}
    needs = (
        _("Needs the operator or autopilot.")
        if _ability(stats, "autopilot")
        else _("Needs the operator.")
    )
    ram = [
        _("%(damage)s damage to a vehicle in its group (%(auto)s on a natural 20).")
        % {"damage": RAM_DAMAGE, "auto": WEAPON_AUTO_DAMAGE},
        _(
            "The rammer takes %(light)s if the target's toughness is 10–19, %(heavy)s if 20"
            " or more, none below 10."
        )
        % {"light": light, "heavy": heavy},
        needs,
    ]
    items = [{"key": "ram", "title": _("Ram"), "text": " ".join(ram)}]
    grapple = _ability(stats, "grapple")
    if grapple is not None:
        items.append(
            {
                "key": "grapple",
                "title": _("Grapple %(level)s") % {"level": grapple.crewed},
                "source": origins.crewed(grapple),
                "text": _(
                    "A vehicle in its group. Shove: the target's next turn is delayed to its"
                    " end and cannot be boarded meanwhile; roll d20 for each character aboard"
                    " it, 1 damage on a roll at or above their %(defense)s. Board: whoever"
                    " rides this vehicle may cross over."
                )
                % {"defense": terms.derived(agility_word)},
            }
        )
    if stats.health.injured is not None:
        items.append(
            {
                "key": "injured",
                "title": _("Injured"),
                "source": origins.stat("stamina"),
                "text": _(
                    "At %(stamina)s HP or less, each use of a weapon or grapple also delays"
                    " the vehicle until the end of its next turn."
                )
                % {"stamina": stats.stamina},
            }
        )
    repair = _ability(stats, "repair")
    if repair is not None:
        items.append(
            {
                "key": "repair",
                "title": _("Repair %(level)s") % {"level": repair.level},
                "source": origins.ability("repair", repair.level),
                "text": _("At the start of each travel turn, roll difficulty 10: %(mended)s.")
                % {"mended": mended_back % levels},
            }
        )
    items += [
        {
            "key": "crew repair",
            "title": _("Crew repair"),
            "source": origins.stat("hit_points"),  # the HP it mends to
            "text": _(
                "Healing does nothing and the vehicle does not recover between battles."
                " A character with %(ability)s may try once per travel turn, difficulty 10:"
                " incapacitated to 1 HP, %(mended)s."
            )
            % {"ability": terms.ability("craftsmanship"), "mended": mended % levels},
        },
        {
            "key": "aboard",
            "title": _("Aboard"),
            "text": _(
                "A missed shot fired aboard costs the vehicle 1 HP; a blast 1 per character"
                " targeted, or 5 if aimed at the vehicle."
            ),
        },
    ]
    return items


def _lines(text: str, per_line: int) -> int:
    """Lines of ``text`` at about ``per_line`` characters a line; none if it is empty."""
    return lines_for(len(text), per_line, empty=0)


def _height_parts(view: dict[str, Any], width: float) -> dict[str, float]:
    """Rough heights of the sheet's parts at normal density, fitted to measured renders (mm).

    ``width`` is the text block's width. Only used to pick a denser setting for unusually
    big vehicles, so it errs high.
    """
    head = 9.5 + 11.0 * _lines(view["name"], int(width / 4.8))
    head += 4.6 * _lines(view["description"], int(width * 0.52))
    note_chars = int((width - 105.0) * 0.68)  # the note column, after level/ability/crew
    abilities = 16.0 + sum(
        1.2 + 4.3 * max(_lines(a["note"], note_chars), _lines(a["crewed"]["rest"], 34), 1)
        for a in view["abilities"]
    )
    hp = 21.0 + 5.0 * len(view["hp"]["rows"])
    fuel = 16.0 + 5.0 * max(len(view["fuel"]["rows"]), 1)
    fuel += 4.3 * sum(_lines(n, 45) for n in view["fuel"]["notes"])
    crew = 26.0 + sum(
        5.5 * _lines(seat["name"] or _("empty seat"), 24)
        + 4.0 * _lines(seat["ability"] + seat["adds"], 44)
        + 4.3 * _lines(seat["cost"], 46)
        + 5.0
        for seat in view["seats"]
    )
    right_width = width - (LEFT_COLUMN_MM + GUTTER_MM)  # beside the left column
    reach_chars = int((right_width - 75.0) * 0.6)
    weapons = 19.0 + sum(2.5 + 4.2 * _lines(w["reach"], reach_chars) for w in view["weapons"])
    rule_chars = int(right_width * 0.74)
    rules = 8.0 + sum(
        1.3 + 4.3 * _lines(r["title"] + ". " + r["text"], rule_chars) for r in view["rules"]
    )
    return {
        "head": head,
        "stats": 25.0,  # the six boxes and the gap under them
        "abilities": abilities,
        "left": hp + fuel + crew + NOTES_MIN_MM,
        "weapons": weapons if view["weapons"] else 0.0,
        "rules": rules,
        "right": (weapons if view["weapons"] else 0.0) + rules + NOTES_MIN_MM,
    }


def _height_mm(view: dict[str, Any], width: float) -> float:
    parts = _height_parts(view, width)
    return parts["head"] + parts["stats"] + parts["abilities"] + max(parts["left"], parts["right"])


def _stat_widths(stats: list[dict[str, str]], width: float, density: str) -> dict[str, str]:
    """The stat boxes' columns, padding and border included (CSS lengths, by box size)."""
    chrome = {size: 2 * (STAT_PAD_MM[density] + border) for size, border in STAT_BORDER_MM.items()}
    free = width - STAT_GAP_MM * (len(stats) - 1) - sum(chrome[s["size"]] for s in stats)
    share = free / sum(STAT_GROW[s["size"]] for s in stats)
    return {size: f"{share * STAT_GROW[size] + chrome[size]:.4f}mm" for size in STAT_GROW}


def _css() -> dict[str, Any]:
    """The lengths vehicle.css takes from here: the ones the view model counts with."""
    return {
        "left": mm_short(LEFT_COLUMN_MM),
        "gutter": mm_short(GUTTER_MM),
        "stat_gap": mm_short(STAT_GAP_MM),
        "stat_pad": {density: mm_short(pad) for density, pad in STAT_PAD_MM.items()},
        "stat_border": {size: pt(width) for size, width in STAT_BORDER_PT.items()},
        "stat_value_pt": {density: pt(size) for density, (size, _) in STAT_VALUE_TYPE.items()},
        "stat_leading": {
            density: f"{leading:g}" for density, (_, leading) in STAT_VALUE_TYPE.items()
        },
        "stat_why_pt": pt(STAT_WHY_PT),
        "stat_why_leading": f"{STAT_WHY_LEADING:g}",
    }


def vehicle_view(
    block: Block, agility_word: str = "agility", paper: str = "letter"
) -> dict[str, Any]:
    stats = block.stats
    if not isinstance(stats, VehicleStats):
        raise TypeError(f"{block.name} is not a vehicle")
    origins = Origins(block)
    bands = health_text(stats.health)
    if stats.health.injured is None:
        bands["injured"] = pgettext("health band", "none")
    if stats.health.healthy is None:
        bands["healthy"] = pgettext("health band", "none")
    view: dict[str, Any] = {
        "name": block.name,
        # Long names step down a size instead of wrapping under a huge title.
        "name_size": "l" if len(block.name) <= 30 else "m" if len(block.name) <= 46 else "s",
        "description": block.description,
        "kind": _(KIND[stats.movement]) if stats.movement in KIND else _("Vehicle"),
        "movement": terms.ability(stats.movement),
        "stats": _stat_boxes(stats, origins),
        "abilities": _abilities(stats, origins),
        "hp": {
            "max": str(stats.hit_points),
            "source": origins.stat("hit_points"),
            "rows": _track_rows(stats.hit_points, stats.stamina, zero=True),
            # Ranges read with an en dash: "12–22".
            "healthy": bands["healthy"].replace("-", "–"),
            "injured": bands["injured"].replace("-", "–"),
            "healthy_source": origins.band("healthy", bands["healthy"].replace("-", "–")),
            "injured_source": origins.band("injured", bands["injured"].replace("-", "–")),
        },
        "fuel": _fuel(stats, origins),
        "weapons": [_weapon(stats, w, origins) for w in stats.weapons],
        "fired_by": _fired_by(stats),
        "seats": [
            _seat(stats, stats.operator, "operator", origins),
            _seat(stats, stats.gunner, "gunner", origins),
        ],
        "rules": _rules(stats, agility_word, origins),
        "warnings": [_caution(caution) for caution in stats.cautions],
    }
    # The page less its margins; a big vehicle gets tighter type to stay on one page.
    width, height = page_area_mm(paper, PAGE_MARGIN_MM)
    view["page_height"] = f"{height - PAGE_SLACK_MM:.1f}mm"
    estimate = _height_mm(view, width)
    view["density"] = "dense" if estimate > height - 6.0 else "normal"
    view["stat_widths"] = _stat_widths(view["stats"], width, view["density"])
    view["stat_height"] = f"{STAT_TEXT_MM[view['density']]:.4f}mm"
    view["css"] = _css()
    # The very biggest also drop what a GM needs least: the dangers of firing aboard, and
    # the reminder under the seats (the seats' own lines still say what delays them). The
    # estimate errs high by 20 mm or more at this size, so the dense type still has room.
    view["crew_foot"] = estimate <= height + 65.0
    if not view["crew_foot"]:
        view["rules"] = [rule for rule in view["rules"] if rule["key"] != "aboard"]
    return view


def documents(computed: Computed, campaign: Campaign, options: BuildOptions) -> list[Document]:
    blocks = computed.of_kind("vehicle")
    stems = unique_stems([b.name for b in blocks], prefix="vehicle-")
    # The shove rule rolls against the older single "defense" where that ruleset uses it.
    agility_word = computed.rules.target("agility")  # the single-defense era says "defense"
    return [
        Document(
            kind="vehicles",
            title=block.name,
            stem=stems[block.name],
            template=TEMPLATE,
            context={
                "page": page_context(options),
                "title": block.name,
                "vehicle": vehicle_view(block, agility_word, options.paper),
            },
        )
        for block in blocks
    ]
