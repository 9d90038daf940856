"""The name field's coordination power (engine/retrieval/coordination.py, NAME_COORDINATION), chosen on the
personal calibration folders of both sizes and measured on held-out ones.

A file whose path names part of a several-word query ("records" in vaccination-record.pdf for
"transferring records between systems") was lifted towards the top by the name weight as if its name
answered the query, above the file the dense arm ranked first (issue 28, bench/meaning_misses.py). With
power p a name score s (the share of the query's idf mass the path holds) lifts as s * s**p: a path
naming the whole query keeps its lift, one naming a third of it keeps a 3**-p part.

For each power it prints the four kinds' figures on the calibration seeds, small and full, with the
product's floor in force; it chooses the power with the best meaning top-3 (both sizes summed; then
meaning top-1; then the smaller power) among those that keep keyword and topic top-1, known-item top-10
and nonsense "No matches" at least as high as power 0 on both sizes, and prints the held-out seeds
with power 0 and the chosen one. SciFact is untouched by the rule (its paths are document ids, which
no claim names): `bench/quality.py --floor` measures it.

    python bench/name_coordination_study.py --keep-in /tmp/keep --seeds 0 1 2 --held-out 3 4 [--write]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

import search_meaning  # noqa: E402
from _common import write_constant  # noqa: E402

from engine.retrieval import coordination  # noqa: E402

POWERS = (0.0, 1.0, 2.0, 3.0)
SIZES = ("small", "full")
KEPT = (("keyword", "top1"), ("topic", "top1"), ("known_item", "top10"), ("nonsense", "empty"))


def measure(indexed: dict[str, list], power: float, label: str) -> dict[str, dict]:
    """size -> the four kinds' figures with the name coordination at `power`."""
    out = {}
    for size, ones in indexed.items():
        for one in ones:
            one.engine.parts.search.name_coordination = power
        seen = [s for one in ones for s in search_meaning.run(one, False)]
        out[size] = search_meaning.table(f"{label}, {size}, name coordination {power}", seen)
    return out


def choose(figures: dict[float, dict[str, dict]]) -> float:
    """The power with the best meaning top-3 (sizes summed; then top-1; then the smaller power) among those
    keeping every other kind at least at power 0's figures on every size."""

    def keeps(power: float) -> bool:
        return all(
            figures[power][size][kind][stat] >= figures[0.0][size][kind][stat] - 1e-9
            for size in figures[power]
            for kind, stat in KEPT
        )

    def merit(power: float) -> tuple[float, float, float]:
        sizes = figures[power].values()
        return (sum(f["meaning"]["top3"] for f in sizes), sum(f["meaning"]["top1"] for f in sizes), -power)

    return max((p for p in figures if keeps(p)), key=merit)


def opened(seeds: list[int], keep_in: Path) -> dict[str, list]:
    return {size: [search_meaning.index(s, size, keep_in / size) for s in seeds] for size in SIZES}


def close(indexed: dict[str, list]) -> None:
    for ones in indexed.values():
        for one in ones:
            one.engine.running.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--held-out", type=int, nargs="*", default=[3, 4])
    parser.add_argument(
        "--keep-in",
        type=Path,
        required=True,
        help="indexes kept in DIR/small and DIR/full, outside the checkout",
    )
    parser.add_argument("--write", action="store_true", help="write the chosen power into coordination.py")
    args = parser.parse_args()
    calibration = opened(args.seeds, args.keep_in)
    figures = {p: measure(calibration, p, f"calibration seeds {args.seeds}") for p in POWERS}
    close(calibration)
    chosen = choose(figures)
    print(f"CALIBRATION name coordination: chosen power {chosen} of {list(POWERS)}")
    for power in POWERS:
        line = "; ".join(
            f"{size} meaning top-3 {f['meaning']['top3']:.1%} top-1 {f['meaning']['top1']:.1%}"
            for size, f in figures[power].items()
        )
        print(f"  power {power}: {line}")
    if args.write:
        write_constant(Path(coordination.__file__), "NAME_COORDINATION", chosen)
    if args.held_out:
        held = opened(args.held_out, args.keep_in)
        for power in sorted({0.0, chosen}):
            for size, f in measure(held, power, f"held-out seeds {args.held_out}").items():
                print(f"SUMMARY held-out {size}, power {power}: " + search_meaning.verdict(f))
        close(held)


if __name__ == "__main__":
    main()
