"""The pools each seed draws its person from: names, places, employers, pets, trips, dishes, meetings.

The pools are several times larger than one person needs, so two seeds share few specific words
(names, cities, banks, dishes), and a calibration fitted to one seed's words does not carry to another.
Each entry that a meaning query can target carries paraphrases written to share no content word with
the text the generator writes for it; the build still checks that and drops a paraphrase that does.
"""

from __future__ import annotations

FIRST = (
    "Amara Bastian Camille Dmitri Elif Farah Gideon Hana Ingrid Jonas Kaito Leila Mateo Nadia Oskar "
    "Priya Quentin Rosalind Soren Talia Ulrich Valentina Wendell Ximena Yusuf Zofia Anselm Beatrix "
    "Cormac Delphine Emeric Florentyna Gaspard Henrietta Ignatius Juniper Kasimir Lucinda Mireille "
    "Nikolai Ophelia Percival Rupert Saoirse Thaddeus Ursula Vesna Wilhelmina"
).split()
LAST = (
    "Abernathy Bergstrom Castellano Dankworth Eriksen Fairweather Grimaldi Holloway Ibsen Jankowski "
    "Kowalczyk Lindqvist Montague Nakamura Okonkwo Pemberton Quarshie Rasmussen Santangelo Thorvald "
    "Underhill Vasquez Whitcombe Yamazaki Zielinski Ashdown Blackwood Carrington Delacroix Everhart "
    "Fitzgerald Galloway Hargreaves Iverson Kingsley Lockhart Marchetti Northcote Ostrowski Penhaligon"
).split()
# city, country, streets
CITIES = (
    ("Leeds", "England", ("Kirkstall Road", "Headingley Lane", "Roundhay Avenue")),
    ("Utrecht", "the Netherlands", ("Oudegracht", "Biltstraat", "Amsterdamsestraatweg")),
    ("Porto", "Portugal", ("Rua de Cedofeita", "Rua das Flores", "Avenida da Boavista")),
    ("Ghent", "Belgium", ("Korenlei", "Overpoortstraat", "Sint-Pietersnieuwstraat")),
    ("Bergen", "Norway", ("Bryggen", "Nygardsgaten", "Kalfarveien")),
    ("Ljubljana", "Slovenia", ("Trubarjeva cesta", "Celovska cesta", "Gosposka ulica")),
    ("Leipzig", "Germany", ("Karl-Liebknecht-Strasse", "Jahnallee", "Gohliser Strasse")),
    ("Valencia", "Spain", ("Carrer de Russafa", "Avinguda del Port", "Carrer de Cadis")),
    ("Gdansk", "Poland", ("Ulica Dluga", "Aleja Grunwaldzka", "Ulica Mariacka")),
    ("Tampere", "Finland", ("Hameenkatu", "Pyynikintie", "Satakunnankatu")),
    ("Galway", "Ireland", ("Shop Street", "Dominick Street", "Newcastle Road")),
    ("Aarhus", "Denmark", ("Jaegergardsgade", "Norrebrogade", "Vestergade")),
    ("Bologna", "Italy", ("Via Zamboni", "Via Saragozza", "Via del Pratello")),
    ("Brno", "Czechia", ("Kounicova", "Veveri", "Lidicka")),
    ("Lyon", "France", ("Rue Merciere", "Cours Gambetta", "Rue de la Charite")),
)
# employer, sector, role, team
EMPLOYERS = (
    ("Brightwater Analytics", "market research", "data analyst", "insights"),
    ("Kestrel Logistics", "freight shipping", "operations planner", "routing"),
    ("Halcyon Biotech", "pharmaceutical research", "lab coordinator", "assay development"),
    ("Northwind Robotics", "warehouse automation", "firmware engineer", "embedded systems"),
    ("Saffron Media", "digital publishing", "content strategist", "editorial"),
    ("Copperleaf Energy", "solar installation", "project manager", "residential projects"),
    ("Bluefin Insurance", "insurance", "claims specialist", "property claims"),
    ("Tessellate Studio", "architecture", "junior architect", "housing design"),
    ("Orchard Foods", "grocery wholesale", "procurement officer", "sourcing"),
    ("Meridian Health Partners", "clinic management", "scheduling lead", "patient services"),
    ("Quillfeather Books", "book publishing", "production editor", "nonfiction"),
    ("Ironbark Engineering", "civil engineering", "structural engineer", "bridges"),
)
CLIENTS = (
    "Pinecrest Dental",
    "Harbourview Hotel",
    "Lantern Coffee Roasters",
    "Greystone Legal",
    "Fernhill Nursery",
    "Moonrise Yoga Studio",
    "Alder and Finch Bakery",
    "Riverside Veterinary",
    "Summit Cycling Club",
    "Tidewater Marina",
    "Juniper Pottery",
    "Oakmoor Primary School",
    "Starling Print Shop",
    "Wildflower Florist",
    "Copperpot Brewery",
    "Northgate Pharmacy",
    "Silverline Taxis",
    "Beacon Hill Library",
)
# species, vet word for the species, breeds, food
PETS = (
    ("cat", ("British Shorthair", "Maine Coon", "tabby", "Siamese"), "feline"),
    ("dog", ("border collie", "beagle", "Labrador", "whippet"), "canine"),
    ("rabbit", ("Holland Lop", "Netherland Dwarf", "Rex"), "lagomorph"),
)
PET_NAMES = (
    "Miso Pickle Biscuit Juniper Waffles Clementine Pepper Noodle Bramble Tofu Marmite Figaro Pippin "
    "Tinker Mochi Sprout Basil Nutmeg Ziggy Pudding Hazel Otis Luna Crumble"
).split()
BANKS = (
    "Harbour Mutual Bank",
    "Stonegate Savings",
    "Kingfisher Bank",
    "Ridgeway Building Society",
    "Alpenrose Bank",
    "Lakeshore Credit Union",
    "Granite Trust",
    "Evergreen Cooperative Bank",
    "Wexford Savings Bank",
)
LANDLORDS = (
    "Pellham Property Management",
    "Thistledown Estates",
    "Corbel Lettings",
    "Wrenfield Homes",
    "Ashgrove Residential",
    "Quayside Rentals",
    "Marlowe and Sons Lettings",
    "Bellhaven Properties",
)
DOCTORS = (
    "Dr. Anneliese Voss",
    "Dr. Rahul Mehta",
    "Dr. Colette Brun",
    "Dr. Tobias Lindgren",
    "Dr. Maeve Doherty",
    "Dr. Sergei Petrov",
    "Dr. Ines Albuquerque",
    "Dr. Femi Adeyemi",
)
VETS = ("Willowbrook", "Greenacre", "Foxglove", "Larchmont", "Hollybush", "Meadowsweet")
MEDICINES = (
    ("amoxicillin", "500 mg capsule", "three times a day for seven days", "a chest infection"),
    ("sertraline", "50 mg tablet", "once every morning", "low mood and anxiety"),
    ("cetirizine", "10 mg tablet", "once a day in spring", "hay fever"),
    ("omeprazole", "20 mg capsule", "before breakfast", "acid reflux"),
    ("salbutamol", "100 microgram inhaler", "two puffs when wheezy", "mild asthma"),
    ("levothyroxine", "75 microgram tablet", "on an empty stomach", "an underactive thyroid"),
)
# city, country, regions (never written in the notes; the first picks one trip per
# continent), sights, dishes, transport
DESTINATIONS = (
    (
        "Seoul", "Korea", ("Asia", "the Far East"),
        ("Gyeongbokgung palace", "Bukchon hanok village", "Namsan tower"),
        ("bibimbap", "tteokbokki", "Korean barbecue"), "the subway",
    ),
    (
        "Kyoto", "Japan", ("Asia", "the Far East"),
        ("Fushimi Inari shrine", "the Arashiyama bamboo grove", "Kinkaku-ji"),
        ("kaiseki", "matcha sweets", "yudofu"), "the city buses",
    ),
    (
        "Hanoi", "Vietnam", ("Asia", "Indochina"),
        ("Hoan Kiem lake", "the Temple of Literature", "the Old Quarter"), ("pho", "bun cha", "egg coffee"),
        "motorbike taxis",
    ),
    (
        "Lisbon", "Portugal", ("Europe", "the Iberian peninsula"),
        ("the Alfama district", "Belem tower", "the Jeronimos monastery"),
        ("pasteis de nata", "grilled sardines", "bacalhau"), "tram 28",
    ),
    (
        "Reykjavik", "Iceland", ("Europe", "the far north"),
        ("the Golden Circle", "Hallgrimskirkja", "the Blue Lagoon"),
        ("lamb soup", "skyr", "rye bread ice cream"), "a rented jeep",
    ),
    (
        "Marrakesh", "Morocco", ("Africa", "the Maghreb"),
        ("the Jemaa el-Fnaa square", "the Majorelle garden", "the souks"), ("tagine", "couscous", "mint tea"),
        "petit taxis",
    ),
    (
        "Oaxaca", "Mexico", ("Latin America", "Central America"),
        ("Monte Alban", "the Tule tree", "Hierve el Agua"), ("mole negro", "tlayudas", "chapulines"),
        "colectivos",
    ),
    (
        "Cusco", "Peru", ("South America", "the Andes"),
        ("Machu Picchu", "the Sacred Valley", "Sacsayhuaman"), ("ceviche", "lomo saltado", "coca tea"),
        "the Inca Rail train",
    ),
    (
        "Cape Town", "South Africa", ("Africa", "the Rainbow Nation"),
        ("Table Mountain", "Boulders Beach", "the Cape of Good Hope"), ("bobotie", "braai", "malva pudding"),
        "a hired car",
    ),
    (
        "Hobart", "Tasmania", ("Australia", "Oceania"), ("MONA", "Mount Wellington", "Salamanca market"),
        ("scallop pies", "oysters", "leatherwood honey"), "a campervan",
    ),
    (
        "Istanbul", "Turkey", ("Europe", "Anatolia"),
        ("the Hagia Sophia", "the Grand Bazaar", "the Bosphorus ferry"), ("simit", "lahmacun", "baklava"),
        "the ferries",
    ),
    (
        "Quebec City", "Canada", ("North America", "the New World"),
        ("the Chateau Frontenac", "Montmorency Falls", "Petit-Champlain"),
        ("poutine", "tourtiere", "maple taffy"), "the funicular",
    ),
    (
        "Chiang Mai", "Thailand", ("Asia", "the Golden Triangle"),
        ("Doi Suthep temple", "the night bazaar", "an elephant sanctuary"),
        ("khao soi", "sai ua", "mango sticky rice"), "red songthaew trucks",
    ),
    (
        "Kathmandu", "Nepal", ("Asia", "the Himalayas"),
        ("Durbar Square", "Boudhanath stupa", "Swayambhunath"), ("momo dumplings", "dal bhat", "butter tea"),
        "battered taxis",
    ),
    (
        "Edinburgh", "Scotland", ("Europe", "the British Isles"),
        ("the Royal Mile", "Arthur's Seat", "the castle"), ("haggis", "cullen skink", "cranachan"),
        "the tram from the airport",
    ),
    (
        "Dubrovnik", "Croatia", ("Europe", "the Balkans"), ("the city walls", "Lokrum island", "the Stradun"),
        ("black risotto", "grilled octopus", "rozata"), "the cable car",
    ),
    (
        "Zanzibar", "Tanzania", ("Africa", "the Indian Ocean"),
        ("Stone Town", "a spice farm", "Nungwi beach"), ("urojo soup", "octopus curry", "Zanzibar pizza"),
        "dala-dala minibuses",
    ),
    (
        "Buenos Aires", "Argentina", ("South America", "the Southern Cone"),
        ("La Boca", "the Recoleta cemetery", "San Telmo market"), ("asado", "empanadas", "dulce de leche"),
        "the Subte",
    ),
    (
        "Queenstown", "New Zealand", ("Oceania", "the South Pacific"),
        ("Milford Sound", "the Skyline gondola", "Lake Wakatipu"),
        ("Fergburger", "pavlova", "green-lipped mussels"), "a hired camper",
    ),
)

HOBBIES = (
    ("guitar", "practice log", ("F barre chord", "fingerpicking pattern", "metronome at 80 bpm")),
    ("running", "training plan", ("long run on Sunday", "interval session", "half marathon in October")),
    ("pottery", "class notes", ("centring clay on the wheel", "trimming the foot", "glaze firing")),
    ("birdwatching", "sightings list", ("a kingfisher by the canal", "two buzzards", "a flock of waxwings")),
    ("chess", "opening notes", ("the Sicilian defence", "endgame drills", "a blitz tournament")),
    ("knitting", "pattern notes", ("a cabled jumper", "merino yarn", "casting on 120 stitches")),
    ("photography", "shot list", ("golden hour at the harbour", "a 50 mm prime lens", "long exposures")),
    ("climbing", "route log", ("a grade 6a overhang", "bouldering session", "new climbing shoes")),
)
INSURERS = (
    "Lighthouse Insurance",
    "Cobalt Assurance",
    "Fenwick Mutual",
    "Heronsgate Cover",
    "Polaris Insurance",
)
CARS = ("Skoda Octavia", "Toyota Yaris", "Volkswagen Golf", "Renault Clio", "Kia Niro", "Mazda 3")
UTILITIES = ("Brightspark Energy", "Northern Power Co", "Evenflow Electric", "Sunbeam Utilities")
CHARITIES = (
    "Red Cross",
    "Oxfam",
    "Medecins Sans Frontieres",
    "the local hospice",
    "Greenpeace",
    "a food bank",
)
NONSENSE_WORDS = (
    "zeppelin marmalade quasar gondolier trombone walrus origami kazoo nebula porcupine lighthouse "
    "saxophone turbine meringue harpoon volcano igloo sphinx carousel tuxedo anchovy boomerang "
    "galaxy hamster pyramid telescope umbrella xylophone yodel zucchini flamingo glacier hieroglyph "
    "marzipan narwhal obelisk pelican quicksand rhubarb sombrero tarantula unicorn vortex wombat"
).split()
