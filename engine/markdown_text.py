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
    if "```" in text or "~~~" in text:
        text = _FENCE.sub("", text)
    if "|" in text:
        if "--" in text:
            text = _TABLE_RULE.sub("", text)
        text = _TABLE_ROW.sub(lambda m: " · ".join(cell.strip() for cell in m.group(1).split("|")), text)
    if "# " in text or "#\t" in text:
        text = _HEADING.sub(r"\1", text)
    if "-" in text or "*" in text or "_" in text or "=" in text:
        text = _RULE.sub("", text)
    if ">" in text:
        text = _QUOTE.sub("", text)
    text = _BULLET.sub(r"\1", text)  # digits are everywhere: no cheap test
    if "[" in text:
        if "]:" in text:
            text = _LINK_DEFINITION.sub("", text)
        text = _IMAGE.sub(r"\1", text)
        text = _LINK.sub(r"\1", text)
    if "<" in text:
        text = _AUTOLINK.sub(r"\1", text)
    if "`" in text:
        text = _CODE.sub(r"\2", text)
    if "*" in text or "__" in text:
        for _ in range(2):  # ***both*** is strong around emphasis
            text = _strong(text)
            if "*" in text:
                text = _EMPHASIS.sub(r"\1", text)
    if "_" in text:
        text = _UNDERSCORE.sub(r"\1", text)
    if "~~" in text:
        text = _STRIKE.sub(r"\1", text)
    return _ESCAPE.sub(r"\1", text) if "\\" in text else text


def _strong(text: str) -> str:
    """`**strong**` and `__strong__` unwrapped in one pass over `text`; a text that holds only one kind
    of delimiter needs only that kind's rule (the other cannot match in it), which is faster."""
    stars, underscores = "**" in text, "__" in text
    if stars and underscores:
        return _STRONG.sub(lambda m: m.group(2) if m.group(1) else m.group(4), text)
    if stars:
        return _STRONG_STARS.sub(r"\1", text)
    return _STRONG_UNDERSCORES.sub(r"\1", text) if underscores else text
