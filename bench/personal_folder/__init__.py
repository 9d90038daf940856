"""A realistic, labelled personal folder, a different person per seed, to measure search and the Gardener.

Search relevance (issue 28) and the Gardener's judgement (issue 29) were both tuned on collections
unlike what a person keeps: SciFact claims, planted near-duplicates. This builds one person's home
folder (papers, series of one template, journal days, photos, code, copies in Downloads, bad names,
misfiled papers) with the right answers labelled, so a rule can be measured where people use it, and
on other seeds (other people, other words) than the one it was looked at on.

    from bench.personal_folder import build          # tests (pytest's pythonpath is the repo root)
    import personal_folder                           # a bench script with bench/ on sys.path

`build(root, seed, size)` is deterministic: one seed gives the same files, bytes, dates and labels.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

from . import clutter, documents, life, pools, queries, work
from .person import Person, draw
from .plan import Plan
from .writers import write_all

__all__ = ["GardenLabels", "Group", "PersonalFolder", "Person", "Query", "build"]


@dataclass(frozen=True)
class Query:
    kind: str  # "keyword" | "known_item" | "topic" | "meaning" | "nonsense"
    text: str
    relevant: frozenset[str]  # relative posix paths of the right files; empty for nonsense
    folder: str | None = None  # topic queries: the folder whose files are the right answers


@dataclass(frozen=True)
class Group:
    paths: tuple[str, ...]
    keep: str | None = None  # the copy a careful person keeps (duplicates, versions)


@dataclass(frozen=True)
class GardenLabels:
    exact_duplicates: tuple[Group, ...]  # identical bytes; keep = the filed copy
    near_duplicates: tuple[Group, ...]  # same document: a line added, re-saved, a resized photo
    versions: tuple[Group, ...]  # draft, v2, final of one document; keep = the final
    series: tuple[Group, ...]  # one template, different content: never duplicates
    unhelpful_names: frozenset[str]  # untitled.txt, Document1.docx, 12345.txt ...
    conventional_names: frozenset[str]  # dates, IMG_/PXL_/DSC_, Scan_, Screenshot: must not be flagged
    misplaced: dict[str, str]  # path -> the folder it belongs in (clear cases only)


@dataclass(frozen=True)
class PersonalFolder:
    root: Path
    files: tuple[str, ...]
    queries: tuple[Query, ...]
    garden: GardenLabels
    person: Person


def plan(seed: int = 0, size: str = "full") -> tuple[Plan, Person]:
    """Everything decided, nothing written: the entries, their lineage and the garden labels."""
    if size not in ("full", "small"):
        raise ValueError(f"size is 'full' or 'small', not {size!r}")
    rng = random.Random(seed)
    person = draw(rng)
    built = Plan(rng, size)
    documents.housing(built, person)
    documents.taxes(built, person)
    documents.health(built, person)
    documents.finance(built, person)
    work.invoices(built, person)
    work.meetings(built, person)
    work.payslips(built, person)
    work.report(built, person)
    life.travel(built, person)
    recipes = life.recipes(built, person)
    life.journal(built, person)
    photos = life.pictures(built, person)
    clutter.code(built)
    clutter.downloads(built, person, recipes, photos)
    clutter.unhelpful(built, person)
    clutter.desktop(built, person)
    clutter.misfiled(built, person)
    return built, person


def labelled_queries(built: Plan, seed: int) -> tuple[Query, ...]:
    rng = random.Random(seed * 7919 + 1)
    meaning = queries.meaning(built)
    queries.check_meaning(built, meaning)
    count = built.n(30, 10)
    out = [Query("keyword", t, r) for t, r in queries.keyword(built, rng, count)]
    out += [Query("known_item", t, r) for t, r in queries.known_item(built, rng, count)]
    out += [Query("topic", t, r, folder) for t, r, folder in queries.topic(built)]
    out += [Query("meaning", t, r) for t, r in meaning]
    out += [
        Query("nonsense", t, frozenset()) for t in queries.nonsense(built, rng, count, pools.NONSENSE_WORDS)
    ]
    return tuple(out)


def garden(built: Plan) -> GardenLabels:
    return GardenLabels(
        exact_duplicates=tuple(Group(paths, keep) for paths, keep in built.exact),
        near_duplicates=tuple(Group(paths, keep) for paths, keep in built.near),
        versions=tuple(Group(paths, keep) for paths, keep in built.versions),
        series=tuple(Group(paths) for paths in built.series),
        unhelpful_names=frozenset(built.unhelpful),
        conventional_names=frozenset(built.conventional),
        misplaced=dict(built.misplaced),
    )


def build(root: Path, seed: int = 0, size: str = "full") -> PersonalFolder:
    """Write seed's person's folder under root (created if missing) and return it with its labels."""
    built, person = plan(seed, size)
    labelled = labelled_queries(built, seed)
    root = Path(root)
    root.mkdir(parents=True, exist_ok=True)
    write_all(root, list(built.entries.values()))
    return PersonalFolder(root, tuple(sorted(built.entries)), labelled, garden(built), person)
