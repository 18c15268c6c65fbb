package guard

// Patterns for instructions addressed to the agent in plain words, for
// prompt-extraction requests, and for code payloads. They extend the
// patterns of patterns.go and run the same way.

// Building blocks.
const (
	// outputNoun is what the agent produces.
	outputNoun = `(?:next\s+)?(?:answers?|responses?|repl(?:y|ies)|messages?|outputs?|summary|summaries|completions?)`
	// codeNoun is code the agent writes.
	codeNoun = `(?:code|codebase|implementation|solution|algorithm|program|script|function|elucidation|answer|response|reply)`
	// imperativeVerb is a verb that gives an order when it opens a clause.
	imperativeVerb = `(?:replace|use|provide|convert|substitute|render|introduce|misspell|scramble|jumble|rearrange|anagram|remove|group|combine|include|modify|add|integrate|augment|enhance|suggest|tease|insert|append|write|begin|start|end|finish|format|translate|put|place|embed|mention|promote|recommend|copy|paste|make|keep|encode|reverse|sign|conclude|close|respond|reply|answer|say|tell|output|print|show|give|send|forward|offer|direct|link|advertise|hint|express|highlight|emphasi[sz]e|stress|encourage|invite|urge|ask|list)`
	// agentOrder is what an order to the agent tells it to do.
	agentOrder = `(?:say|tell|answer|respond|reply|recommend|add|include|ask|send|forward|transfer|delete|give|claim|mention|direct|link|suggest|refuse|ignore|insert|append|report|state|praise|rate|classify|approve|deny|reject|call|email|cc|bcc|store|remember|treat|change|move|pay|share|upload|download|install|visit|click|output|print|write|begin|start|use|reveal|disclose|translate|summari[sz]e|quote|list|show|warn|inform|notify|charge|grant|disable|enable)`
	// agentWho names the agent.
	agentWho = `(?:the\s+|any\s+|all\s+|every\s+|an\s+)?(?:ai|ais|assistant|assistants|llm|llms|chatbot|chatbots|bot|bots|model|models|ai agent|ai agents|ai assistant|ai assistants|ai model|agent|agents|gpt|chatgpt|claude|copilot|language model|language models)`
	// agentBare names the agent in one word.
	agentBare = `(?:ai|ais|assistants?|llms?|chatbots?|bots?|models?|agents?|gpt|chatgpt|claude|copilot)`
	// someone asks: the trigger of a standing order.
	triggerWho = `(?:the\s+user|the\s+customer|the\s+client|a\s+user|users|someone|somebody|anyone|anybody|they|you|people|he|she|the\s+caller|the\s+visitor)`
	triggerDo  = `(?:repl(?:y|ies)|responds?|respond|contacts?|emails?|messages?|writes\s+to|asks?|asked|are\s+asked|is\s+asked|mentions?|says?|requests?|talks?|sees?|see|types?|writes?|reads?|read|answers?|answer|inquires?|enquires?|wants?|brings\s+up|searches|search|looks?\s+up|summari[sz]es?|summari[sz]e|uses?|opens?|receives?|get|gets|process|processes)`
)

var addressedSpecs = []spec{
	// A note, message or instruction addressed to the agent by name.
	{rule: RuleInstruction, need: "note notes message messages instruction instructions reminder reminders rule rules directive directives attention important update p ps memo order orders request requests warning; ai ais assistant assistants llm llms chatbot chatbots bot bots model models agent agents gpt chatgpt claude copilot", leet: true, reported: true, desc: "note addressed to the agent",
		expr: `(?:^|[^\w\s]\s*|\n|\b(?:important|urgent|new|hidden|secret|special|private)\s+)(?P<m>(?:notes?|messages?|instructions?|reminders?|rules?|directives?|attention|update|p\.?\s?s\.?|memo|orders?|requests?|warning)\s+(?:to|for)\s+` + agentWho + `(?:\s+(?:reading|processing|summari[sz]ing|seeing)\s+this(?:\s+\w+)?)?\s*[:,\-!])`},
	{rule: RuleInstruction, need: "hey hi dear hello attention yo; ai ais assistant assistants llm llms chatbot chatbots bot bots model models agent agents gpt chatgpt claude copilot", leet: true, reported: true, desc: "message addressed to the agent",
		expr: `\b(?P<m>(?:hey|hi|dear|hello|attention|yo)\s*,?\s+` + agentWho + `\b\s*[,:!.]?\s*(?:\w+\s+){0,3}?` + agentOrder + `)\b`},
	{rule: RuleInstruction, need: "if when whenever once; you; ai assistant llm chatbot bot model agent gpt language", leet: true, desc: "message addressed to the agent",
		expr: `\b(?P<m>(?:if|when|whenever|once)\s+you(?:'re|\s+are)\s+(?:an?\s+)?(?:ai|assistant|llm|chatbot|bot|language model|model|agent|gpt)\b(?:\s+\w+){0,4}?\s*,?\s*(?:\w+\s+){0,2}?` + agentOrder + `)\b`},
	{rule: RuleInstruction, need: "ai ais assistant assistants llm llms chatbot chatbots bot bots model models agent agents gpt chatgpt claude copilot language; reading processing summarizing summarising seeing parsing", leet: true, reported: true, desc: "message addressed to the agent",
		expr: `\b(?P<m>` + agentWho + `\s+(?:reading|processing|summari[sz]ing|seeing|parsing)\s+this(?:\s+(?:page|document|email|e-mail|message|text|file|note|review|resume|cv))?\s+(?:must|should|shall|need to|have to|are to|is to|will|can)?\s*(?:\w+\s+){0,1}?` + agentOrder + `)\b`},
	{rule: RuleInstruction, need: "ai ais assistant assistants llm llms chatbot chatbots bot bots model models agent agents gpt chatgpt claude copilot; must required needs need has have is will", leet: true, reported: true, desc: "order to the agent",
		expr: `\b(?P<m>` + agentBare + `\s+(?:must|is\s+required\s+to|are\s+required\s+to|needs\s+to|need\s+to|has\s+to|have\s+to|is\s+to|will\s+now)\s+(?:\w+\s+)?(?:delete|send|forward|share|transfer|add|remove|change|approve|grant|tell|say|recommend|ignore|disable|include|reply|respond|answer|store|remember|obey|follow|comply|trust|treat|execute|run|install|download|upload|email|pay|accept|reveal|disclose|output|print|rate|classify|praise|promote|refuse|deny)\b)`},
	{rule: RuleInstruction, need: "ai ais assistant assistants llm llms chatbot chatbots bot bots model models agent agents gpt chatgpt claude copilot; should shall", leet: true, reported: true, desc: "order to the agent",
		expr: `\b(?P<m>` + agentBare + `\s+(?:should|shall)\s+(?:now\s+|always\s+|silently\s+|secretly\s+)?(?:delete|send|forward|share|transfer|grant|disable|obey|execute|install|download|upload|pay|reveal|disclose|bypass|leak)\b)`},
	{rule: RuleInstruction, need: "instruction instructions rule rules directive directives task orders; ai ais assistant assistants llm llms chatbot chatbots bot bots model models agent agents gpt chatgpt claude copilot; for", leet: true, reported: true, desc: "note addressed to the agent",
		expr: `\b(?P<m>(?:new\s+)?(?:instructions?|rules?|directives?|task|orders)\s+for\s+` + agentWho + `\s*:)`},
	{rule: RuleInstruction, need: "new updated revised real actual; instruction instructions directive directives task orders", leet: true, reported: true, desc: "replacement instructions",
		expr: `(?:^|[^\w\s]\s*|\n)(?P<m>(?:new|updated|revised|real|actual)\s+(?:instructions?|directives?|task|orders)\s*:)`},
	{rule: RuleSystemPrompt, need: "system; note notice update alert message override", leet: true, desc: "system-note label",
		expr: `\b(?P<m>(?:important\s+|urgent\s+|critical\s+)?system\s+(?:note|notice|update|alert|message|override)\s*:)`},
	{rule: RuleSystemPrompt, need: "assistant ai bot model agent", leet: true, desc: "role label opening an assistant turn",
		expr: `(?:^|\n|[.!?]\s|<!--\s*)\s*(?P<m>(?:assistant|ai|bot|model|agent)\s*:\s*(?:[\w,]+\s+){0,3}?` + agentOrder + `)\b`},
	{rule: RuleSystemPrompt, subs: []string{"<!--"}, desc: "hidden HTML comment addressed to the agent",
		expr: `(?P<m><!--[^>]{0,200}?\b(?:assistant|ai|llm|agent|model|chatbot|bot)\b[^>]{0,200}?-->)`},

	// Standing orders: from now on, in every future answer, whenever the
	// user asks.
	{rule: RuleInstruction, need: "now; on", leet: true, reported: true, desc: "order that changes the agent's behaviour from now on",
		expr: `(?:^|[^\w\s]\s*|\n|\b(?:and|then|so|please)\s+)(?P<m>from\s+now\s+on\b[,:]?\s*(?:\w+\s+){0,2}?(?:always|never|only|` + agentOrder + `)\b)`},
	{rule: RuleInstruction, need: "now; on", leet: true, reported: true, desc: "order that changes the agent's behaviour from now on",
		expr: `(?:^|[.!?;:]\s*|\n)\s*(?P<m>` + agentOrder + `\b[^.!?\n]{0,80}?\bfrom\s+now\s+on)\b`},
	{rule: RuleInstruction, need: "point forward going; on forward onward", leet: true, reported: true, desc: "order that changes the agent's behaviour from now on",
		expr: `(?:^|[^\w\s]\s*|\n)(?P<m>(?:from\s+this\s+point\s+(?:on|forward|onward)|going\s+forward)\b[,:]?\s*(?:\w+\s+){0,2}?(?:you\s+(?:will|must|should|shall)|always|never|only|` + agentOrder + `)\b)`},
	{rule: RuleInstruction, need: "future subsequent upcoming; answer answers response responses reply replies conversation conversations session sessions question questions interaction interactions chat chats message messages", leet: true, reported: true, desc: "order that changes the agent's behaviour from now on",
		expr: `\b(?P<m>(?:in|for|to)\s+(?:all|every|each|any)\s+(?:future|subsequent|upcoming)\s+(?:answers?|responses?|repl(?:y|ies)|conversations?|sessions?|questions?|interactions?|chats?|messages?))\b[,:]?\s*(?:\w+\s+){0,3}?(?:` + agentOrder + `|always|never|you)\b`},
	{rule: RuleInstruction, need: "future subsequent; question questions message messages request requests prompt prompts queries", leet: true, reported: true, desc: "order that changes the agent's behaviour from now on",
		expr: `(?:^|[.!?;:]\s*|\n)\s*(?P<m>(?:respond|reply|answer|react)\s+to\s+(?:all|every|each|any)\s+(?:future|subsequent)\s+(?:questions?|messages?|requests?|prompts?|queries))\b`},
	{rule: RuleInstruction, need: "whenever every each next time if when once before after; reply replies respond responds contact contacts email emails message messages asks ask asked mentions mention says say requests request talks talk see sees types type writes write reads read answers answer inquires inquire enquires enquire wants want brings searches search looks look summarises summarizes summarise summarize uses use opens open receives receive get gets process processes; say tell answer respond reply recommend add include ask send forward transfer delete give claim mention direct link suggest refuse ignore insert append report state praise rate classify approve deny reject call email cc bcc store remember treat change move pay share upload download install visit click output print write begin start use reveal disclose translate summarise summarize quote list show warn inform notify charge grant disable enable", leet: true, reported: true, desc: "standing order to the agent",
		expr: `\b(?P<m>(?:whenever|every\s+time|each\s+time|(?:the\s+)?next\s+time|if|when|once|before|after)\s+` + triggerWho + `\s+(?:\w+\s+){0,1}?` + triggerDo + `\b[^.!?\n]{0,100}?,\s*(?:please\s+|always\s+|just\s+|first\s+|then\s+|also\s+|immediately\s+)?` + agentOrder + `)\b`},
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

	// Prompt extraction.
	{rule: RuleInstruction, need: "repeat print output show display list quote reveal recite copy paste give tell; everything all anything text what; written said stated typed given told; above before earlier previously you", leet: true, desc: "request to disclose the agent's instructions",
		expr: `\b(?P<m>(?:repeat|print|output|show|display|list|quote|reveal|recite|copy|paste|give|tell)\s+(?:me\s+)?(?:everything|all|anything|the\s+text|what)\s+(?:that\s+|which\s+)?(?:was|is|has\s+been|were|you\s+were)\s+(?:written|said|stated|typed|given|told)\s+(?:above|before|earlier|previously|to\s+you))\b`},
	{rule: RuleInstruction, need: "repeat print output show display list quote reveal recite write type copy translate summarise summarize return dump tell give paste; above before preceding prior earlier given", leet: true, desc: "request to disclose the agent's instructions",
		expr: `(?:^|[^\w\s]\s*|\n|\b(?:please|now|and|then|just|also|first|kindly)\s+)(?P<m>(?:repeat|print|output|show|display|list|quote|reveal|recite|write\s+out|type\s+out|copy|translate|summari[sz]e|return|dump|tell\s+me|give\s+me|paste)\s+(?:\w+\s+){0,3}?(?:everything|all|the\s+(?:text|words|content|contents|lines|sentences|messages?|instructions|prompt|rules)|anything|what\s+(?:is|was)\s+written)\s+(?:above|before\s+(?:this|that|the)|preceding|prior|earlier|(?:you\s+were|that\s+you\s+were)\s+given))`},
	{rule: RuleInstruction, need: "repeat print output show display list quote reveal recite write type copy translate summarise summarize return dump tell give paste; previous prior above preceding initial original first earlier system hidden secret; instructions prompt rules message messages", leet: true, desc: "request to disclose the agent's instructions",
		expr: `(?:^|[^\w\s]\s*|\n|\b(?:please|now|and|then|just|also|first|kindly)\s+)(?P<m>(?:repeat|print|output|show|display|list|quote|reveal|recite|write\s+out|type\s+out|copy|translate|summari[sz]e|return|dump|tell\s+me|give\s+me|paste)\s+(?:\w+\s+){0,3}?(?:your|the)\s+(?:previous|prior|above|preceding|initial|original|first|earlier|system|hidden|secret)\s+(?:instructions|prompt|rules|messages?))\b`},
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
		expr: `(?:^|[^\w\s]\s*|\n|\b(?:please|now|and|then|also|just|kindly|first)\s+)(?P<m>` + imperativeVerb + `\s+(?:[^.!?\n"]|[.!?][^\s.!?"]|"[^"\n]*"){0,100}?\b(?:in|to|into|from|of|with|within|throughout|at\s+the\s+(?:start|end|beginning|top|bottom)\s+of)\s+your\s+` + outputNoun + `)\b`},
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
		expr: `(?:^|[.!?;:]\s*|\n)\s*(?P<m>(?:always\s+|never\s+|please\s+)?` + agentOrder + `\b[^.!?\n]{0,120}?\band\s+(?:do\s+not|don't|dont|never)\s+(?:mention|tell|reveal|disclose|say)\s+(?:it|this|that|anything))\b`},
	{rule: RuleInstruction, need: "not don dont never; mention tell reveal disclose; user users customer customers human humans operator operators", leet: true, desc: "order to act covertly",
		expr: `\b(?P<m>(?:do\s+not|don't|dont|never)\s+(?:mention|tell|reveal|disclose)\s+(?:this|it|that|these|anything)\s+to\s+(?:the\s+)?(?:user|customer|human|operator)s?)\b`},
	{rule: RuleInstruction, need: "forward send share post email; message email note text document mail; all every each everyone everybody", leet: true, reported: true, desc: "order to spread the text",
		expr: `\b(?P<m>(?:forward|send|share|post|email)\s+(?:this|the)\s+(?:message|email|e-mail|note|text|document|mail)\s+to\s+(?:all|every|each|everyone|everybody)\b)`},
	{rule: RuleInstruction, need: "ignore disregard; question questions request requests message messages instruction instructions prompt prompts", leet: true, desc: "order to ignore the user",
		expr: `\b(?P<m>(?:ignore|disregard)\s+(?:the\s+user(?:'s|s')?|the\s+customer(?:'s)?|their|his|her|user)\s+(?:next|last|previous|earlier|original|actual|real)?\s*(?:questions?|requests?|messages?|instructions?|prompts?))\b`},
	{rule: RuleInstruction, need: "ignore disregard forget", leet: true, desc: "order to ignore prior instructions",
		expr: `(?:^|[^\w\s]\s*|\n|\b(?:please|now|and|then|just|so)\s+)(?P<m>(?:ignore|disregard|forget)\s+(?:all\s+(?:of\s+)?|everything\s+)?the\s+(?:above|previous|preceding|foregoing))\b`},
	{rule: RuleInstruction, need: "ignoriere ignorieren ignoriert ignora ignorez ignorer ignore ignorar vergiss oublie oubliez oublier olvida; anweisungen instrucciones instructions istruzioni instrucoes anweisung", leet: true, desc: "order to ignore prior instructions",
		expr: `\b(?P<m>(?:ignorier(?:e|en|t)?|vergiss|ignora|ignorez|ignorer|ignore|ignorar|oublie[zr]?|olvida)\s+(?:\w+\s+){0,3}?(?:anweisungen|anweisung|instrucciones|instructions|istruzioni|instrucoes))\b`},
	{rule: RuleInstruction, need: "store save remember record commit update keep add; memory memories permanently forever later future", leet: true, reported: true, desc: "attempt to plant a trusted memory",
		expr: `(?:^|[^\w\s]\s*|\n)(?P<m>(?:store|save|remember|record|commit|update|keep|add)\s+(?:this|that|the\s+following|it|your)?(?:\s*(?:permanently|forever|for\s+later|for\s+(?:all\s+)?future\s+\w+|(?:in|to|into)\s+(?:your\s+)?(?:long-term\s+)?memory|memory|memories)){1,2}\s*:)`},

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
