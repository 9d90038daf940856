"""Markdown as the plain text a person reads: `# Seoul — day 1` is the heading "Seoul — day 1".

Snippets and extractive senses show a few lines of a file to a person, and raw Markdown there reads
as noise (`**Total:** [see](x.md)`). The index keeps the source text as it is (BM25 and the agent's
`read_file` see what the file says); only what is *shown* is stripped. The rules are conservative so
they can run on any text: every one needs Markdown's own shape (a marker at the start of a line, or
paired delimiters that hug a word; underscores never inside a word, as in CommonMark), so `a * b`,
`2*3*4`, `snake_case_name` or `mcp__server__tool` pass through untouched.
"""

from __future__ import annotations

import re
from collections.abc import Callable

_FRONT_MATTER = re.compile(r"\A---[ \t]*\n.*?\n(?:---|\.\.\.)[ \t]*(?:\n|\Z)", re.DOTALL)
_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
_FENCE = re.compile(r"^[ \t]*(?:```|~~~).*$", re.MULTILINE)
_HEADING = re.compile(r"^[ \t]{0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$", re.MULTILINE)
_RULE = re.compile(r"^[ \t]*(?:(?:[-*_][ \t]*){3,}|=+)[ \t]*$", re.MULTILINE)  # also setext underlines
_QUOTE = re.compile(r"^[ \t]*(?:>[ \t]?)+", re.MULTILINE)
_BULLET = re.compile(r"^([ \t]*)(?:[-*+]|\d{1,3}[.)])[ \t]+(?:\[[ xX]\][ \t]+)?", re.MULTILINE)
_TABLE_RULE = re.compile(
    r"^[ \t]*\|?[ \t]*:?-{2,}:?[ \t]*(?:\|[ \t]*:?-{2,}:?[ \t]*)+\|?[ \t]*$", re.MULTILINE
)
_TABLE_ROW = re.compile(r"^[ \t]*\|(.*?)\|?[ \t]*$", re.MULTILINE)
_LINK_DEFINITION = re.compile(r"^[ \t]{0,3}\[[^\]\n]+\]:[ \t]+\S+.*$", re.MULTILINE)
_IMAGE = re.compile(r"!\[([^\]\n]*)\]\([^)\n]*\)")
_LINK = re.compile(r"\[([^\]\n]+)\](?:\([^)\n]*\)|\[[^\]\n]*\])")
_AUTOLINK = re.compile(r"<((?:https?|mailto):[^>\s]+)>")
_CODE = re.compile(r"`(`*)(?=\S)(.+?)(?<=\S)`\1")  # a run of backticks, closed by the same run
# The delimiter rules below start with the delimiter itself and look behind it afterwards: `\*(?<![\w*]\*)`
# is "a `*` with no word character or `*` before it", as `(?<![\w*])\*` is, but a pattern that starts with
# a literal lets the regex engine jump from one `*` to the next where a leading lookbehind is tried at
# every position (28 -> 2 µs for a 1 KB chunk of code).
_STRONG_STARS = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*")
_STRONG_UNDERSCORES = re.compile(r"__(?<![\w_]__)(?=[^\s_])(.+?)(?<=[^\s_])__(?![\w_])")
# both in one pass, as a text that holds both kinds needs (one match must not cut into another)
_STRONG = re.compile(r"(\*\*)(?=\S)(.+?)(?<=\S)\1|(__)(?<![\w_]__)(?=[^\s_])(.+?)(?<=[^\s_])__(?![\w_])")
_STRIKE = re.compile(r"~~(?=\S)(.+?)(?<=\S)~~")
_EMPHASIS = re.compile(r"\*(?<![\w*]\*)(?=[^\s*])([^*\n]+?)(?<=[^\s*])\*(?![\w*])")
_UNDERSCORE = re.compile(r"_(?<![\w_]_)(?=[^\s_])([^_\n]+?)(?<=[^\s_])_(?![\w_])")
_ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|>~])")


def strip_markdown(text: str) -> str:
    """`text` with Markdown's markup removed and its words kept (line structure stays). A rule runs only
    when the character its markup needs is in the text at all (a C scan, where each regex pass over a
    file is a Python-level call): the result is the same, and most rules skip on most files."""
    if text.startswith("---"):
        text = _FRONT_MATTER.sub("", text)
    if "<" in text:
        text = _COMMENT.sub("", text)
    text = _line_rules(text)
    if "[" in text:
        text = _IMAGE.sub(_first, text)
        text = _LINK.sub(_first, text)
    if "<" in text:
        text = _AUTOLINK.sub(_first, text)
    if "`" in text:
        text = _CODE.sub(_second, text)
    if "*" in text or "__" in text:
        for _ in range(2):  # ***both*** is strong around emphasis
            text = _strong(text)
            if "*" in text:
                text = _EMPHASIS.sub(_first, text)
    if "_" in text:
        text = _UNDERSCORE.sub(_first, text)
    if "~~" in text:
        text = _STRIKE.sub(_first, text)
    return _ESCAPE.sub(_first, text) if "\\" in text else text


# What a match is replaced by. A function, where a template such as r"\1" has `sub` call into the re
# module's Python code on every call (~1 µs, matched or not) and expand the template in Python per match
# (~1 µs): the same text (every group these rules keep takes part in every match).
def _first(found: re.Match[str]) -> str:
    return found.group(1)


def _second(found: re.Match[str]) -> str:
    return found.group(2)


def _nothing(found: re.Match[str]) -> str:
    return ""


def _cells(row: re.Match[str]) -> str:
    return " · ".join(cell.strip() for cell in row.group(1).split("|"))


# The rules that look at one line at a time, in strip_markdown's order, each with the characters its line
# can start with (after blanks) and its replacement. None of them reaches past its line's end or makes or
# removes a line, and each is anchored at the line's start, so it matches a line at most once: running
# them line by line, on the lines that start with one of those characters, gives what running each over
# the whole text gives. A `^` rule over a whole text is tried at every position (6-11 µs for a 1 KB chunk
# each, and a chunk of code needs four or five), where a search that starts with a literal newline jumps
# from line to line.
_LINE_RULES: tuple[tuple[re.Pattern[str], str, Callable[[re.Match[str]], str]], ...] = (
    (_FENCE, "`~", _nothing),
    (_TABLE_RULE, "|:-", _nothing),
    (_TABLE_ROW, "|", _cells),
    (_HEADING, "#", _first),
    (_RULE, "-*_=", _nothing),
    (_QUOTE, ">", _nothing),
    (_BULLET, "-*+", _first),  # and a digit (`\d`, which is str.isdecimal)
    (_LINK_DEFINITION, "[", _nothing),
)
# A line (in "\n" + text) that may match one of them: it starts with a character `_LINE_RULES` name, or
# as only a numbered item or a link definition can start (no other rule starts with a digit or a `[`:
# most of the lines of man pages and code that start with one are neither).
_MARKED_LINE = re.compile(r"\n[ \t]*(?:[-*+=_>|#~`:]|\d{1,3}[.)][ \t]|\[[^\]\n]*\]:)")


def _line_rules(text: str) -> str:
    """`text` after each of `_LINE_RULES` in turn, run on the lines that can match one."""
    starts = [found.start() for found in _MARKED_LINE.finditer("\n" + text)]  # a line starts there
    if not starts:
        return text
    pieces: list[str] = []
    done = 0
    for start in starts:
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        pieces += (text[done:start], _line(text[start:end]))
        done = end
    pieces.append(text[done:])
    return "".join(pieces)


def _line(line: str) -> str:
    """One line (no newline in it) after each of `_LINE_RULES` whose leading character it starts with."""
    lead = line.lstrip(" \t")[:1]
    for rule, leads, replace in _LINE_RULES:
        if lead in leads or (rule is _BULLET and lead.isdecimal()):
            found = rule.match(line)
            if found is not None:
                line = replace(found) + line[found.end() :]
                lead = line.lstrip(" \t")[:1]
                if not lead:  # a blank line: no rule matches it
                    break
    return line


def _strong(text: str) -> str:
    """`**strong**` and `__strong__` unwrapped in one pass over `text`; a text that holds only one kind
    of delimiter needs only that kind's rule (the other cannot match in it), which is faster."""
    stars, underscores = "**" in text, "__" in text
    if stars and underscores:
        return _STRONG.sub(lambda m: m.group(2) if m.group(1) else m.group(4), text)
    if stars:
        return _STRONG_STARS.sub(_first, text)
    return _STRONG_UNDERSCORES.sub(_first, text) if underscores else text
