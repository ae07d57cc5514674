"""Rendering: Jinja2 environment, WeasyPrint with a confined fetcher, files written safely."""
