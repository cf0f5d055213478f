/**
 * The English tables of the extraction engine: fillers, hedges and interjections, reactions and passing
 * remarks, the words that mark the speaker, the listener or the two of them, verb agreement, directives,
 * and the topics that set importance. Patterns run on the lower-cased sentence with contractions kept.
 */
import type { Topic } from "./Clause.js"

/** Phrases that make up fillers; a sentence of nothing but these (and filler words) is not a fact. */
export const fillerPhrases =
  /\b(thank you|thanks a lot|see you|talk to you|you too|me too|same here|i see|i know|i agree|i understand|i guess so|i think so|i hope so|i bet|i'd love to|i would love to|i'm in|got it|sounds (good|great|fun|nice|like fun|like a plan|amazing|awesome|lovely|perfect)|that's (great|awesome|cool|nice|amazing|wonderful|good|true|right|fine|okay|ok|so cool|funny|sweet|lovely|perfect|interesting|crazy|wild|too bad|a shame)|no problem|no worries|of course|good (morning|night|afternoon|evening|luck|job|idea|point|one)|take care|welcome back|how are you|how about you|what about you|you know|oh my god|oh my gosh|for sure|not really|not yet|me neither|fair enough|all right|nice to meet you|glad to hear( that| it)?|happy to hear( that| it)?|sorry to hear( that| it)?|we'll see|we('re| are) (good|fine|cool|ok|okay|all good|even)|good to know|(i'll|i will) (remember|keep) (that|it|this)( in mind)?|noted)\b/g

export const fillerWords = new Set(
  (
    "ok okay k kk sure yes yeah yea yep yup no nope nah hmm hm um uh oh ah aw aww wow whoa cool nice great awesome " +
    "amazing perfect lovely wonderful right true exactly indeed totally absolutely definitely thanks thank thx ty " +
    "lol lmao rofl haha hahaha hehe heh ha xd bye goodbye hi hello hey hiya yo congrats congratulations welcome " +
    "please sorry well so and but too very really super much alright np omg gosh yay hooray agreed same indeed " +
    "sweet neat fun interesting hehehe ahh ooh obrigado obrigada gracias merci danke"
  ).split(" ")
)

/** Leading words and phrases dropped before analysis ("Oh, …", "Honestly, …", "I think …"). */
export const leadPhrases: ReadonlyArray<ReadonlyArray<string>> = [
  ["to", "be", "honest"],
  ["by", "the", "way"],
  ["guess", "what"],
  ["you", "know", "what"],
  ["you", "know"],
  ["i", "think", "that"],
  ["i", "think"],
  ["i", "guess"],
  ["i", "believe"],
  ["i", "feel", "like"],
  ["i", "mean"],
  ["i", "have", "to", "say"],
  ["i", "must", "say"],
  ["fun", "fact"],
  ["i", "see", ","],
  ["i", "know", ","],
  ["i", "agree", ","],
  ["i", "see", "."],
  ["sorry", ","]
]
export const leadWords = new Set(
  (
    "oh ohh ah ahh aw aww wow whoa yeah yes yep yup no nah well so um uh hmm haha hahaha hehe lol lmao hey hi " +
    "hello honestly actually anyway anyways btw tbh also and but plus okay ok omg gosh yay ooh great awesome cool " +
    "nice wait seriously basically"
  ).split(" ")
)

/** Reactions to the listener and passing remarks: statements, but not facts. */
export const remarks: ReadonlyArray<RegExp> = [
  /^i('m| am) (so |really |very |just |truly |super |sooo* )*(glad|happy|sorry|proud|thrilled|excited|impressed|jealous|relieved|touched|grateful|thankful) (for you|to hear|you|that you|of you|about that|for that|it|u|to help|to be (here|there))\b/,
  /^i('m| am) (so |really |very )*(glad|happy|sorry|proud|thrilled|impressed)$/,
  /^i (really |sure |truly )?(hope|bet|wish) (you|u|that you|it|so|things)\b/,
  /^i('m| am) (sure|certain|positive|confident) (you|it|that|they|he|she)\b/,
  /^i (can't|cannot|can not) (wait to (hear|see (what|you|it|them|how)|meet you|talk)|believe (it|that|you|this)|complain)\b/,
  /^i (totally |completely |definitely |fully )?(agree|understand|get it|see what you mean|feel you|hear you|know what you mean|know right)\b/,
  /^i (think|guess|believe|feel|suppose) (so|not|that's|it's|you|it|this|they)\b/,
  /^i('m| am) (just |finally |now |so )?(back|home|here|off|leaving|heading (out|off|home|to bed)|going to (bed|sleep)|gonna (sleep|go to bed)|off to (bed|sleep|work|school|class|the gym))( from (work|school|the office|the gym|class|shopping))?( (now|today|for the day|for today|for now))?$/,
  /^i('m| am) (so |really |very |a bit |a little |kinda |kind of |pretty |super |quite |still )*(tired|sleepy|hungry|bored|fine|good|ok|okay|great|well|alright|busy|exhausted|awake|cold|hot|sick of it)( (today|now|right now|tonight|lol|haha|too|as well))?$/,
  /^i (just |finally )?(got (home|back|up|off work)|woke up|came back|came home|finished work|am back)( from (work|school|the office|the gym|class|shopping))?( (now|today|just now))?$/,
  /^i('ll| will) (be right back|talk to you|see you|let you know|catch you|try|think about it|keep (that|it) in mind)\b/,
  /^i('m| am) (not sure|curious|wondering|listening|all ears)\b/,
  /^i (gotta|have to|need to|must|got to|'ve got to|('ve|'d) better) (run|go|leave|head (out|off|home)|bounce|dash|sleep|jet|split)\b/,
  /^i('m| am) (so |really |just )?looking forward to (it|that|this|seeing|hearing|talking)\b/,
  /^i (love|like|adore|appreciate|enjoy) (that|this|it|how you|what you|your (idea|answer|attitude|enthusiasm|energy|advice))\b/,
  /^i (was|am|'m) (just )?(kidding|joking)\b/,
  /^i (was|am|'m) (just |really |so |a bit )?(busy|tired|away|asleep|out|afk)( (today|earlier|yesterday|at work|all day))?$/
]

export const questionStarts = new Set(
  "do does did are is am was were can could would will should shall have has may might what where when why how who whom which whose isn't aren't don't doesn't didn't won't wouldn't can't couldn't".split(
    " "
  )
)

/** Question words that open a statement when no question mark follows ("When I was younger, …"). */
export const whWords = new Set("what where when why how who whom which whose".split(" "))

/** "We"'s contractions, written out after the group's name ("Master and others are"). */
export const groupContractions: Readonly<Record<string, string>> = {
  "'re": "are",
  "'ve": "have",
  "'ll": "will",
  "'d": "would"
}

export const selfWords = new Set(["i", "me", "my", "mine", "myself", "i'm", "im", "i'd", "i've", "i'll"])
export const groupWords = new Set(["we", "us", "our", "ours", "ourselves"])
export const otherWords = new Set(["you", "your", "yours", "yourself", "u", "ur"])

/** Words that keep the subject's verb agreement pending ("I really like…", "I always check…"). */
export const agreementSkips = new Set(
  "really always usually often sometimes never also still just actually truly absolutely totally kinda definitely mostly rarely seldom generally normally typically barely hardly only even already ever simply kind sort of literally honestly secretly constantly".split(
    " "
  )
)

export const modals = new Set(
  "can could will would shall should may might must ca wo sha ought need used gotta gonna wanna".split(" ")
)

/** Base forms equal to their past forms: left alone when the sentence speaks of the past. */
export const sameInPast = new Set(
  "put cut quit read hit set let cost hurt shut spread bet split burst cast fit".split(" ")
)

/** Relationship cues: the fact is about the speaker and the listener together. */
export const sharedCue =
  /\b(together|you and (i|me)|me and you|each other|our (chats?|conversations?|talks?|friendship|relationship|date|bond|promise)|with you|about you|for you|miss you|love you|like you|trust you|thank you for|promise(d)? (you|to)|remind (you|me))\b/

/** "Please don't mention X", "I don't want to talk about X": requests kept verbatim in meaning. */
export const directive =
  /^(?:please )?(?:(?:don't|do not|never|stop|no more) (?:ever )?(?:mention(?:ing)?|bring(?:ing)? up|talk(?:ing)? about|ask(?:ing)? (?:me )?about|remind(?:ing)? me (?:of|about))|i (?:don't|do not|never) want to (?:talk|hear|think) about(?: anymore)?|let's not (?:talk about|mention|bring up))\s+(.+?)(?:\s+(?:again|anymore|any more|please|ever))*$/

export const callMe = /^(?:you can |please |just )?call me ([\w'-]+(?: [\w'-]+)?)$/

export const remember =
  /^(?:please |can you |could you |you should |be sure to |make sure (?:to|you) )?remember (?:that |this: |this - )?(.+)$/

/** Topics over the rewritten, lower-cased fact text (the speaker's name already in place). */
export const topics: ReadonlyArray<readonly [Topic, RegExp]> = [
  [
    "identity",
    /\b(name is|named|call(ed)? (me|him|her)|nickname|birthday|born (in|on)|years old|\bage\b|is \d{1,2}\b|turn(ed|ing)? \d{1,2}\b|is from|grew up in|hometown|zodiac|blood type|pronouns)\b/
  ],
  [
    "health",
    /\b(allerg\w*|asthma|diabet\w*|sick|ill|illness|disease|diagnos\w*|hospital|doctor|surgery|medic\w*|pills?|therapy|therapist|depress\w*|anxiety|panic|injur\w*|pain|migraines?|headaches?|insomnia|pregnan\w*|vegetarian|vegan|gluten|lactose|intoleran\w*|diet|blood pressure|cancer|recover\w*|sober|quit (smoking|drinking)|disab\w*|adhd|autism|autistic|glasses|hearing)\b|\bbroke \S+ (arm|leg|wrist|ankle|foot|hand|nose|ribs?|finger|toe)\b|\b(doesn't|does not|can't|cannot|never) (eat|drink)\b/
  ],
  [
    "family",
    /\b(mom|mum|mother|dad|father|parents?|brothers?|sisters?|siblings?|sons?|daughters?|kids?|child|children|wife|husband|spouse|partner|boyfriend|girlfriend|fianc[eé]e?|grand(ma|pa|mother|father|parents?|son|daughter|kids?)|aunt|uncle|cousins?|nieces?|nephews?|family|baby|babies|twins?|married|marriage|divorc\w*|wedding|in-laws?|stepmom|stepdad|engaged)\b/
  ],
  [
    "pet",
    /\b(cats?|dogs?|kittens?|pupp(y|ies)|pets?|hamsters?|rabbits?|bunn(y|ies)|parrots?|birds?|fish|turtles?|horses?|guinea pigs?|lizards?|snakes?|ferrets?|corgis?|poodles?|labradors?|retrievers?|greyhounds?|terriers?|beagles?|huskies|husky|spaniels?|chihuahuas?|dachshunds?|pugs?|shepherds?|tabby|budgies?|cockatiels?|geckos?|tortoises?)\b/
  ],
  [
    "work",
    /\b(works? (as|at|for|in|on|from|night|day|part|full|remotely|shifts?)|job|career|office|company|boss|manager|cowork\w*|colleagues?|employ\w*|hired|fired|laid off|promot\w*|resign\w*|shifts?|salary|business|startup|clients?|profession\w*|nurse|engineer|teacher|developer|programmer|designer|lawyer|accountant|chef|cook at|student|school|universit\w*|college|stud(y|ies|ying|ied) |major(ing|ed)? in|degree|graduat\w*|classes|exams?|intern\w*|thesis|retire\w*|volunteer\w*|freelanc\w*)\b/
  ],
  [
    "home",
    /\b(lives? (in|at|with|alone|near|by|on)|living in|moved (to|from|in|out|into|here|back)|moving (to|from|in|out|into)|apartment|flat|house|hometown|neighbou?rhood|rent\w*|roommates?|dorm|city|town|village|countryside|suburbs?)\b/
  ],
  [
    "plan",
    /\b(will|is going to|are going to|gonna|plans? to|planning|intends? to|hopes? to|wants? to|would like to|is about to|next (week|month|year|weekend|time|summer|spring|fall|autumn|winter|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|tomorrow|this (weekend|summer|winter|spring|fall)|soon|upcoming|someday|one day|dreams? of|goal|saving (up )?for|appointment|interview)\b/
  ],
  [
    "relationship",
    /\b(together|each other|best friends?|friendship|our (chats?|talks?|conversations?)|miss(es)? |loves? \w+ (so much|a lot)|trusts?)\b/
  ],
  [
    "habit",
    /\b(always|usually|often|never|every (day|morning|night|evening|week|weekend|month|year|sunday|monday|tuesday|wednesday|thursday|friday|saturday|time)|each (day|morning|week)|daily|weekly|on weekends|most days|regularly|routine|habit|hobby|hobbies|is learning|learning to|practic\w+|lessons|a lot|lots of|all the time|tends? to|at least once|twice a|once a|since (i was|childhood|high school)|for (\d+|a|one|a few|many|several|two|three) years?)\b/
  ],
  [
    "preference",
    /\b(loves?|likes?|enjoys?|adores?|prefers?|hates?|dislikes?|detests?|can't stand|cannot stand|favou?rite|fan of|into|obsessed with|passionate about|crazy about|afraid of|scared of|terrified of|fear of|allergic|not a fan)\b/
  ],
  [
    "milestone",
    /\b(first|finally|won|graduated|got married|promoted|passed|completed|finished|marathon|trip|vacation|holiday|concert|festival|adopted|bought|started|quit|joined|launched|published|learned|learnt|visited|traveled|travelled|met|lost|broke up|achiev\w*|award|competition|tournament|championship|recital|performance|exhibit\w*)\b/
  ],
  [
    "daily",
    /\b(breakfast|lunch|dinner|brunch|snack|supper|ate|had (a|some|an) \w+ (for|at)|coffee this|watched (a|an|some|the|tv)|took a nap|napped|did (the )?(laundry|dishes)|cleaned|went shopping|grocer\w*|today|tonight|this (morning|afternoon|evening))\b/
  ]
]
