"""Choose the relevance floor and the name weight on personal folders and SciFact together, write them.

Run through `python bench/search_meaning.py --calibrate --sizes small full --seeds 0 1 2 --held-out 3 4`.
The rule is engine/retrieval/relevance.py's: each evidence threshold is `relevance.above_noise` of the best
evidence nonsense reaches (each collection a group, each size of personal folder one of its own: more
chunks lift the best noise reaches; the right answers' evidence is printed beside it); the margin
is `relevance.calibrate_margin` of SciFact's gaps (kept as it is without SciFact); the folder threshold
is `above_noise` of the best cosine nonsense reaches with any folder's name (folder_names.py; SciFact's
documents lie in one folder, which tells nothing apart, so only the personal folders have any); the
name weight is the one of NAME_WEIGHTS with the best mean of topic and keyword top-1 on the calibration
seeds, then the folder weight the one of FOLDER_WEIGHTS with the best mean of the four kinds' figures
(keyword and topic top-1, known-item top-10, meaning top-3; ties to the smallest). With --folders-only
the arms' thresholds and margin are kept as relevance.py has them (calibrated with SciFact before).
It also prints the share of each collection's nonsense the arms together keep out and what a stand-out
rule would add (floor_study.py). Then the held-out seeds are measured, per size, with what was written.
"""

from __future__ import annotations

import re
import statistics
import tempfile
from pathlib import Path

import floor_report
import floor_study
import quality
from _common import embed_cached, load_beir

from engine.embed import TransformerEmbedder
from engine.retrieval import hybrid, relevance

NAME_WEIGHTS = (0.25, 0.5, 0.75)
FOLDER_WEIGHTS = (0.25, 0.5, 0.75)
QUANTILES = (("5%", 0.05), ("median", 0.5), ("95%", 0.95))
RELEVANCE_MODULE = Path(relevance.__file__)
HYBRID_MODULE = Path(hybrid.__file__)


def scifact(data: Path, tmp: Path):
    """SciFact train indexed as bench/quality.py indexes it (cached embeddings), with its query vectors."""
    beir = load_beir(data, "train")
    files, to_embed = quality.build_chunks(beir, 1200, 150, True)
    embedder = TransformerEmbedder()
    vectors = embed_cached(embedder, to_embed, f"{data.name}-chunks")
    qids = list(beir.queries)
    qvecs = dict(
        zip(
            qids, embed_cached(embedder, [beir.queries[q] for q in qids], f"{data.name}-queries"), strict=True
        )
    )
    search = quality.build_search(files, vectors, tmp, (hybrid.KEYWORD_WEIGHT, 1 - hybrid.KEYWORD_WEIGHT))
    return beir, search, qvecs, embedder.embed


def _q(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(int(share * len(ordered)), len(ordered) - 1)] if ordered else 0.0


def _describe(label: str, values: list[float]) -> str:
    quantiles = " ".join(f"{name} {_q(values, share):.3f}" for name, share in QUANTILES)
    return f"{label} n={len(values)} {quantiles}"


def choose(personal: dict[str, list], sci, keep_arms: bool = False) -> relevance.Floor:
    """The thresholds and margin, by relevance.above_noise / calibrate_margin (the module docstring); each
    size of personal folder is a collection of its own (more chunks lift the best noise reaches)."""
    folder = _folder_threshold(personal)
    if keep_arms:
        kept = relevance.Floor()
        return relevance.Floor(kept.lexical, kept.semantic, kept.margin, folder)
    every = [s for seen in personal.values() for s in seen]
    lexical_right = [s.right_lexical for s in every if s.kind in ("keyword", "known_item", "topic")]
    semantic_right = [s.right_semantic for s in every if s.kind == "meaning"]
    noise_lexical = {
        size: [s.best_lexical for s in seen if s.kind == "nonsense"] for size, seen in personal.items()
    }
    noise_semantic = {
        size: [s.best_semantic for s in seen if s.kind == "nonsense"] for size, seen in personal.items()
    }
    lines = [
        _describe("personal keyword/known-item/topic right, keyword-or-name evidence:", lexical_right),
        _describe("SciFact relevant, keyword-or-name evidence:", sci.right_lexical),
        *(
            _describe(f"personal ({size}) nonsense best keyword-or-name evidence:", v)
            for size, v in noise_lexical.items()
        ),
        _describe("SciFact nonsense best keyword-or-name evidence:", sci.noise_lexical),
        _describe("personal meaning right, cosine:", semantic_right),
        *(_describe(f"personal ({size}) nonsense best cosine:", v) for size, v in noise_semantic.items()),
        _describe("SciFact nonsense best cosine:", sci.noise_semantic),
        _describe("SciFact best minus weakest relevant top-10:", sci.gaps),
    ]
    for line in lines:
        print("  " + line)
    lexical = relevance.above_noise([*noise_lexical.values(), sci.noise_lexical])
    semantic = relevance.above_noise([*noise_semantic.values(), sci.noise_semantic])
    for label, value, right in (
        ("keyword-or-name", lexical, lexical_right),
        ("cosine", semantic, semantic_right),
    ):
        above = sum(v > value for v in right) / max(len(right), 1)
        print(f"  {label} threshold {value:.4f}: right answers above it {above:.1%}")
    margin = (
        relevance.calibrate_margin(sci.gaps) if sci.gaps else relevance.RELEVANCE_MARGIN
    )  # no SciFact: kept
    return relevance.Floor(round(lexical, 4), round(semantic, 4), round(margin, 4), folder)


def _folder_threshold(personal: dict[str, list]) -> float:
    """above_noise of nonsense's best folder-name cosine (each size a collection); the topic answers'
    folder cosines beside it."""
    every = [s for seen in personal.values() for s in seen]
    for kind in ("topic", "meaning"):
        right = [s.right_folder for s in every if s.kind == kind]
        print("  " + _describe(f"personal {kind} right, the cosine of a folder above it:", right))
    noise = {size: [s.best_folder for s in seen if s.kind == "nonsense"] for size, seen in personal.items()}
    for size, values in noise.items():
        print("  " + _describe(f"personal ({size}) nonsense best folder cosine:", values))
    value = relevance.above_noise(list(noise.values()))
    right = [s.right_folder for s in every if s.kind == "topic"]
    above = sum(v > value for v in right) / max(len(right), 1)
    print(f"  folder threshold {value:.4f}: topic answers whose folder is above it {above:.1%}")
    return round(value, 4)


def write(
    floor: relevance.Floor, weights: tuple[float, float], seeds: list[int], size: str, note: str
) -> None:
    """Rewrite the constants in relevance.py and NAME_WEIGHT, FOLDER_WEIGHT in hybrid.py."""
    note = f"seeds {' '.join(map(str, seeds))}, {size}, {note}"
    source = RELEVANCE_MODULE.read_text(encoding="utf-8")
    block = (
        f"# Written by `python bench/search_meaning.py --calibrate` ({note}).\n"
        f"LEXICAL_EVIDENCE = {floor.lexical}\nSEMANTIC_EVIDENCE = {floor.semantic}\n"
        f"RELEVANCE_MARGIN = {floor.margin}\nFOLDER_EVIDENCE = {floor.folder}\n"
    )
    pattern = (
        r"# Written by `python bench/[^\n]*\n"
        r"LEXICAL_EVIDENCE = [^\n]*\nSEMANTIC_EVIDENCE = [^\n]*\nRELEVANCE_MARGIN = [^\n]*\n"
        r"FOLDER_EVIDENCE = [^\n]*\n"
    )
    source, count = re.subn(pattern, block, source)
    if count != 1:
        raise SystemExit(f"could not find the floor's block in {RELEVANCE_MODULE}")
    RELEVANCE_MODULE.write_text(source, encoding="utf-8")
    source = HYBRID_MODULE.read_text(encoding="utf-8")
    for name, value in zip(("NAME_WEIGHT", "FOLDER_WEIGHT"), weights, strict=True):
        source, count = re.subn(rf"\n{name} = [^\n]*\n", f"\n{name} = {value}\n", source)
        if count != 1:
            raise SystemExit(f"could not find {name} in {HYBRID_MODULE}")
    HYBRID_MODULE.write_text(source, encoding="utf-8")
    print(
        f"wrote {floor} into {RELEVANCE_MODULE.name}, NAME_WEIGHT, FOLDER_WEIGHT = {weights} into "
        f"{HYBRID_MODULE.name}"
    )


def _where(args, tmp: str, size: str) -> Path | None:
    """Where the seeds' folders and indexes of one size are built: --keep-in (DIR/<size> with --sizes),
    bench/.cache/personal, or `tmp`."""
    if args.keep_in is not None:
        return args.keep_in / size if args.sizes else args.keep_in
    return None if args.keep else Path(tmp) / size


def _set(indexed, floor, name_weight, folder_weight=hybrid.FOLDER_WEIGHT) -> None:
    for one in indexed:
        one.engine.parts.search.floor = floor
        one.engine.parts.search.name_weight = name_weight
        one.engine.parts.search.folder_weight = folder_weight


def main(args, index, run, table, verdict) -> None:
    sizes = args.sizes or [args.size]
    with tempfile.TemporaryDirectory() as tmp:
        indexed = {
            size: [index(seed, size, _where(args, tmp, size)) for seed in args.seeds] for size in sizes
        }
        every = [one for ones in indexed.values() for one in ones]
        _set(every, None, hybrid.NAME_WEIGHT)
        personal = {
            size: [s for one in ones for s in run(one, evidence=True)] for size, ones in indexed.items()
        }
        sci, collection = floor_report.SciFactEvidence([], [], [], [], [], []), None
        if args.skip_scifact or args.folders_only:
            print(f"calibration on seeds {args.seeds} ({', '.join(sizes)}) ONLY (no SciFact)")
        else:
            collection = scifact(args.data, Path(tmp) / "scifact")
            beir, search, qvecs, embed = collection
            sci = floor_report.evidence(search, beir, qvecs, embed)
            print(f"calibration on seeds {args.seeds} ({', '.join(sizes)}) and SciFact train")
        floor = choose(personal, sci, keep_arms=args.folders_only)
        floor_study.report(floor, personal, sci)
        weight = hybrid.NAME_WEIGHT if args.folders_only else _name_weight(every, floor, run, table)
        folder_weight = _folder_weight(every, floor, weight, run, table)
        note = "SciFact train" if collection is not None else "no SciFact"
        if args.folders_only:
            note = "arms kept from SciFact train"
        write(floor, (weight, folder_weight), args.seeds, " and ".join(sizes), note)
        if collection is not None:
            _scifact_figures(collection, floor, weight)
        for one in every:
            one.engine.running.close()
        for size in sizes:
            _held_out(args, tmp, size, (floor, weight, folder_weight), index, run, table, verdict)


def _held_out(args, tmp, size, chosen, index, run, table, verdict) -> None:
    """The held-out seeds of one size measured with what was chosen (the choice never saw them)."""
    held = []
    for seed in args.held_out:
        one = index(seed, size, _where(args, tmp, size))
        _set([one], *chosen)
        held += run(one, evidence=False)
        one.engine.running.close()
    if held:
        figures = table(f"held-out seeds {args.held_out} ({size}), the calibrated floor in force", held)
        print(f"SUMMARY held-out ({size}): " + verdict(figures))


def _name_weight(indexed, floor, run, table) -> float:
    """The NAME_WEIGHTS entry with the best mean of topic and keyword top-1 on the calibration seeds."""
    best_weight, best_score = NAME_WEIGHTS[0], -1.0
    for weight in NAME_WEIGHTS:
        _set(indexed, floor, weight)
        figures = table(
            f"  name weight {weight}, floor {floor}", [s for one in indexed for s in run(one, False)]
        )
        score = statistics.fmean([figures["topic"]["top1"], figures["keyword"]["top1"]])
        if score > best_score + 1e-9:
            best_weight, best_score = weight, score
    return best_weight


def _folder_weight(indexed, floor, name_weight, run, table) -> float:
    """The FOLDER_WEIGHTS entry with the best mean of keyword and topic top-1, known-item top-10 and
    meaning top-3 on the calibration seeds."""
    best_weight, best_score = FOLDER_WEIGHTS[0], -1.0
    for weight in FOLDER_WEIGHTS:
        _set(indexed, floor, name_weight, weight)
        figures = table(f"  folder weight {weight}", [s for one in indexed for s in run(one, False)])
        score = statistics.fmean(
            [
                figures["keyword"]["top1"],
                figures["topic"]["top1"],
                figures["known_item"]["top10"],
                figures["meaning"]["top3"],
            ]
        )
        if score > best_score + 1e-9:
            best_weight, best_score = weight, score
    return best_weight


def _scifact_figures(collection, floor, weight) -> None:
    beir, search, qvecs, embed = collection
    search.name_weight = weight
    on, off, lost, empty = floor_report.figures(search, beir, qvecs, embed, floor)
    print(
        f"SciFact train hybrid nDCG@10: {on:.4f} floor on, {off:.4f} off (Δ {on - off:+.4f}); losing "
        f"a relevant top-10 result {lost:.1%}; nonsense 'No matches' "
        + ", ".join(f"{k} {v:.0%}" for k, v in empty.items())
    )
    search.keywords.close()
