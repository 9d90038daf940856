"""The rest of a life in files: the car, a CV in versions, hobbies, music, older photos, a second project.

These make the full folder the size of a real one (a few hundred files) and add what a search must
not confuse: hobby notes next to work notes, name-only media next to documents.
"""

from __future__ import annotations

from .person import Person
from .plan import Plan


def car(plan: Plan, p: Person) -> None:
    policy = "Documents/Car/insurance-policy-2024.pdf"
    plan.add(
        policy,
        "pdf",
        (
            f"{p.insurer}\n\nMotor policy schedule\n\nPolicyholder: {p.name}, {p.address}\nVehicle: {p.car}, "
            "registered 2019\nCover: comprehensive, including windscreen and courtesy car\nExcess: 250 EUR "
            "compulsory plus 150 EUR voluntary\nNo-claims bonus: five years\n\nPeriod of cover: "
            "1 March 2024 to 28 February 2025. Annual premium 612.40 EUR, paid in monthly instalments. "
            "Drivers: the policyholder only. Use: social, domestic and commuting."
        ),
        plan.day(2024, 2, 19),
    )
    plan.mean(("protection if I have a road accident", "paperwork if I crash my automobile"), policy)
    service = "Documents/Car/service-invoice.pdf"
    plan.add(
        service,
        "pdf",
        (
            f"Ringway Garage, {p.city}\n\nWorkshop invoice\nCustomer: {p.name}\nVehicle: {p.car}\n\n"
            "Work carried out: annual service, oil and filter change, front brake pads replaced, "
            "wiper blades, "
            "tyre pressures checked. Labour 2.5 hours.\nParts 164.20, labour 187.50, total 351.70 EUR.\n"
            "Next service due at 75,000 km or in twelve months."
        ),
        plan.day(2024, 9, 6),
    )
    plan.mean(("what the mechanic charged to fix my automobile", "mechanic maintenance bill"), service)


def career(plan: Plan, p: Person) -> None:
    """A CV in two versions and a cover letter as draft and final: versions, not duplicates."""
    old, new = "Documents/Career/cv-2023.docx", "Documents/Career/cv-2024.docx"
    jobs = f"{p.role.capitalize()} at {p.employer}, {p.city}, since 2021. Work in {p.sector}."
    plan.add(
        old,
        "docx",
        (
            f"{p.name}\n\n{p.address}\n\n{jobs} Led the {p.team} workstream.\n\nSkills: spreadsheets, "
            "presenting, stakeholder management.\n\nEducation: bachelor's degree, 2016."
        ),
        plan.day(2023, 5, 2),
        doc="cv",
    )
    plan.add(
        new,
        "docx",
        (
            f"{p.name}\n\n{p.address}\n\n{jobs} Led the {p.team} workstream and mentored two juniors; cut "
            "turnaround time by a fifth.\n\nSkills: spreadsheets, Python, presenting, stakeholder "
            "management.\n\n"
            f"Education: bachelor's degree, 2016. Languages: English, some {p.trips[0][1]} phrases."
        ),
        plan.day(2024, 4, 9),
        doc="cv",
    )
    plan.versions.append(((old, new), new))
    plan.mean(("summary of my professional experience for applications", "resume"), "cv")
    draft, final = "Documents/Career/cover-letter-draft.txt", "Documents/Career/cover-letter-final.txt"
    body = (
        f"Dear hiring manager,\n\nI am applying for the senior {p.role} position. In three years at "
        f"{p.employer} I have learned how {p.sector} works from the inside."
    )
    plan.add(
        draft, "txt", body + "\n\nI look forward to hearing from you.", plan.day(2024, 4, 10), doc="cover"
    )
    plan.add(
        final,
        "txt",
        body + " I would bring the same care to your team, and I can start in two "
        f"months.\n\nI look forward to hearing from you.\n\nYours sincerely,\n{p.name}",
        plan.day(2024, 4, 12),
        doc="cover",
    )
    plan.versions.append(((draft, final), final))


_MOODS = ("Slow progress but steady.", "A real breakthrough on Thursday.", "Tired; skipped one session.")


def hobbies(plan: Plan, p: Person) -> None:
    for hobby, kind, items in p.hobbies[: plan.n(2, 1)]:
        folder = f"Documents/Hobbies/{hobby}"
        paths = []
        for week in range(1, plan.span(3, 7, 2) + 1):
            path = f"{folder}/{kind.replace(' ', '-')}-week-{week:02d}.md"
            paths.append(path)
            focus = items[week % len(items)]
            plan.add(
                path,
                "md",
                (
                    f"# {hobby.capitalize()} {kind}, week {week}\n\nFocus: {focus}.\n\nSessions: "
                    f"{plan.rng.randint(2, 5)}, about {plan.rng.choice((30, 45, 60, 90))} minutes each. "
                    f"{plan.rng.choice(_MOODS)}\n\n"
                    f"Next week: keep at {items[(week + 1) % len(items)]}.\n"
                ),
                plan.day(2024, 2 + week, 7),
            )
        plan.series.append(tuple(paths))


def music(plan: Plan) -> None:
    tracks = (
        "Nils Frahm - Says.mp3",
        "Khruangbin - Maria Tambien.mp3",
        "Bonobo - Kerala.mp3",
        "Arooj Aftab - Mohabbat.mp3",
        "Fleetwood Mac - Dreams.mp3",
        "Nina Simone - Sinnerman.mp3",
        "Tinariwen - Toumast Tincha.mp3",
        "Floating Points - Silhouettes.mp3",
        "Caribou - Odessa.mp3",
        "Mdou Moctar - Afrique Victime.mp3",
        "Anouar Brahem - Blue Maqams.mp3",
    )
    for name in tracks[: plan.span(6, 11, 2)]:
        plan.add(f"Music/{name}", "bin", None, plan.day(2023, plan.rng.randint(1, 12), 3), size=30_000)


def old_pictures(plan: Plan) -> None:
    for i in range(plan.span(14, 26, 2)):
        path = f"Pictures/2023/IMG_{2100 + i * 7}.jpg"
        size = (plan.n(480, 120), plan.n(360, 90))
        plan.add(path, "jpg", None, plan.day(2023, 1 + i % 12, 10), image=(plan.rng.randrange(2**31), *size))
        plan.conventional.add(path)
    if plan.full:
        for name in ("VID_20240614_181502.mp4", "VID_20240822_093011.mp4"):
            plan.add(f"Videos/{name}", "bin", None, plan.day(2024, int(name[8:10]), 14), size=150_000)
            plan.conventional.add(f"Videos/{name}")


BUDGET = {
    "README.md": "# budget-tally\n\nReads the bank's CSV export and totals spending per category per month, "
    "so I can see where the money goes.\n\nUsage: `python tally.py transactions-2024-01.csv`\n",
    "tally.py": (
        "import csv\nimport sys\nfrom collections import defaultdict\n\n\ndef tally(path):\n"
        "    totals = defaultdict(float)\n    with open(path, newline='') as f:\n"
        "        for row in csv.DictReader(f):\n            totals[row['category']] += float(row['amount'])\n"
        "    return dict(totals)\n\n\nif __name__ == '__main__':\n"
        "    for category, total in sorted(tally(sys.argv[1]).items()):\n"
        "        print(f'{category:<12} {total:>10.2f}')\n"
    ),
    "test_tally.py": (
        "from tally import tally\n\n\ndef test_sums_per_category(tmp_path):\n"
        "    f = tmp_path / 'x.csv'\n    f.write_text('date,description,category,amount\\n"
        "1,a,food,-2\\n2,b,food,-3\\n')\n    assert tally(f) == {'food': -5.0}\n"
    ),
}


def second_project(plan: Plan) -> None:
    if not plan.full:
        return
    for name, text in BUDGET.items():
        plan.add(f"Code/budget-tally/{name}", name.rsplit(".", 1)[1], text, plan.day(2024, 10, 2))
    plan.mean(("adds up expenses by kind from a spreadsheet download",), "Code/budget-tally/README.md")


LESSONS = (
    ("greetings and introductions", "hola, buenos dias, me llamo", "ser versus estar"),
    ("ordering food", "la cuenta, por favor, una mesa para dos", "the verb querer"),
    ("directions", "a la izquierda, todo recto, la estacion", "imperatives"),
    ("the past tense", "ayer fui al mercado, comi paella", "preterite endings"),
    ("family", "mi hermana, los abuelos, el sobrino", "possessive adjectives"),
    ("weather and seasons", "hace frio, llueve, el verano", "weather verbs"),
)


def lessons(plan: Plan) -> None:
    """Evening-class notes of one template, a lesson each: a series, and a topic of their own."""
    if not plan.full:
        return
    paths = []
    for n, (theme, phrases, grammar) in enumerate(LESSONS, 1):
        path = f"Documents/Learning/spanish-lesson-{n:02d}.md"
        paths.append(path)
        plan.add(
            path,
            "md",
            (
                f"# Spanish evening class, lesson {n}: {theme}\n\nVocabulary: "
                f"{phrases}.\n\nGrammar: {grammar}.\n\n"
                "Homework: write five sentences and practise aloud with the app for ten minutes a day.\n"
            ),
            plan.day(2024, 1 + n, 15, 21),
        )
    plan.series.append(tuple(paths))
    plan.mean(("studying a foreign language at night school",), *paths)


def more_downloads(plan: Plan, p: Person) -> None:
    """Installers and archives of random bytes, a manual with no folder to go to, and a boarding pass for
    a trip whose notes and itinerary are in Travel/: where a careful person would file it."""
    if not plan.full:
        return
    for name, size in (
        ("Slack-4.38.121.dmg", 80_000),
        ("python-3.12.4-amd64.exe", 70_000),
        ("backup-2024-06.tar.gz", 120_000),
        ("fonts.zip", 25_000),
    ):
        plan.add(f"Downloads/{name}", "bin", None, plan.day(2024, plan.rng.randint(1, 11), 20), size=size)
    city = p.trips[1][0]
    plan.add(
        "Downloads/boarding-pass.pdf",
        "pdf",
        (
            f"BOARDING PASS\n\nPassenger: {p.name.upper()}\nFrom: {p.city}  To: {city}\nGate closes "
            "30 minutes "
            "before departure. Seat 23A. Group 3. Cabin bag only."
        ),
        plan.day(2024, 6, 9),
    )
    plan.misplaced["Downloads/boarding-pass.pdf"] = "Travel"
    plan.add(
        "Downloads/dishwasher-manual.pdf",
        "pdf",
        (
            "Dishwasher user manual\n\nLoading the racks: plates in the lower rack facing the "
            "centre, glasses in "
            "the upper rack. Add rinse aid when the indicator lights. Clean the filter monthly under running "
            "water. Error E24: the drain hose is kinked or the filter is blocked."
        ),
        plan.day(2024, 1, 30),
    )
    plan.mean(("kitchen appliance instructions",), "Downloads/dishwasher-manual.pdf")
    scan = "Documents/Health/Scan_2024-06-11.pdf"
    plan.add(
        scan,
        "pdf",
        (
            f"Dental practice, {p.city}\n\nDear {p.first}, your six-monthly check-up found one "
            "small cavity in a "
            "lower molar. We have booked a filling for 2 July at 09:30. Please arrive ten minutes early."
        ),
        plan.day(2024, 6, 11),
    )
    plan.conventional.add(scan)
    plan.mean(("a hole in my tooth that needs fixing",), scan)


def speech(plan: Plan, p: Person) -> None:
    """A best-man speech as draft and final (versions), and a party plan next to it."""
    draft, final = (
        "Documents/Personal/wedding-speech-draft.docx",
        "Documents/Personal/wedding-speech-final.docx",
    )
    opening = (
        f"Speech for {p.friend}'s wedding\n\nGood evening everyone. For those who don't know me, I have "
        f"known {p.friend} since we were eleven, when we both got lost on a school trip to {p.city} zoo."
    )
    middle = (
        f"{p.friend} is the person who answers the phone at three in the morning, who remembers your "
        "birthday and your mother's, and who has never once been on time."
    )
    close = "So please raise your glasses: to the happy couple, and to a lifetime of adventures together."
    plan.add(draft, "docx", "\n\n".join((opening, middle)), plan.day(2024, 7, 2), doc="speech")
    plan.add(final, "docx", "\n\n".join((opening, middle, close)), plan.day(2024, 7, 19), doc="speech")
    plan.versions.append(((draft, final), final))
    plan.mean(("toast at my friend's marriage ceremony", "words for the bride and groom"), "speech")
    party = "Documents/Personal/birthday-party-plan.md"
    plan.add(
        party,
        "md",
        (
            f"# {p.sibling}'s 40th\n\n- Venue: the back room of the pub on {p.street}, booked for 7pm\n"
            "- Cake: lemon drizzle, order by Wednesday\n- Playlist: 80s and 90s\n- Invite list: 32 so far\n"
            "- Surprise slideshow of old family photos\n"
        ),
        plan.day(2024, 9, 1),
    )
    plan.mean(("organising a celebration for my sister turning forty",), party)


def meeting_copy(plan: Plan) -> None:
    """A meeting note saved again to the Desktop with one line added: a near-duplicate of the filed one."""
    notes = sorted(p for p in plan.entries if p.startswith("Documents/Work/meetings/"))
    if not plan.full or not notes:
        return
    src = plan.entries[notes[len(notes) // 2]]
    text = (src.text or "").replace("## Actions", "## Actions\n- Check the figures again before Friday.")
    plan.near_copy(
        src.path, f"Desktop/Copy of {src.path.rsplit('/', 1)[1]}", text, plan.later(src.when, 1, 9)
    )
