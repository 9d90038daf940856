"""Command-line sub-commands that live beside their feature."""
