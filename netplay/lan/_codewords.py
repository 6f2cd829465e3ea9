"""The words of join codes: 2048 short, common English words (11 bits each), our own list,
and :func:`nearest_words`, the code words a mistyped one was probably meant as.

Lower-case ASCII, 3 to 8 letters, all distinct, sorted.  A code's words are indices into
this list, so host and joiner must have the same list: edit it only with a new code version.
"""

_TEXT = """
able absent absorb accept acid acorn acre active actor adapt adjust admire adobe adopt adult
advance advice aerial affair agenda agent agile agree aim aisle album alcove alert algae alive
alley allow alloy almanac almond alpaca alpine alto amazing amber ambush ample amulet amuse
anchor ancient angel angle ankle answer ant antique antler anvil appear applaud apple apricot
apron arbor arcade arch archer arctic ardent arena armchair armor army aroma arrange arrive
arrow artful artist ash ask aspen assist atlas attach attend attic attire aunt autumn avenue
avocado avoid awake awaken award aware axis axle baboon bacon badge badger bagel bagpipe bait
bakery balance balcony bald ballad ballet balloon ballot balmy bamboo banana bandana bandit
banjo banner banquet bare bargain bark barley barn barrack barrel basalt basic basil basket
bass bathe baton battle bay bayou bazaar beach beacon bead beagle beak beam bean bear beard
beaver beckon bedrock bee beech beef beehive beet begin behave bell belong belt bench bend
beret berry bib bicycle bin biscuit bison blade blanket blaze blend blender blimp blink
blizzard bloom blossom blouse blue boar boast boat bobcat bobsled bog boil bold bolt bonfire
bongo bonnet book boot border bored borrow bottle boudoir boulder bounce bouquet bow bowl box
bracket braid brain bramble bran branch brass brave bread breeze breezy brew brewer brick
bridge brief brigade bright bring brisk broad bronze brook broom broth brown bubble bucket
buckle buffalo buggy bugle build bulb bull bump bumper bumpy bundle bunker bunny bunting burger
burrow bus bush busy butter button buzzard cabaret cabbage cable cactus cadence cadet cafe cake
calf caliber calico call calm camel camellia camera camp camper canal canary candid candle
candy cane cannon canoe canopy canyon cape caper capsule captain caramel caravan carbon card
careful cargo carnival carousel carpet carrot carry cart carton carve cascade cashew castle
casual cat catch cauldron cavern cedar celery cellar cello cement census chair chalk chamber
channel chapel chariot charm chart chase cheer cheery cheese chef cherry cherub chess chest
chew chilly chime chimney chin chip chisel choir choose chorus chowder cider cinder cinema
circle circus citadel citrus city civil clam clap clarinet clay clean clear clerk cliff climate
climb clinic clipper cloak clock close closet cloud cloudy clover clown clumsy coach coarse
coast cobalt cobbler cobra cobweb cocoa coconut cod codfish coffee coin cold collar collect
colony column comb comet comfort comic comma compass compete compost condor cone cook cookbook
cookie cool coop copper copy coral cord corn corner corridor corset cosmic cosmos costume
cottage cotton couch cougar council count counter country cousin cove cover cow coyote cozy
crab crack cradle crafty crane crater crawl crayon cream create creek crepe crescent crest crib
cricket crisp croquet cross crow crown crumb crush crust cry crystal cub cube cuckoo cuff
cupcake curious curly curry curtain cushion custard cute cutter cycle cymbal cypress dahlia
dairy daisy dam damp dance dancer dapper dare daring dark dash dawn dear decent decide decoy
deep deer defend deliver delta den denim dense depart depot desert design desk dew dial diamond
diary dig dine diner dinghy dingo dinner direct dish disk ditch dive divide dizzy dock doctor
dodge dog doll dollar dolmen dolphin dome domino donkey doodle door dormouse double dough dove
drag draw drawer dream dress dresser drift drink drive drone drop druid drum dry duck duet duke
dumpling dune dungeon dusk dust dusty duvet dwell eager eagle earn earring earthy easel easter
easy eat ebony echo eclair edge eel effort egg eggplant elbow elder elegant elephant elevator
elf elk elm ember emblem emerald empty emu endless engine enjoy enter envoy epic equal eraser
ermine escape essay estate even evening exact exit exotic expert explore eyelid fable fabric
facet fade faded faint fair fairway fairy faithful falcon falconer falls family famous fan
fancy fanfare fang farm farmer farmhand fast fawn fearless feast feather feline felt fennel
fern ferret ferris ferry fertile festival fetch fever fiber fiddle field fierce fiesta fig fill
film filter final finch find fine fiord fir fire firm first fish fit fix fjord flag flagpole
flame flannel flap flapjack flash flask flat flea flee fleet flint float flock flotilla flour
flow flower fluffy flute fly foam fog foggy fold folder folk follow fond font footpath forest
forge forgive fork formal fort fossil fountain fox foxglove fragile frame frank fresco fresh
friendly frog frost frozen fruit fudge full fungus funnel funny furnace fuzzy gable gadget
galaxy galleon gallery gallon gallop garden garland garlic garnet gasket gather gauge gauze
gavel gaze gazebo gazelle gear gecko gem genie gentle geode gerbil geyser ghost giant giblet
giddy gift gifted giggle ginger gingham giraffe girder glad glade glass glaze gleaming glide
glider glitter globe glossy glove glow gnome goat goblet goblin gold golden goldfish golf
gondola gong good goose gopher gorilla gourd gown grab graceful grader grain grand granite
granola grape graph grass gravel gravity gravy gray great green greenery greet griddle grill
grin grip grove grumpy guard guess guest guide guitar gulf gull gum gumdrop gutter habit
haddock hail hairpin halibut hall halo halyard ham hamlet hammer hammock hamster handle hangar
happy harbor hardy harness harp harpoon harsh harvest hasty hat hatch haven hawk hay hazel
hazelnut headset heal heart hearth heath heavy hedge heel heirloom help hemlock hen herb hermit
heron hidden high hike hill hilltop hinge hippo hive hobby hockey hoe hog hold hollow holly
holster homework honest honey hood hoop hop horizon horn hornet horse horseman hose hostel hot
hotel hound house hover howl hub hug huge hull hum humble hummus hungry hunt hurdle husk hut
hydrant hyena ice iceberg icicle icy ideal idle igloo iguana imagine impala inch index indigo
ink inlet inner insect invent invite iris iron ironwood isle ivory ivy jackal jacket jade
jaguar jam jamboree jar jasmine jazz jeans jeep jelly jersey jetty jewel jigsaw jingle jockey
jog join joke joker journal joyful judge jug juggle juice juicy jukebox jump jumper junction
jungle juniper jury just kale kangaroo karate kayak keel keen keep kennel kernel kestrel
ketchup key keyboard keystone kick kiln kimono kind king kingdom kiosk kit kite kitten kiwi
knapsack knee kneel knight knit knob knock knot koala label lace lacquer ladle lagoon lair lake
lamb lamp lamppost land lantern lapel larch large lark larkspur laser lasso latch late lattice
laugh launch laundry lava lawn lawyer lazy lead leader leaf leafy lean leap learn ledge ledger
legend lemon lemur lend lens leopard letter lever library lichen lid lift lilac lily limb lime
linden linen liner lintel lion lipstick liquid listen litter live lively lizard llama load
lobby lobelia lobster local lock locket locust lodge loft lofty log long look lookout loom loop
lotion lotus loud lounge lovely loyal lucky lumber lunar lunch lute lynx lyre macaroon macaw
machine maestro magic magnet magnolia magpie major mallet mammoth mango manor mantle map maple
marble march marina mariner market marlin maroon marsh marvel mask mason mast match matron
mayor maze meadow measure mellow melody melon melt mend menu merchant mermaid merry mesa metal
meteor meter microbe midnight mighty mild mill miner minnow minstrel mint minute mirror mist
misty mitt mitten mix mixer moat mocha modem modern modest module moist mold mole monarch monk
monsoon moon moonbeam moose mosaic moss motel moth motor mound mouse move muddy mudflat muffin
mug mule mural murky museum mushroom music mustard mutton myth nacho nail nap napkin narrow
narwhal native navy neat nebula nectar needle nephew nest net nettle new newt nice nickel niece
night nightcap nimble noble nod noisy nomad noodle noon normal north notch notice novel nugget
nut nutmeg nutshell oak oar oasis oat oatmeal obey oboe ocean octopus odd offer ogre old olive
omelet onion onyx opal open opera orange orbit orca orchid order orderly ore organ ostrich
otter ottoman outlet outpost oval oven overall owl owlet oyster pack paddle paddock page pagoda
pail paint pajama palace palette palm pancake panda panther pantry papaya paper parade parasol
parcel parka parlor parrot parsley pasta pasture path patient patio pause pavilion peaceful
peach peacock peanut pearl pebble pecan pedal peek peg pelican pelt pen pencil pendant penguin
peony pepper perch perfect pestle petal pewter pheasant piano piccolo pick pickle pie pig
pigeon pilgrim pillar pillow pilot pinball pine pinecone pink pint pinwheel pipe pirate pitcher
pixel pizza plain planet plank plant plate play plaza pleasant pliers plow pluck plum plume
plush plywood pocket podium poem point polar polish polite polka pollen poncho pond pony pool
poplar poppy porch porridge portal posh potato potion pottery pouch pour powder prairie praise
prawn press pretty pretzel prime prince print printer prism proud pudding puffin pull pulley
puma pumice pump pumpkin puppet pure purple push puzzle pylon pyramid quail quarry quartz quay
queen quiche quick quiet quill quilt quince quirky quiver rabbit raccoon race rack radar
radiator radish raft rafter rail rain rainbow raindrop raisin rake ram rampart ranch rapid
rapids rare rascal rattle raven raw razor reach read ready real realm records redwood reef
regal relax relic remain remedy remote repair reptile rescue resort rest return rhubarb rhyme
rib ribbon rice rich riddle ride ridge rigid ring rinse ripe ripple river riverbed road roam
roar roast robe robin robot robust rock rocker rocket rocky rodent rodeo roll roller roof
rookie rooster root rope rosebud rosy rotor rough round rover royal rub rubble ruby rudder rug
ruin rumba run runway rural rush rustic rye sable sack sacred saddle safari saffron sage sail
sailor salad salmon salsa salt salty salute sample sand sandal sandbar sandy sapphire sardine
sash satchel satin sauce saucer sauna sausage savanna save scallop scarf scarlet scatter school
scooter scout scroll scrub seal search seashell season seaweed secret sedan seed sentinel
sequin serene serpent sew shack shadow shaggy share shark sharp shawl shed sheep shelf shell
sheriff shield shine shingle shiny ship shirt shoe shore short shout shovel shrimp shrine shrub
shutter shy sickle signal silent silk silly silver simple sing sip siren sit sitar skate sketch
ski skillet skip skull skunk sky skylark slate sled sleek sleepy sleigh slide slipper slope
sloth slow small smart smile smock smooth snack snail snake sneaker sneeze sniff snorkel snow
snowdrop snowy soap soar sock soda sofa soft solar solid sonnet soprano sorbet sorrel sort soup
sour spade spare spark sparrow spatula spear spell spicy spider spin spinach spindle spire
splash sponge spool spoon spring sprint sprout spruce square squash squeeze squid squirrel
stable stack stadium stage stallion stamp stand stapler star stare starfish start statue stay
steady steam steep steeple steer stencil step stew sticky stiff still stir stitch stomp stone
stool stork storm stormy stove straw stream street stretch stroll strong strudel studio sturdy
subtle sugar summit sun sunbeam sundae sundial sunny super surf surfer swamp swan swap sweater
sweep sweet swift swim swing sword syrup table tablet taco tail talk tall talon tame tan tandem
tango tank tap tapestry tapir tart tassel taste tavern tea teach teacup teapot temple tender
tense tent terrace thick thicket thimble thin thistle thorn thread throne throw thrush thunder
ticket tickle tide tidy tiger tile timber timpani tin tinsel tiny tiptoe tired toad toast tofu
token tomato tonic tool topaz topiary topsail torch torso tortoise toss totem toucan touch
tough towel tower toy trace tractor trade trail train trapeze tray treaty tree treetop trefoil
trek trellis trident trim trinket trolley trophy tropical trot trout true truffle trumpet trunk
trust try tuba tuft tugboat tulip tumble tundra tunnel turban turkey turn turnip turtle tutor
tweed twig twin twirl twist type ukulele umbrella unfold unicorn unique unite unlock untie
upland upper urban urchin usual utensil vague valet valid valley vanilla vanish vase vast vault
vector veil velvet vendor veranda vest vial villa vine vineyard vinyl violin viper visit vivid
vocal volcano voyage vulture wade waffle wagon wait waiter wake walk walkway wallet walnut
walrus wand wander warden wardrobe warm warren wary wasabi wash wasp water watt wave wax weary
weasel weave weaver wedge weed well wet whale wharf wheat wheel whisk whisper whistle white
whole wick wide widget wigwam wildcat willow win windmill window windy wing wink winter wise
wish witty wizard wobble wolf wombat wonder wood wooden woodland wool woolly work workshop worm
worthy wreath wren wrench write yacht yak yard yarn yarrow yawn yell yeti yodel yogurt yolk
young zany zebra zenith zephyr zesty zinc zinnia zipper zone zoom
"""

WORDS: tuple[str, ...] = tuple(_TEXT.split())


def _distance(a: str, b: str, most: int) -> int:
    """The edits (a letter put in, left out, changed, or two neighbours swapped) that turn
    ``a`` into ``b``; any number above ``most`` is given as ``most + 1``."""
    if abs(len(a) - len(b)) > most:
        return most + 1
    before: list[int] | None = None
    row = list(range(len(b) + 1))
    for i, x in enumerate(a, start=1):
        now = [i] + [0] * len(b)
        for j, y in enumerate(b, start=1):
            now[j] = min(row[j] + 1, now[j - 1] + 1, row[j - 1] + (x != y))
            if before is not None and i > 1 and j > 1 and x == b[j - 2] and a[i - 2] == y:
                now[j] = min(now[j], before[j - 2] + 1)
        before, row = row, now
        if min(row) > most:
            return most + 1
    return min(row[-1], most + 1)


HANDFUL = 5
"""How many code words a mistyped word is offered at most: every word at the nearest
distance up to this many (one letter away from a short word there can be nine)."""


def nearest_words(word: str, limit: int = HANDFUL) -> tuple[str, ...]:
    """The code words nearest to ``word`` (not one itself), in list order, at most ``limit``:
    those one edit away, or two for a word of six letters or more; () when none is that
    close.  The list is public, so suggesting from it tells nobody anything."""
    most = 2 if len(word) >= 6 else 1
    found: dict[int, list[str]] = {}
    for candidate in WORDS:
        if candidate == word:
            continue
        far = _distance(word, candidate, most)
        if far <= most:
            found.setdefault(far, []).append(candidate)
    return tuple(found[min(found)][:limit]) if found else ()
