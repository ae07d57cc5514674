"""scratchpress: stat blocks and printables for the Scratch Role-Playing System."""

__version__ = "0.1.0"
