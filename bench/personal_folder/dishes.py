"""The dishes a person cooks: each recipe with what it is in a sentence, and paraphrases of it.

The paraphrases are written to share no content word with the recipe as written (name, blurb,
ingredients, method); the build checks that and uses the first one that holds.
"""

from __future__ import annotations

# dish, method, ingredients, paraphrases
RECIPES = (
    (
        "Banana bread", "bake", ("ripe bananas", "flour", "brown sugar", "butter", "eggs", "walnuts"),
        ("sweet loaf from overripe yellow produce",),
    ),
    (
        "Shakshuka", "stovetop", ("eggs", "tomatoes", "red peppers", "onion", "cumin", "paprika"),
        ("Maghreb brunch skillet with yolks", "poached yolks in spiced sauce for brunch"),
    ),
    (
        "Mushroom risotto", "stovetop",
        ("arborio rice", "mushrooms", "parmesan", "white wine", "stock", "shallots"),
        ("Italian grain dish with fungi",),
    ),
    (
        "Chicken tikka masala", "stovetop",
        ("chicken thighs", "yoghurt", "garam masala", "tomatoes", "cream", "ginger"),
        ("Indian curry with poultry",),
    ),
    (
        "Lentil soup", "stovetop", ("red lentils", "carrots", "celery", "cumin", "lemon", "vegetable stock"),
        ("comforting pulse broth for winter",),
    ),
    (
        "Pad thai", "wok", ("rice noodles", "tamarind", "fish sauce", "prawns", "peanuts", "bean sprouts"),
        ("Bangkok street food stir fry",),
    ),
    (
        "Apple crumble", "bake", ("apples", "oats", "butter", "flour", "cinnamon", "demerara sugar"),
        ("orchard fruit pudding with a crunchy crust",),
    ),
    (
        "Guacamole", "no-cook", ("avocados", "lime", "coriander", "red onion", "chilli", "salt"),
        ("Mexican dip of mashed green fruit",),
    ),
    (
        "Beef stew", "slow", ("beef chuck", "carrots", "potatoes", "red wine", "thyme", "bay leaves"),
        ("hearty braise of cattle meat and roots",),
    ),
    (
        "Pancakes", "griddle", ("flour", "milk", "eggs", "baking powder", "maple syrup", "butter"),
        ("fluffy breakfast flapjacks",),
    ),
    (
        "Gazpacho", "no-cook",
        ("tomatoes", "cucumber", "green pepper", "garlic", "olive oil", "sherry vinegar"),
        ("cold summer soup from Andalusia", "cold Spanish soup for hot weather"),
    ),
    (
        "Focaccia", "bake", ("strong flour", "yeast", "olive oil", "rosemary", "sea salt", "water"),
        ("Italian flat bread with herbs",),
    ),
    (
        "Miso ramen", "stovetop",
        ("ramen noodles", "miso paste", "pork belly", "soft eggs", "spring onions", "nori"),
        ("Tokyo-style bowl of broth", "Japanese bowl in fermented soybean broth"),
    ),
    (
        "Falafel", "fry", ("chickpeas", "parsley", "garlic", "cumin", "coriander seed", "tahini"),
        ("fried bean fritters from the Levant",),
    ),
    (
        "Carrot cake", "bake",
        ("carrots", "self-raising flour", "cream cheese", "sultanas", "cinnamon", "eggs"),
        ("spiced sponge with orange root vegetables and icing", "spiced sponge made with root vegetables"),
    ),
    (
        "Chili con carne", "slow", ("minced beef", "kidney beans", "chipotle", "tomatoes", "onion", "cumin"),
        ("spicy Tex-Mex stew",),
    ),
    (
        "Greek salad", "no-cook", ("feta", "cucumber", "tomatoes", "kalamata olives", "red onion", "oregano"),
        ("Mediterranean plate of raw vegetables and sheep cheese",),
    ),
    (
        "Butternut squash soup", "stovetop",
        ("butternut squash", "onion", "nutmeg", "vegetable stock", "cream", "sage"),
        ("velvety pumpkin puree", "velvety gourd potage for chilly nights"),
    ),
    (
        "Tiramisu", "no-cook", ("mascarpone", "espresso", "ladyfingers", "cocoa", "eggs", "marsala"),
        ("Italian coffee dessert",),
    ),
    (
        "Fish tacos", "fry",
        ("white fish", "corn tortillas", "cabbage", "lime", "chipotle mayo", "coriander"),
        ("Baja seafood wraps",),
    ),
    (
        "Dal makhani", "slow", ("black lentils", "kidney beans", "butter", "cream", "garam masala", "ginger"),
        ("rich Punjabi pulse curry",),
    ),
    (
        "Scones", "bake", ("self-raising flour", "butter", "milk", "sugar", "clotted cream", "jam"),
        ("British afternoon tea treats",),
    ),
    (
        "Paella", "stovetop",
        ("bomba rice", "saffron", "chicken thighs", "prawns", "green beans", "smoked paprika"),
        ("Spanish seafood skillet", "Valencian seafood feast", "Spanish golden grain feast with shellfish"),
    ),
    (
        "Moussaka", "bake", ("aubergines", "lamb mince", "tomatoes", "cinnamon", "bechamel", "parmesan"),
        ("Greek eggplant casserole",),
    ),
    (
        "Pho bo", "slow", ("beef bones", "rice noodles", "star anise", "ginger", "fish sauce", "Thai basil"),
        ("Vietnamese soup with spices",),
    ),
    (
        "Bibimbap", "stovetop",
        ("short-grain rice", "spinach", "carrots", "gochujang", "fried egg", "sesame oil"),
        ("Korean dish with hot pepper sauce",),
    ),
    (
        "Lemon drizzle cake", "bake",
        ("self-raising flour", "caster sugar", "butter", "eggs", "lemons", "icing sugar"),
        ("zesty citrus teatime loaf", "tangy citrus teatime treat"),
    ),
    (
        "Ratatouille", "slow",
        ("aubergine", "courgettes", "peppers", "tomatoes", "garlic", "herbes de Provence"),
        ("French garden produce casserole from the south",),
    ),
    (
        "Sushi rolls", "no-cook", ("sushi rice", "nori", "cucumber", "avocado", "salmon", "rice vinegar"),
        ("homemade Japanese maki",),
    ),
    (
        "Spanakopita", "bake", ("filo pastry", "spinach", "feta", "dill", "spring onions", "eggs"),
        ("Greek savoury pie with leafy greens",),
    ),
    (
        "Jambalaya", "stovetop",
        ("long-grain rice", "chorizo", "chicken", "celery", "green pepper", "cajun spice"),
        ("Creole one-pot dish from New Orleans",),
    ),
    (
        "Hummus", "no-cook", ("chickpeas", "tahini", "lemon", "garlic", "cumin", "olive oil"),
        ("Middle Eastern bean dip",),
    ),
    (
        "Chocolate brownies", "bake",
        ("dark chocolate", "butter", "caster sugar", "eggs", "plain flour", "cocoa"),
        ("rich gooey dessert bars",),
    ),
    (
        "Thai green curry", "wok",
        ("green curry paste", "coconut milk", "chicken", "aubergine", "lime leaves", "basil"),
        ("Southeast Asian dish with creamy chilli gravy",),
    ),
    (
        "Crepes", "griddle", ("plain flour", "milk", "eggs", "butter", "lemon", "sugar"),
        ("thin French pancakes", "Breton flapjacks"),
    ),
    (
        "Borscht", "slow", ("beetroot", "cabbage", "potatoes", "carrots", "dill", "soured cream"),
        ("Eastern European purple root vegetable potage",),
    ),
)

# what each dish is, in a sentence: a recipe's topic is clear from its text, as in a real one
BLURBS = {
    "Banana bread": "Rescues the blackened bananas in the fruit bowl; moist, dense and good toasted.",
    "Shakshuka": "Eggs cooked in a pan of peppers and tomatoes with cumin, eaten with bread.",
    "Mushroom risotto": (
        "Arborio rice stirred slowly with stock until it turns creamy, finished with parmesan."
    ),
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
    "Scones": "Split warm and filled with clotted cream and jam, served with a pot of Earl Grey at "
    "four o'clock.",
    "Paella": (
        "Saffron rice cooked flat in a wide dish with chicken and prawns until a crust forms underneath."
    ),
    "Moussaka": "Layers of fried aubergine and spiced lamb under a thick white sauce, baked until bubbling.",
    "Pho bo": "A clear, fragrant broth simmered for hours and poured over noodles and thin slices of beef.",
    "Bibimbap": (
        "A bowl of warm rice topped with seasoned vegetables, chilli paste and an egg, mixed at the table."
    ),
    "Lemon drizzle cake": "A light sponge soaked while warm in a sharp, sugary syrup.",
    "Ratatouille": "Summer vegetables stewed in olive oil until soft and sweet.",
    "Sushi rolls": "Seasoned rice and raw fish rolled tight in seaweed and sliced into rounds.",
    "Spanakopita": "Crisp layers of filo wrapped around spinach and feta, baked golden.",
    "Jambalaya": "Rice, smoky sausage and chicken cooked together with celery, onion and pepper.",
    "Hummus": "Smooth blended chickpeas with sesame paste, for scooping up with warm pitta.",
    "Chocolate brownies": "Fudgy squares with a crackly top, best slightly underbaked.",
    "Thai green curry": "Chicken and vegetables in a fragrant, spicy coconut sauce, with jasmine rice.",
    "Crepes": "Delicate and lacy, rolled up with lemon and sugar, as sold from street stalls in Paris.",
    "Borscht": "A deep crimson soup of beetroot and cabbage, served with soured cream and dill.",
}
