"""Random NPCs for a GM in a hurry: ``scratchpress roster generate`` without the CLI.

Pure and seeded: one seed gives the same roster file on every machine (see
:mod:`.drawing`). The NPCs obey the rules they will be checked against (RULES.md §2, §7):
every one spends exactly ``cp`` CP, no ability goes above ``max_level``, everyone has
toughness, and a leader's 1-2 minions cost no more than its command, have toughness and
never command. What mixes of abilities make sense is data: ``content/archetypes.yaml``; the
names come from ``content/names.yaml``. Both are ours.

Variety (issue 15): a roster should not repeat itself. Names, description traits, ability
notes and minion descriptions are drawn *least used first*: among the phrases of a pool
used fewest times so far in this roster, one at random. Only the past decides (never the
count asked for), so ``--count 12`` begins with the same ten NPCs as ``--count 10``.
Without --group, a roster of more than 12 NPCs is split into bands of 6 to 12, each its own
initiative group (:func:`band_plan`).

The package, by job:
- :mod:`.spec`: the options, the plan and the NPCs as data, and the options' limits;
- :mod:`.content`: the archetypes and name lists, validated once;
- :mod:`.drawing`: integer-only random picks, least used first;
- :mod:`.names`: unique names of people and beasts, and the bands' names;
- :mod:`.options`: the options checked and resolved into a plan;
- :mod:`.generation`: the NPCs themselves;
- :mod:`.writing`: the YAML file and the self-check.
"""

from __future__ import annotations

from .content import (
    Archetype,
    ArchetypeBook,
    Bands,
    MinionTemplate,
    NameLists,
    archetype_book,
    archetype_summaries,
    name_lists,
)
from .drawing import pick, pick_weighted, seed_value
from .generation import ability_notes, build_levels, describe, generate, make_minions
from .names import band_name, band_plan, name_note, plural_npcs, roman
from .options import career_archetype, find_archetype, find_career, min_cp, plan
from .spec import (
    BAND_SIZE,
    MAX_COUNT,
    MAX_CP,
    MAX_GROUP,
    MAX_LEVEL,
    MAX_PREFIX,
    Band,
    MinionNpc,
    Npc,
    Plan,
    RosterError,
    RosterSpec,
)
from .writing import command_line, npc_problems, roster_yaml, to_yaml

__all__ = [
    "BAND_SIZE",
    "MAX_COUNT",
    "MAX_CP",
    "MAX_GROUP",
    "MAX_LEVEL",
    "MAX_PREFIX",
    "Archetype",
    "ArchetypeBook",
    "Band",
    "Bands",
    "MinionNpc",
    "MinionTemplate",
    "NameLists",
    "Npc",
    "Plan",
    "RosterError",
    "RosterSpec",
    "ability_notes",
    "archetype_book",
    "archetype_summaries",
    "band_name",
    "band_plan",
    "build_levels",
    "career_archetype",
    "command_line",
    "describe",
    "find_archetype",
    "find_career",
    "generate",
    "make_minions",
    "min_cp",
    "name_lists",
    "name_note",
    "npc_problems",
    "pick",
    "pick_weighted",
    "plan",
    "plural_npcs",
    "roman",
    "roster_yaml",
    "seed_value",
    "to_yaml",
]
