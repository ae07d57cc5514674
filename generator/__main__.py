"""`python -m generator` runs the scratchpress command."""

from .launch import main

main()
