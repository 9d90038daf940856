"""Downloads/, Desktop/, Code/, bad names and misfiled papers: the mess a careful person would tidy.

Copies in Downloads/ are sometimes newer than the filed original, sometimes older, sometimes the same
age, so "keep the newest" is not the right rule by accident.
"""

from __future__ import annotations

from datetime import timedelta

from .documents import rent_receipt
from .life import recipe_text
from .person import Person
from .plan import Plan


def downloads(plan: Plan, p: Person, recipes: list[str], photos: list[str]) -> None:
    shifts = (timedelta(days=3), timedelta(days=-40), timedelta(0), timedelta(hours=5))
    filed = ["Documents/Housing/lease-agreement-2023.docx", "Documents/Taxes/tax-return-2023.pdf", recipes[0]]
    if plan.full:
        filed.append("Documents/Work/invoices/invoice-2024-002.pdf")
    for i, src in enumerate(filed):
        plan.copy(src, f"Downloads/{src.rsplit('/', 1)[1]}", plan.entries[src].when + shifts[i % 4])
    first = plan.entries[recipes[-1]]
    stem = recipes[-1].rsplit("/", 1)[1].removesuffix(".md")
    plan.near_copy(
        recipes[-1],
        f"Downloads/{stem} (1).md",
        (first.text or "") + f"\nTried again in March with {p.friend}: halve the salt.\n",
        first.when + timedelta(days=30),
    )
    packing = plan.entries["Travel/packing-list.md"]
    plan.near_copy(
        "Travel/packing-list.md",
        "Downloads/Copy of packing-list.md",
        (packing.text or "").replace("three t-shirts", "four t-shirts"),
        packing.when - timedelta(days=2),
    )
    renewal = plan.entries["Documents/Housing/lease-renewal-letter.txt"]
    plan.near_copy(
        renewal.path,
        "Downloads/lease-renewal-letter.pdf",
        renewal.text or "",
        renewal.when + timedelta(hours=1),
        fmt="pdf",
    )
    plan.copy(photos[1], f"Downloads/{photos[1].rsplit('/', 1)[1]}", plan.entries[photos[1]].when)
    shrunk = photos[2].rsplit("/", 1)[1].rsplit(".", 1)[0] + "-small.jpg"
    plan.add(
        f"Downloads/{shrunk}",
        "jpg",
        None,
        plan.entries[photos[2]].when + timedelta(days=1),
        doc=photos[2],
        shrink_of=photos[2],
    )
    plan.near.append(((photos[2], f"Downloads/{shrunk}"), photos[2]))
    for name, size in (
        ("Zoom_6.0.2.dmg", 90_000),
        ("code_1.89.1_amd64.deb", 120_000),
        ("photos-export.zip", 60_000),
        ("firmware-update-v3.bin", 40_000),
    )[: plan.n(4, 2)]:
        plan.add(f"Downloads/{name}", "bin", None, plan.day(2024, 5, 11), size=size)
    gift = "Downloads/donation-receipt-2024.txt"
    plan.add(
        gift,
        "txt",
        f"Receipt for your donation\n\nDear {p.first}, thank you for giving 120 euros to the "
        "Red Cross winter appeal on 3 February 2024. This receipt confirms a charitable contribution you "
        "may claim on your return for 2024. Keep it with your papers.",
        plan.day(2024, 2, 3),
    )
    plan.misplaced[gift] = "Documents/Taxes"


def unhelpful(plan: Plan, p: Person) -> None:
    notes = (
        (
            "Downloads/untitled.txt",
            "txt",
            f"Garage quotes for the {p.car}: brake pads 180, timing belt 420, "
            "annual service 150. Second opinion from the place on the ring road was cheaper.",
        ),
        ("Desktop/asdf.txt", "txt", "milk, oats, lemons, bin bags, stamps, birthday card for mum"),
        (
            "Documents/Document1.docx",
            "docx",
            f"Letter to the council\n\nDear Sir or Madam, I am writing about "
            f"the broken street light outside {p.address}, which has been out since October.",
        ),
        ("Desktop/New Text Document.txt", "txt", f"wifi: {p.pet}{p.house}!  router admin on the sticker"),
        ("Downloads/12345.txt", "txt", f"{p.colleagues[0]} 0612 448 201\n{p.doctor} surgery 020 7946 0321"),
    )
    for path, fmt, text in notes[: plan.n(5, 3)]:
        plan.add(path, fmt, text, plan.day(2024, plan.rng.randint(1, 11), plan.rng.randint(1, 28)))
        plan.unhelpful.add(path)


def desktop(plan: Plan, p: Person) -> None:
    stray = "Desktop/rent-receipt-2024-12.pdf"
    plan.add(stray, "pdf", rent_receipt(p, 12), plan.day(2024, 12, 2))
    plan.misplaced[stray] = "Documents/Housing"
    receipts = next(i for i, s in enumerate(plan.series) if s[0].startswith("Documents/Housing/rent-receipt"))
    plan.series[receipts] += (stray,)
    shot = "Desktop/Screenshot 2024-05-02 at 10.22.31.png"
    plan.add(shot, "png", None, plan.day(2024, 5, 2), image=(plan.rng.randrange(2**31), 200, 120))
    plan.conventional.add(shot)
    scan = "Documents/Scan_2024-03-02.pdf"
    plan.add(
        scan,
        "pdf",
        f"Passport renewal application\n\nApplicant: {p.name}\nAddress: {p.address}\n"
        "Reason: current passport expires in June. Two photographs attached, countersigned.",
        plan.day(2024, 3, 2),
    )
    plan.conventional.add(scan)
    plan.add(
        "Desktop/todo.md",
        "md",
        f"# This week\n- call {p.landlord} about the renewal\n- book {p.pet}'s "
        "checkup\n- send invoice to " + p.clients[0] + "\n",
        plan.day(2024, 11, 25),
    )


def misfiled(plan: Plan, p: Person) -> None:
    """A recipe in Taxes/, a trip itinerary in Finance/: clear cases of the wrong folder."""
    dish, kind, ingredients, phrases = p.recipes[-1]
    path = f"Documents/Taxes/{dish.lower().replace(' ', '-')}.md"
    plan.add(path, "md", recipe_text(dish, kind, ingredients, p.friend), plan.day(2024, 1, 7))
    plan.misplaced[path] = "Recipes"
    plan.mean(phrases, path)


CODE = {
    "README.md": "# photo-sorter\n\nSorts camera files into folders by the date they were shot, read from "
    "EXIF, so IMG_4400.jpg ends up under 2024/05/.\n\nUsage: `python -m sorter ~/Pictures`\n",
    "sorter/__init__.py": '"""Sort camera files into year/month folders."""\n',
    "sorter/__main__.py": "import sys\n\nfrom sorter.core import sort_folder\n\nsort_folder(sys.argv[1])\n",
    "sorter/core.py": (
        "from pathlib import Path\n\nfrom PIL import Image\n\n\ndef taken(path: Path) -> str:\n"
        "    exif = Image.open(path).getexif()\n    stamp = exif.get(306, '')\n"
        "    return stamp[:7].replace(':', '/') or 'unknown'\n\n\ndef sort_folder(root: str) -> None:\n"
        "    for path in Path(root).glob('*.jpg'):\n        target = Path(root) / taken(path) / path.name\n"
        "        target.parent.mkdir(parents=True, exist_ok=True)\n        path.rename(target)\n"
    ),
    "tests/test_core.py": (
        "from sorter.core import taken\n\n\ndef test_a_file_without_exif_is_unknown(tmp_path):\n"
        "    from PIL import Image\n    Image.new('RGB', (4, 4)).save(tmp_path / 'a.jpg')\n"
        "    assert taken(tmp_path / 'a.jpg') == 'unknown'\n"
    ),
    "pyproject.toml": '[project]\nname = "photo-sorter"\nversion = "0.1.0"\ndependencies = ["Pillow"]\n',
}


def code(plan: Plan) -> None:
    for name, text in CODE.items():
        fmt = name.rsplit(".", 1)[1]
        plan.add(f"Code/photo-sorter/{name}", fmt, text, plan.day(2024, 8, 17))
    plan.mean(("program that files snapshots by when they were captured",), "Code/photo-sorter/README.md")
