"""One way to write a string into SQL text, for DuckDB and LanceDB alike: quotes doubled, inside quotes.

Both engines' standard string literals have no backslash escapes, so doubling `'` is the whole rule. Text
goes into SQL rather than as a bound parameter where binding costs more than the statement (DuckDB's
client retries importing pandas for every statement with parameters; LanceDB's where-clauses take none).
"""

from __future__ import annotations

from collections.abc import Iterable


def sql_string(value: str) -> str:
    """`value` as a SQL string literal."""
    return "'" + value.replace("'", "''") + "'"


def fit_sql_text(texts: Iterable[str], most: int) -> bool:
    """Whether `texts` may go into SQL text as literals: at most `most` of them (the caller's bound, past
    which its Arrow path is cheaper) and none holding a NUL, which DuckDB's parser rejects in a literal.
    The point writes' chunks, new terms and texts to fold ask this; where False they go through Arrow."""
    texts = list(texts)
    return len(texts) <= most and not any("\x00" in text for text in texts)
