"""Work meetings and journal days: the two series whose members differ in subject, not only in dates.

Each meeting has a subject, points, a decision, paraphrases and a purpose sentence; each journal
event a sentence, a detail, a mood and paraphrases. The pools are about three times what one person
uses, so two seeds share few of them.
"""

from __future__ import annotations

# meeting subject, discussion points, decision, paraphrases
MEETINGS = (
    (
        "Hiring plan", ("two open positions for the team", "interview panel rota", "job advert wording"),
        "post both adverts by Friday", ("recruiting new staff",),
    ),
    (
        "Budget review", ("overspend on contractors", "software licences", "travel costs for the autumn"),
        "freeze discretionary spending until January", ("money allocation for the coming year",),
    ),
    (
        "Office move", ("new floor plan on the third storey", "packing crates", "desk assignments"),
        "the removal firm comes on the 14th", ("relocating to different premises", "changing buildings"),
    ),
    (
        "Security incident", ("phishing email that reached twenty inboxes", "password resets", "audit log"),
        "everyone enables two-factor sign-in", ("hacked accounts and scam mail",),
    ),
    (
        "Product launch", ("launch date", "press release", "pricing page", "beta feedback"),
        "launch slips one week to fix the checkout bug",
        ("unveiling our latest software to the public", "releasing the new offering to market"),
    ),
    (
        "Quarterly planning", ("objectives for the quarter", "capacity", "dependencies on the platform team"),
        "three objectives, not five", ("setting goals for the coming months",),
    ),
    (
        "Customer complaints", ("late deliveries", "refund backlog", "tone of support replies"),
        "a weekly review of the ten worst tickets", ("unhappy buyers",),
    ),
    (
        "Team offsite", ("venue options near the coast", "agenda", "dietary requirements"),
        "book the lodge for the second weekend of May", ("company retreat", "away day for colleagues"),
    ),
    (
        "Performance reviews", ("self-assessment forms", "calibration session", "promotion cases"),
        "managers submit ratings by the 30th", ("annual staff appraisal",),
    ),
    (
        "Data migration",
        ("moving the warehouse tables to the new cluster", "downtime window", "rollback plan"),
        "cut over on Sunday night",
        ("transferring records between systems", "porting our records onto fresh infrastructure"),
    ),
    (
        "Onboarding", ("first-week checklist", "buddy system", "laptop provisioning"),
        "every newcomer gets a buddy for a month", ("welcoming recent joiners",),
    ),
    (
        "Accessibility audit", ("screen reader testing", "colour contrast", "keyboard navigation"),
        "fix the twelve blocking issues before release", ("making the website usable for the blind",),
    ),
    (
        "Vendor selection",
        ("three quotes for the cleaning contract", "references", "price per square metre"),
        "go with the cheapest quote that passed references", ("choosing a supplier",),
    ),
    (
        "Sustainability", ("energy use of the servers", "cycle-to-work scheme", "recycling bins"),
        "switch to a renewable tariff", ("green initiatives and carbon footprint",),
    ),
    (
        "Holiday rota", ("cover over Christmas", "who is away in August", "on-call swaps"),
        "publish the rota on the shared calendar", ("who takes leave when",),
    ),
    (
        "Pricing strategy", ("discount tiers", "competitor prices", "annual versus monthly plans"),
        "raise the entry tier by two euros",
        ("deciding what our subscription should cost", "how much to charge customers"),
    ),
    (
        "Incident retrospective", ("the outage on Tuesday", "timeline of the failure", "alerting gaps"),
        "add an alert on queue depth",
        (
            "post-mortem of the service crash", "review after the site went down",
            "analysis of why production broke",
        ),
    ),
    (
        "Training budget", ("conference tickets", "online courses", "mentoring"),
        "each person may spend up to 800 on courses", ("learning and development funds",),
    ),
    (
        "Website redesign", ("new homepage layout", "navigation menu", "brand colours"),
        "ship the homepage first", ("modernising the company's online image",),
    ),
    (
        "Expense policy", ("taxi receipts", "meal allowance", "approval limits"),
        "claims over 200 need a director's sign-off", ("rules for reimbursing staff costs",),
    ),
    (
        "Remote work", ("office days per week", "home equipment", "core hours"),
        "two office days a week from March", ("flexible location arrangements",),
    ),
    (
        "Customer survey results", ("response rate", "net promoter score", "top requests"),
        "publish a summary to everyone", ("what clients told us when we polled them",),
    ),
    (
        "Mentoring programme", ("pairing juniors with seniors", "monthly check-ins", "goals"),
        "launch with eight pairs", ("coaching scheme for less experienced colleagues",),
    ),
    (
        "Server costs", ("cloud bill up 30 percent", "idle machines", "reserved instances"),
        "switch off idle machines nightly", ("cutting our hosting spend",),
    ),
    (
        "Christmas party", ("venue", "secret Santa", "budget per head"),
        "book the Italian restaurant for the 19th", ("festive staff do in December",),
    ),
    (
        "Health and safety", ("fire drill", "first aiders", "trip hazards in the corridor"),
        "quarterly fire drills",
        ("workplace injury prevention", "avoiding accidents and injuries at the office"),
    ),
    (
        "GDPR review", ("data retention", "consent forms", "subject access requests"),
        "delete records older than six years", ("privacy law compliance",),
    ),
    (
        "Supplier delays", ("late shipments from the warehouse", "backorders", "alternative suppliers"),
        "find a second supplier by April", ("vendors running behind schedule",),
    ),
    (
        "Intern programme", ("summer interns", "projects for them", "supervisors"),
        "take three interns in June", ("students joining us for a placement",),
    ),
    (
        "Annual conference", ("booth design", "speakers", "travel for the team"),
        "submit two talks by the deadline", ("trade show preparation",),
    ),
    (
        "Tool licences", ("seats we pay for but never use", "renewal dates", "single sign-on"),
        "cancel forty unused seats", ("software subscriptions we waste money on",),
    ),
    (
        "Knowledge base", ("outdated articles", "search", "owners per page"), "every page gets an owner",
        ("internal documentation wiki", "internal wiki upkeep"),
    ),
    (
        "Recruitment agency", ("agency fees", "candidate quality", "exclusive contract"),
        "drop the agency after this quarter", ("headhunter firm we use for hiring",),
    ),
    (
        "Wellbeing week", ("yoga sessions", "mental health talk", "healthy lunches"),
        "run it in the first week of October", ("activities to help colleagues feel better",),
    ),
)

# why each meeting was held: notes name their subject, as real ones do
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
    "Pricing strategy": "settle the price list for next year's plans",
    "Incident retrospective": "learn from Tuesday's outage without blame",
    "Training budget": "share out the money for courses and conferences",
    "Website redesign": "agree the new look of the site",
    "Expense policy": "tighten how people claim back what they spend",
    "Remote work": "settle how many days people come in",
    "Customer survey results": "go through what customers said in the spring survey",
    "Mentoring programme": "pair people who have been here for years with newer ones",
    "Server costs": "find out why the cloud bill jumped",
    "Christmas party": "organise the end-of-year celebration",
    "Health and safety": "check we meet the rules on fire and first aid",
    "GDPR review": "make sure personal data is handled by the book",
    "Supplier delays": "deal with parts arriving weeks overdue",
    "Intern programme": "plan who hosts the trainees from the university",
    "Annual conference": "plan our stand at the industry event in Berlin",
    "Tool licences": "clean up the apps and seats we pay for",
    "Knowledge base": "fix the help pages nobody can find anything in",
    "Recruitment agency": "decide whether the agency is worth its fee",
    "Wellbeing week": "plan a week of sessions on looking after ourselves",
}

# journal event, its detail, mood, paraphrases
EVENTS = (
    (
        "my sister {sib} came over and we cooked dinner together",
        "She brought photos of the kids and we stayed up talking about mum and dad.", "happy",
        ("family visit", "relatives staying over"),
    ),
    (
        "the boiler broke and the plumber could not come until Thursday",
        "Cold showers and two jumpers indoors; the radiators stayed icy all evening.", "annoyed",
        ("heating failure at home",),
    ),
    (
        "I ran ten kilometres without stopping for the first time",
        "Legs like jelly at the end, but the pace held and my lungs did not give up.", "proud",
        ("jogging milestone",),
    ),
    (
        "{pet} knocked a glass off the table at three in the morning",
        "Shards everywhere, paws fine, and I could not get back to sleep until dawn.", "tired",
        ("animal woke me up at night",),
    ),
    (
        "got the keys to the allotment plot and planted garlic",
        "The soil is heavy clay; next weekend: potatoes, beans and a compost bin.", "hopeful",
        ("starting a vegetable garden",),
    ),
    (
        "a long phone call with my grandmother about her childhood",
        "She told me about the farm, the war years and the dance where she met grandad.", "tender",
        ("talking to an elderly relative",),
    ),
    (
        "the project deadline moved again and I stayed late",
        "Ate crisps at my desk at nine in the evening, the cleaners were vacuuming around me.", "stressed",
        ("long hours at work for a due date", "overtime at the office"),
    ),
    (
        "finished reading a novel that made me cry on the tram",
        "The last chapter, where the father finally writes back, wrecked me completely.", "moved",
        ("story that brought me to tears", "sad fiction"),
    ),
    (
        "first swim in the sea this year, the water was freezing",
        "Numb toes after five minutes, then a hot tea from the flask on the shingle beach.", "alive",
        ("cold ocean dip",),
    ),
    (
        "argued with {friend} about money and felt bad afterwards",
        "I said things I did not mean about the loan; must call tomorrow and apologise.", "sad",
        ("quarrel with someone close", "falling out with a mate"),
    ),
    (
        "snow all day, stayed in and did a jigsaw puzzle",
        "A thousand pieces of a harbour scene, soup on the stove, the street silent and white.", "cosy",
        ("wintry lazy afternoon",),
    ),
    (
        "interview for the new role went better than expected",
        "The panel laughed at my joke and asked when I could start; fingers crossed.", "excited",
        ("hopeful after meeting a potential employer", "promising audition for a job opening"),
    ),
    (
        "could not sleep, worried about the rent increase",
        "Did sums on my phone at 2am; if it goes up again I will have to move somewhere cheaper.", "anxious",
        ("insomnia over housing costs",),
    ),
    (
        "volunteered at the food bank sorting tins",
        "Three hours of beans, tomatoes and pasta into crates for families who need them.", "grateful",
        ("unpaid shift feeding the hungry", "charity work"),
    ),
    (
        "fixed the puncture on my bike by myself",
        "Found the thorn, patched the inner tube and pumped it up; felt very competent.", "pleased",
        ("repairing a flat tyre",),
    ),
    (
        "concert in the park with {friend}, the band played until midnight",
        "We danced on the grass under the lights with a crowd of strangers singing along.", "joyful",
        ("evening at an outdoor gig", "live music outdoors"),
    ),
    (
        "the dentist said I need a filling",
        "A cavity on the lower left molar; the appointment is in two weeks and I dread the drill.", "gloomy",
        ("tooth trouble",),
    ),
    (
        "baked bread for the first time and it actually rose",
        "Crusty outside, soft inside, and the whole flat smelled like a bakery.", "proud",
        ("homemade loaf success",),
    ),
    (
        "a migraine kept me in a dark room most of the day",
        "Flashing zigzags first, then the pounding behind my eye; painkillers barely touched it.", "drained",
        ("bad headache",),
    ),
    (
        "spring cleaning, three bags went to the charity shop",
        "Old jumpers, unread books and a bread maker I never used; the wardrobe finally closes.", "light",
        ("getting rid of stuff I no longer need", "decluttering"),
    ),
    (
        "my best friend {friend} announced she is pregnant",
        "Due in the autumn; she asked me to be godmother and I cried into my coffee.", "overjoyed",
        ("expecting a baby",),
    ),
    (
        "the car failed its inspection because of the brakes",
        "The garage says new discs and pads, and the retest is next Friday.", "frustrated",
        ("vehicle did not pass the test",),
    ),
    (
        "a colleague left the company and we had farewell drinks",
        "Speeches, a card signed by everyone, and promises to stay in touch.", "wistful",
        ("goodbye party for a coworker",),
    ),
    (
        "hiked up the hill behind town and watched the sunrise",
        "Frost on the heather, a thermos of coffee, and the valley turning pink below.", "peaceful",
        ("dawn walk in nature",),
    ),
    (
        "my laptop died and I lost a week of photos",
        "The disk clicks and will not boot; no backup since last month, lesson learned.", "furious",
        ("computer crash and missing files",),
    ),
    (
        "went to the cinema alone and loved it",
        "Front row, a big bag of popcorn and nobody to talk to during the credits.", "content",
        ("solo film outing",),
    ),
    (
        "my nephew turned six, chaos and cake at the party",
        "Twelve children, a bouncy castle and chocolate icing on every wall.", "happy",
        ("little boy's birthday celebration",),
    ),
    (
        "paid off the last of the credit card debt",
        "Two years of careful budgeting; the balance finally reads zero.", "relieved",
        ("free of what I owed at last", "no longer owing the lender anything"),
    ),
    (
        "the neighbours' party went on until four and the walls shook",
        "Earplugs useless; I lay awake counting the bass notes through the ceiling.", "grumpy",
        ("noisy people next door",),
    ),
    (
        "passed my driving theory test on the first try",
        "Forty-eight out of fifty; the hazard perception clips were the hard part.", "proud",
        ("exam for my licence",),
    ),
    (
        "flooded bathroom after the washing machine hose split",
        "Towels everywhere and the downstairs neighbour knocking about the stain.", "stressed",
        ("water leak disaster at home",),
    ),
    (
        "my grandfather's funeral, the whole village came",
        "We sang his favourite hymn and shared stories over sandwiches afterwards.", "heartbroken",
        ("saying goodbye to a relative who died",),
    ),
    (
        "got a promotion at work after two years of waiting",
        "New title, a raise, and my manager said it was overdue.", "thrilled",
        ("advancement at my job", "moving up the career ladder"),
    ),
    (
        "sprained my ankle on the stairs at the station",
        "Hobbled home, ice and a bag of peas, foot up on the sofa all evening.", "sore",
        ("twisted joint after a fall",),
    ),
    (
        "learned to make fresh pasta with {sib}",
        "Flour all over the kitchen, but the tagliatelle was silky and worth it.", "happy",
        ("homemade noodles with my sibling", "Italian cooking lesson with family"),
    ),
    (
        "stayed up to watch the meteor shower from the roof",
        "Counted twenty-three shooting stars before the clouds rolled in.", "amazed",
        ("gazing at the night sky",),
    ),
    (
        "first evening at the new pottery class",
        "My bowl collapsed twice on the wheel; the teacher says that is normal.", "amused",
        ("learning to throw clay", "ceramics beginner session"),
    ),
    (
        "power cut across the whole street for six hours",
        "Candles, a board game and a cold dinner of bread and cheese.", "cosy",
        ("blackout on our road", "electricity outage in the neighbourhood"),
    ),
    (
        "{pet} had surgery and came home with a cone",
        "Groggy and sulking, but the vet says the lump was harmless.", "relieved",
        ("my animal had an operation",),
    ),
    (
        "lost my wallet on the bus and someone handed it in",
        "Every card still there, and a note saying have a nice day.", "grateful", ("kindness of a stranger",),
    ),
    (
        "tried rock climbing indoors for the first time",
        "Made it halfway up the easy wall before my forearms gave up.", "exhilarated",
        ("bouldering beginner",),
    ),
    (
        "moved the furniture around and the living room feels new",
        "Sofa under the window, desk by the bookshelf, and finally space to stretch.", "fresh",
        ("rearranging my lounge",),
    ),
    (
        "a surprise visit from my old university friend",
        "We had not seen each other in eight years and talked until the pub closed.", "nostalgic",
        ("reunion with a classmate",),
    ),
    (
        "started learning to juggle in the park",
        "Three balls, eleven catches in a row, and the kids watching clapped.", "silly",
        ("circus skill practice",),
    ),
)
