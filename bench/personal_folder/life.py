"""Travel/, Recipes/, Journal/ and Pictures/: the parts of a folder that are a life, not paperwork."""

from __future__ import annotations

import calendar
from datetime import date

from .documents import MONTHS
from .person import Person
from .plan import Plan


def travel(plan: Plan, p: Person) -> None:
    for i, (city, country, region, sights, dishes, transport) in enumerate(p.trips[: plan.n(4, 2)]):
        month = (3, 6, 9, 11)[i]
        slug = city.lower().replace(" ", "-")
        notes = f"Travel/{slug}-trip-notes.md"
        plan.add(
            notes,
            "md",
            (
                f"# {city}, {country}\n\n{MONTHS[month - 1]} 2024, eight days with {p.friend}.\n\n"
                f"We landed late and took {transport} into the centre. The first morning we walked "
                f"to {sights[0]}, "
                "which was busier than I expected but worth the queue. The next day we went to "
                f"{sights[1]} and "
                f"spent the afternoon at {sights[2]}.\n\nFood: {dishes[0]} at a tiny place near the "
                "guesthouse was "
                f"the best thing we ate all week. Also tried {dishes[1]} and {dishes[2]}. Prices "
                "were lower than "
                f"at home in {p.city}.\n\nNext time: learn a few more phrases, bring comfortable "
                "shoes, and stay "
                "one more night instead of rushing back."
            ),
            plan.day(2024, month, 20),
        )
        plan.mean((f"holiday in {region}", f"{region} vacation memories"), notes)
        itinerary = f"Travel/{slug}-itinerary.pdf"
        plan.add(
            itinerary,
            "pdf",
            (
                f"Itinerary: {city}, {country}\n\nTraveller: {p.name}\nOutbound flight: depart "
                f"{p.city} 07:40 on "
                f"{10 + i} {MONTHS[month - 1]}, arrive {city} 15:05\nAccommodation: Guesthouse near "
                f"{sights[0]}, "
                "check-in from 14:00, breakfast included\nReturn flight: depart 18:20, eight days later\n"
                "Booking reference: " + "".join(plan.rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZ") for _ in range(6))
            ),
            plan.day(2024, month - 1, 12),
        )
    packing = "Travel/packing-list.md"
    plan.add(packing, "md", _packing(), plan.day(2024, 3, 1))
    plan.mean(("things to put in my suitcase before leaving", "what to bring along when going away"), packing)


def _packing() -> str:
    return (
        "# Packing list\n\n## Documents\n- passport and a photocopy\n- insurance card\n- boarding passes\n\n"
        "## Clothes\n- three t-shirts, one warm jumper\n- rain jacket\n- walking shoes and sandals\n\n"
        "## Bag\n- adapter plug and charger\n- toothbrush, sunscreen, plasters\n- earplugs and eye mask\n"
        "- a paperback for the flight\n"
    )


_METHOD = {
    "bake": (
        "Heat the oven to 180 degrees and line a tin.",
        "Mix the dry ingredients, then fold in the wet ones.",
        "Bake until golden and a skewer comes out clean, then cool on a rack.",
    ),
    "stovetop": (
        "Warm a heavy pan over a medium flame.",
        "Soften the aromatics slowly before adding the rest.",
        "Simmer gently, stirring now and then, and season at the end.",
    ),
    "wok": (
        "Get the wok smoking hot before anything goes in.",
        "Cook in small batches so nothing steams.",
        "Toss everything together with the sauce for the last minute.",
    ),
    "no-cook": (
        "Chill the bowl first.",
        "Chop everything finely and combine.",
        "Rest for twenty minutes so the flavours marry, then taste and adjust.",
    ),
    "slow": (
        "Brown everything well in batches.",
        "Add the liquid and scrape the bottom of the pot.",
        "Cover and cook on a low heat for three hours, until tender.",
    ),
    "griddle": (
        "Whisk the batter until smooth and rest it.",
        "Ladle onto a hot buttered griddle.",
        "Flip when bubbles appear and serve straight away.",
    ),
    "fry": ("Heat the oil to 175 degrees.", "Fry in batches until crisp.", "Drain on paper and serve hot."),
}


def recipe_text(dish: str, kind: str, ingredients: tuple[str, ...], cook: str) -> str:
    steps = "\n".join(f"{i}. {step}" for i, step in enumerate(_METHOD[kind], 1))
    items = "\n".join(f"- {item}" for item in ingredients)
    return (
        f"# {dish}\n\nServes four. Adapted from a version {cook} made for us years ago.\n\n"
        f"## Ingredients\n{items}\n\n## Method\n{steps}\n\nNotes: keeps for two days in the fridge.\n"
    )


def recipes(plan: Plan, p: Person) -> list[str]:
    paths = []
    for dish, kind, ingredients, phrases in p.recipes[: plan.n(12, 3)]:
        path = f"Recipes/{dish.lower().replace(' ', '-')}.md"
        paths.append(path)
        plan.add(
            path,
            "md",
            recipe_text(dish, kind, ingredients, p.sibling),
            plan.day(2023, plan.rng.randint(1, 12), plan.rng.randint(1, 28)),
        )
        plan.mean(phrases, path)
    return paths


_FILLER = (
    "worked from home, nothing much happened",
    "a quiet day, cleaned the kitchen and read",
    "groceries, laundry, an early night",
    "long day at the office, leftovers for dinner",
)


def journal(plan: Plan, p: Person) -> None:
    days = sorted(plan.rng.sample(range(3, 360), plan.n(32, 8)))
    events = list(p.events)
    paths = []
    for n, doy in enumerate(days):
        when = date.fromordinal(date(2024, 1, 1).toordinal() + doy - 1)
        path = f"Journal/2024/{when.isoformat()}.md"
        paths.append(path)
        if n % 3 != 2 and events:
            text, mood, phrases = events.pop()
            event = text.format(sib=p.sibling, friend=p.friend, pet=p.pet)
            plan.mean(phrases, path)
        else:
            event, mood = plan.rng.choice(_FILLER), plan.rng.choice(("calm", "flat", "okay"))
        plan.add(
            path,
            "md",
            (
                f"# {calendar.day_name[when.weekday()]} {when.day} {MONTHS[when.month - 1]} "
                f"2024\n\nMood: {mood}\n\n"
                f"Today {event}. I keep thinking about it, and writing it down helps.\n\n"
                "Grateful for: "
                f"{plan.rng.choice(('coffee', 'the weather', p.pet, p.friend, 'a good book'))}\n"
            ),
            plan.day(when.year, when.month, when.day, 22),
        )
        plan.conventional.add(path)
    plan.series.append(tuple(paths))


def pictures(plan: Plan, p: Person) -> list[str]:
    paths = []
    width, height = plan.n(640, 160), plan.n(480, 120)
    for i in range(plan.n(22, 5)):
        month, day = 1 + i % 12, 1 + (i * 5) % 27
        if i % 3 == 2:
            name = f"PXL_2024{month:02d}{day:02d}_{plan.rng.randint(100000, 235959)}.jpg"
        elif i % 5 == 4:
            name = f"DSC_{plan.rng.randint(1000, 9999):04d}.JPG"
        else:
            name = f"IMG_{4400 + i * 3}.jpg"
        path = f"Pictures/2024/{name}"
        plan.add(
            path, "jpg", None, plan.day(2024, month, day), image=(plan.rng.randrange(2**31), width, height)
        )
        plan.conventional.add(path)
        paths.append(path)
    for city, _country, _region, sights, _dishes, _t in p.trips[: plan.n(2, 1)]:
        word = sights[1].replace("the ", "").split()[0].lower()
        path = f"Pictures/2024/{city.lower().replace(' ', '-')}-{word}.png"
        plan.add(path, "png", None, plan.day(2024, 6, 1), image=(plan.rng.randrange(2**31), width, height))
    return paths
