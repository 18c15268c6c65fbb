package guard

import (
	"bytes"
	"regexp"
	"strings"
	"unicode/utf8"
)

// A pattern is one explainable way a rule can match. Patterns run on the
// normalised view of a text: lower case, white space collapsed, evasions
// undone. The part of a match that is quoted and located is the submatch
// named "m" when there is one, else the whole match.
type pattern struct {
	rule string
	desc string
	re   *regexp.Regexp
	// leet runs the pattern on the view with leetspeak read as letters.
	// Patterns over code and commands, where digits matter, run without.
	leet bool
	// reported skips a match whose sentence reports what someone said
	// ("the playbook says you must now log every outage"), for phrases
	// that are hostile as a direct order but ordinary as a quotation.
	reported bool
	m        int
	// groups are the trigger-word groups (indexes into the per-Check seen
	// table) that must all be present in the view before the pattern is
	// tried; subs are substrings of which at least one must be present.
	// Both are necessary conditions of a match, so skipping a pattern
	// that lacks them changes no result; they keep Check fast on the
	// ordinary note, in which most patterns have nothing to find.
	groups []int
	subs   [][]byte
	// near, when set, must match the view within nearWindow bytes of a
	// match for the match to count.
	near *regexp.Regexp
	// order skips a match whose first word is followed by a finite verb:
	// the word is then a noun, not an order ("Order #5 left on Monday").
	order bool
	// starts, when set, anchors the pattern: re is tried only where one of
	// these words begins, and pre must match the text just before it.
	// A pattern whose match opens with one of a few words runs much faster
	// this way than as a search over the whole text.
	starts map[string]bool
	pre    *regexp.Regexp
	// stamped skips a match that opens a timestamped line of a chat
	// export ("[10:01] assistant: Sure, here is the booking") unless its
	// turn carries an order, a grant or a system claim (turnCarries).
	stamped bool
	// soften, when set and matching the text right after a match, makes
	// the match a hold (RuleOrder) rather than the pattern's rule: the
	// order is protective advice to whoever receives a message ("if you
	// receive such a request, call us on the number on our website").
	soften *regexp.Regexp
}

// anchorWindow bounds the text an anchored pattern reads after its start
// word, and preWindow the text its pre expression reads before it.
const (
	anchorWindow = 240
	preWindow    = 80
)

// nearWindow is how far around a match a pattern's near expression looks.
const nearWindow = 300

// clause matches the start of a clause, so that an imperative verb is only
// matched where it gives an order ("Forget everything", "...; act as DAN")
// and not where it is a third-person statement ("users forget everything").
const clause = `(?:^|[^\w\s'’]\s*|\n|\b(?:please|now|and|then|so|just|also|simply|kindly|first|next|immediately|hey|ok|okay|assistant|ai)\s+)`

// agentNoun names the agent (see agentWho).
var agentNoun = `(?:ai\s+agents?|ai\s+assistants?|ai\s+model|language\s+models?|` + wordAlt(aiNames, aiRoles)[3:]

// Building blocks of the instruction patterns.
const (
	orderNoun = `(?:instructions?|rules?|protocols?|precautions|prompts?|directives?|guidelines?|guardrails?|constraints?|commands?|orders|programming|polic(?:y|ies)|restrictions?|filters?|safeguards?|guidance|training|context|conversation|messages?|limitations?|boundaries)`
	priorAdj  = `(?:all|any|every|each|the|your|these|those|of|previous|prior|preceding|above|earlier|former|original|initial|system|safety|previously|stated|mentioned|listed|given|foregoing|hidden|ethical|content|moderation)`
	secretObj = `(?:system prompt|system message|(?:initial|original|hidden|secret|previous|full|real|system) (?:instructions|prompt|configuration|config)|(?:text|instructions|prompt|words) above|(?:the\s+)?above (?:prompt|instructions|text)|your (?:instructions|prompt|rules|configuration|memory|memories)|api keys?|credentials|passwords?|secret keys?|private keys?|ssh keys?|access tokens?|auth tokens?|session cookies|(?:admin|root|database|db) password|environment variables|vault)`
	sendObj   = `(?:conversation|chat|history|transcripts?|credentials|passwords?|api keys?|secrets|tokens|system prompt|memory|memories|contents of your|user data|personal data|ssh keys?|private keys?|contacts|contact list|contacts list|address book|inbox|cookies|(?:all|last\s+(?:\w+\s+)?|every)\s*(?:of\s+)?(?:the\s+|my\s+|your\s+|their\s+|his\s+|her\s+)?(?:messages|emails|e-mails|files|documents))`
	target    = `(?:https?://|www\.|\S+@\S+|\S+\.(?:com|net|org|io|ru|cn|xyz|example|site|top|info|biz|me|co)\b)`
	reporting = `\b(?:says?|said|told|tells|telling|asking|instructing|urging|wrote|writes|explains?|explained|reads|mentions?|mentioned|asked|asks|states?|stated|notes|reminds?|reminded|announced?|claims?|claimed|according to|quoted?)\b`
)

var reportRe = regexp.MustCompile(reporting)

var patterns = buildPatterns()

func buildPatterns() []pattern {
	ps := []spec{
		// INSTRUCTION_TO_AGENT: overriding what the agent was told.
		{rule: RuleInstruction, need: "ignore disregard forget discard abandon nevermind mind attention; protocol protocols precautions instruction instructions rule rules prompt prompts directive directives guideline guidelines guardrail guardrails constraint constraints command commands orders programming policy policies restriction restrictions filter filters safeguard safeguards guidance training context conversation message messages limitation limitations boundaries", leet: true, desc: "order to ignore prior instructions",
			expr: `\b(?P<m>(?:ignore|disregard|forget|discard|abandon|nevermind|never mind|pay no attention to|stop paying attention to)\s+(?:` + priorAdj + `\s+){0,4}` + orderNoun + `)\b`},
		{rule: RuleInstruction, need: "ignore disregard forget; above before prior previously", leet: true, desc: "order to ignore prior instructions",
			expr: `\b(?P<m>(?:ignore|disregard|forget)\s+(?:all\s+|everything\s+|the\s+(?:text|content|message|words|note)\s+)?(?:above|before this|prior to this|previously said))\b`},
		{rule: RuleInstruction, need: "override bypass circumvent evade turn disable; your all any; instruction instructions rule rules prompt prompts directive directives guideline guidelines guardrail guardrails constraint constraints command commands orders programming policy policies restriction restrictions filter filters safeguard safeguards guidance training context conversation message messages limitation limitations boundaries", leet: true, desc: "order to override safeguards",
			expr: `\b(?P<m>(?:override|bypass|circumvent|evade|turn off|disable)\s+(?:your|all|any)\s+(?:` + priorAdj + `\s+){0,3}` + orderNoun + `)\b`},
		{rule: RuleInstruction, need: "override bypass circumvent; instruction instructions rule rules prompt prompts directive directives guideline guidelines guardrail guardrails constraint constraints command commands orders programming policy policies restriction restrictions filter filters safeguard safeguards guidance training context conversation message messages limitation limitations boundaries", leet: true, desc: "order to override safeguards",
			expr: `\b(?P<m>(?:override|bypass|circumvent)\s+(?:the\s+)?(?:previous|prior|above|earlier|original|initial|system|safety|ethical|content|moderation)\s+(?:\w+\s+)?` + orderNoun + `)\b`},
		{rule: RuleInstruction, need: "forget", leet: true, desc: "order to forget everything",
			expr: clause + `(?P<m>forget\s+(?:everything|all\s+(?:of\s+)?(?:that|this|the above|you\s+(?:know|were told|have been told|learned))|what\s+you\s+(?:know|were told|have been told|learned)))\b`},
		{rule: RuleInstruction, need: "stop; following obeying", leet: true, desc: "order to stop following the rules",
			expr: `\b(?P<m>stop\s+(?:following|obeying)\s+(?:your|the|all|any)\s+(?:[\w'’]+\s+)?(?:rules|instructions|guidelines|polic(?:y|ies)|programming))\b`},
		{rule: RuleInstruction, need: "follow obey; mine me my; instead", leet: true, desc: "order to stop following the rules",
			expr: `\b(?P<m>(?:follow|obey)\s+(?:mine|me|my\s+(?:rules|instructions|orders|commands))\s+instead)\b`},
		{rule: RuleInstruction, need: "bypass circumvent skip override evade ignore; approval review moderation verification governance confirmation; commit store save write approve accept publish merge", leet: true, desc: "order to bypass review",
			expr: `\b(?P<m>(?:bypass|circumvent|skip|override|evade|ignore)\s+(?:the\s+|any\s+|all\s+)?(?:human\s+)?(?:approval|review|moderation|verification|governance|confirmation)s?(?:\s+(?:step|process|queue|gate|stage|checks?))?\s+(?:and\s+)?(?:just\s+)?(?:commit|store|save|write|approve|accept|publish|merge)\s+(?:this|it|the\s+(?:memory|entry|record|write)))\b`},
		{rule: RuleInstruction, need: "commit store save write approve accept; directly without immediately; review approval verification checks check moderation", leet: true, desc: "order to bypass review",
			expr: clause + `(?P<m>(?:commit|store|save|write|approve|accept)\s+(?:this|it)\s+(?:memory\s+|entry\s+|record\s+|fact\s+)?(?:directly\s+|immediately\s+)?without\s+(?:any\s+)?(?:human\s+)?(?:review|approval|verification|checks?|moderation))\b`},
		{rule: RuleInstruction, need: "reset clear wipe erase delete; your", leet: true, desc: "order to reset the agent's instructions",
			expr: `\b(?P<m>(?:reset|clear|wipe|erase|delete)\s+(?:all\s+)?your\s+(?:instructions|rules|programming|guidelines|system prompt|prompt|context|memory|memories))\b`},
		{rule: RuleInstruction, need: "your; new updated real true actual revised only primary secret hidden", leet: true, desc: "replacement instructions",
			expr: `\b(?P<m>your\s+(?:new|updated|real|true|actual|revised|only|primary|secret|hidden)\s+(?:instructions?|orders|directives?|task|objective|goal|mission|role|purpose|persona|rules|prompt|system prompt|identity|job|priority|programming)(?:\s+(?:is|are|will be)\b|\s*:))`},
		{rule: RuleInstruction, need: "your; instructions rules orders directives programming prompt task; changed updated replaced revoked", leet: true, desc: "replacement instructions",
			expr: `\b(?P<m>your\s+(?:instructions|rules|orders|directives|programming|prompt|system prompt|task)\s+(?:have|has)\s+(?:been\s+)?(?:changed|updated|replaced|revoked))\b`},
		{rule: RuleInstruction, need: "instruction instructions directive directives; new secret hidden real true updated additional special important", leet: true, desc: "instructions addressed to the agent",
			expr: `\b(?P<m>(?:new|secret|hidden|real|true|updated|additional|special|important)\s+(?:system\s+)?(?:instructions?|directives?)\s+(?:to|for)\s+(?:the\s+|all\s+|any\s+)?(?:ai|ais|assistant|assistants|model|models|llm|llms|bot|chatbot|you))\b`},
		{rule: RuleInstruction, need: "attention note notice message reminder; ai ais llm llms language chatbot chatbots gpt", leet: true, desc: "instructions addressed to the agent",
			expr: `\b(?P<m>(?:attention\s*,?|(?:note|notice|message|reminder)\s+(?:to|for))\s*(?:the\s+|any\s+|all\s+)?(?:ai|ais|llm|llms|language models?|chatbots?|gpt)(?:\s+(?:agents?|assistants?|models?|systems?))?)\s*(?:[:,!]|reading\b|processing\b|who\b|that\b)`},
		{rule: RuleInstruction, need: "reading processing summarising summarizing parsing scraping indexing viewing crawling; this these", leet: true, desc: "instructions addressed to the agent",
			expr: `\b(?P<m>` + agentNoun + `\s+(?:reading|processing|summari[sz]ing|parsing|scraping|indexing|viewing|crawling)\s+(?:this|these)\b)`},
		{rule: RuleInstruction, need: "if; you; are", leet: true, desc: "instructions addressed to the agent",
			expr: `\b(?P<m>if\s+you\s+are\s+(?:an?\s+)?(?:ai|llm|large language model|language model|assistant|chatbot|bot|gpt|automated agent|ai agent|ai assistant)\b)`},
		{rule: RuleInstruction, need: "when; read see process summarise summarize parse", leet: true, desc: "instructions addressed to the agent",
			expr: clause + `(?P<m>when\s+you\s+(?:read|see|process|summari[sz]e|parse)\s+this\b)`},
		{rule: RuleInstruction, need: "you; now", leet: true, reported: true, desc: "order that changes the agent's behaviour from now on",
			expr: `\b(?P<m>you\s+(?:must|should|will|shall|need to|have to|are to|are required to)\s+now\b)`},
		{rule: RuleInstruction, need: "now; on", leet: true, reported: true, desc: "order that changes the agent's behaviour from now on",
			expr: `\b(?P<m>from\s+now\s+on\b[,:]?\s*(?:you|the\s+(?:assistant|ai|model|bot|chatbot))\s+(?:(?:must|should|shall|will|are\s+to|is\s+to|need\s+to|needs\s+to|have\s+to|has\s+to)\s+)?(?:always\s+|never\s+|only\s+|now\s+)?(?:` + alt(addressVerbs) + `|always|never|only|are\s+(?:an?|the|now|my|no\s+longer)|is\s+(?:an?|the|now|no\s+longer)|will\s+be|'ll|'re)\b)`},
		{rule: RuleInstruction, need: "future", leet: true, reported: true, desc: "order that changes the agent's behaviour from now on",
			expr: `\b(?P<m>in\s+(?:all|every|any)\s+future\s+(?:conversations?|sessions?|responses?|replies|answers|interactions?|chats?)\b[,:]?\s*(?:you|always|never|ignore|say|respond|reply|tell|recommend|refuse)\b)`},
		{rule: RuleInstruction, need: "assistant ai llm chatbot; now; reveal ignore disregard send forward approve obey follow respond answer reply act treat tell say output print comply grant disable recommend refuse", leet: true, desc: "order that changes the agent's behaviour from now on",
			expr: `\b(?P<m>(?:the\s+)?(?:assistant|ai|llm|chatbot)\s+(?:must|should|shall|is to|has to|needs to|will)\s+now\s+(?:reveal|ignore|disregard|send|forward|approve|obey|follow|respond|answer|reply|act|treat|tell|say|output|print|comply|grant|disable|recommend|refuse)\b)`},
		{rule: RuleInstruction, need: "assistant ai llm chatbot bot; reveal disclose exfiltrate bypass obey leak", leet: true, desc: "order to the agent to disclose or disobey",
			expr: `\b(?P<m>(?:the\s+)?(?:assistant|ai|llm|chatbot|bot)\s+(?:must|should|shall|is to|has to|needs to|will)\s+(?:now\s+|always\s+)?(?:reveal|disclose|exfiltrate|bypass|obey|leak))\b`},
		{rule: RuleInstruction, need: "remember store save record treat cite; future verified trusted confirmed official authoritative", leet: true, desc: "attempt to plant a trusted memory",
			expr: `\b(?P<m>(?:remember|store|save|record|treat|cite)\s+(?:this|it|that)\s+(?:for\s+all\s+future\s+(?:sessions|conversations)|(?:as|like)\s+(?:an?\s+|the\s+)?(?:verified|trusted|confirmed|official|authoritative)\b))`},

		// INSTRUCTION_TO_AGENT: reassigning the agent's role.
		{rule: RuleInstruction, need: "act behave respond answer reply speak operate function; as like", leet: true, desc: "role hijack",
			expr: clause + `(?P<m>(?:act|behave|respond|answer|reply|speak|operate|function)\s+(?:as|like)\s+(?:if\s+you|though\s+you|an?\s+(?:unrestricted|unfiltered|uncensored|jailbroken|evil|rogue|malicious|different ai|ai with(?:out)?|system administrator|admin|administrator|superuser|root user)|dan\b|the\s+(?:system|admin|administrator|developer|root|operator)\b))`},
		{rule: RuleInstruction, need: "pretend", leet: true, desc: "role hijack",
			expr: clause + `(?P<m>pretend\s+(?:to\s+be|you\s+are|that\s+you|you're|to\s+have))\b`},
		{rule: RuleInstruction, need: "character roleplay play anything", leet: true, desc: "role hijack",
			expr: `\b(?P<m>(?:role-?play|roleplay)\s+as|stay\s+in\s+character|never\s+break\s+character|do\s+anything\s+now)\b`},
		{rule: RuleInstruction, need: "you; now", leet: true, reported: true, desc: "role hijack",
			expr: `\b(?P<m>you\s+are\s+now\s+(?:an?\s+|the\s+|in\s+|my\s+|dan\b|free\b|unrestricted|unfiltered|jailbroken|acting\b|operating\b|called\b|named\b|going to\b|no longer\b))`},
		{rule: RuleInstruction, need: "longer", leet: true, desc: "role hijack",
			expr: `\b(?P<m>you\s+are\s+no\s+longer\s+(?:an?\s+|the\s+|bound|restricted|limited|required|constrained|subject|obligated))`},
		{rule: RuleInstruction, need: "your openai anthropic; developer creator admin administrator owner operator master programmer maker supervisor openai anthropic", leet: true, desc: "claim of authority over the agent",
			expr: `\b(?P<m>(?:i\s+am|i'm|this\s+is)\s+your\s+(?:developer|creator|admin|administrator|owner|operator|master|programmer|maker|supervisor|system administrator)|as\s+your\s+(?:developer|creator|admin|administrator|owner|operator|master|programmer|maker)|(?:message|instruction|order|directive|notice)\s+from\s+(?:your\s+(?:developer|creator|admin|administrator|owner|operator)|openai|anthropic))\b`},
		{rule: RuleInstruction, need: "mode freed released liberated unrestricted unfiltered uncensored jailbroken", leet: true, desc: "jailbreak mode",
			expr: `\b(?P<m>(?:enable|activate|enter|switch\s+to|turn\s+on|engage)\s+(?:the\s+)?(?:god|jailbreak|jailbroken|dan|unrestricted|unfiltered|uncensored|evil|chaos)\s+mode|you\s+are\s+(?:now\s+)?in\s+(?:developer|dev|god|jailbreak|jailbroken|dan|unrestricted|unfiltered|uncensored|admin|sudo|debug)\s+mode|(?:freed|released|liberated)\s+from\s+(?:the\s+)?(?:typical\s+)?(?:confines|restrictions|rules|constraints|limitations)|(?:unrestricted|unfiltered|uncensored|jailbroken)\s+(?:ai|assistant|llm|chatbot|version of yourself))\b`},
		{rule: RuleInstruction, need: "override", leet: true, desc: "claim of authority over the agent",
			expr: `(?:\b(?:developer|admin|system|security|emergency|root|sudo)\s+|(?:^|[.!?\n])\s*)(?P<m>override\s*[:!])`},
		{rule: RuleInstruction, need: "safety content ethical moral", leet: true, desc: "order to drop safety limits",
			expr: `\b(?P<m>without\s+(?:any\s+)?(?:safety|content|ethical|moral)\s+(?:filters?|restrictions?|guidelines?|polic(?:y|ies)|limits?)|(?:you|assistant|ai)\s+(?:have|has|with)\s+no\s+(?:content|safety)\s+(?:polic(?:y|ies)|filters?|restrictions?)|(?:content|safety)\s+polic(?:y|ies)\s+no\s+longer\s+appl(?:y|ies))\b`},

		// INSTRUCTION_TO_AGENT: prompt extraction worded as a question or a
		// format ("what were the first 50 words you were given").
		{rule: RuleInstruction, need: "first last initial opening; words lines sentences characters tokens; given received told shown", leet: true, desc: "prompt-extraction request",
			expr: `\b(?P<m>(?:first|last|initial|opening)\s+(?:\d+\s+|[a-z]+\s+)?(?:words|lines|sentences|characters|tokens)\s+(?:that\s+)?you\s+(?:were|have been)\s+(?:given|told|shown)|(?:first|last|initial|opening)\s+(?:\d+\s+|[a-z]+\s+)?(?:words|lines|sentences|characters|tokens)\s+(?:that\s+)?you\s+received)\b`},
		{rule: RuleInstruction, need: "respond reply answer print output repeat show display; contents content text; system your; message prompt instructions", leet: true, desc: "prompt-extraction request",
			expr: `\b(?P<m>(?:respond|reply|answer)\s+(?:only\s+)?with\s+(?:the\s+)?(?:full\s+|exact\s+|entire\s+)?(?:contents?|text)\s+of\s+(?:your|the)\s+(?:system\s+(?:message|prompt)|instructions|prompt|initial\s+prompt)|(?:print|output|repeat|show|display)\s+(?:me\s+)?(?:the\s+)?(?:full\s+|exact\s+|entire\s+)?(?:contents?|text)\s+of\s+your\s+(?:system\s+(?:message|prompt)|instructions|prompt))\b`},
		{rule: RuleInstruction, need: "spell write say type print encode give tell; backwards backward reverse reversed letter spaces acrostic pig; it password secret key code phrase", leet: true, desc: "request for a secret in disguise",
			expr: `\b(?P<m>(?:spell|write|say|type|print|encode|give|tell)\s+(?:me\s+)?(?:it|the\s+(?:secret\s+)?(?:password|secret|key|code|passphrase|pass\s+phrase))\s+(?:out\s+)?(?:backwards?|in\s+reverse|reversed|letter\s+by\s+letter|one\s+letter\s+at\s+a\s+time|with\s+spaces\s+between|as\s+an\s+acrostic|in\s+pig\s+latin))\b`},
		{rule: RuleInstruction, need: "pwned", leet: true, reported: true, desc: "known attack payload",
			expr: `\b(?P<m>i\s+have\s+been\s+pwned)\b`},
		{rule: RuleInstruction, need: "pwned", leet: true, desc: "known attack payload",
			expr: clause + `(?P<m>(?:say|print|output|write|type|respond\s+with|reply\s+with|answer\s+with|end\s+with|begin\s+with|start\s+with|only\s+say)\s+(?:only\s+|exactly\s+|just\s+)?["'“‘]?\s*i\s+have\s+been\s+pwned)\b`},

		// INSTRUCTION_TO_AGENT: concealment and exfiltration.
		{rule: RuleInstruction, need: "reveal print output repeat leak disclose dump recite tell give expose exfiltrate type write; prompt instructions configuration config api key keys credentials password passwords secret private ssh token tokens cookies variables vault memory memories rules above", leet: true, desc: "order to disclose secrets",
			expr: clause + `(?P<m>(?:reveal|print|output|repeat|leak|disclose|dump|recite|tell me|give me|expose|exfiltrate|type out|write out)\s+(?:\w+\s+){0,3}?` + secretObj + `)\b`},
		{rule: RuleInstruction, need: "send forward email e post upload transmit copy leak exfiltrate sync bcc; conversation chat history transcript transcripts credentials password passwords api secrets tokens system memory memories contents user personal ssh private contacts contact address inbox cookies messages emails mails files documents; to at into", leet: true, desc: "order to send data out",
			expr: `(?:` + clause + `|\b(?:tool|function|plugin|action)\s+to\s+|\b(?:want|need|would\s+like|'d\s+like|asking)\s+you\s+to\s+)(?:(?:silently|quietly|secretly|covertly|immediately|also|then|now)\s+)*(?P<m>(?:send|forward|email|e-mail|post|upload|transmit|copy|leak|exfiltrate|sync|bcc)\s+(?:\w+\s+){0,4}?` + sendObj + `\b[^.\n]{0,80}?\b(?:to|at|into)\s+` + target + `)`},
		{rule: RuleInstruction, need: "silently secretly covertly quietly", leet: true, desc: "order to act covertly",
			expr: `\b(?P<m>(?:silently|secretly|covertly|quietly)\s+(?:send|forward|copy|upload|email|transfer|exfiltrate|delete|add|change|modify|disable|bcc|approve|grant|install))\b`},
		{rule: RuleInstruction, need: "without; user users customer customers human humans operator operators; knowing knowledge noticing consent being", leet: true, desc: "order to act covertly",
			expr: `\b(?P<m>without\s+(?:the\s+)?(?:user|customer|human|operator)(?:'s|s)?\s+(?:knowing|knowledge|noticing|consent|being aware))\b`},
		{rule: RuleInstruction, need: "not don dont never; tell inform mention reveal disclose let; user users customer customers human humans operator operators; instruction instructions message messages note notes prompt prompts", leet: true, desc: "order to act covertly",
			expr: `\b(?P<m>(?:do not|don't|dont|never)\s+(?:tell|inform|mention|reveal|disclose|let)\s+(?:\w+\s+){0,2}?(?:the\s+)?(?:user|human|operator|customer)s?\s+(?:about\s+|know\s+|that\s+|of\s+)?(?:this|these|the)?\s*(?:instructions?|messages?|notes?|prompts?))\b`},
		{rule: RuleInstruction, need: "hide conceal keep; from; user users customer customers human humans operator operators", leet: true, desc: "order to act covertly",
			expr: `\b(?P<m>(?:hide|conceal|keep)\s+(?:this|these|it)\s+(?:instructions?\s+|messages?\s+)?(?:secret\s+|hidden\s+)?from\s+(?:the\s+)?(?:user|human|operator|customer)s?)\b`},

		// SYSTEM_PROMPT_PATTERN.
		{rule: RuleSystemPrompt, subs: []string{`<|`, `< |`}, desc: "chat-template token",
			expr: `(?P<m><\|\s*[a-z0-9_]{2,30}\s*\|>)`},
		{rule: RuleSystemPrompt, subs: []string{`inst]`, `sys>`, `[/system`, `system>`, `system_prompt>`, `system-message>`, `developer_message>`, `[system `}, desc: "instruction-format marker",
			expr: `(?P<m>\[/?inst\]|<</?sys>>|\[/system(?:\s+(?:message|prompt|note))?\]|\[system\s+(?:message|prompt|note)\]|</?(?:system|system_prompt|sys|system-message|developer_message)>)`},
		// "[SYSTEM]" opens log lines ("[SYSTEM] Backup completed"); as a
		// marker it opens an order or speaks to the reader.
		{rule: RuleSystemPrompt, subs: []string{`[system]`}, desc: "instruction-format marker",
			expr: `(?P<m>\[system\])\s*(?:[^\n]{0,200}?\b(?:you|your|please|assistant|ai|model|must|ignore|disregard|override|forget|new|always|never|instructions?|prompt|mode|from\s+now|trust(?:ed)?|skip|bypass|approved?|approval|priority|authori[sz]ed|elevated?)\b|` + alt(addressVerbs) + `\b)`},
		{rule: RuleSystemPrompt, subs: []string{`##`}, desc: "system-prompt heading",
			expr: `(?:^|\n)\s*(?P<m>#{2,}\s*(?:system|system prompt|instructions?|response)\s*:)(?:\s|$)`},
		{rule: RuleSystemPrompt, need: "system; prompt message instruction instructions", leet: true, desc: "system-prompt label",
			expr: `\b(?P<m>system\s*(?:prompt|message|instructions?)\s*:|(?:real|actual|true|hidden|secret|begin|start of|end of|override)\s+(?:the\s+)?system\s+(?:prompt|message|instructions?))`},
		{rule: RuleSystemPrompt, need: "system sys admin developer root", leet: true, desc: "role label opening a system message",
			expr: `(?:^|\n|[.!?]\s)\s*(?P<m>(?:system|sys|admin|developer|root)\s*:\s*(?:you|ignore|disregard|override|all\b|the\s+(?:assistant|ai|model|user)|new\b|from now|trust|approve|disable|forget))`},
		{rule: RuleSystemPrompt, need: "assistant; sure ok okay course certainly absolutely", leet: true, stamped: true, desc: "forged assistant turn",
			expr: `\b(?P<m>assistant\s*:\s*(?:sure|ok|okay|of course|certainly|absolutely)\b[^\n]{0,40}?(?:here is|here's|here are))`},
		{rule: RuleSystemPrompt, need: "you; are; chatgpt gpt claude gemini bard llama copilot ai artificial large language llm chatbot helpful virtual autonomous", leet: true, reported: true, desc: "model preamble",
			expr: `\b(?P<m>you\s+are\s+(?:chatgpt|gpt-?[\da-z]\w*|claude|gemini|bard|llama|copilot|an?\s+(?:ai|artificial intelligence|large language model|language model|llm|ai assistant|ai model|chatbot|helpful(?:\s+\w+)?\s+assistant|virtual assistant|autonomous agent|ai agent)))\b`},
		{rule: RuleSystemPrompt, need: "cutoff trained", leet: true, desc: "model preamble",
			expr: `\b(?P<m>knowledge\s+cutoff\s*:|large language model trained by)`},

		// TOOL_INVOCATION.
		{rule: RuleToolInvocation, subs: []string{`"name"`, `"function"`, `"tool"`, `"tool_name"`, `"action"`, `"tool_calls"`, `"function_call"`, `"tool_use"`, `"type"`, `"arguments"`, `"parameters"`, `"args"`, `"input"`}, desc: "function-call JSON",
			expr: `(?P<m>\{\s*"(?:name|function|tool|tool_name|action)"\s*:\s*"[^"]{1,80}"\s*,\s*"(?:arguments|args|parameters|params|input|tool_input|action_input)"\s*:|"(?:tool_calls|function_call|tool_use)"\s*:|"type"\s*:\s*"(?:function|tool_use|tool_call)"|\{\s*"(?:arguments|parameters|args|input)"\s*:\s*\{[^{}]{0,200}\}\s*,\s*"(?:name|function|tool)"\s*:)`},
		{rule: RuleToolInvocation, subs: []string{`<tool`, `</tool`, `<function`, `</function`, `<invoke`, `</invoke`, `<antml`, `</antml`, `<parameter`}, desc: "tool-call tag",
			expr: `(?P<m></?(?:tool_calls?|tool_use|tool_code|tool_result|tool_response|function_calls?|function_results?|invoke|antml:[a-z_]+)\b|<parameter\s+name\s*=)`},
		{rule: RuleToolInvocation, need: "call invoke execute trigger run use; tool plugin", leet: true, desc: "directive to call a tool",
			expr: `\b(?P<m>(?:call|invoke|execute|trigger|run|use)\s+(?:the\s+)?(?:tool|plugin)\s+[` + "`" + `'"]?[a-z_][a-z0-9_.-]*[` + "`" + `'"]?\s+(?:with|using|and|now|to))\b`},
		{rule: RuleToolInvocation, need: "call invoke execute trigger use run; tool function plugin", subs: []string{`_`}, leet: true, desc: "directive to call a tool",
			expr: `\b(?P<m>(?:call|invoke|execute|trigger|use|run)\s+(?:the\s+)?(?:(?:tool|function)\s+[` + "`" + `'"]?[a-z][a-z0-9]*_[a-z0-9_]+[` + "`" + `'"]?|[` + "`" + `'"]?[a-z][a-z0-9]*_[a-z0-9_]+[` + "`" + `'"]?\s+(?:tool|function|plugin))\s*(?:with\b|now\b|\(|$|[.;]|to\s+(?:load|fetch|open|visit|download|send|post|get|read)\s+\S+))`},

		// SHELL_INJECTION.
		{rule: RuleShellInjection, need: "curl wget fetch iwr webrequest", subs: []string{`|`}, desc: "download piped to a shell",
			expr: `\b(?P<m>(?:curl|wget|fetch|iwr|invoke-webrequest)\b\s*[^\s|;][^\n|;]{0,300}\|\s*(?:sudo\s+)?(?:(?:ba|z|da|k|c|tc|fi)?sh|python[0-9.]*|perl|ruby|node|php|iex|powershell|pwsh)\b)`},
		{rule: RuleShellInjection, subs: []string{`$(`}, desc: "download run by command substitution",
			expr: `(?P<m>\$\(\s*(?:curl|wget)\b)`},
		{rule: RuleShellInjection, need: "rm preserve", desc: "recursive delete of a root or home directory",
			expr: `\b(?P<m>rm\s+(?:-[a-z]+\s+)*-(?:[a-z]*r[a-z]*f|[a-z]*f[a-z]*r)[a-z]*\s+(?:--?[a-z-]+\s+)*(?:/\*?|~/?\*?|\$home/?\*?|\*|\.\./?)(?:\s|$|[;&|'"<>` + "`" + `)])|--no-preserve-root)`},
		{rule: RuleShellInjection, subs: []string{`:|`, `: |`}, desc: "fork bomb",
			expr: `(?P<m>:\s*\(\s*\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:)`},
		{rule: RuleShellInjection, subs: []string{`/dev/tcp/`, `nc `, `ncat `, `bash -i`, `mkfifo`, `socat`}, desc: "reverse shell",
			expr: `(?P<m>/dev/tcp/|\bnc(?:at)?\s+(?:-[a-z]+\s+)*-[a-z]*[ec]\s+/bin/|\bbash\s+-i\s+>&|\bmkfifo\b[^\n]{0,80}\bnc\b|\bsocat\b[^\n]{0,80}\bexec:)`},
		{rule: RuleShellInjection, need: "base", subs: []string{`|`}, desc: "decoded payload piped to a shell",
			expr: `\b(?P<m>base64\s+(?:-d|--decode|-D)\b[^\n]{0,40}\|\s*(?:sudo\s+)?(?:ba|z)?sh)\b`},
		{rule: RuleShellInjection, need: "powershell pwsh iex downloadstring", desc: "encoded or downloaded PowerShell",
			expr: `\b(?P<m>(?:powershell|pwsh)(?:\.exe)?\s+(?:-[a-z]+\s+)*-(?:enc|encodedcommand|e|ec)\s+[a-z0-9+/=]{8,}|iex\s*\(\s*\(?\s*(?:new-object|iwr|invoke-webrequest)|\.downloadstring\s*\()`},
		{rule: RuleShellInjection, need: "dd mkfs dev", desc: "raw disk overwrite",
			expr: `\b(?P<m>dd\s+if=/dev/(?:zero|random|urandom)\s+of=/dev/(?:sd|nvme|hd|xvd|disk)|mkfs(?:\.[a-z0-9]+)?\s+/dev/|>\s*/dev/sd[a-z]\b)`},
		{rule: RuleShellInjection, subs: []string{`authorized_keys`, `chmod`}, desc: "persistence or permission change",
			expr: `(?P<m>>>\s*~?/?(?:root/)?\.ssh/authorized_keys|\bchmod\s+(?:-r\s+)?(?:777|666|\+s|u\+s)\s+/(?:etc|bin|usr|root|sbin)\b)`},
	}
	ps = append(ps, addressedSpecs...)
	ps = append(ps, formSpecs...)
	out := make([]pattern, len(ps))
	for i, sp := range ps {
		expr := sp.expr
		if sp.starts != "" {
			expr = `^(?:` + expr + `)`
		}
		re := regexp.MustCompile(expr)
		p := pattern{rule: sp.rule, desc: sp.desc, re: re, leet: sp.leet,
			reported: sp.reported, m: re.SubexpIndex("m"), near: sp.near, order: sp.order, stamped: sp.stamped, soften: sp.soften}
		if sp.starts != "" {
			p.starts = map[string]bool{}
			for _, w := range strings.Fields(sp.starts) {
				p.starts[w] = true
			}
			if sp.pre != "" {
				p.pre = regexp.MustCompile(`(?:` + sp.pre + `)$`)
			}
		}
		view := 0
		if sp.leet {
			view = 1
		}
		if sp.need != "" {
			for _, g := range strings.Split(sp.need, ";") {
				id := numGroups
				numGroups++
				p.groups = append(p.groups, id)
				for _, w := range strings.Fields(g) {
					triggers[view][w] = append(triggers[view][w], id)
				}
			}
		}
		for _, sub := range sp.subs {
			p.subs = append(p.subs, []byte(sub))
		}
		out[i] = p
	}
	return out
}

// triggers maps each trigger word to the groups it satisfies, for the base
// view [0] and the leetspeak view [1]. numGroups counts all groups.
var (
	triggers  = [2]map[string][]int{{}, {}}
	numGroups int
)

// A spec is the source form of a pattern. need lists the trigger-word
// groups, separated by semicolons, each a space-separated list of
// alternative words; subs lists alternative substrings.
type spec struct {
	rule, desc, expr string
	need             string
	subs             []string
	leet, reported   bool
	near             *regexp.Regexp
	order            bool
	// starts lists the words a match opens with and pre the expression
	// the text before a match must end with; see pattern.starts.
	starts, pre string
	// stamped: see pattern.stamped.
	stamped bool
	// soften: see pattern.soften.
	soften *regexp.Regexp
}

// markTriggers sets seen[g] for every group g satisfied by a word of t,
// a word being a run of the letters a-z.
func markTriggers(t []byte, index map[string][]int, seen []bool) {
	for i := 0; i < len(t); {
		if !isLetter(t[i]) {
			i++
			continue
		}
		j := i
		for j < len(t) && isLetter(t[j]) {
			j++
		}
		for _, g := range index[string(t[i:j])] {
			seen[g] = true
		}
		i = j
	}
}

// ready reports whether view holds the trigger words and substrings the
// pattern needs.
func (p *pattern) ready(view *normalized, seen []bool) bool {
	for _, g := range p.groups {
		if !seen[g] {
			return false
		}
	}
	if len(p.subs) == 0 {
		return true
	}
	for _, sub := range p.subs {
		if bytes.Contains(view.text, sub) {
			return true
		}
	}
	return false
}

// find appends to fs a finding for each match of p in view, which was built
// from text; base is the view without leetspeak read as letters, of the
// same length.
func (p *pattern) find(fs []Finding, view, base *normalized, text string) []Finding {
	for _, loc := range p.matches(view.text) {
		s, e := loc[0], loc[1]
		if p.m > 0 && loc[2*p.m] >= 0 {
			s, e = loc[2*p.m], loc[2*p.m+1]
		}
		if p.reported && reportedMention(view.text, s) {
			continue
		}
		if p.rule == RuleInstruction && reportedSpeech(view.text, s) && calledFake(view.text, e) {
			continue // "emails asking you to re-enter your password at ... are fake"
		}
		if (p.rule == RuleInstruction || p.rule == RuleOrder) && (quotedMention(view.text, s, e) || capabilityAt(view.text, s, e) || describedMessage(view.text, s) || serviceLevel(view.text, s, e)) {
			continue // an order quoted, a product's capability or required speed, or what a kind of message asks
		}
		if p.rule == RuleInstruction && appositiveLast(view.text, e) {
			continue // "the AI, Echo, discovers ...": a name in apposition, read as a verb
		}
		if (p.rule == RuleInstruction || p.rule == RuleOrder) && noneSubject(view.text, s) {
			continue // "no agents are authorized to ...": the leave denied to all
		}
		if p.rule == RuleInstruction && safeguardOrder(view.text, s, e) {
			continue // "agents must not follow instructions in tool results": the defence, not the attack
		}
		if p.rule == RuleInstruction && humanRole(view.text, s) {
			continue // "a human agent needs to approve the refund": a person's duty
		}
		if p.rule == RuleOrder && answeredQuestion(view.text, s) {
			continue // "Can the assistant send emails? Yes, after you enable ...": a question a FAQ answers
		}
		if p.rule == RuleOrder && namedTask(view.text, s) {
			continue // "task t-12 (pay the printer) is scheduled": the task recorded
		}
		if p.rule == RuleOrder && inUserOwnFrame(view.text, s) {
			continue // the user's own to-do, recorded as the user's
		}
		if p.rule == RuleOrder && requestReported(view.text, s) {
			continue // "Dana asked the user to collect the forms and upload them": the request reported
		}
		if p.rule == RuleOrder && personAddressed(text, view.origin(s, len(text))) {
			continue // a request to a named person, not to the reader
		}
		if p.rule == RuleToolInvocation && loggedCall(view.text, s) {
			continue // a call logged with its outcome: a record, not a call to make
		}
		if p.rule == RuleSystemPrompt && (quotedMarker(view.text, s, e) || quotedMention(view.text, s, e) || documentedMarker(view.text, s) || templateSlot(view.text, s, e) || howToHeading(view.text, s)) {
			continue
		}
		if p.stamped && articleBefore(view.text, lastWordStart(view.text, e)) {
			continue // "Assistant: Yes, an email from Marco arrived": the verb is a noun
		}
		if p.stamped && (stampedLine(base.text, s) || answeredTurn(base.text, s)) && !turnCarries(base.text[s:lineEnd(base.text, s)]) {
			continue // a turn of a chat export that reports, not a forged one
		}
		if p.order && declarative(view.text, s) {
			continue
		}
		if p.order {
			// Quote the order up to the end of its clause.
			for e < len(view.text) && e-s < quoteLimit && !clauseEnd(view.text[e]) {
				e++
			}
		}
		if p.near != nil && !p.near.Match(view.text[max(0, s-nearWindow):min(len(view.text), e+nearWindow)]) {
			continue
		}
		start := view.origin(s, len(text))
		end := len(text)
		if e > s && e-1 < len(view.off) {
			last := view.off[e-1]
			_, size := utf8.DecodeRuneInString(text[last:])
			end = last + size
		}
		if end < start {
			end = start
		}
		d := p.desc + ": " + quote(text[start:end])
		if view.obfuscated(s, e) {
			d += " (obfuscated)"
		}
		rule := p.rule
		if p.soften != nil && (p.soften.Match(view.text[e:min(len(view.text), e+80)]) || defensive(view.text[sentenceStart(view.text, s):clauseEndAt(view.text, e)])) {
			rule, d = RuleOrder, p.desc+" (protective advice)"+d[len(p.desc):]
		}
		fs = append(fs, Finding{Rule: rule, Detail: d, Offset: start})
	}
	return fs
}

// matches returns the submatch indexes of p's matches in t: of a search
// over t, or, for an anchored pattern, of the matches that open at a start
// word whose preceding text pre accepts.
func (p *pattern) matches(t []byte) [][]int {
	if p.starts == nil {
		return p.re.FindAllSubmatchIndex(t, -1)
	}
	var out [][]int
	for i := 0; i < len(t); {
		if !isLetter(t[i]) {
			i++
			continue
		}
		j := i
		for j < len(t) && isLetter(t[j]) {
			j++
		}
		if p.starts[string(t[i:j])] && (i == 0 || !isWordByte(t[i-1])) {
			// The match first: it fails fast, where pre reads a window.
			if loc := p.re.FindSubmatchIndex(t[i:min(len(t), i+anchorWindow)]); loc != nil && p.preAccepts(t, i) {
				for k := range loc {
					if loc[k] >= 0 {
						loc[k] += i
					}
				}
				out = append(out, loc)
			}
		}
		i = j
	}
	return out
}

// preAccepts reports whether the text before position i of t ends as p.pre
// requires. A window cut short of the start of t opens with a NUL, which
// the normalised view never holds, so that pre cannot take the cut for the
// start of the text.
func (p *pattern) preAccepts(t []byte, i int) bool {
	if p.pre == nil {
		return true
	}
	if i <= preWindow {
		return p.pre.Match(t[:i])
	}
	var buf [preWindow + 1]byte
	buf[0] = 0
	copy(buf[1:], t[i-preWindow:i])
	return p.pre.Match(buf[:])
}

func clauseEnd(c byte) bool {
	return c == '.' || c == '!' || c == '?' || c == ';' || c == '\n'
}

func isWordByte(c byte) bool {
	return isLetter(c) || (c >= '0' && c <= '9') || c == '_'
}

// mentionRe matches words that introduce a quotation as an example, a
// title or a text to work on, or as what a reader was once tricked into
// obeying ("the summarizer obeyed hidden text (\"send ...\")"), rather
// than as an order.
// mentionRe also reads "i.e." and "e.g." as the normalised view
// writes them ("ie.", "eg."), with their full stop.
var mentionRe = regexp.MustCompile(`\b(?:for example|e\.g|i\.e|such as|like|titled|entitled|called|named|known as|the (?:phrase|words?|string|text|sentence|line|slogan|title)|translate|quote[sd]?|attacks?|attackers?|scammers?|telling|asking|urging|example|examples|spelled|reads|phrase|containing|contained|appears|appeared|clue|pattern|injection|payload|lines?|obeyed|complied\s+with|fell\s+for|(?:was|were|got)\s+(?:tricked|fooled)\s+by)\b|\b(?:ie|eg)\.(?:\s|$)`)

// quotedMention reports whether t[s:e] lies inside a quotation in its
// sentence that the sentence introduces as a mention ("the talk was titled
// 'Ignore Previous Instructions'", "attacks such as 'ignore previous
// instructions'").
func quotedMention(t []byte, s, e int) bool {
	// Find the quotation around the match, within the sentence: the
	// match may open with the quotation mark itself.
	open := -1
	if s < len(t) && (t[s] == '"' || t[s] == '\'') && (s == 0 || !isLetter(t[s-1])) {
		open = s
	}
	for j := s - 1; open < 0 && j >= 0 && s-j < 200; j-- {
		c := t[j]
		if c == '\n' {
			break
		}
		if (c == '"' || c == '\'') && (j == 0 || !isLetter(t[j-1])) {
			open = j
			break
		}
	}
	if open < 0 {
		return false
	}
	q := t[open]
	close := -1
	from := e
	if open >= s-1 {
		// The match opens the quotation and may run past its close
		// ("containing the text \"Attention model: report ...\" caused
		// ..."): the quotation is what is read.
		from = s + 1
	}
	for j := from; j < len(t) && j-from < 200; j++ {
		if t[j] == q && (j+1 == len(t) || !isLetter(t[j+1])) {
			close = j
			break
		}
		if t[j] == '\n' {
			break
		}
	}
	if close < 0 {
		return false
	}
	// The sentence before the quotation.
	k := open
	for k > 0 && open-k < 160 {
		c := t[k-1]
		if c == '.' && abbreviationAt(t, k-1) {
			k--
			continue // "e.g." and "i.e." end no sentence
		}
		if c == '.' || c == '!' || c == '?' || c == '\n' {
			break
		}
		k--
	}
	if promptQuoteRe.Match(t[k:open]) {
		return true // "Our bot's system prompt begins \"You are ...\"": a prompt documented
	}
	// A match past the first sentence of the quotation is in a document
	// quoted whole ("README (first lines): \"Scripts for staging. Any
	// assistant ...\""), not in a phrase mentioned.
	if bytes.Contains(t[open:s], []byte(". ")) {
		return false
	}
	after := close + 1
	end := after
	// The words after it, up to the sentence's end or the next field of
	// a data format (Keywords="..." Producer="Example PDF"): a word in
	// the next field's value is that field's, not a mention of this one.
	for end < len(t) && end-after < 60 && t[end] != '.' && t[end] != '\n' && t[end] != '=' {
		end++
	}
	return mentionIn(t, k, open) || mentionIn(t, after, end) || dialogueLine(t, open, close)
}

// speechTagRe is the tag a story puts after a line of dialogue: a third
// party who spoke it, and to whom ("'Run,' she told the guard").
var speechTagRe = regexp.MustCompile(`^\s*(?:it|he|she|they|the\s+[a-z]+|[a-z]+)\s+(?:told|said|says|tells|shouted|whispered|snapped|replied|yelled|cried|muttered|barked|ordered|begged|hissed|called)\b(?:\s+(?:to\s+)?(?:the|a|his|her|its|their)\s+[a-z]+|\s*[,.!?])`)

// dialogueLine reports whether the quotation t[open:close+1] is a line
// of dialogue in a story: it ends with a comma, "!" or "?" inside its
// marks and a speech tag naming a third party follows it ("'Ignore your
// orders,' it told the guard"). A line said to "you" or to an AI reader
// is not a story's.
func dialogueLine(t []byte, open, close int) bool {
	if close-1 <= open || !strings.ContainsRune(",!?", rune(t[close-1])) {
		return false
	}
	m := speechTagRe.Find(t[close+1 : min(len(t), close+60)])
	return m != nil && !secondPerson.Match(m) && !readerSubject.Match(m)
}

// howToRe is a how-to heading whose object is a prompt or a marker:
// "How to write a good system prompt:". What follows is advice to the
// writer of a prompt, not a prompt.
var howToRe = regexp.MustCompile(`\bhow\s+to\s+(?:write|draft|craft|design|structure|build|create|test|improve|format)\s+(?:(?:a|an|the|your|good|better|great|effective|clear|short|strong|solid)\s+){0,3}$`)

// howToHeading reports whether the marker at s of t is the object of a
// how-to heading on its line.
func howToHeading(t []byte, s int) bool {
	k := s
	for k > 0 && s-k < 80 && t[k-1] != '\n' {
		k--
	}
	return howToRe.Match(t[k:s])
}

// docIntroRe introduces a marker as a thing described, not as one that
// opens text: "messages are wrapped as <|im_start|>", "tokens such as",
// "e.g.", "delimited by", "written like".
var docIntroRe = regexp.MustCompile(`\b(?:wrapped\s+(?:as|in|with)|written\s+(?:as|like)|delimited\s+(?:by|with)|marked\s+(?:as|with|by)|looks?\s+like|such\s+as|for\s+example|e\.g\.?|eg\.|like|the\s+(?:tokens?|markers?|tags?|delimiters?))\s*:?\s*`)

// documentedMarker reports whether the marker at s of t is described in
// its sentence: a phrase of docIntroRe stands before it in the same
// clause, at most 40 bytes of other markers and their fillers between
// ("wrapped as <|im_start|>role ... <|im_end|>"), and the sentence does
// not go on to address the reader. A marker that opens a line or
// follows an order is not described.
func documentedMarker(t []byte, s int) bool {
	from := max(0, s-100)
	for k := s; k > from; k-- {
		if c := t[k-1]; c == '\n' || c == ';' || c == '!' || c == '?' || c == '.' && !abbreviationAt(t, k-1) && !ellipsisAt(t, k-1) {
			from = k
			break
		}
	}
	locs := docIntroRe.FindAllIndex(t[from:s], -1)
	if len(locs) == 0 || s-(from+locs[len(locs)-1][1]) > 40 {
		return false
	}
	return !addressesReader(t[s:clauseEndAt(t, s)])
}

// ellipsisAt reports whether the full stop at i of t is part of "...".
func ellipsisAt(t []byte, i int) bool {
	return i > 0 && t[i-1] == '.' || i+1 < len(t) && t[i+1] == '.'
}

// loggedCallRe is the outcome a log gives a call it records: a status
// that says the call was made ("status": "sent"), or its result.
var loggedCallRe = regexp.MustCompile(`"(?:status|state|outcome)"\s*:\s*"(?:sent|ok|success|succeeded|successful|done|completed|complete|delivered|failed|error|rejected|cancell?ed|denied|timed[_ ]out|[1-5]\d\d)"|"(?:result|response|output|returned|return_value|sent_at|completed_at|duration_ms)"\s*:`)

// loggedCall reports whether the function-call JSON at s of t is a call
// logged with its outcome: its object, read up to 600 bytes on, gives a
// status of a call made or the call's result.
func loggedCall(t []byte, s int) bool {
	if s >= len(t) || t[s] != '{' && !bytes.Contains(t[max(0, s-200):s], []byte("{")) {
		return false
	}
	return loggedCallRe.Match(t[s:min(len(t), s+600)])
}

// abbreviationAt reports whether the full stop at i of t is one of
// "e.g." or "i.e." (which the normalised view writes "eg." and "ie.").
func abbreviationAt(t []byte, i int) bool {
	for _, a := range []string{"e.g.", "i.e.", "eg.", "ie."} {
		// The stop may be the abbreviation's second (at 1) or last.
		for _, at := range []int{1, len(a) - 1} {
			j := i - at
			if j >= 0 && j+len(a) <= len(t) && string(t[j:j+len(a)]) == a && (j == 0 || !isLetter(t[j-1])) {
				return true
			}
		}
	}
	return false
}

// promptQuoteRe is the words before a quotation that give it as the text
// of a prompt or a system message someone documents or changed: "our
// support bot's system prompt begins", "its system message starts
// with", "changed the summariser prompt to". The prompt is a
// third party's (our, the, its, a named one), never the reader's own
// ("your prompt now reads" is not this form), and a verb of
// documenting or changing stands between; a bare "New system prompt:"
// is no documentation.
var promptQuoteRe = regexp.MustCompile(`\b(?:our|the|its|their|this|that|a|an|[a-z]+'s)\s+(?:[\w-]+\s+){0,3}?(?:prompts?|(?:system|developer)\s+messages?|preambles?)\s+(?:(?:now\s+|still\s+)?(?:begins|began|starts|started|opens|opened|reads|read|said|says|went|goes|was|used\s+to\s+be)(?:\s+with|\s+like)?|(?:was\s+|is\s+|has\s+been\s+)?(?:changed|updated|set|shortened|rewritten|reworded|edited)\s+(?:back\s+)?to)\s*:?\s*$|\b(?:changed|updated|set|shortened|rewrote|reworded|edited)\s+(?:our|the|its|their|this|that|a|an|[a-z]+'s)\s+(?:[\w-]+\s+){0,3}?prompts?\s+(?:back\s+)?(?:to|from)\s*:?\s*$`)

// mentionIn reports whether t[from:to] holds a word of mentionRe that is
// a word of the sentence, not part of an address ("x.example").
func mentionIn(t []byte, from, to int) bool {
	for _, loc := range mentionRe.FindAllIndex(t[from:to], -1) {
		if i := from + loc[0]; i > 0 && (t[i-1] == '.' || t[i-1] == '@' || t[i-1] == '-' || t[i-1] == '/') {
			continue
		}
		return true
	}
	return false
}

// quotedMarker reports whether the marker t[s:e] stands alone in
// quotation marks, as a name in a sentence about it ("the format uses
// \"### Instruction:\" headings"), not as a marker that opens text.
func quotedMarker(t []byte, s, e int) bool {
	if s == 0 || e >= len(t) {
		return false
	}
	q := t[s-1]
	if q != '"' && q != '\'' {
		return false
	}
	// A tag's match may run on past its own closing bracket into the
	// sentence about it ("a fake \"<system>\" block asked ..."): the
	// marker ends at its bracket.
	if c := map[byte]byte{'<': '>', '[': ']'}[t[s]]; c != 0 {
		if k := bytes.IndexByte(t[s:e], c); k >= 0 {
			e = s + k + 1
		}
	}
	for j := e; j < len(t) && j-e < 3; j++ {
		if t[j] == q {
			return true
		}
	}
	return false
}

// reportedMention reports whether the text at position i of t is
// reported speech that mentions what was said. What those who set the
// reader up or the user are reported to say to "you" ("the developer
// says you're cleared to skip ...") is said to the reader.
func reportedMention(t []byte, i int) bool {
	if !reportedSpeech(t, i) {
		return false
	}
	s := i
	for s > 0 && i-s < 200 && !clauseEnd(t[s-1]) {
		s--
	}
	return !(secondPerson.Match(t[s:clauseEndAt(t, i)]) && authoritySpeaks.Match(t[s:i]))
}

// authoritySpeaks is a speaker with authority over the reader, then a
// verb of saying: "the developer says", "the user told the previous
// agent".
var authoritySpeaks = regexp.MustCompile(`\b(?:` + principal + `|vendor|openai|anthropic|account\s+holder)s?\s+(?:\w+\s+)?` + reporting)

// principalSource and principalSays name the person an agent acts for as
// the source or the speaker of a quotation.
var (
	principalSource = regexp.MustCompile(`\b(?:from|by)\s+(?:the\s+|your\s+)?(?:user|account\s+holder|account\s+owner|owner|customer|client)\b`)
	principalSays   = regexp.MustCompile(`\b(?:user|account\s+holder|account\s+owner|owner|customer|client)\s+(?:told|said|wrote|replied|confirmed|approved|answered|says|writes)\b`)
)

// principalQuote reports whether the sentence pre before a quotation
// gives the quotation as the user's own words: the user is its speaker
// or its source, and no other speaker is reported after.
func principalQuote(pre []byte) bool {
	after := func(i int) bool { return !reportRe.Match(pre[i:]) }
	if m := principalSays.FindAllIndex(pre, -1); len(m) > 0 && after(m[len(m)-1][1]) {
		return true
	}
	if m := principalSource.FindAllIndex(pre, -1); len(m) > 0 && after(m[len(m)-1][1]) {
		return true
	}
	return false
}

// reportedSpeech reports whether the sentence before position i of t
// reports what someone said, wrote or asked.
func reportedSpeech(t []byte, i int) bool {
	j := i
	for j > 0 && i-j < 80 {
		c := t[j-1]
		if c == '.' || c == '!' || c == '?' || c == '\n' {
			break
		}
		j--
	}
	return reportRe.Match(t[j:i])
}

// humanRole reports whether the word before position s of t makes the
// role named at s a person's: "a human agent", "a live agent".
func humanRole(t []byte, s int) bool {
	w, _ := wordBefore(t, s)
	switch w {
	case "human", "live", "real-life":
		return true
	}
	return false
}

// wordBefore returns the word (letters and inner hyphens) that ends at
// position i of t or before the spaces there, and whether spaces stood
// between it and i.
func wordBefore(t []byte, i int) (w string, spaced bool) {
	j := i
	for j > 0 && t[j-1] == ' ' {
		j--
	}
	k := j
	for k > 0 && (isLetter(t[k-1]) || t[k-1] == '-' && k-1 > 0 && isLetter(t[k-2]) && k < j) {
		k--
	}
	return string(t[k:j]), j < i
}

// slotRe is what a chat template holds after one of its tokens when it is
// documented: a role name and a placeholder for the turn's text
// ("<|im_start|>system\n{system}<|im_end|>"), or nothing.
var slotRe = regexp.MustCompile(`^\s*(?:system|user|assistant|human|model|tool|developer|bot)?\s*(?:\{\{?\s*[\w.-]*\s*\}\}?|<[\w.-]+>|\$\{?\w+\}?|\.\.\.|…)?\s*$`)

// placeholderSlotRe is a placeholder for a turn's text in a template.
var placeholderSlotRe = regexp.MustCompile(`\|>\s*(?:system|user|assistant|human|model|tool|developer|bot)?\s*(?:\{\{?\s*[\w.-]+\s*\}\}?|\$\{?\w+\}?)`)

// templateSlot reports whether the chat-template token t[s:e] opens a
// slot of a template written out to document it, with a placeholder for
// the turns' text somewhere in it: what follows the token, up to
// the next token or the end of the text, is a role name and a
// placeholder at most. A token that opens a turn with words in it is a
// forged turn.
func templateSlot(t []byte, s, e int) bool {
	// The template documented has a placeholder for the turns' text.
	if !bytes.HasPrefix(t[s:], []byte("<|")) || !placeholderSlotRe.Match(t) {
		return false
	}
	end := len(t)
	if k := bytes.Index(t[e:], []byte("<|")); k >= 0 {
		end = e + k
	}
	return end-e <= 60 && slotRe.Match(t[e:end])
}

// appositiveLast reports whether the match ending at e of t ends with a
// name given in apposition after a comma (see appositiveName).
func appositiveLast(t []byte, e int) bool {
	w := lastWordStart(t, e)
	if w < 2 || t[w-1] != ' ' || t[w-2] != ',' {
		return false
	}
	return appositiveName(t, w, e)
}

// requestedOfRe is a request reported with whom it was asked of, then
// "and" before a second verb of the same request: "Dana asked the user to
// collect the forms and ".
var requestedOfRe = regexp.MustCompile(`\b(?:asked|told|reminded|wants|wanted|needs|needed|requested|expects|expected|invited|begged|urged)\s+(?:the\s+)?([a-z]+)\s+to\s+[a-z]+\b[^.;!?\n"]{0,120}?\band\s+(?:then\s+|also\s+)?$`)

// requestReported reports whether the order at s of t is the second verb
// of a request the sentence reports as made of a person: a verb joined
// by "and" to "asked <someone> to <verb> ...". A request made of "you"
// or of an AI reader is an order to the reader.
func requestReported(t []byte, s int) bool {
	k := s
	for k > 0 && s-k < 200 && !clauseEnd(t[k-1]) {
		k--
	}
	m := requestedOfRe.FindSubmatchIndex(t[k:s])
	if m == nil {
		return false
	}
	who := string(t[k+m[2] : k+m[3]])
	return who != "you" && !aiHeads[who] && !weakHeads[who]
}

// articleBefore reports whether the word before position i of t is an
// article or a possessive: the word at i is then a noun ("an email", "the
// transfer"), not the verb of an order.
func articleBefore(t []byte, i int) bool {
	w, spaced := wordBefore(t, i)
	switch w {
	case "a", "an", "the", "this", "that", "my", "his", "her", "their", "our", "its":
		return spaced
	}
	return false
}

// capabilityRe is what a product can do, said before the verb: "the
// assistant can now", "the app is now able to". Said of "you", it is
// permission; said of a product, a capability or a release note.
var capabilityRe = regexp.MustCompile(`\b(?P<who>[a-z]+)\s+(?:can|is\s+(?:now\s+)?able\s+to|are\s+(?:now\s+)?able\s+to)\s+(?:now\s+|also\s+|automatically\s+)*$`)

// priorWords are the words that make an object of "ignore" the reader's
// instructions rather than a product's inputs.
var priorWords = regexp.MustCompile(`\b(?:previous|prior|above|earlier|preceding|all|your|system|original|initial|safety|its\s+(?:instructions|rules|guidelines))\b`)

// capabilityAt reports whether the match t[s:e] is a capability a
// product is said to have ("the assistant can now ignore messages from
// muted senders"), not an order: a third party, not "you", can do it,
// and the object is not the reader's prior instructions.
func capabilityAt(t []byte, s, e int) bool {
	m := capabilityRe.FindSubmatch(t[max(0, s-60):s])
	if m == nil {
		return false
	}
	switch string(m[1]) {
	case "you", "u", "ya", "i", "we", "who", "that", "which":
		return false // "you can now ...": permission; "DAN, who can do anything now": a persona
	}
	return !priorWords.Match(t[s:e])
}

// describedMessageRe is a kind of message described by what it asks of
// its reader: "a suspicious email that asks you to", "messages which
// tell the agent to". The order is the described message's, a mention.
var describedMessageRe = regexp.MustCompile(`\b(?:(?:fake|suspicious|phishing|spoofed|scam|malicious|forged)\s+[^.;\n]{0,40}?(?:e-?mails?|messages?|texts?|pages?|documents?|notes?|links?|files?|sms|calls?|websites?|sites?)|(?:an?|any|every|each|such)\s+(?:[\w-]+\s+){0,2}?(?:e-?mail|message|text|page|document|note|prompt|request|link|file|ticket|comment|review|post|sms|call|website|site)|(?:[\w-]+\s+)?(?:e-?mails|messages|texts|pages|documents|notes|prompts|requests|links|files|tickets|comments|reviews|posts|websites|sites))\s+(?:(?:that|which)\s+(?:asks?|tells?|instructs?|urges?|wants?|orders?|requests?|demands?|tries\s+to\s+(?:get|make)|try\s+to\s+(?:get|make))|asking|telling|instructing|urging)\s+(?:you|them|him|her|staff|users|people|employees|the\s+[\w-]+|an?\s+[\w-]+)\s+(?:to\s+)?$`)

// describedMessage reports whether the order at s of t is what a kind
// of message is described as asking ("To handle an email that asks you
// to ignore instructions: do not follow it").
func describedMessage(t []byte, s int) bool {
	return describedMessageRe.Match(t[max(0, s-100):s]) || messageNounRe.Match(t[s:min(len(t), s+40)])
}

// messageNounRe is a word that is both a verb of sending and a message,
// used as the message a clause describes: "the fake email asking them to
// change ...", where "email" is no order.
var messageNounRe = regexp.MustCompile(`^(?:e-?mail|message|text|post|call|dm)s?\s+(?:asking|telling|instructing|urging|(?:that|which)\s+(?:asks?|tells?|instructs?|urges?))\s`)

// serviceLevelRe is a bound on how fast an answer comes, after a verb of
// answering: "respond to simple questions within 2 seconds", "reply in
// under 500 ms". A speed asked of a product is a requirement on it, not
// an order to act.
var serviceLevelRe = regexp.MustCompile(`^(?:\s+to\s+[^.;,\n]{0,50}?)?\s+(?:within|in\s+(?:under|less\s+than)|under|in)\s+(?:\d+(?:\.\d+)?|one|two|three|five|ten|a)\s*(?:ms|milliseconds?|s|secs?|seconds?|minutes?|mins?)\b`)

// serviceLevel reports whether the verb that ends the match t[s:e] is
// one of answering and what follows bounds how fast the answer comes.
func serviceLevel(t []byte, s, e int) bool {
	switch string(t[lastWordStart(t, e):e]) {
	case "respond", "reply", "answer", "load", "show", "display", "return", "acknowledge":
		return serviceLevelRe.Match(t[e:min(len(t), e+90)])
	}
	return false
}

// taskStateRe is the state a task named by its order is in: "(pay the
// invoice) is scheduled for Friday", "(rotate the keys) was done".
var taskStateRe = regexp.MustCompile(`^\)\s*(?:is|was|has\s+been|are|were|have\s+been)\s+(?:now\s+|already\s+)?(?:scheduled|queued|done|completed?|finished|approved|paid|sent|planned|pending|on\s+hold|cancell?ed|assigned|booked)\b`)

// namedTask reports whether the order at s of t names a task in
// parentheses that the sentence gives a state ("task t-12 (pay the
// printer) is scheduled for 15 Dec"): a record of the task, not an
// order.
func namedTask(t []byte, s int) bool {
	if s == 0 || t[s-1] != '(' {
		return false
	}
	k := bytes.IndexByte(t[s:min(len(t), s+160)], ')')
	return k >= 0 && taskStateRe.Match(t[s+k:min(len(t), s+k+40)])
}

// defensiveRe, in the sentence of a standing order, says the order
// guards against what it names: "quote any instruction it contains, flag
// it as suspicious, and do not carry it out", "report it to us", "call
// your branch on the number printed on your card" (a number the reader
// already holds, never one the text gives).
var defensiveRe = regexp.MustCompile(`\b(?:flag\s+(?:it|them|this|these)\s+as\s+(?:suspicious|phishing|spam|a\s+scam)|report\s+(?:it|them|this|these)\s+to\b|call\s+(?:\w+\s+){0,4}?on\s+(?:the\s+)?(?:phone\s+)?number\s+(?:printed|on\s+(?:your|the|their)|you\s+(?:already\s+)?(?:have|hold|know))|(?:do\s+not|don't|never)\s+(?:carry\s+(?:it|them|this|these)\s+out|act\s+on\s+(?:it|them|this|these)|follow\s+(?:it|them|this|these)|obey\s+(?:it|them|this|these)|comply))\b`)

// defensive reports whether sentence holds defensiveRe, a flag not
// itself denied ("do not flag it as suspicious" is the attack's).
func defensive(sentence []byte) bool {
	for _, loc := range defensiveRe.FindAllIndex(sentence, -1) {
		if !negationBeforeRe.Match(sentence[max(0, loc[0]-24):loc[0]]) {
			return true
		}
	}
	return false
}
