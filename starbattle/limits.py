"""Limits on what the library accepts, in one place."""

MAX_SIZE = 100
"""The largest board side accepted; larger boards are refused before any work."""
