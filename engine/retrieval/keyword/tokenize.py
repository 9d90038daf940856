"""Tokenisation that is DuckDB FTS's own, so our incremental BM25 scores exactly like `match_bm25`.

DuckDB's `PRAGMA create_fts_index` is static (a change needs a full rebuild), so SenseTree keeps its
own postings (engine/retrieval/keyword/index.py). To stay comparable with DuckDB's index, and to keep its
tested behaviour, text is split the way the extension does by default: strip accents, lower-case,
replace the extension's default `ignore` characters with spaces, split on white space, drop empty
tokens and the SMART English stopword list (less its single letters, below), then stem with the
extension's Porter stemmer.
The work runs inside DuckDB (vectorised SQL), not in Python. A test checks these constants against
the extension itself, so a DuckDB upgrade that changes its defaults is caught.

One deliberate difference: DuckDB's default `ignore` pattern treats digits as separators, so an
invoice number, a year or a reference code could never be found by keyword. People search for exactly
those, so our pattern keeps digits inside words; the reference static index in the tests and in
bench/quality.py is built with the same pattern, so the two still score identically.
"""

from __future__ import annotations

import re

import duckdb

from engine.resources import fts_extension_path
from engine.retrieval.sql_literal import sql_string

# DuckDB 1.5.5's default `ignore` for create_fts_index is this with 0-9 added (older releases documented
# '(\\.|[^a-z])+'). Like the default, it keeps letters outside a-z (Greek, Cyrillic, ...) in words;
# unlike it, digits stay too ("1042", "2024", "ref00005q").
DUCKDB_DEFAULT_IGNORE = r"""[0-9!@#$%^&*()_+={}\[\]:;<>,.?~\\/\|'"`-]+"""
IGNORE_PATTERN = r"""[!@#$%^&*()_+={}\[\]:;<>,.?~\\/\|'"`-]+"""
STEMMER = "porter"

# The extension's default English stopwords ("The SMART system"), verbatim.
_STOPWORD_TEXT = """
a a's able about above according accordingly across actually after afterwards again against ain't all
allow allows almost alone along already also although always am among amongst an and another any anybody
anyhow anyone anything anyway anyways anywhere apart appear appreciate appropriate are aren't around as
aside ask asking associated at available away awfully b be became because become becomes becoming been
before beforehand behind being believe below beside besides best better between beyond both brief but by
c c'mon c's came can can't cannot cant cause causes certain certainly changes clearly co com come comes
concerning consequently consider considering contain containing contains corresponding could couldn't
course currently d definitely described despite did didn't different do does doesn't doing don't done
down downwards during e each edu eg eight either else elsewhere enough entirely especially et etc even
ever every everybody everyone everything everywhere ex exactly example except f far few fifth first five
followed following follows for former formerly forth four from further furthermore g get gets getting
given gives go goes going gone got gotten greetings h had hadn't happens hardly has hasn't have haven't
having he he's hello help hence her here here's hereafter hereby herein hereupon hers herself hi him
himself his hither hopefully how howbeit however i i'd i'll i'm i've ie if ignored immediate in inasmuch
inc indeed indicate indicated indicates inner insofar instead into inward is isn't it it'd it'll it's
its itself j just k keep keeps kept know known knows l last lately later latter latterly least less lest
let let's like liked likely little look looking looks ltd m mainly many may maybe me mean meanwhile
merely might more moreover most mostly much must my myself n name namely nd near nearly necessary need
needs neither never nevertheless new next nine no nobody non none noone nor normally not nothing novel
now nowhere o obviously of off often oh ok okay old on once one ones only onto or other others otherwise
ought our ours ourselves out outside over overall own p particular particularly per perhaps placed
please plus possible presumably probably provides q que quite qv r rather rd re really reasonably
regarding regardless regards relatively respectively right s said same saw say saying says second
secondly see seeing seem seemed seeming seems seen self selves sensible sent serious seriously seven
several shall she should shouldn't since six so some somebody somehow someone something sometime
sometimes somewhat somewhere soon sorry specified specify specifying still sub such sup sure t t's take
taken tell tends th than thank thanks thanx that that's thats the their theirs them themselves then
thence there there's thereafter thereby therefore therein theres thereupon these they they'd they'll
they're they've think third this thorough thoroughly those though three through throughout thru thus to
together too took toward towards tried tries truly try trying twice two u un under unfortunately unless
unlikely until unto up upon us use used useful uses using usually uucp v value various very via viz vs w
want wants was wasn't way we we'd we'll we're we've welcome well went were weren't what what's whatever
when whence whenever where where's whereafter whereas whereby wherein whereupon wherever whether which
while whither who who's whoever whole whom whose why will willing wish with within without won't wonder
would wouldn't x y yes yet you you'd you'll you're you've your yours yourself yourselves z zero
"""
SMART_STOPWORDS: frozenset[str] = frozenset(_STOPWORD_TEXT.split())

# What SenseTree drops, from documents and queries alike: the SMART list without its single letters,
# except "a" and "i", the two that are English words. The others are symbols people search for
# (T cell, vitamin K, G-CSF, N-terminal, "plan B"); dropping them lost the letter from every such term.
STOPWORDS: frozenset[str] = frozenset(w for w in SMART_STOPWORDS if len(w) > 1 or w in ("a", "i"))


def tokenize_sql(expr: str, ignore: str = IGNORE_PATTERN) -> str:
    """SQL for the token list of a VARCHAR expression, exactly as the FTS extension's tokenize macro
    configured with `ignore`."""
    return (
        f"string_split_regex(regexp_replace(lower(strip_accents(CAST({expr} AS VARCHAR))), "
        f"$${ignore}$$, ' ', 'g'), '\\s+')"
    )


def install(con: duckdb.DuckDBPyConnection) -> None:
    """Load the FTS extension (for `stem`) from its wheel and make the `stopwords` table hold STOPWORDS
    (a file written with another list is brought up to date; its index format says whether to rebuild)."""
    con.execute(f"LOAD {sql_string(str(fts_extension_path()))}")
    exists = con.execute(
        "SELECT count(*) FROM information_schema.tables WHERE table_name = 'stopwords'"
    ).fetchone()
    if exists and exists[0]:
        stored = {row[0] for row in con.execute("SELECT sw FROM stopwords").fetchall()}
        if stored == STOPWORDS:
            return
        con.execute("DELETE FROM stopwords")
    else:
        con.execute("CREATE TABLE stopwords (sw VARCHAR)")
    # One statement, not `executemany`: each statement hands the interpreter back and waits up to a switch
    # interval to take it again, and at start-up LanceDB is being imported on another thread meanwhile
    # (engine/assembly.py): ~170 statements cost a new data folder 0.8 s before its first scan.
    con.execute(f"INSERT INTO stopwords VALUES {', '.join(f'({sql_string(w)})' for w in sorted(STOPWORDS))}")


def query_terms_sql(expr: str) -> str:
    """SQL for the distinct stemmed terms of a query. Stop words are dropped before stemming, exactly as
    in documents: stemmed, "for" became the term of the abbreviation "FORs" and "are" that of "AR"
    (match_bm25 keeps them, and so matched those); kept, they would only cost a postings scan."""
    return (
        f"SELECT DISTINCT stem(w, '{STEMMER}') FROM (SELECT unnest({tokenize_sql(expr)}) AS w) "
        "WHERE len(w) > 0 AND w NOT IN (SELECT sw FROM stopwords)"
    )


RE2_SPACE = "\t\n\f\r "  # RE2's \s, which tokenize_sql splits on (not Python's split())


def _separators() -> str:
    """Every character the split treats as a separator: RE2's `\\s` (tab, newline, form feed, carriage
    return, space; not the vertical tab) and the characters of IGNORE_PATTERN's class, an ASCII
    class without ranges, so Python's `re` reads it as RE2 does."""
    pattern = IGNORE_PATTERN
    assert pattern.startswith("[") and pattern.endswith("]+") and "\\s" not in pattern, pattern
    return RE2_SPACE + "".join(c for c in map(chr, range(1, 128)) if re.fullmatch(pattern, c) and c != " ")


SEPARATORS = _separators()


_IGNORED = re.compile(IGNORE_PATTERN)
_RE2_SPACE = re.compile(f"[{re.escape(RE2_SPACE)}]+")


def ascii_words(text: str) -> list[str] | None:
    """The kept (non-stop) words of an ASCII text, in order, exactly as tokenize_sql splits them before
    stemming; None for text that is not ASCII (DuckDB's `lower` and `strip_accents` are Unicode's, which
    Python's need not match). The one Python mirror of the SQL split: the keyword index's small writes
    (point_tokens.py) and a query's terms (query_words.py) both use it."""
    if not text.isascii():
        return None
    return normalized_words(text.lower())


def normalized_words(lowered: str) -> list[str]:
    """The kept words of a text already lower-cased and accent-stripped the way tokenize_sql does it (for
    ASCII, Python's `lower`; for any other text, DuckDB's own `lower(strip_accents(...))`): the separator
    class and RE2's `\\s` are ASCII, so the split itself is the same in Python for any text."""
    return [w for w in _RE2_SPACE.split(_IGNORED.sub(" ", lowered)) if w and w not in STOPWORDS]
