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
# city, country, regions (never written in the notes; the first picks one trip per continent), sights,
# dishes, transport
DESTINATIONS = (
    (
        "Seoul",
        "Korea",
        ("Asia", "the Far East"),
        ("Gyeongbokgung palace", "Bukchon hanok village", "Namsan tower"),
        ("bibimbap", "tteokbokki", "Korean barbecue"),
        "the subway",
    ),
    (
        "Kyoto",
        "Japan",
        ("Asia", "the Far East"),
        ("Fushimi Inari shrine", "the Arashiyama bamboo grove", "Kinkaku-ji"),
        ("kaiseki", "matcha sweets", "yudofu"),
        "the city buses",
    ),
    (
        "Hanoi",
        "Vietnam",
        ("Asia", "Indochina"),
        ("Hoan Kiem lake", "the Temple of Literature", "the Old Quarter"),
        ("pho", "bun cha", "egg coffee"),
        "motorbike taxis",
    ),
    (
        "Lisbon",
        "Portugal",
        ("Europe", "the Iberian peninsula"),
        ("the Alfama district", "Belem tower", "the Jeronimos monastery"),
        ("pasteis de nata", "grilled sardines", "bacalhau"),
        "tram 28",
    ),
    (
        "Reykjavik",
        "Iceland",
        ("Europe", "the far north"),
        ("the Golden Circle", "Hallgrimskirkja", "the Blue Lagoon"),
        ("lamb soup", "skyr", "rye bread ice cream"),
        "a rented jeep",
    ),
    (
        "Marrakesh",
        "Morocco",
        ("Africa", "the Maghreb"),
        ("the Jemaa el-Fnaa square", "the Majorelle garden", "the souks"),
        ("tagine", "couscous", "mint tea"),
        "petit taxis",
    ),
    (
        "Oaxaca",
        "Mexico",
        ("Latin America", "Central America"),
        ("Monte Alban", "the Tule tree", "Hierve el Agua"),
        ("mole negro", "tlayudas", "chapulines"),
        "colectivos",
    ),
    (
        "Cusco",
        "Peru",
        ("South America", "the Andes"),
        ("Machu Picchu", "the Sacred Valley", "Sacsayhuaman"),
        ("ceviche", "lomo saltado", "coca tea"),
        "the Inca Rail train",
    ),
    (
        "Cape Town",
        "South Africa",
        ("Africa", "the Rainbow Nation"),
        ("Table Mountain", "Boulders Beach", "the Cape of Good Hope"),
        ("bobotie", "braai", "malva pudding"),
        "a hired car",
    ),
    (
        "Hobart",
        "Tasmania",
        ("Australia", "Oceania"),
        ("MONA", "Mount Wellington", "Salamanca market"),
        ("scallop pies", "oysters", "leatherwood honey"),
        "a campervan",
    ),
    (
        "Istanbul",
        "Turkey",
        ("Europe", "Anatolia"),
        ("the Hagia Sophia", "the Grand Bazaar", "the Bosphorus ferry"),
        ("simit", "lahmacun", "baklava"),
        "the ferries",
    ),
    (
        "Quebec City",
        "Canada",
        ("North America", "the New World"),
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
        ("sweet loaf from overripe yellow produce",),
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
        ("Italian grain dish with fungi",),
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
        ("comforting pulse broth for winter",),
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
        ("orchard fruit pudding with a crunchy crust",),
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
        ("cold Spanish soup for hot weather", "cold Andalusian summer starter"),
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
        ("Japanese bowl in fermented soybean broth",),
    ),
    (
        "Falafel",
        "fry",
        ("chickpeas", "parsley", "garlic", "cumin", "coriander seed", "tahini"),
        ("fried bean fritters from the Levant",),
    ),
    (
        "Carrot cake",
        "bake",
        ("carrots", "self-raising flour", "cream cheese", "sultanas", "cinnamon", "eggs"),
        ("spiced sponge with orange root vegetables and icing", "spiced sponge made with root vegetables"),
    ),
    (
        "Chili con carne",
        "slow",
        ("minced beef", "kidney beans", "chipotle", "tomatoes", "onion", "cumin"),
        ("spicy Tex-Mex stew",),
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
        ("velvety gourd soup for chilly evenings", "velvety autumn gourd puree"),
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
        ("British afternoon tea treats",),
    ),
)
# what each dish is, in a sentence: a recipe's topic should be clear from its text, as in a real one
BLURBS = {
    "Banana bread": "Rescues the blackened bananas in the fruit bowl; moist, dense and good toasted.",
    "Shakshuka": "Eggs cooked in a pan of peppers and tomatoes with cumin, eaten with bread.",
    "Mushroom risotto": "Arborio rice stirred slowly with stock until it turns creamy, finished "
    "with parmesan.",
    "Chicken tikka masala": "Marinated chicken thighs in a mild tomato and cream gravy, with rice or naan.",
    "Lentil soup": "A thick, golden soup of red lentils and vegetables, cheap and filling.",
    "Pad thai": "Rice noodles with prawns, tamarind, peanuts and lime, the classic from Thailand.",
    "Apple crumble": "Soft baked apples under a buttery oat topping, with custard or ice cream.",
    "Guacamole": "Ripe avocados crushed with lime, chilli and coriander, for tortilla chips.",
    "Beef stew": "Chunks of beef cooked for hours with potatoes, carrots and red wine.",
    "Pancakes": "Thick American-style stacks with syrup on a Sunday morning.",
    "Gazpacho": "Raw tomatoes, cucumber and peppers blended smooth and served icy.",
    "Focaccia": "A dimpled, olive-oil-rich dough topped with rosemary and flakes of salt.",
    "Miso ramen": "Ramen in a rich miso base with sliced pork belly, a soft egg and seaweed.",
    "Falafel": "Crisp balls of ground chickpeas and herbs, stuffed into pitta with tahini.",
    "Carrot cake": "Grated carrot and sultanas in a cinnamon cake under cream cheese frosting.",
    "Chili con carne": "Minced beef and kidney beans with chipotle and tomatoes, smoky and hot.",
    "Greek salad": "Tomatoes, cucumber, olives and a slab of feta, dressed with oregano and oil.",
    "Butternut squash soup": "A smooth orange bowlful of roasted squash with sage.",
    "Tiramisu": "Layers of espresso-soaked ladyfingers and mascarpone cream, dusted with cocoa.",
    "Fish tacos": "Crisp white fish in warm corn tortillas with crunchy slaw and lime.",
    "Dal makhani": "Black lentils simmered overnight with butter and cream until silky.",
    "Scones": "Split warm and filled with clotted cream and jam.",
}
# why each meeting was held, in a sentence: notes name their subject, as real ones do
PURPOSES = {
    "Hiring plan": "agree how we fill the vacancies before the busy season",
    "Budget review": "check spending against the budget and decide where to cut",
    "Office move": "prepare the switch to the bigger site across town",
    "Security incident": "understand how the phishing attack happened and stop a repeat",
    "Product launch": "agree the go-live of version two of our app and its announcement",
    "Quarterly planning": "choose what the team commits to until the end of the year",
    "Customer complaints": "look at why satisfaction scores fell and what support does about it",
    "Team offsite": "organise two days out of the office together to bond and think big",
    "Performance reviews": "run the yearly round of reviews fairly",
    "Data migration": "schedule the switch from the old database to the new cluster",
    "Onboarding": "make the first weeks of newcomers smoother",
    "Accessibility audit": "fix what stops people with impairments using the site",
    "Vendor selection": "pick the cleaning contractor for next year",
    "Sustainability": "cut the emissions of the office and the servers",
    "Holiday rota": "make sure someone is always on duty over the summer and Christmas",
    "Pricing strategy": "decide the price list for next year's plans",
    "Incident retrospective": "learn from Tuesday's outage without blame",
    "Training budget": "share out the money for courses and conferences",
}
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
        ("money allocation for the coming year",),
    ),
    (
        "Office move",
        ("new floor plan on the third storey", "packing crates", "desk assignments"),
        "the removal firm comes on the 14th",
        ("relocating to different premises", "changing buildings"),
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
        ("unveiling our latest software to the public", "releasing the new offering to market"),
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
        ("company retreat", "away day for colleagues"),
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
        ("transferring records between systems", "copying stored information to another platform"),
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
        ("making the website usable for the blind",),
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
        ("deciding what our subscription should cost", "how much to charge customers"),
    ),
    (
        "Incident retrospective",
        ("the outage on Tuesday", "timeline of the failure", "alerting gaps"),
        "add an alert on queue depth",
        (
            "post-mortem of the service crash",
            "review after the site went down",
            "analysis of why production broke",
        ),
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
    (
        "my sister {sib} came over and we cooked dinner together",
        "She brought photos of the kids and we stayed up talking about mum and dad.",
        "happy",
        ("family visit", "relatives staying over"),
    ),
    (
        "the boiler broke and the plumber could not come until Thursday",
        "Cold showers and two jumpers indoors; the radiators stayed icy all evening.",
        "annoyed",
        ("heating failure at home",),
    ),
    (
        "I ran ten kilometres without stopping for the first time",
        "Legs like jelly at the end, but the pace held and my lungs did not give up.",
        "proud",
        ("jogging milestone",),
    ),
    (
        "{pet} knocked a glass off the table at three in the morning",
        "Shards everywhere, paws fine, and I could not get back to sleep until dawn.",
        "tired",
        ("animal woke me up at night",),
    ),
    (
        "got the keys to the allotment plot and planted garlic",
        "The soil is heavy clay; next weekend: potatoes, beans and a compost bin.",
        "hopeful",
        ("starting a vegetable garden",),
    ),
    (
        "a long phone call with my grandmother about her childhood",
        "She told me about the farm, the war years and the dance where she met grandad.",
        "tender",
        ("talking to an elderly relative",),
    ),
    (
        "the project deadline moved again and I stayed late",
        "Ate crisps at my desk at nine in the evening, the cleaners were vacuuming around me.",
        "stressed",
        ("working late on a rush job", "overtime at the office"),
    ),
    (
        "finished reading a novel that made me cry on the tram",
        "The last chapter, where the father finally writes back, wrecked me completely.",
        "moved",
        ("story that brought me to tears", "sad fiction"),
    ),
    (
        "first swim in the sea this year, the water was freezing",
        "Numb toes after five minutes, then a hot tea from the flask on the shingle beach.",
        "alive",
        ("cold ocean dip",),
    ),
    (
        "argued with {friend} about money and felt bad afterwards",
        "I said things I did not mean about the loan; must call tomorrow and apologise.",
        "sad",
        ("quarrel with someone close", "falling out with a mate"),
    ),
    (
        "snow all day, stayed in and did a jigsaw puzzle",
        "A thousand pieces of a harbour scene, soup on the stove, the street silent and white.",
        "cosy",
        ("wintry lazy afternoon",),
    ),
    (
        "interview for the new role went better than expected",
        "The panel laughed at my joke and asked when I could start; fingers crossed.",
        "excited",
        ("promising audition for a job opening",),
    ),
    (
        "could not sleep, worried about the rent increase",
        "Did sums on my phone at 2am; if it goes up again I will have to move somewhere cheaper.",
        "anxious",
        ("insomnia over housing costs",),
    ),
    (
        "volunteered at the food bank sorting tins",
        "Three hours of beans, tomatoes and pasta into crates for families who need them.",
        "grateful",
        ("unpaid shift feeding the hungry", "charity work"),
    ),
    (
        "fixed the puncture on my bike by myself",
        "Found the thorn, patched the inner tube and pumped it up; felt very competent.",
        "pleased",
        ("repairing a flat tyre",),
    ),
    (
        "concert in the park with {friend}, the band played until midnight",
        "We danced on the grass under the lights with a crowd of strangers singing along.",
        "joyful",
        ("open-air gig", "live music outdoors"),
    ),
    (
        "the dentist said I need a filling",
        "A cavity on the lower left molar; the appointment is in two weeks and I dread the drill.",
        "gloomy",
        ("tooth trouble",),
    ),
    (
        "baked bread for the first time and it actually rose",
        "Crusty outside, soft inside, and the whole flat smelled like a bakery.",
        "proud",
        ("homemade loaf success",),
    ),
    (
        "a migraine kept me in a dark room most of the day",
        "Flashing zigzags first, then the pounding behind my eye; painkillers barely touched it.",
        "drained",
        ("bad headache",),
    ),
    (
        "spring cleaning, three bags went to the charity shop",
        "Old jumpers, unread books and a bread maker I never used; the wardrobe finally closes.",
        "light",
        ("getting rid of stuff I no longer need", "decluttering"),
    ),
    (
        "my best friend {friend} announced she is pregnant",
        "Due in the autumn; she asked me to be godmother and I cried into my coffee.",
        "overjoyed",
        ("expecting a baby",),
    ),
    (
        "the car failed its inspection because of the brakes",
        "The garage says new discs and pads, and the retest is next Friday.",
        "frustrated",
        ("vehicle did not pass the test",),
    ),
    (
        "a colleague left the company and we had farewell drinks",
        "Speeches, a card signed by everyone, and promises to stay in touch.",
        "wistful",
        ("goodbye party for a coworker",),
    ),
    (
        "hiked up the hill behind town and watched the sunrise",
        "Frost on the heather, a thermos of coffee, and the valley turning pink below.",
        "peaceful",
        ("dawn walk in nature",),
    ),
    (
        "my laptop died and I lost a week of photos",
        "The disk clicks and will not boot; no backup since last month, lesson learned.",
        "furious",
        ("computer crash and missing files",),
    ),
    (
        "went to the cinema alone and loved it",
        "Front row, a big bag of popcorn and nobody to talk to during the credits.",
        "content",
        ("solo film outing",),
    ),
    (
        "my nephew turned six, chaos and cake at the party",
        "Twelve children, a bouncy castle and chocolate icing on every wall.",
        "happy",
        ("little boy's birthday celebration",),
    ),
    (
        "paid off the last of the credit card debt",
        "Two years of careful budgeting; the balance finally reads zero.",
        "relieved",
        ("free of what I owed at last", "no longer owing the lender anything"),
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
