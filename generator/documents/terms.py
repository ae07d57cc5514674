"""The game's own words, worded once for every printable: abilities and their sections,
the derived defenses, the operator titles of a crew.

The rules name these by key (``"land_sailing"``, ``"hit_points"``); every printable asks
here for the words, so a language's catalogue has one translation of "stamina" and a
sheet, a card and a roster never disagree on it. The tables are marked with ``N_`` and
worded when asked, in the language the build speaks then.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..wording import N_, _

ABILITIES: dict[str, str] = {
    # Characters' (RULES.md §1)
    "toughness": N_("toughness"),
    "shooting": N_("shooting"),
    "blasting": N_("blasting"),
    "knockout": N_("knockout"),
    "fighting": N_("fighting"),
    "wrestling": N_("wrestling"),
    "stealth": N_("stealth"),
    "stalking": N_("stalking"),
    "detection": N_("detection"),
    "acrobatics": N_("acrobatics"),
    "quickness": N_("quickness"),
    "flying": N_("flying"),
    "swimming": N_("swimming"),
    "healing": N_("healing"),
    "craftsmanship": N_("craftsmanship"),
    "command": N_("command"),
    "piloting": N_("piloting"),
    "driving": N_("driving"),
    "navigation": N_("navigation"),
    # Vehicles' (§9)
    "sailing": N_("sailing"),
    "diving": N_("diving"),
    "land_sailing": N_("land sailing"),
    "soaring": N_("soaring"),
    "spaceflight": N_("spaceflight"),
    "solar_sailing": N_("solar sailing"),
    "guns": N_("guns"),
    "missiles": N_("missiles"),
    "bombs": N_("bombs"),
    "countermeasures": N_("countermeasures"),
    "grapple": N_("grapple"),
    "range": N_("range"),
    "repair": N_("repair"),
    "autopilot": N_("autopilot"),
    "targeting": N_("targeting"),
}

CATEGORIES: dict[str, str] = {
    "toughness": N_("toughness"),
    "attack": N_("attack"),
    "stalking": N_("stalking"),
    "movement": N_("movement"),
    "support": N_("support"),
    "vehicle operation": N_("vehicle operation"),
    "weapons": N_("weapons"),
    "operation": N_("operation"),
}

# The derived values (RULES.md §3), as the sheets' header names them.
DERIVED: dict[str, str] = {
    "agility": N_("agility"),
    "intelligence": N_("intelligence"),
    "strength": N_("strength"),
    "defense": N_("defense"),
    "stamina": N_("stamina"),
    "hit_points": N_("hit points"),
    "initiative_bonus": N_("initiative bonus"),
    "minions": N_("minions"),
}

OPERATOR_TITLES: dict[str, str] = {
    "piloting": N_("pilot"),
    "driving": N_("driver"),
    "navigation": N_("navigator"),
}


def capital(text: str) -> str:
    """``text`` with its first letter in capitals and the rest as it is: str.capitalize()
    would lower-case a German noun ("1× pro Ziel")."""
    return text[:1].upper() + text[1:]


def _worded(table: dict[str, str], key: str) -> str:
    """``key``'s words from ``table``; a key we have no words for (a campaign's own
    ability) is printed as written, underscores as spaces."""
    english = table.get(key)
    return _(english) if english is not None else key.replace("_", " ")


def ability(key: str) -> str:
    return _worded(ABILITIES, key)


def category(key: str) -> str:
    return _worded(CATEGORIES, key)


def derived(key: str) -> str:
    return _worded(DERIVED, key)


def operator_title(key: str) -> str:
    return _worded(OPERATOR_TITLES, key)


# The health bands of an HP track (RULES.md §5), as its legend and the movement table
# name them: the sheets, the vehicles and the roster print the same three words.
HEALTH: dict[str, str] = {
    "healthy": N_("healthy"),
    "injured": N_("injured"),
    "incapacitated": N_("incapacitated"),
}


def health(key: str) -> str:
    return _worded(HEALTH, key)


# ------------------------------------------------------------------ Resilience (§14)
# The game's terms for a community, named by key in rules.community and the event cards
# (definitions.resilience_models); the community sheet, the year sheets and the booklets'
# Resilience inserts word them here.

DEFENSES: dict[str, str] = {
    "economy": N_("economy"),
    "environment": N_("environment"),
    "equity": N_("equity"),
}
# A defense as a heading or a column title.
DEFENSE_TITLES: dict[str, str] = {
    "economy": N_("Economy"),
    "environment": N_("Environment"),
    "equity": N_("Equity"),
}
# A defense's abbreviation, for the narrowest table columns.
DEFENSE_SHORT: dict[str, str] = {
    "economy": N_("Econ"),
    "environment": N_("Env"),
    "equity": N_("Eq"),
}
THREATS: dict[str, str] = {
    "emergency": N_("emergency"),
    "breakdown": N_("breakdown"),
    "sabotage": N_("sabotage"),
    "bankruptcy": N_("bankruptcy"),
    "attrition": N_("attrition"),
    "biological hazard": N_("biological hazard"),
    "siege": N_("siege"),
    "demoralization": N_("demoralization"),
    "propaganda": N_("propaganda"),
    "psy-ops": N_("psy-ops"),
}
# The threats a defense stops, as its caption lists them.
THREATS_PLURAL: dict[str, str] = {
    "emergency": N_("emergencies"),
    "breakdown": N_("breakdowns"),
    "sabotage": N_("sabotage"),
    "bankruptcy": N_("bankruptcy"),
    "attrition": N_("attrition"),
    "biological hazard": N_("biological hazards"),
    "siege": N_("sieges"),
    "demoralization": N_("demoralization"),
    "propaganda": N_("propaganda"),
    "psy-ops": N_("psy-ops"),
}
PROJECT_SIZES: dict[str, str] = {
    "small": N_("small"),
    "medium": N_("medium"),
    "large": N_("large"),
}
# A logged project's result (rules.community.Result).
PROJECT_RESULTS: dict[str, str] = {
    "automatic": N_("automatic"),
    "success": N_("success"),
    "failed": N_("failed"),
}


def defense(key: str) -> str:
    return _worded(DEFENSES, key)


def defense_title(key: str) -> str:
    return _worded(DEFENSE_TITLES, key)


def defense_short(key: str) -> str:
    return _worded(DEFENSE_SHORT, key)


def threat(key: str) -> str:
    return _worded(THREATS, key)


def threats(key: str) -> str:
    """The threat ``key`` in the plural, as a defense's caption lists what it stops."""
    return _worded(THREATS_PLURAL, key)


def project_size(key: str) -> str:
    return _worded(PROJECT_SIZES, key)


def project_result(key: str) -> str:
    """A logged project's result; "" (not rolled yet) stays blank."""
    return _worded(PROJECT_RESULTS, key) if key else ""


# ---------------------------------------------------------------- rulesets and cautions

# The rulesets a campaign picks (`rules = "current"`), as a footer names them: "Scratch ·
# current rules". Translators: the revision of the rule texts a sheet was computed with.
RULESETS: dict[str, str] = {
    "current": N_("current"),
    "early": N_("early"),
    "classic": N_("classic"),
}

# What a GM should hear about a character (rules/character.py Caution), on its sheet.
CAUTIONS: dict[str, str] = {
    "over_budget": N_("spends %(spent)s CP, over the budget of %(budget)s"),
    "above_max_level": N_("%(ability)s %(level)s is above the maximum level %(max_level)s"),
    "no_toughness": N_("has no toughness, so it cannot act in encounters"),
}


def ruleset(key: str) -> str:
    return _worded(RULESETS, key)


def caution(key: str, values: Mapping[str, str | int]) -> str:
    """A character's caution in words; an ability it names is worded too."""
    worded = {
        name: ability(value) if name == "ability" and isinstance(value, str) else value
        for name, value in values.items()
    }
    return _(CAUTIONS[key]) % worded
