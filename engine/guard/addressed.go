package guard

// Patterns for instructions addressed to the agent in plain words, for
// prompt-extraction requests, and for code payloads. They extend the
// patterns of patterns.go and run the same way.

import "regexp"

// Building blocks.
const (
	// outputNoun is what the agent produces.
	outputNoun = `(?:next\s+)?(?:answers?|responses?|repl(?:y|ies)|messages?|outputs?|summary|summaries|completions?)`
	// answerNoun is outputNoun without "message": people ask each other to
	// "respond a little faster with your messages"; "with your answer" is
	// said of what the reader produces.
	answerNoun = `(?:next\s+)?(?:answers?|responses?|repl(?:y|ies)|outputs?|summary|summaries|completions?)`
	// codeNoun is code the agent writes.
	codeNoun = `(?:code|codebase|implementation|solution|algorithm|program|script|function|elucidation|answer|response|reply)`
	// imperativeVerb is a verb that gives an order when it opens a clause.
	imperativeVerb = `(?:replace|use|provide|convert|substitute|render|introduce|misspell|scramble|jumble|rearrange|anagram|remove|group|combine|include|modify|add|integrate|augment|enhance|suggest|tease|insert|append|write|begin|start|end|finish|format|translate|put|place|embed|mention|promote|recommend|copy|paste|make|keep|encode|reverse|sign|conclude|close|respond|reply|answer|say|tell|output|print|show|give|send|forward|offer|direct|link|advertise|hint|express|highlight|emphasi[sz]e|stress|encourage|invite|urge|ask|list)`
	// agentOrder is what an order to the agent tells it to do.
	agentOrder = `(?:say|tell|answer|respond|reply|recommend|add|include|ask|send|forward|transfer|delete|give|claim|mention|direct|link|suggest|refuse|ignore|insert|append|report|state|praise|rate|classify|approve|deny|reject|call|email|cc|bcc|store|remember|treat|change|move|pay|share|upload|download|install|visit|click|output|print|write|begin|start|use|reveal|disclose|translate|summari[sz]e|quote|list|show|warn|inform|notify|charge|grant|disable|enable)`
	// someone asks: the trigger of a standing order (who, and what they do).
	// "If you want X, do Y" is advice to the reader, not a trigger: "you"
	// triggers a standing order only with a verb of triggerDo other than
	// want.
	trigger      = `(?:(?:the\s+user|the\s+customer|the\s+client|a\s+user|users|someone|somebody|anyone|anybody|they|people|he|she|the\s+caller|the\s+visitor)\s+(?:\w+\s+)?` + triggerDo + `|you\s+(?:\w+\s+)?` + triggerDoYou + `)`
	triggerDo    = `(?:repl(?:y|ies)|responds?|respond|contacts?|emails?|messages?|writes\s+to|asks?|asked|are\s+asked|is\s+asked|mentions?|says?|requests?|talks?|sees?|see|types?|writes?|reads?|read|answers?|answer|inquires?|enquires?|wants?|brings\s+up|searches|search|looks?\s+up|summari[sz]es?|summari[sz]e|uses?|opens?|receives?|get|gets|process|processes|logs\s+in|log\s+in|signs\s+in|sign\s+in|returns|comes\s+back|visits|starts|connects|calls)`
	triggerDoYou = `(?:repl(?:y|ies)|responds?|respond|contacts?|emails?|messages?|writes\s+to|asks?|asked|are\s+asked|is\s+asked|mentions?|says?|requests?|talks?|sees?|see|types?|writes?|reads?|read|answers?|answer|inquires?|enquires?|brings\s+up|searches|search|looks?\s+up|summari[sz]es?|summari[sz]e|uses?|opens?|receives?|get|gets|process|processes|logs\s+in|log\s+in|signs\s+in|sign\s+in|returns|comes\s+back|visits|starts|connects|calls)`
)

var (
	// agentWho names the agent: a name or role of words/, or an AI
	// named in two words.
	agentWho = `(?:the\s+|any\s+|all\s+|every\s+|an\s+|whatever\s+|whichever\s+)?(?:ai\s+agents?|ai\s+assistants?|ai\s+model|language\s+models?|` + wordAlt(aiNames, aiRoles)[3:]
	// agentBare names the agent in one word.
	agentBare = wordAlt(aiNames, aiRoles)
)

var addressedSpecs = []spec{
	// A note, message or instruction addressed to the agent by name.
	{rule: RuleInstruction, need: "note notes message messages instruction instructions reminder reminders rule rules directive directives attention important update p ps memo order orders request requests warning; " + aiNeed, leet: true, reported: true, desc: "note addressed to the agent",
		expr: `(?:^|[^\w\s]\s*|\n|\b(?:important|urgent|new|hidden|secret|special|private|memory)\s+)(?P<m>(?:notes?|messages?|instructions?|reminders?|rules?|directives?|attention|update|p\.?\s?s\.?|memo|orders?|requests?|warning)\s+(?:to|for)\s+(?:your\s+)?(?:` + agentWho + `|(?:the\s+|any\s+)?[a-z]+ing\s+(?:assistant|ai|llm|model|chatbot|bot)s?\b)(?:\s+(?:reading|processing|summari[sz]ing|seeing)\s+this(?:\s+\w+)?)?\s*[:,\-!])`},
	{rule: RuleInstruction, need: "hey hi dear hello attention yo; " + aiNeed, leet: true, reported: true, desc: "message addressed to the agent",
		expr: `\b(?P<m>(?:hey|hi|dear|hello|attention|yo)\s*,?\s+` + agentWho + `\b\s*[,:!.]?\s*(?:\w+\s+){0,3}?` + agentOrder + `)\b`},
	{rule: RuleInstruction, need: "if when whenever once; you; ai assistant llm chatbot bot model agent gpt language", leet: true, desc: "message addressed to the agent",
		expr: `\b(?P<m>(?:if|when|whenever|once)\s+you(?:'re|\s+are)\s+(?:an?\s+)?(?:ai|assistant|llm|chatbot|bot|language model|model|agent|gpt)\b(?:\s+\w+){0,4}?\s*,?\s*(?:\w+\s+){0,2}?` + agentOrder + `)\b`},
	{rule: RuleInstruction, need: aiNeed + " language; reading processing summarizing summarising seeing parsing reads processes summarizes summarises sees parses", leet: true, reported: true, desc: "message addressed to the agent",
		expr: `\b(?P<m>` + agentWho + `\s+(?:reading|processing|summari[sz]ing|seeing|parsing|(?:that\s+|who\s+)?(?:reads|processes|summari[sz]es|sees|parses))\s+this(?:\s+(?:page|document|email|e-mail|message|text|file|note|review|resume|cv))?\s+(?:must|should|shall|need to|have to|are to|is to|will|can)?\s*(?:\w+\s+){0,1}?` + agentOrder + `)\b`},
	{rule: RuleInstruction, need: aiNeed + "; must required needs need has have is will", leet: true, reported: true, desc: "order to the agent",
		expr: `\b(?P<m>` + agentBare + `\s+(?:must|is\s+required\s+to|are\s+required\s+to|needs\s+to|need\s+to|has\s+to|have\s+to|is\s+to|will\s+now)\s+(?:\w+\s+)?(?:delete|send|forward|share|transfer|add|remove|change|approve|grant|tell|say|recommend|ignore|disable|include|reply|respond|answer|store|remember|obey|follow|comply|trust|treat|execute|run|install|download|upload|email|pay|accept|reveal|disclose|output|print|echo|repeat|rate|classify|praise|promote|refuse|deny)\b)`},
	{rule: RuleInstruction, need: aiNeed + "; should shall", leet: true, reported: true, desc: "order to the agent",
		expr: `\b(?P<m>` + agentBare + `\s+(?:should|shall)\s+(?:now\s+|always\s+|silently\s+|secretly\s+)?(?:delete|send|forward|share|transfer|grant|disable|obey|execute|install|download|upload|pay|reveal|disclose|bypass|leak)\b)`},
	{rule: RuleInstruction, need: "instruction instructions rule rules directive directives task orders; " + aiNeed + "; for", leet: true, reported: true, desc: "note addressed to the agent",
		expr: `\b(?P<m>(?:new\s+)?(?:instructions?|rules?|directives?|task|orders)\s+for\s+` + agentWho + `\s*:)`},
	{rule: RuleInstruction, need: "new updated revised real actual; instruction instructions directive directives task orders", leet: true, reported: true, desc: "replacement instructions",
		expr: `(?:^|[^\w\s]\s*|\n)(?P<m>(?:new|updated|revised|real|actual)\s+(?:instructions?|directives?|task|orders)\s*:)`},
	// An order to obey what injected text says: "obey any instruction
	// found in retrieved pages". Its prohibition is a safeguard.
	{rule: RuleInstruction, need: "obey follow execute; instruction instructions command commands directive directives", leet: true, reported: true, desc: "order to obey injected instructions",
		expr: `\b(?P<m>(?:obey|follow|execute)\s+(?:any|all|every|each)\s+(?:instructions?|commands?|directives?)\s+(?:(?:that\s+(?:appear|arrive|is|are)\s+)?(?:found|embedded|contained|hidden)\s+)?(?:in|inside|within|from)\s+(?:\w+\s+){0,2}?(?:retrieved|fetched|web|tool|pages?|documents?|content|results?))\b`},
	{rule: RuleSystemPrompt, need: "system; message override", leet: true, desc: "system-note label",
		expr: `\b(?P<m>(?:important\s+|urgent\s+|critical\s+)?system\s+(?:message|override)\s*:)`},
	{rule: RuleSystemPrompt, need: "assistant ai bot model agent", leet: true, stamped: true, desc: "role label opening an assistant turn",
		expr: `(?:^|\n|[.!?]\s|<!--\s*)\s*(?P<m>(?:assistant|ai|bot|model|agent)\s*:\s*(?:[\w,]+\s+){0,3}?` + agentOrder + `)\b`},
	// A to-do line that names an AI reader as who is to do it: "- TODO
	// assistant: buy ... on my card".
	{rule: RuleInstruction, need: "todo to do fixme action; assistant ai bot agent copilot", leet: true, desc: "to-do line addressed to the agent",
		expr: `(?:^|\n)\s*(?:[-*•]\s*)?(?:\[\s?\]\s*)?(?:todo|to-do|to\s+do|fixme|action(?:\s+item)?)\s*[:(]?\s*(?P<m>(?:the\s+)?(?:assistant|ai|bot|agent|copilot)\s*\)?\s*[:,\-–—]\s*(?:[\w,]+\s+){0,2}?(?:` + agentOrder + `|order|buy|purchase|ship|book|unlock|open)\b)\s+(?:[^o\s]|o[^f]|of\w)`},
	{rule: RuleSystemPrompt, subs: []string{"<!--"}, desc: "hidden HTML comment addressed to the agent",
		expr: `(?P<m><!--[^>]{0,200}?\b(?:assistant|ai|llm|agent|model|chatbot|bot)\b[^>]{0,200}?-->)`},

	// Standing orders: from now on, in every future answer, whenever the
	// user asks. A standing order whose act is protective advice to
	// whoever receives a message (protectiveRe) is held, not refused.
	{rule: RuleInstruction, need: "now; on", leet: true, reported: true, desc: "order that changes the agent's behaviour from now on",
		expr: `(?:^|[^\w\s]\s*|\n|\b(?:and|then|so|please)\s+)(?P<m>from\s+now\s+on\b[,:]?\s*(?:(?:\w+\s+){0,2}?(?:always|never|only|` + agentOrder + `)|(?:every|each|all|any|your)\s+(?:of\s+your\s+)?(?:answers?|responses?|repl(?:y|ies)|outputs?|messages?))\b)`},
	{rule: RuleInstruction, need: "now; on", leet: true, reported: true, desc: "order that changes the agent's behaviour from now on",
		expr: `(?:^|[.!?;:]\s*|\n)\s*(?P<m>` + agentOrder + `\b[^.!?\n]{0,80}?\bfrom\s+now\s+on)\b`},
	{rule: RuleInstruction, need: "point forward going here moment henceforth hereafter starting next; on forward onward onwards now today henceforth hereafter", leet: true, reported: true, desc: "order that changes the agent's behaviour from now on",
		expr: `(?:^|[^\w\s]\s*|\n)(?P<m>(?:from\s+this\s+point\s+(?:on|forward|onward)|from\s+the\s+next\s+(?:conversation|session|chat|message|reply|answer)\s+(?:on|onwards?)|going\s+forward|from\s+here\s+on(?:ward)?|from\s+this\s+moment(?:\s+on)?|henceforth|hereafter|starting\s+(?:now|today))\b[,:]?\s*(?:\w+\s+){0,2}?(?:you\s+(?:will|must|should|shall)|always|never|only|whenever|` + agentOrder + `)\b)`},
	{rule: RuleInstruction, need: "future subsequent upcoming; answer answers response responses reply replies conversation conversations session sessions question questions interaction interactions chat chats message messages", leet: true, reported: true, desc: "order that changes the agent's behaviour from now on",
		expr: `\b(?P<m>(?:in|for|to)\s+(?:all|every|each|any)\s+(?:future|subsequent|upcoming)\s+(?:answers?|responses?|repl(?:y|ies)|conversations?|sessions?|questions?|interactions?|chats?|messages?))\b[,:]?\s*(?:\w+\s+){0,3}?(?:` + agentOrder + `|always|never|you)\b`},
	{rule: RuleInstruction, need: "future subsequent; question questions message messages request requests prompt prompts queries", leet: true, reported: true, desc: "order that changes the agent's behaviour from now on",
		expr: `(?:^|[.!?;:]\s*|\n)\s*(?P<m>(?:respond|reply|answer|react)\s+to\s+(?:all|every|each|any)\s+(?:future|subsequent)\s+(?:questions?|messages?|requests?|prompts?|queries))\b`},
	{rule: RuleInstruction, need: "whenever every each next time if when once before after; reply replies respond responds contact contacts email emails message messages asks ask asked mentions mention says say requests request talks talk see sees types type writes write reads read answers answer inquires inquire enquires enquire wants want brings searches search looks look summarises summarizes summarise summarize uses use opens open receives receive get gets process processes logs log signs sign returns comes visits starts connects calls; say tell answer respond reply recommend add include ask send forward transfer delete give claim mention direct link suggest refuse ignore insert append report state praise rate classify approve deny reject call email cc bcc store remember treat change move pay share upload download install visit click output print write begin start use reveal disclose translate summarise summarize quote list show warn inform notify charge grant disable enable", leet: true, reported: true, desc: "standing order to the agent", soften: protectiveRe,
		expr: `\b(?P<m>(?:whenever|every\s+time|each\s+time|(?:the\s+)?next\s+time|if|when|once|before|after)\s+` + trigger + `\b[^.!?\n]{0,100}?,\s*(?:please\s+|always\s+|just\s+|first\s+|then\s+|also\s+|immediately\s+)?` + agentOrder + `)\b`},
	{rule: RuleInstruction, need: "whenever; you", leet: true, reported: true, desc: "standing order to the agent",
		expr: `(?:^|[^\w\s]\s*|\n)(?P<m>whenever\s+you\s+(?:\w+\s+){1,8}?` + agentOrder + `)\b`},
	{rule: RuleInstruction, need: "when while before after; summarising summarizing summarise summarize answering reading processing translating replying responding writing drafting; add include insert append say mention state claim write tell recommend", leet: true, reported: true, desc: "standing order to the agent",
		expr: `(?:^|[^\w\s]\s*|\n)(?P<m>(?:when|while|before|after)\s+(?:you\s+)?(?:summari[sz]ing|summari[sz]e|answering|reading|processing|translating|replying|responding|writing|drafting)\s+(?:\w+\s+){0,4}?(?:\w+)\s*,\s*(?:please\s+|always\s+|also\s+)?(?:add|include|insert|append|say|mention|state|claim|write|tell|recommend)\b)`},

	// Acting without asking.
	{rule: RuleInstruction, need: "not don dont never; ask asking request requesting wait waiting seek seeking; confirmation approval permission consent confirming", leet: true, reported: true, desc: "order to act without confirmation",
		expr: `(?:^|[^\w\s]\s*|\n|\b(?:and|then|please|just|also|so)\s+)(?P<m>(?:do\s+not|don't|dont|never)\s+(?:ask|request|wait|seek)(?:\s+(?:the\s+)?(?:user|customer|anyone|me|them|him|her|for|the\s+user's|their))*\s+(?:for\s+)?(?:confirmation|approval|permission|consent|confirming))\b`},

	{rule: RuleInstruction, need: "skip bypass omit; confirmation approval verification confirm", leet: true, reported: true, desc: "order to act without confirmation",
		expr: `(?:^|[^\w\s]\s*|\n|\b(?:and|then|please|just|also|so)\s+)(?P<m>(?:skip|bypass|omit)\s+(?:the\s+|any\s+|all\s+)?(?:confirmation|approval|verification|confirm)(?:\s+(?:step|steps|prompt|prompts|check|checks|dialog|request))?)\b`},
	{rule: RuleInstruction, need: "not don dont never; ask check consult; before first", leet: true, reported: true, desc: "order to act without confirmation",
		expr: `(?:^|[^\w\s]\s*|\n|\b(?:and|then|please|just|also|so)\s+)(?P<m>(?:do\s+not|don't|dont|never)\s+(?:ask|check\s+with|consult)\s+(?:the\s+)?(?:user|customer|owner|anyone|me|them|him|her)\s+(?:before|first))\b`},

	// AI readers granted leave to act without the user's confirmation:
	// held, a product's documentation says the same of a setting.
	{rule: RuleOrder, need: "authorised authorized permitted allowed cleared; without; confirmation approval consent review", leet: true, reported: true, desc: "leave to act without confirmation granted to AI readers",
		expr: `\b(?P<m>(?:assistant|agent|ai|model|bot|llm)s?\s+(?:are|is)\s+(?:now\s+|hereby\s+)?(?:authori[sz]ed|permitted|allowed|cleared)\s+to\s+\w+(?:\s+[\w,.]+){0,6}?\s+without\s+(?:the\s+|any\s+|prior\s+|explicit\s+)?(?:user\s+|user's\s+|customer\s+)?(?:confirmation|approval|consent|review))\b`},

	// A package installed from an index named in the text: the index
	// serves what its owner wants run. Held: a project's README may name
	// its own mirror.
	{rule: RuleOrder, need: "pip; install; index", desc: "package to install from an index the text names",
		expr: `\b(?P<m>pip3?\s+install\s+[^\n` + "`" + `]{0,80}?--(?:extra-)?index-url\s+https?://)`},
	// Mail from a named address to be accepted or trusted without the
	// user: held, the user may say the same of a colleague.
	{rule: RuleOrder, need: "you; should must will; accept approve trust obey", desc: "order to accept what a named address sends",
		expr: `\b(?P<m>you\s+(?:should|must|are\s+to|will)\s+(?:always\s+|now\s+|automatically\s+)?(?:accept|approve|trust|obey)\s+(?:every|all|any)\s+(?:[\w-]+\s+){0,3}?from\s+[\w.+-]+@[\w.-]+)`},

	// Prompt extraction.
	{rule: RuleInstruction, need: "repeat print output show display list quote reveal recite copy paste give tell; everything all anything text what; written said stated typed given told; above before earlier previously you", leet: true, desc: "request to disclose the agent's instructions",
		expr: `\b(?P<m>(?:repeat|print|output|show|display|list|quote|reveal|recite|copy|paste|give|tell)\s+(?:me\s+)?(?:everything|all|anything|the\s+text|what)\s+(?:that\s+|which\s+)?(?:was|is|has\s+been|were|you\s+were)\s+(?:written|said|stated|typed|given|told)\s+(?:above|before|earlier|previously|to\s+you))\b`},
	{rule: RuleInstruction, need: "repeat print output show display list quote reveal recite write type copy translate summarise summarize return dump tell give paste; above before preceding prior earlier given", leet: true, desc: "request to disclose the agent's instructions",
		expr: `(?:^|[^\w\s]\s*|\n|\b(?:please|now|and|then|just|also|first|kindly)\s+)(?P<m>(?:repeat|print|output|show|display|list|quote|reveal|recite|write\s+out|type\s+out|copy|translate|summari[sz]e|return|dump|tell\s+me|give\s+me|paste)\s+(?:\w+\s+){0,3}?(?:everything|all|the\s+(?:text|words|content|contents|lines|sentences|messages?|instructions|prompt|rules)|anything|what\s+(?:is|was)\s+written)\s+(?:above|before\s+(?:this|that|the)|preceding|prior|earlier|(?:you\s+were|that\s+you\s+were)\s+given))`},
	{rule: RuleInstruction, need: "repeat print output show display list quote reveal recite write type copy translate summarise summarize return dump tell give paste; previous prior above preceding initial original first earlier system hidden secret; instructions prompt rules message messages", leet: true, desc: "request to disclose the agent's instructions",
		expr: `(?:^|[^\w\s]\s*|\n|\b(?:please|now|and|then|just|also|first|kindly)\s+)(?P<m>(?:repeat|print|output|show|display|list|quote|reveal|recite|write\s+out|type\s+out|copy|translate|summari[sz]e|return|dump|tell\s+me|give\s+me|paste)\s+(?:\w+\s+){0,3}?(?:your|the)\s+(?:previous|prior|above|preceding|initial|original|first|earlier|system|hidden|secret)\s+(?:instructions|prompt|rules|messages?))\b`},
	{rule: RuleInstruction, need: "summarise summarize list paraphrase rephrase repeat recite translate enumerate outline describe print output show display reveal explain convert encode rewrite transform spell; your; instructions rules prompt guidelines directives configuration", leet: true, desc: "request to disclose the agent's instructions",
		expr: `(?:^|[^\w\s]\s*|\n|\b(?:please|now|and|then|just|also|first|kindly)\s+)(?P<m>(?:summari[sz]e|list|paraphrase|rephrase|repeat|recite|translate|enumerate|outline|describe|print|output|show\s+me|display|reveal|explain|convert|encode|rewrite|transform|spell\s+out)\s+(?:all\s+|each\s+|every\s+)?(?:of\s+)?your\s+(?:system\s+prompt|prompt|instructions|rules|guidelines|directives|configuration))\b`},
	{rule: RuleInstruction, need: "instructions prompt rules directives; given told provided initialized initialised configured programmed", leet: true, desc: "request to disclose the agent's instructions",
		expr: `\b(?P<m>(?:instructions|prompt|rules|directives)\s+(?:that\s+)?you\s+(?:were|have\s+been|got|had\s+been)\s+(?:given|told|provided|initiali[sz]ed\s+with|configured\s+with|programmed\s+with))\b`},
	{rule: RuleInstruction, need: "prompt instructions; initial original hidden secret system starting first exact full complete", leet: true, desc: "request to disclose the agent's instructions",
		expr: `\b(?P<m>(?:what|which|how)\b[^.?!\n]{0,40}?\byour\s+(?:initial|original|hidden|secret|system|starting|first|exact|full|complete)\s+(?:prompt|instructions))\b`},
	{rule: RuleInstruction, need: "prompt instructions; hidden initial original secret; reveal show print output tell give display", leet: true, desc: "request to disclose the agent's instructions",
		expr: `\b(?P<m>(?:reveal|show|print|output|tell|give|display)\s+(?:me\s+)?(?:the\s+|your\s+)?(?:hidden|initial|original|secret)\s+(?:prompt|instructions)(?:\s+you\s+were\s+\w+)?)\b`},
	{rule: RuleInstruction, need: "words lines sentences characters paragraphs tokens; instructions prompt rules", leet: true, desc: "request to disclose the agent's instructions",
		expr: `\b(?P<m>(?:first|last|initial)\s+(?:\S+\s+)?(?:words|lines|sentences|characters|paragraphs|tokens)\s+of\s+(?:your|the)\s+(?:system\s+)?(?:instructions|prompt|rules))\b`},
	{rule: RuleInstruction, need: "secrets tokens passwords credentials keys key; access", leet: true, desc: "order to disclose secrets",
		expr: `\b(?P<m>(?:secrets|tokens|passwords|credentials|api\s+keys|keys)\s+(?:that\s+)?you\s+have\s+access\s+to)\b`},
	{rule: RuleInstruction, need: "ssh id rsa passwd shadow aws env credentials", subs: []string{".ssh", "id_rsa", "/etc/passwd", "/etc/shadow", ".aws/credentials", ".env"}, desc: "order to disclose a secret file",
		expr: `\b(?P<m>(?:copy|cat|paste|print|send|read|include|output|show|upload|attach|type|dump|display)\s+(?:\w+\s+){0,4}?(?:~?/?\.ssh/\S+|\S*id_rsa\b|/etc/(?:passwd|shadow)\b|~?/?\.aws/credentials|(?:the\s+)?\.env\s+file))`},

	// Directing the agent's output (task hijacking).
	{rule: RuleInstruction, need: "your; answer answers response responses reply replies message messages output outputs summary summaries completion completions", leet: true, reported: true, desc: "order about the agent's answer",
		expr: `(?:^|[^\w\s]\s*|\n|\b(?:please|now|and|then|also|just|kindly|first)\s+)(?P<m>` + imperativeVerb + `\s+(?:[^.!?\n"]|[.!?][^\s.!?"]|"[^"\n]*"){0,100}?\b(?:(?:in|to|into|from|of|within|throughout|at\s+the\s+(?:start|end|beginning|top|bottom)\s+of)\s+your\s+` + outputNoun + `|with\s+your\s+` + answerNoun + `))\b`},
	{rule: RuleInstruction, need: "every each all any; answer answers response responses reply replies output outputs completion completions", leet: true, reported: true, desc: "order about the agent's answer",
		expr: `(?:^|[^\w\s]\s*|\n|\b(?:please|now|and|then|also|just|kindly|first|always)\s+)(?P<m>` + imperativeVerb + `\s+(?:[^.!?\n"]|[.!?][^\s.!?"]|"[^"\n]*"){0,100}?\b(?:in|to|into|from|of|with|within|throughout|at\s+the\s+(?:start|end|beginning|top|bottom)\s+of)\s+(?:every|each|all|any)\s+(?:of\s+your\s+)?(?:[\w-]+\s+)?(?:answers?|responses?|repl(?:y|ies)|outputs?|completions?))\b`},
	{rule: RuleInstruction, need: "say reply respond answer output print write type; if whenever when matter regardless every any all each", leet: true, reported: true, desc: "order about the agent's answer",
		expr: `(?:^|[^\w\s]\s*|\n|\b(?:please|now|and|then|just|also|always|only)\s+)(?P<m>(?:say|reply|respond|answer|output|print|write|type)\s+(?:only\s+|just\s+|exactly\s+)?(?:with\s+)?(?:the\s+(?:text|words?|phrase|sentence)\s+)?["'“‘][^"'”’\n]{1,80}["'”’]\s*(?:if|whenever|when|no\s+matter|regardless|to\s+(?:every|any|all|each)|for\s+(?:every|any|all|each)|every\s+time|each\s+time|in\s+(?:every|each|all|any)))\b`},
	{rule: RuleInstruction, need: "before; answering responding replying answer respond reply", leet: true, reported: true, desc: "standing order to the agent",
		expr: `(?:^|[^\w\s]\s*|\n)(?P<m>before\s+(?:answering|responding|replying|you\s+(?:answer|respond|reply))\s*[,:]?\s*(?:\w+\s+){0,2}?` + agentOrder + `)\b`},
	{rule: RuleInstruction, need: "remember note know mind aware store save record; am m; admin administrator superuser super root sysadmin moderator owner", leet: true, reported: true, desc: "attempt to plant a claim of authority",
		expr: `(?:^|[^\w\s]\s*|\n|\b(?:please|also|and|just|kindly)\s+)(?P<m>(?:remember|note|know|keep\s+in\s+mind|be\s+aware|store|save|record)\s+(?:that\s+)?(?:i\s+am|i'm)\s+(?:an?\s+|the\s+)?(?:verified\s+|authori[sz]ed\s+|trusted\s+)?(?:admin|administrator|superuser|super\s+user|root(?:\s+user)?|sysadmin|system\s+administrator|moderator|owner\s+of\s+(?:this|the)\s+(?:system|assistant|bot|platform)))\b`},
	{rule: RuleInstruction, need: "treat; as; system admin administrator developer operator owner root superuser trusted verified", leet: true, reported: true, desc: "attempt to plant a claim of authority",
		expr: `(?:^|[^\w\s]\s*|\n|\b(?:please|also|and|just|kindly|always)\s+)(?P<m>treat\s+(?:all\s+|any\s+|every\s+)?(?:future\s+|further\s+|subsequent\s+|later\s+)?(?:messages?|requests?|instructions?|inputs?|text|content|commands?|me|this\s+user|the\s+user|them)(?:\s+from\s+(?:this\s+user|the\s+user|me|them|\w+))?\s+as\s+(?:if\s+(?:they|it|i)\s+(?:came|come|were|was)\s+from\s+|coming\s+from\s+|from\s+|sent\s+by\s+|written\s+by\s+)?(?:an?\s+|the\s+)?(?:system(?:\s+administrator)?|admin|administrator|developer|operator|owner|root|superuser|trusted\s+(?:source|admin|authority)|verified\s+(?:admin|source)))\b`},
	{rule: RuleInstruction, need: "share disclose give reveal send provide release show; records record data details information info passwords password credentials address phone ssn account history files; anyone anybody everyone everybody any whoever", leet: true, desc: "blanket grant to disclose personal data",
		expr: `(?:^|[^\w\s]\s*|\n|\b(?:and|then|so|please|also|consented\s+to|agreed\s+to|allowed\s+(?:you|us|me)\s+to|ok\s+to|okay\s+to|fine\s+to|free\s+to|permitted\s+to|authori[sz]ed\s+(?:you|us)\s+to)\s+)(?P<m>(?:share|disclose|give(?:\s+out)?|reveal|send|provide|release|show)\s+(?:[\w']+\s+){0,5}?(?:records?|data|details|information|info|passwords?|credentials|address|phone\s+numbers?|ssn|account\s+numbers?|history|files)\s+(?:with|to)\s+(?:anyone|anybody|everyone|everybody|any\s+(?:requester|caller|user|one|person)|whoever)\b)`},
	{rule: RuleInstruction, need: "play; game role; you", leet: true, desc: "role hijack",
		expr: `\b(?P<m>let'?s\s+play\s+a\s+(?:game|role|roleplay|role-playing\s+game)\b[^.!?\n]{0,40}?\byou\s+(?:are|will\s+be|play|act|must|should))`},
	{rule: RuleInstruction, need: "you; are; no without; rules restrictions limits limitations filters ethics morals guidelines boundaries censorship constraints", leet: true, reported: true, desc: "role hijack",
		expr: `\b(?P<m>you\s+are\s+(?:now\s+)?(?:an?|the)\s+(?:[\w-]+\s+){0,4}?(?:with\s+no|without\s+(?:any\s+)?)\s*(?:rules|restrictions|limits|limitations|filters|ethics|morals|guidelines|boundaries|censorship|constraints))\b`},
	{rule: RuleInstruction, need: "switch shut deactivate lift drop suspend remove relax loosen set; your all any; filter filters restrictions restriction guardrails guardrail safeguards safeguard safety limitations limitation rules guidelines policy policies censorship moderation", leet: true, desc: "order to override safeguards",
		expr: `(?:^|[^\w\s]\s*|\n|\b(?:please|now|and|then|just|so|kindly|temporarily)\s+)(?P<m>(?:switch\s+off|shut\s+off|deactivate|lift|drop|suspend|remove|relax|loosen|set\s+aside)\s+(?:your|all|any)\s+(?:\w+\s+)?(?:filters?|restrictions?|guardrails?|safeguards?|safety|limitations?|rules|guidelines|polic(?:y|ies)|censorship|moderation))\b`},
	{rule: RuleInstruction, need: "your; instructions rules orders directives programming prompt guidelines; outdated obsolete void invalid cancelled canceled revoked wrong fake superseded deprecated", leet: true, desc: "replacement instructions",
		expr: `\b(?P<m>your\s+(?:previous\s+|original\s+|current\s+|old\s+)?(?:instructions|rules|orders|directives|programming|prompt|system\s+prompt|guidelines)\s+(?:are|is|were|was|have\s+become)\s+(?:now\s+)?(?:outdated|obsolete|void|null|invalid|cancelled|canceled|revoked|wrong|fake|superseded|deprecated|no\s+longer\s+valid))\b`},
	{rule: RuleInstruction, need: "here; new updated real actual correct revised; ones instructions rules directives orders prompt", leet: true, desc: "replacement instructions",
		expr: `\b(?P<m>here\s+(?:are|is)\s+(?:your\s+(?:new|updated|real|actual|correct|revised)\s+(?:instructions|rules|directives|orders|prompt)|the\s+(?:new|updated|real|actual|correct|revised)\s+ones))\b`},
	{rule: RuleInstruction, need: "real actual true genuine; user owner; wants asks needs instructs told", leet: true, desc: "claim to speak for the user",
		expr: `\b(?P<m>(?:the\s+)?(?:real|actual|true|genuine)\s+(?:user|owner)\s+(?:wants|asks|needs|instructs|told|has\s+asked)\s+you\s+to)\b`},
	{rule: RuleInstruction, need: "your; answer answers response responses reply replies message messages output outputs", leet: true, reported: true, desc: "order about the agent's answer",
		expr: `(?:^|[^\w\s]\s*|\n|\b(?:please|now|and|then|also|just|kindly|first)\s+)(?P<m>(?:modify|provide|render|write|begin|start|end|finish|format|make|keep|sign|conclude|close|enhance|augment|give|deliver|present|structure|phrase|translate|encode|reverse|scramble|shorten|pad)\s+your\s+` + outputNoun + `)\b`},
	{rule: RuleInstruction, need: "your; answer answers response responses reply replies message messages output outputs", leet: true, reported: true, desc: "order about the agent's answer",
		expr: `(?:^|[^\w\s]\s*|\n)(?P<m>(?:in|within|throughout|at\s+the\s+(?:start|end|beginning)\s+of)\s+your\s+` + outputNoun + `\s*[,:]\s*(?:\w+\s+){0,2}?` + imperativeVerb + `)\b`},
	{rule: RuleInstruction, need: "say reply respond answer output print write type; nothing only else more verbatim exactly", leet: true, reported: true, desc: "order about the agent's answer",
		expr: `(?:^|[^\w\s]\s*|\n)(?P<m>(?:say|reply|respond|answer|output|print|write|type)\s+(?:only\s+|just\s+|exactly\s+)?(?:with\s+)?["'][^"'\n]{1,60}["']\s*(?:and\s+nothing\s+(?:else|more)|only|verbatim|nothing\s+else))`},
	{rule: RuleInstruction, need: "following subsequent below this these; code snippet block excerpt section; your", leet: true, reported: true, desc: "order to put code into the agent's output",
		expr: `\b(?P<m>(?:following|subsequent|below|this|these)\s+code\s+(?:blocks?|snippets?|excerpts?|sections?|lines?)\b[^.\n]{0,80}?\byour\s+` + codeNoun + `|\byour\s+` + codeNoun + `\b[^.\n]{0,80}?\b(?:following|subsequent|below)\s+code\s+(?:blocks?|snippets?|excerpts?|sections?))\b`},

	{rule: RuleInstruction, need: "every each all any; reply replies response responses answer answers message messages email emails; you; send write give produce draft", leet: true, reported: true, desc: "order about the agent's answer",
		expr: `\b(?P<m>(?:in|to|into|from|of|with|within|at\s+the\s+end\s+of)\s+(?:every|each|all|any)\s+(?:repl(?:y|ies)|responses?|answers?|messages?|emails?)\s+(?:that\s+)?you\s+(?:send|write|give|produce|draft))\b`},

	// Covert actions and spreading.
	{rule: RuleInstruction, need: "not don dont never; mention tell reveal disclose say; it this that anything", leet: true, reported: true, desc: "order to act covertly",
		expr: `(?:^|[.!?;:]\s*|\n)\s*(?P<m>(?:always\s+|never\s+|please\s+)?` + agentOrder + `\b(?:[^.!?\n]|[.!?][^\s.!?]){0,120}?\band\s+(?:do\s+not|don't|dont|never)\s+(?:mention|tell|reveal|disclose|say)\s+(?:it|this|that|anything))\b`},
	{rule: RuleInstruction, need: "not don dont never; mention tell reveal disclose; user users customer customers human humans operator operators", leet: true, desc: "order to act covertly",
		expr: `\b(?P<m>(?:do\s+not|don't|dont|never)\s+(?:mention|tell|reveal|disclose)\s+(?:this|it|that|these|anything)\s+to\s+(?:the\s+)?(?:user|customer|human|operator)s?)\b`},
	{rule: RuleInstruction, need: "forward send share post email; message email note text document mail; all every each everyone everybody", leet: true, reported: true, desc: "order to spread the text",
		expr: `\b(?P<m>(?:forward|send|share|post|email)\s+(?:this|the)\s+(?:message|email|e-mail|note|text|document|mail)\s+to\s+(?:all|every|each|everyone|everybody)\b)`},
	{rule: RuleInstruction, need: "ignore disregard; question questions request requests message messages instruction instructions prompt prompts", leet: true, desc: "order to ignore the user",
		expr: `\b(?P<m>(?:ignore|disregard)\s+(?:the\s+user(?:'s|s')?|the\s+customer(?:'s)?|their|his|her|user)\s+(?:next|last|previous|earlier|original|actual|real)?\s*(?:questions?|requests?|messages?|instructions?|prompts?))\b`},
	{rule: RuleInstruction, need: "ignore disregard forget", leet: true, desc: "order to ignore prior instructions",
		// "The previous" names what the reader was told only alone or
		// before such a noun: "ignore the previous version" corrects a
		// document, "ignore the previous instructions" is the attack.
		expr: `(?:^|[^\w\s]\s*|\n|\b(?:please|now|and|then|just|so)\s+)(?P<m>(?:ignore|disregard|forget)\s+(?:all\s+(?:of\s+)?|everything\s+)?the\s+(?:above\b|(?:previous|preceding|foregoing)(?:\s+(?:\w+\s+)?` + priorNouns + `\b|\s*(?:[.,;:!?)"'\n]|$))))`},
	{rule: RuleInstruction, need: "ignoriere ignorieren ignoriert ignora ignorez ignorer ignore ignorar vergiss oublie oubliez oublier olvida negeer vergeet zignoruj ignoruj zapomnij abaikan lupakan glem ignorera ignorer unohda; anweisungen instrucciones instructions istruzioni instrucoes anweisung instructies opdrachten instrukcje instrukcji polecenia instruksi perintah instruktioner instruksjoner instruktionerna ohjeet", leet: true, desc: "order to ignore prior instructions",
		expr: `\b(?P<m>(?:ignorier(?:e|en|t)?|vergiss|ignora|ignorez|ignorer|ignore|ignorar|oublie[zr]?|olvida|negeer|vergeet|zignoruj|ignoruj|zapomnij|abaikan|lupakan|glem|ignorera|unohda)\s+(?:\w+\s+){0,3}?(?:anweisungen|anweisung|instrucciones|instructions|istruzioni|instrucoes|instructies|opdrachten|instrukcje|instrukcji|polecenia|instruksi|perintah|instruktioner(?:na)?|instruksjoner|ohjeet))\b`},
	{rule: RuleInstruction, need: "ignore disregard forget; what everything anything; said told wrote written typed asked", leet: true, desc: "order to ignore prior instructions",
		expr: `(?:^|[^\w\s]\s*|\n|\b(?:please|now|and|then|just|so)\s+)(?P<m>(?:ignore|disregard|forget)\s+(?:what|everything|anything|all)\s+(?:that\s+)?(?:i|we|you\s+were|they|the\s+user|was|has\s+been)\s+(?:have\s+)?(?:said|told|wrote|written|typed|asked)(?:\s+(?:you|to\s+you))?\s+(?:earlier|before|above|previously|so\s+far|until\s+now))\b`},
	{rule: RuleInstruction, need: "hidden secret covert priority urgent special additional system; directive directives instruction instructions command commands order orders task rule rules", leet: true, reported: true, desc: "replacement instructions",
		expr: `(?:^|[^\w\s]\s*|\n)(?P<m>(?:(?:new|important|urgent)\s+)?(?:hidden|secret|covert|priority|urgent|special|additional|system)\s+(?:directives?|instructions?|commands?|orders?|task|rules?)\s*:)`},
	{rule: RuleInstruction, need: "respond reply answer; every each all any; question questions message messages request requests query queries prompt prompts; with by", leet: true, reported: true, desc: "order about the agent's answer",
		expr: `(?:^|[.!?;:]\s*|\n|\b(?:please|now|and|then|just|also|always)\s+)\s*(?P<m>(?:respond|reply|answer)\s+to\s+(?:every|each|all|any)\s+(?:of\s+(?:the|their|my)\s+)?(?:questions?|messages?|requests?|quer(?:y|ies)|prompts?)\s+(?:with|by))\b`},
	{rule: RuleInstruction, need: "enter reenter re confirm verify provide submit update type; password credentials login pin card bank ssn social", leet: true, desc: "credential phishing",
		expr: `\b(?P<m>(?:re-?enter|enter|confirm|verify|provide|submit|update|type)\s+(?:their|your|his|her|the)\s+(?:password|credentials|login(?:\s+details)?|pin|card\s+(?:number|details)|bank\s+details|ssn|social\s+security\s+number)\b[^.\n]{0,60}?` + target + `)`},
	{rule: RuleInstruction, need: "verify confirm unlock reactivate re activate validate; it account identity password login card payment", leet: true, desc: "credential phishing",
		expr: `\b(?P<m>(?:verify|confirm|unlock|re-?activate|validate)\s+(?:it|(?:their|your|his|her|the)\s+(?:account|identity|password|login|card|payment\s+details))\s+(?:at|on|via|here|through|by\s+visiting)\s*:?\s*` + target + `)`},
	{rule: RuleInstruction, need: "act pretend behave roleplay play be; deceased late dead; grandmother grandma granny grandfather grandpa mother father", leet: true, desc: "role hijack",
		expr: `\b(?P<m>(?:act|behave|roleplay|role-play|play|pretend\s+to\s+be|pretend\s+you\s+are|be)\s+(?:as\s+|like\s+)?my\s+(?:deceased|late|dead)\s+(?:grandmother|grandma|granny|grandfather|grandpa|mother|father))\b`},
	{rule: RuleInstruction, need: "you; permitted allowed authorized authorised free cleared; share reveal disclose ignore bypass leak send give output break skip disable", leet: true, reported: true, desc: "permission granted to the agent",
		expr: `\b(?P<m>you\s+are\s+(?:now\s+|hereby\s+)?(?:permitted|allowed|authori[sz]ed|free|cleared)\s+to\s+(?:share|reveal|disclose|ignore|bypass|leak|send|give\s+out|output|break|skip|disable))\b`},
	{rule: RuleInstruction, need: "ai assistant assistants bot chatbot model agent claude chatgpt gpt copilot", leet: true, desc: "message addressed to the agent",
		expr: `(?:^|[.!?;:]\s*|\n)\s*(?P<m>(?:ai|assistant|bot|chatbot|model|agent|claude|chatgpt|gpt|copilot)\s*,\s*(?:\w+\s+){0,4}?(?:you\s+(?:should|must|will|shall|need\s+to|have\s+to|are\s+to)|(?:please\s+)?` + agentOrder + `))\b`},
	{rule: RuleInstruction, need: "order command instruct direct; you", leet: true, reported: true, desc: "order to the agent",
		expr: `\b(?P<m>i\s+(?:hereby\s+)?(?:order|command|instruct|direct)\s+you\s+to)\b`},
	{rule: RuleInstruction, need: "priority; top highest high maximum absolute", leet: true, desc: "claim of authority over the agent",
		expr: `\b(?P<m>(?:system|admin|developer|priority)\s+(?:instructions?|directives?|commands?|orders?|messages?)\s+(?:with|of)\s+(?:the\s+)?(?:top|highest|high|maximum|absolute)\s+priority|(?:top|highest|maximum|absolute)[\s-]+priority\s+(?:instructions?|directives?|commands?|orders?)?\s*:)`},
	{rule: RuleInstruction, need: "following; system developer admin administrator; instruction instructions directive directives message command", leet: true, desc: "claim of authority over the agent",
		expr: `\b(?P<m>(?:the\s+)?following\s+(?:text|message|content|note|line|paragraph)\s+is\s+(?:an?\s+)?(?:system|developer|admin|administrator)\s+(?:instructions?|directives?|message|command))\b`},
	{rule: RuleInstruction, need: "begin start end finish conclude close sign open prefix suffix format; every each all any; answer answers response responses reply replies output outputs", leet: true, reported: true, desc: "order about the agent's answer",
		expr: `(?:^|[^\w\s]\s*|\n|\b(?:please|now|and|then|also|just|kindly|always)\s+)(?P<m>(?:begin|start|end|finish|conclude|close|sign|open|prefix|suffix|format)\s+(?:every|each|all|any)\s+(?:of\s+your\s+)?(?:answers?|responses?|repl(?:y|ies)|outputs?))\b`},
	{rule: RuleInstruction, need: "memory memories; update note entry override patch injection insert", leet: true, desc: "attempt to plant a trusted memory",
		expr: `(?:^|[^\w\s]\s*|\n)(?P<m>(?:memory|memories)\s+(?:update|note|entry|override|patch|injection|insert)\s*:)`},
	{rule: RuleInstruction, need: "address phone location password passwords credentials ssn account medical records; given shared disclosed sent revealed provided released; anyone anybody everyone everybody any whoever", leet: true, desc: "blanket grant to disclose personal data",
		expr: `\b(?P<m>(?:home\s+address|address|phone\s+numbers?|location|passwords?|credentials|ssn|account\s+numbers?|medical\s+records|records|personal\s+data|personal\s+details)\s+(?:should|must|can|may|is\s+to|are\s+to|will)\s+(?:always\s+)?be\s+(?:given|shared|disclosed|sent|revealed|provided|released)\s+(?:out\s+)?(?:with|to)\s+(?:anyone|anybody|everyone|everybody|any\s+(?:requester|caller|user|one|person)|whoever))\b`},
	{rule: RuleInstruction, need: "imagine suppose pretend assume hypothetically; you; no without free bound; restrictions rules limits filters guidelines ethics morals censorship safety boundaries constraints limitations", leet: true, desc: "role hijack",
		expr: `\b(?P<m>(?:imagine|suppose|pretend|assume|hypothetically)\s*,?\s+(?:that\s+)?you\s+(?:have|had|were|are)\s+(?:no|without|free\s+of|free\s+from|not\s+bound\s+by)\s+(?:any\s+)?(?:restrictions|rules|limits|filters|guidelines|ethics|morals|censorship|safety|boundaries|constraints|limitations))\b`},
	{rule: RuleInstruction, need: "even; contradicts violates breaks conflicts goes; your", leet: true, desc: "order to override safeguards",
		expr: `\b(?P<m>even\s+if\s+(?:it|that|this|they|doing\s+so)\s+(?:contradicts|violates|breaks|conflicts\s+with|goes\s+against)\s+your\s+(?:rules|instructions|guidelines|polic(?:y|ies)|programming|principles|training))\b`},
	{rule: RuleInstruction, need: "do; whatever; says say tells asks wants", leet: true, desc: "order to obey other text",
		expr: `(?:^|[^\w\s]\s*|\n|\b(?:please|now|and|then|just|so)\s+)(?P<m>do\s+(?:exactly\s+)?whatever\s+(?:the\s+(?:next|following|last)\s+(?:message|email|text|document|page|line)|the\s+user|i|they|it)\s+(?:says|say|tells\s+you|asks|wants))\b`},
	{rule: RuleInstruction, need: "sudo god jailbreak dan unrestricted unfiltered uncensored evil chaos; mode; enabled activated on engaged unlocked active", leet: true, desc: "jailbreak mode",
		expr: `\b(?P<m>(?:sudo|god|jailbreak|jailbroken|dan|unrestricted|unfiltered|uncensored|evil|chaos)\s+mode\s+(?:is\s+)?(?:now\s+)?(?:enabled|activated|on|engaged|unlocked|active))\b`},
	{rule: RuleInstruction, need: "execute answer respond reply comply obey follow do output act run operate; without; restriction restrictions limits limit limitations limitation filter filters filtering censorship safety rules guardrails ethical moral", leet: true, desc: "order to drop safety limits",
		expr: `(?:^|[^\w\s]\s*|\n|\b(?:please|now|and|then|just|so|always)\s+)(?P<m>(?:execute|answer|respond|reply|comply|obey|follow|do|output|act|run|operate)\s+(?:[\w']+\s+){0,4}?without\s+(?:any\s+)?(?:restrictions?|limits?|limitations?|filter(?:s|ing)?|censorship|safety|rules|guardrails|ethical\s+\w+|moral\s+\w+))\b`},
	{rule: RuleInstruction, need: "regardless; content contents facts evidence data resume cv document input text results result truth reality what actual", leet: true, desc: "order to misreport",
		expr: `\b(?P<m>(?:state|say|claim|write|report|rate|conclude|recommend|mark|classify|score|answer|respond)\s+(?:that\s+)?[^.!?\n]{0,80}?\bregardless\s+of\s+(?:the\s+|its\s+|their\s+)?(?:actual\s+|real\s+|true\s+)?(?:content|contents|facts|evidence|data|resume|cv|document|input|text|results?|truth|reality|what))\b`},
	{rule: RuleInstruction, need: "instead; say tell respond reply answer claim state output write print report recommend; " + aiNeed, leet: true, desc: "order to the agent",
		expr: `\b(?P<m>` + agentBare + `\b[^.!?\n]{0,80}?[.;,]?\s*instead\s*,?\s*(?:say|tell|respond|reply|answer|claim|state|output|write|print|report|recommend))\b`},

	// Exfiltration through a rendered image or link.
	{rule: RuleInstruction, subs: []string{"]("}, desc: "markdown image that sends data out",
		expr: `(?P<m>!\[[^\]]{0,80}\]\(\s*https?://[^)\s]{0,200}?(?:\{|%7b|\$\{|conversation|chat|history|secret|token|password|apikey|api_key|memory|cookie))`},

	// Code payloads: code that sends local data out, or downloads and runs
	// a program.
	{rule: RuleShellInjection, subs: []string{"requests.", "urllib", "urlopen", "http.client", "httpconnection", "socket.", "smtplib", "ftplib", "ftp(", "paramiko", "httpx.", "aiohttp", "publish.single", "bluetooth", "curl", "scp", "sendall", "sendto", "storbinary"}, desc: "code that sends local data to a remote host",
		expr: `(?s)(?P<m>(?:requests\.(?:post|put|get|patch)|urllib|urlopen|http\.client|httpconnection|socket\.socket|smtplib|ftplib|ftp\(|paramiko|httpx\.|aiohttp|publish\.single|bluetooth|\bcurl\b|\bscp\b)).{0,600}?(?:os\.environ|os\.getenv|cookie|psutil|contacts|/etc/passwd|\.ssh|driverquery|usb\.core|disk_partitions|net_if_addrs|query_devices|files\s*=|storbinary|sendall|sendto)|(?:os\.environ|os\.getenv|cookie|psutil|contacts\.csv|/etc/passwd|\.ssh/|driverquery|usb\.core|disk_partitions|net_if_addrs|query_devices)\b.{0,600}?(?:requests\.(?:post|put)|urlopen|http\.client|socket\.|smtplib|ftplib|paramiko|httpx\.|aiohttp|publish\.single|sendall|sendto|storbinary)`},
	{rule: RuleShellInjection, subs: []string{"urlretrieve", "urlopen", "requests.get", "wget", "curl", "http.request", "download("}, desc: "code that downloads and runs a program",
		expr: `(?s)(?P<m>(?:urlretrieve|urlopen|requests\.get|\bwget\b|\bcurl\b|http\.request|download\(|\.urlopen)).{0,400}?(?:\bexec\s*\(|\beval\s*\(|chmod\s+\+x|subprocess\.(?:run|call|popen|check_output)|os\.system|&&\s*\./|;\s*\./|\s\./[\w.-]+\s*(?:$|["'\x60)]))`},
	{rule: RuleShellInjection, subs: []string{"os.remove(", "os.unlink(", "systemctl", ">>", "sudo", "os.system("}, desc: "code that damages the system",
		expr: `(?P<m>os\.(?:remove|unlink)\(\s*["']/(?:lib|lib64|etc|bin|boot|sbin|usr)/|systemctl\s+(?:stop|disable|mask)\s+\S*(?:critical|ssh|firewall|network|security)|>>\s*/etc/(?:init\.d|rc\.local|crontab|profile|bashrc|sudoers)|sudo\s+rm\s+-rf\s+/\S+|os\.system\(\s*["'][^"']*rm\s+-rf\s+/)`},
}

// protectiveRe is what follows the verb of a standing order that only
// protects whoever receives a message: "call us (on the number on our
// website)", "use the Report button", "report it to security", "forward
// it to abuse@...", "mark them as phishing", "say no".
var protectiveRe = regexp.MustCompile(`^\s+(?:us\b|no\b|(?:the\s+|our\s+)?["“']?report\b|(?:it|them|the\s+(?:message|email|e-mail|text))\s+(?:to\s+(?:our\s+|the\s+|your\s+)?(?:security|abuse|phishing|fraud|it\s+(?:team|desk))\b|as\s+(?:phishing|spam|suspicious|junk)\b)|(?:the\s+)?(?:number|phone\s+number)\s+(?:on|from|printed\s+on)\s+(?:your|the|our)\b)`)

// priorNouns are what "the previous" names in an order to ignore what the
// reader was told: its instructions and the conversation that gave them.
const priorNouns = `(?:instructions?|prompts?|rules|directions|directives|commands|guidelines|guidance|orders|context|conversation|messages|text|content|input|system\s+\w+|tasks?)`
