"""One way to write a string into SQL text, for DuckDB and LanceDB alike: quotes doubled, inside quotes.

Both engines' standard string literals have no backslash escapes, so doubling `'` is the whole rule. Text
goes into SQL rather than as a bound parameter where binding costs more than the statement (DuckDB's
client retries importing pandas for every statement with parameters; LanceDB's where-clauses take none).
"""

from __future__ import annotations


def sql_string(value: str) -> str:
    """`value` as a SQL string literal."""
    return "'" + value.replace("'", "''") + "'"
