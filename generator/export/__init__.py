"""Files for virtual tabletops, made from the computed campaign: Foundry VTT actors and a
compendium module (``foundry.py``), Improved Initiative's library files
(``improved_initiative.py``) and round tokens (``tokens.py``).

Each module returns the files it makes as ``{relative path: bytes}``; ``api.py`` writes
them, through the one confined writer, refusing to replace a GM's files without --force.
Every number comes from the stat blocks ``stats --json`` prints; none is computed here.
docs/vtt.md tells a GM how to import each file, and which versions of each tabletop these
shapes were checked against.
"""
