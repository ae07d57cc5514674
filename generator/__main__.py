"""`python -m scratchpress` runs the scratchpress command."""

from .cli import main

main()
