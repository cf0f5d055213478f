/**
 * The English paraphrase set of the vector benchmark: 64 triples of a statement a companion might remember,
 * a paraphrase of it (the way a later question or a restated fact would put it, mostly with other words),
 * and a distractor that shares words with the statement but means something else. A good sentence encoder
 * puts the paraphrase closer to the statement than the distractor.
 */
export const paraphrases: ReadonlyArray<readonly [statement: string, paraphrase: string, distractor: string]> = [
  [
    "I'm allergic to peanuts, so I always check labels",
    "Peanuts give me an allergic reaction",
    "I always check the labels on my luggage"
  ],
  [
    "My younger brother Kenta moved to Fukuoka for a job at a shipyard",
    "Kenta, my little brother, relocated to Fukuoka to build ships",
    "My brother helped me move a table to the car"
  ],
  [
    "I work night shifts as a nurse at the city hospital",
    "I'm a nurse and I usually work overnight",
    "The city at night is full of lights"
  ],
  [
    "I adopted a cat named Mochi last week",
    "I recently got a new kitten called Mochi",
    "I ate mochi last week at a festival"
  ],
  ["My cat hates the vacuum cleaner", "The vacuum scares my cat", "I need to clean the cat's bowl"],
  [
    "I go jogging every morning before work",
    "I run each day before heading to the office",
    "I go to work every morning by train"
  ],
  [
    "I ran my first full marathon in Kyoto last month",
    "Last month I completed a marathon in Kyoto for the first time",
    "I visited a temple in Kyoto last month"
  ],
  ["I can't eat spicy food, it upsets my stomach", "Spicy dishes make me feel sick", "I ate some food at the stadium"],
  [
    "My mother lives alone in Osaka",
    "Mom has her own place in Osaka and lives by herself",
    "I went to Osaka alone on a business trip"
  ],
  ["I'm learning to play the piano", "I have started taking piano lessons", "I'm learning to cook Italian food"],
  ["I broke up with my girlfriend in March", "My relationship ended this spring", "I broke my phone screen in March"],
  [
    "My favourite band is Radiohead",
    "I love Radiohead's music more than any other group",
    "My favourite food is ramen"
  ],
  ["I'm afraid of heights", "High places terrify me", "I'm afraid I'll be late for the meeting"],
  [
    "We're planning a trip to Iceland next summer",
    "Next summer we want to travel to Iceland",
    "We're planning a party for my sister's birthday"
  ],
  [
    "I have two kids, a boy and a girl",
    "I'm a parent of a son and a daughter",
    "Two boys were playing football in the park"
  ],
  [
    "My dog Biscuit is twelve years old",
    "Biscuit, my dog, is getting old: he's twelve",
    "I bought biscuits for twelve people"
  ],
  ["I drink three cups of coffee a day", "I need several coffees every day", "I broke three cups while washing up"],
  ["I'm vegetarian and don't eat meat", "I don't eat any meat", "I bought some meat for the barbecue"],
  [
    "I grew up on a farm in Hokkaido",
    "My childhood was spent on a Hokkaido farm",
    "I want to visit a farm with my friends"
  ],
  ["My grandfather passed away last year", "Grandpa died last year", "My grandfather's watch still works"],
  ["I'm studying for the bar exam", "I'm preparing to become a lawyer", "I went to a bar with my coworkers"],
  ["I have trouble sleeping at night", "Insomnia keeps me up most nights", "I like to read at night before dinner"],
  ["My wife is pregnant with our first child", "We're expecting our first baby", "My wife started a new job this week"],
  [
    "I get migraines when I stare at screens too long",
    "Long hours in front of a monitor give me bad headaches",
    "I bought a new screen for my computer"
  ],
  [
    "I'm saving money to buy a house",
    "I'm putting money aside for a home of my own",
    "I spent a lot of money on clothes"
  ],
  [
    "I play the guitar in a small jazz band",
    "I'm a guitarist in a little jazz group",
    "I listened to a jazz record at a small cafe"
  ],
  ["My sister is getting married in October", "My sister's wedding is this October", "My sister is getting a new car"],
  ["I hate the cold, winter is my least favourite season", "I can't stand winter weather", "I caught a cold last week"],
  [
    "I volunteer at an animal shelter on weekends",
    "On Saturdays and Sundays I help out with rescued animals",
    "I went to a shelter during the storm"
  ],
  ["I'm lactose intolerant", "Milk and dairy make me ill", "I'm intolerant of people who are rude"],
  [
    "I moved from Osaka to Kyoto in spring",
    "I relocated to Kyoto from Osaka this spring",
    "I bought a spring jacket in Osaka"
  ],
  ["I teach English at a high school", "I'm a high school English teacher", "I learned English in high school"],
  [
    "My best friend Aiko lives in Tokyo",
    "Aiko, my closest friend, is based in Tokyo",
    "I lost my friend's umbrella in Tokyo"
  ],
  [
    "I want to learn Spanish before my trip to Mexico",
    "I'm trying to pick up Spanish for when I travel to Mexico",
    "I ate Mexican food before my trip"
  ],
  ["I take medicine for high blood pressure", "I'm on pills for hypertension", "I take the bus to the pharmacy"],
  [
    "I love hiking in the mountains",
    "Mountain trails are my favourite place to walk",
    "I love watching movies about the sea"
  ],
  [
    "My car broke down on the highway yesterday",
    "Yesterday my car died on the motorway",
    "I drove on the highway to see my parents"
  ],
  [
    "I'm training for the Tokyo marathon",
    "I'm getting ready to run the marathon in Tokyo",
    "I took the train to Tokyo station"
  ],
  ["I don't drink alcohol anymore", "I quit drinking", "I drink tea in the afternoon"],
  ["My son just started elementary school", "My boy began first grade", "My son likes to play video games"],
  ["I was born in Sapporo", "Sapporo is my hometown", "I ate ramen in Sapporo"],
  [
    "I work from home as a software engineer",
    "I'm a programmer who works remotely",
    "I cleaned my home on the weekend"
  ],
  ["I'm scared of spiders", "Spiders frighten me", "I saw a documentary about spiders"],
  [
    "I love baking bread on Sundays",
    "Making bread every Sunday is my hobby",
    "I bought bread at the supermarket on Sunday"
  ],
  ["My father is a retired fisherman", "Dad used to catch fish for a living", "My father likes to watch baseball"],
  [
    "I had surgery on my knee last winter",
    "My knee was operated on last winter",
    "I hurt my hand while skiing last winter"
  ],
  ["I collect vintage vinyl records", "I have a collection of old records", "I recorded a video of my cat"],
  [
    "I'm nervous about my job interview on Friday",
    "The interview on Friday is making me anxious",
    "I have a meeting with my boss on Friday"
  ],
  ["My parents are divorced", "Mom and Dad split up", "My parents bought a new sofa"],
  ["I can't swim", "I never learned how to swim", "I watched a swimming race on TV"],
  ["I'm a huge fan of the Hanshin Tigers", "I love the Tigers baseball team", "I saw a tiger at the zoo"],
  ["I get up at five every day", "I wake up very early each morning", "I stay up late on Fridays"],
  [
    "My apartment is too small for a dog",
    "There isn't enough room in my flat for a dog",
    "My neighbour has a small dog"
  ],
  ["I'm diabetic and watch my sugar", "I have diabetes so I limit sugar", "I put sugar in my coffee"],
  ["I miss my hometown a lot", "I feel homesick", "I missed the bus this morning"],
  [
    "I started a new job at a bank in April",
    "Since April I've been working for a bank",
    "I went to the bank to open an account"
  ],
  [
    "I like to paint watercolours of birds",
    "Painting birds in watercolour is something I enjoy",
    "A bird flew into my window"
  ],
  [
    "I'm going to Hawaii for my honeymoon",
    "Our honeymoon will be in Hawaii",
    "I watched a show about volcanoes in Hawaii"
  ],
  ["My daughter plays the violin", "My girl is a violinist", "My daughter broke her arm playing soccer"],
  ["I'm trying to lose weight before summer", "I want to slim down by the summer", "I gained weight over the holidays"],
  ["I prefer tea to coffee", "I'd rather have tea than coffee", "I spilled coffee on my shirt"],
  [
    "I'm the oldest of four siblings",
    "I have three younger brothers and sisters",
    "I met four old friends at a reunion"
  ],
  ["I have a fear of flying", "Planes make me very anxious", "I saw a plane flying over the park"],
  [
    "I speak Japanese and a little Korean",
    "I'm fluent in Japanese and know some Korean",
    "I watched a Korean drama last night"
  ]
]
