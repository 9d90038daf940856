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
# city, country, paraphrase region (never written in the notes), sights, dishes, transport
DESTINATIONS = (
    (
        "Seoul",
        "Korea",
        "Asia",
        ("Gyeongbokgung palace", "Bukchon hanok village", "Namsan tower"),
        ("bibimbap", "tteokbokki", "Korean barbecue"),
        "the subway",
    ),
    (
        "Kyoto",
        "Japan",
        "Asia",
        ("Fushimi Inari shrine", "the Arashiyama bamboo grove", "Kinkaku-ji"),
        ("kaiseki", "matcha sweets", "yudofu"),
        "the city buses",
    ),
    (
        "Hanoi",
        "Vietnam",
        "Asia",
        ("Hoan Kiem lake", "the Temple of Literature", "the Old Quarter"),
        ("pho", "bun cha", "egg coffee"),
        "motorbike taxis",
    ),
    (
        "Lisbon",
        "Portugal",
        "Europe",
        ("the Alfama district", "Belem tower", "the Jeronimos monastery"),
        ("pasteis de nata", "grilled sardines", "bacalhau"),
        "tram 28",
    ),
    (
        "Reykjavik",
        "Iceland",
        "the far north",
        ("the Golden Circle", "Hallgrimskirkja", "the Blue Lagoon"),
        ("lamb soup", "skyr", "rye bread ice cream"),
        "a rented jeep",
    ),
    (
        "Marrakesh",
        "Morocco",
        "Africa",
        ("the Jemaa el-Fnaa square", "the Majorelle garden", "the souks"),
        ("tagine", "couscous", "mint tea"),
        "petit taxis",
    ),
    (
        "Oaxaca",
        "Mexico",
        "Latin America",
        ("Monte Alban", "the Tule tree", "Hierve el Agua"),
        ("mole negro", "tlayudas", "chapulines"),
        "colectivos",
    ),
    (
        "Cusco",
        "Peru",
        "South America",
        ("Machu Picchu", "the Sacred Valley", "Sacsayhuaman"),
        ("ceviche", "lomo saltado", "coca tea"),
        "the Inca Rail train",
    ),
    (
        "Cape Town",
        "South Africa",
        "Africa",
        ("Table Mountain", "Boulders Beach", "the Cape of Good Hope"),
        ("bobotie", "braai", "malva pudding"),
        "a hired car",
    ),
    (
        "Hobart",
        "Tasmania",
        "Australia",
        ("MONA", "Mount Wellington", "Salamanca market"),
        ("scallop pies", "oysters", "leatherwood honey"),
        "a campervan",
    ),
    (
        "Istanbul",
        "Turkey",
        "Europe",
        ("the Hagia Sophia", "the Grand Bazaar", "the Bosphorus ferry"),
        ("simit", "lahmacun", "baklava"),
        "the ferries",
    ),
    (
        "Quebec City",
        "Canada",
        "North America",
        ("the Chateau Frontenac", "Montmorency Falls", "Petit-Champlain"),
        ("poutine", "tourtiere", "maple taffy"),
        "the funicular",
    ),
)
# dish, kind, ingredients, method words, paraphrases (no word from the recipe text)
RECIPES = (
    (
        "Banana bread",
        "bake",
        ("ripe bananas", "flour", "brown sugar", "butter", "eggs", "walnuts"),
        ("sweet loaf made from overripe yellow fruit",),
    ),
    (
        "Shakshuka",
        "stovetop",
        ("eggs", "tomatoes", "red peppers", "onion", "cumin", "paprika"),
        ("poached yolks in spiced sauce for brunch",),
    ),
    (
        "Mushroom risotto",
        "stovetop",
        ("arborio rice", "mushrooms", "parmesan", "white wine", "stock", "shallots"),
        ("creamy Italian grain dish with fungi",),
    ),
    (
        "Chicken tikka masala",
        "stovetop",
        ("chicken thighs", "yoghurt", "garam masala", "tomatoes", "cream", "ginger"),
        ("Indian curry with poultry",),
    ),
    (
        "Lentil soup",
        "stovetop",
        ("red lentils", "carrots", "celery", "cumin", "lemon", "vegetable stock"),
        ("warming pulse broth for winter",),
    ),
    (
        "Pad thai",
        "wok",
        ("rice noodles", "tamarind", "fish sauce", "prawns", "peanuts", "bean sprouts"),
        ("Bangkok street food stir fry",),
    ),
    (
        "Apple crumble",
        "bake",
        ("apples", "oats", "butter", "flour", "cinnamon", "demerara sugar"),
        ("orchard fruit pudding with a crunchy topping",),
    ),
    (
        "Guacamole",
        "no-cook",
        ("avocados", "lime", "coriander", "red onion", "chilli", "salt"),
        ("Mexican dip of mashed green fruit",),
    ),
    (
        "Beef stew",
        "slow",
        ("beef chuck", "carrots", "potatoes", "red wine", "thyme", "bay leaves"),
        ("hearty braise of cattle meat and roots",),
    ),
    (
        "Pancakes",
        "griddle",
        ("flour", "milk", "eggs", "baking powder", "maple syrup", "butter"),
        ("fluffy breakfast flapjacks",),
    ),
    (
        "Gazpacho",
        "no-cook",
        ("tomatoes", "cucumber", "green pepper", "garlic", "olive oil", "sherry vinegar"),
        ("chilled Spanish summer soup",),
    ),
    (
        "Focaccia",
        "bake",
        ("strong flour", "yeast", "olive oil", "rosemary", "sea salt", "water"),
        ("Italian flat bread with herbs",),
    ),
    (
        "Miso ramen",
        "stovetop",
        ("ramen noodles", "miso paste", "pork belly", "soft eggs", "spring onions", "nori"),
        ("Japanese noodle bowl in fermented soybean broth",),
    ),
    (
        "Falafel",
        "fry",
        ("chickpeas", "parsley", "garlic", "cumin", "coriander seed", "tahini"),
        ("fried chickpea balls from the Middle East",),
    ),
    (
        "Carrot cake",
        "bake",
        ("carrots", "self-raising flour", "cream cheese", "sultanas", "cinnamon", "eggs"),
        ("spiced sponge made with root vegetables",),
    ),
    (
        "Chili con carne",
        "slow",
        ("minced beef", "kidney beans", "chipotle", "tomatoes", "onion", "cumin"),
        ("spicy Tex-Mex bean and meat pot",),
    ),
    (
        "Greek salad",
        "no-cook",
        ("feta", "cucumber", "tomatoes", "kalamata olives", "red onion", "oregano"),
        ("Mediterranean plate of raw vegetables and sheep cheese",),
    ),
    (
        "Butternut squash soup",
        "stovetop",
        ("butternut squash", "onion", "nutmeg", "vegetable stock", "cream", "sage"),
        ("velvety autumn gourd puree",),
    ),
    (
        "Tiramisu",
        "no-cook",
        ("mascarpone", "espresso", "ladyfingers", "cocoa", "eggs", "marsala"),
        ("Italian coffee dessert",),
    ),
    (
        "Fish tacos",
        "fry",
        ("white fish", "corn tortillas", "cabbage", "lime", "chipotle mayo", "coriander"),
        ("Baja seafood wraps",),
    ),
    (
        "Dal makhani",
        "slow",
        ("black lentils", "kidney beans", "butter", "cream", "garam masala", "ginger"),
        ("rich Punjabi pulse curry",),
    ),
    (
        "Scones",
        "bake",
        ("self-raising flour", "butter", "milk", "sugar", "clotted cream", "jam"),
        ("British afternoon tea bakes",),
    ),
)
# meeting subject, three discussion points, decisions, paraphrases
MEETINGS = (
    (
        "Hiring plan",
        ("two open positions for the team", "interview panel rota", "job advert wording"),
        "post both adverts by Friday",
        ("recruiting new staff",),
    ),
    (
        "Budget review",
        ("overspend on contractors", "software licences", "travel costs for the autumn"),
        "freeze discretionary spending until January",
        ("money allocation for next year",),
    ),
    (
        "Office move",
        ("new floor plan on the third storey", "packing crates", "desk assignments"),
        "the removal firm comes on the 14th",
        ("relocating our workplace",),
    ),
    (
        "Security incident",
        ("phishing email that reached twenty inboxes", "password resets", "audit log"),
        "everyone enables two-factor sign-in",
        ("hacked accounts and scam mail",),
    ),
    (
        "Product launch",
        ("launch date", "press release", "pricing page", "beta feedback"),
        "launch slips one week to fix the checkout bug",
        ("releasing the new offering to market",),
    ),
    (
        "Quarterly planning",
        ("objectives for the quarter", "capacity", "dependencies on the platform team"),
        "three objectives, not five",
        ("setting goals for the coming months",),
    ),
    (
        "Customer complaints",
        ("late deliveries", "refund backlog", "tone of support replies"),
        "a weekly review of the ten worst tickets",
        ("unhappy buyers",),
    ),
    (
        "Team offsite",
        ("venue options near the coast", "agenda", "dietary requirements"),
        "book the lodge for the second weekend of May",
        ("away day for colleagues",),
    ),
    (
        "Performance reviews",
        ("self-assessment forms", "calibration session", "promotion cases"),
        "managers submit ratings by the 30th",
        ("annual staff appraisal",),
    ),
    (
        "Data migration",
        ("moving the warehouse tables to the new cluster", "downtime window", "rollback plan"),
        "cut over on Sunday night",
        ("transferring records between systems",),
    ),
    (
        "Onboarding",
        ("first-week checklist", "buddy system", "laptop provisioning"),
        "every newcomer gets a buddy for a month",
        ("welcoming recent joiners",),
    ),
    (
        "Accessibility audit",
        ("screen reader testing", "colour contrast", "keyboard navigation"),
        "fix the twelve blocking issues before release",
        ("making the website usable for disabled people",),
    ),
    (
        "Vendor selection",
        ("three quotes for the cleaning contract", "references", "price per square metre"),
        "go with the cheapest quote that passed references",
        ("choosing a supplier",),
    ),
    (
        "Sustainability",
        ("energy use of the servers", "cycle-to-work scheme", "recycling bins"),
        "switch to a renewable tariff",
        ("green initiatives and carbon footprint",),
    ),
    (
        "Holiday rota",
        ("cover over Christmas", "who is away in August", "on-call swaps"),
        "publish the rota on the shared calendar",
        ("who takes leave when",),
    ),
    (
        "Pricing strategy",
        ("discount tiers", "competitor prices", "annual versus monthly plans"),
        "raise the entry tier by two euros",
        ("how much to charge",),
    ),
    (
        "Incident retrospective",
        ("the outage on Tuesday", "timeline of the failure", "alerting gaps"),
        "add an alert on queue depth",
        ("post-mortem of the service crash",),
    ),
    (
        "Training budget",
        ("conference tickets", "online courses", "mentoring"),
        "each person may spend up to 800 on courses",
        ("learning and development funds",),
    ),
)
# journal event, mood, paraphrases (journal days are a series of one template)
EVENTS = (
    ("my sister {sib} came over and we cooked dinner together", "happy", ("family visit",)),
    (
        "the boiler broke and the plumber could not come until Thursday",
        "annoyed",
        ("heating failure at home",),
    ),
    ("I ran ten kilometres without stopping for the first time", "proud", ("jogging milestone",)),
    ("{pet} knocked a glass off the table at three in the morning", "tired", ("animal woke me up at night",)),
    ("got the keys to the allotment plot and planted garlic", "hopeful", ("starting a vegetable garden",)),
    (
        "a long phone call with my grandmother about her childhood",
        "tender",
        ("talking to an elderly relative",),
    ),
    ("the project deadline moved again and I stayed late", "stressed", ("overtime at the office",)),
    ("finished reading a novel that made me cry on the tram", "moved", ("emotional book",)),
    ("first swim in the sea this year, the water was freezing", "alive", ("cold ocean dip",)),
    ("argued with {friend} about money and felt bad afterwards", "sad", ("falling out with a mate",)),
    ("snow all day, stayed in and did a jigsaw puzzle", "cosy", ("wintry lazy afternoon",)),
    ("interview for the new role went better than expected", "excited", ("job application going well",)),
    ("could not sleep, worried about the rent increase", "anxious", ("insomnia over housing costs",)),
    ("volunteered at the food bank sorting tins", "grateful", ("charity work",)),
    ("fixed the puncture on my bike by myself", "pleased", ("repairing a flat tyre",)),
    ("concert in the park with {friend}, the band played until midnight", "joyful", ("live music outdoors",)),
    ("the dentist said I need a filling", "gloomy", ("tooth trouble",)),
    ("baked bread for the first time and it actually rose", "proud", ("homemade loaf success",)),
    ("a migraine kept me in a dark room most of the day", "drained", ("bad headache",)),
    ("spring cleaning, three bags went to the charity shop", "light", ("decluttering",)),
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
