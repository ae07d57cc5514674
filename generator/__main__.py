"""`python -m generator` runs the scratchpress command."""

from .cli import main

main()
