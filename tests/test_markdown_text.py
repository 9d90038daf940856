"""Markdown's line rules run line by line, on the lines that can match one, and replace by functions: the
same text as each rule's `sub` with its template over the whole text, in strip_markdown's order."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import markdown_text
from engine.markdown_text import strip_markdown

# The line rules as they ran before, each over the whole text with its template, in this order.
WHOLE_TEXT_RULES = (
    (markdown_text._FENCE, ""),
    (markdown_text._TABLE_RULE, ""),
    (markdown_text._TABLE_ROW, lambda m: " · ".join(cell.strip() for cell in m.group(1).split("|"))),
    (markdown_text._HEADING, r"\1"),
    (markdown_text._RULE, ""),
    (markdown_text._QUOTE, ""),
    (markdown_text._BULLET, r"\1"),
    (markdown_text._LINK_DEFINITION, ""),
)
PIECES = list("ab1٣ \t\n\r-=+.):#*_[]<>|`~!\\(x") + ["---", "```", "~~~", "| a |", "\n- ", "\n# ", "]: x"]
MARKDOWNISH = st.lists(st.sampled_from(PIECES), max_size=30).map("".join)


def whole_text(text: str) -> str:
    for rule, replacement in WHOLE_TEXT_RULES:
        text = rule.sub(replacement, text)
    return text


@settings(max_examples=3000, deadline=None)
@given(text=MARKDOWNISH)
def test_the_line_rules_run_line_by_line_give_what_they_give_over_the_whole_text(text):
    assert markdown_text._line_rules(text) == whole_text(text)


@settings(max_examples=2000, deadline=None)
@given(text=MARKDOWNISH)
def test_the_inline_rules_replace_by_function_as_their_templates_did(text):
    for rule, template in (
        (markdown_text._IMAGE, r"\1"),
        (markdown_text._LINK, r"\1"),
        (markdown_text._AUTOLINK, r"\1"),
        (markdown_text._CODE, r"\2"),
        (markdown_text._EMPHASIS, r"\1"),
        (markdown_text._UNDERSCORE, r"\1"),
        (markdown_text._STRIKE, r"\1"),
        (markdown_text._ESCAPE, r"\1"),
        (markdown_text._STRONG_STARS, r"\1"),
        (markdown_text._STRONG_UNDERSCORES, r"\1"),
    ):
        replace = markdown_text._second if template == r"\2" else markdown_text._first
        assert rule.sub(replace, text) == rule.sub(template, text)


def test_a_line_rule_sees_what_an_earlier_one_left_of_its_line():
    text = "intro\n| - item |\n  > 12. [x] done\n## Title ##\n* * *\nplain - text"
    assert strip_markdown(text) == whole_text(text) == "intro\nitem\ndone\nTitle\n\nplain - text"


def test_a_line_that_starts_with_a_digit_of_another_script_is_a_numbered_item():
    assert re.fullmatch(r"\d", "٣")
    assert strip_markdown("٣. item\n3) item") == "item\nitem"
