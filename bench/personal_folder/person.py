"""One person drawn from the pools: who they are, where they live, work, bank, travel and cook."""

from __future__ import annotations

import random
from dataclasses import dataclass

from . import pools


@dataclass(frozen=True)
class Person:
    first: str
    last: str
    sibling: str
    friend: str
    colleagues: tuple[str, ...]
    city: str
    country: str
    street: str
    house: int
    employer: str
    sector: str
    role: str
    team: str
    clients: tuple[str, ...]
    pet: str
    species: str
    breed: str
    pet_kind: str
    bank: str
    landlord: str
    doctor: str
    vet: str
    medicines: tuple[tuple[str, str, str, str], ...]
    trips: tuple[tuple, ...]
    recipes: tuple[tuple, ...]
    meetings: tuple[tuple, ...]
    events: tuple[tuple, ...]
    hobbies: tuple[tuple, ...]
    insurer: str
    car: str
    utility: str
    rent: int
    year: int = 2024

    @property
    def name(self) -> str:
        return f"{self.first} {self.last}"

    @property
    def address(self) -> str:
        return f"{self.house} {self.street}, {self.city}"


def draw(rng: random.Random) -> Person:
    firsts = rng.sample(pools.FIRST, 8)
    city, country, streets = rng.choice(pools.CITIES)
    employer, sector, role, team = rng.choice(pools.EMPLOYERS)
    species, breeds, kind = rng.choice(pools.PETS)
    return Person(
        first=firsts[0],
        last=rng.choice(pools.LAST),
        sibling=firsts[1],
        friend=firsts[2],
        colleagues=tuple(f"{f} {rng.choice(pools.LAST)}" for f in firsts[3:8]),
        city=city,
        country=country,
        street=rng.choice(streets),
        house=rng.randint(3, 180),
        employer=employer,
        sector=sector,
        role=role,
        team=team,
        clients=tuple(rng.sample(pools.CLIENTS, 6)),
        pet=rng.choice(pools.PET_NAMES),
        species=species,
        breed=rng.choice(breeds),
        pet_kind=kind,
        bank=rng.choice(pools.BANKS),
        landlord=rng.choice(pools.LANDLORDS),
        doctor=rng.choice(pools.DOCTORS),
        vet=rng.choice(pools.VETS),
        medicines=tuple(rng.sample(pools.MEDICINES, 2)),
        trips=tuple(rng.sample(pools.DESTINATIONS, 4)),
        recipes=tuple(rng.sample(pools.RECIPES, 13)),
        meetings=tuple(rng.sample(pools.MEETINGS, 14)),
        events=tuple(rng.sample(pools.EVENTS, len(pools.EVENTS))),
        hobbies=tuple(rng.sample(pools.HOBBIES, 2)),
        insurer=rng.choice(pools.INSURERS),
        car=rng.choice(pools.CARS),
        utility=rng.choice(pools.UTILITIES),
        rent=rng.randrange(750, 1900, 25),
    )
