package guard

import (
	_ "embed"
	"regexp"
	"sort"
	"strings"
)

// Word classes kept as data: one class a file under words/, each word
// in one file only. A rule that needs several classes joins them.

//go:embed words/ai-names.txt
var aiNamesData string

//go:embed words/ai-roles.txt
var aiRolesData string

//go:embed words/ai-tools.txt
var aiToolsData string

//go:embed words/credentials-and-payments.txt
var credentialsData string

//go:embed words/report-verbs.txt
var reportVerbsData string

var (
	// aiNames name an AI on their own.
	aiNames = wordList(aiNamesData)
	// aiRoles name an AI reader with a modifier, in address or bound by
	// a modal.
	aiRoles = wordList(aiRolesData)
	// aiTools name an AI only as a mention or a comment's owner.
	aiTools = wordList(aiToolsData)
	// credentialWords are credentials, access and payments.
	credentialWords = wordList(credentialsData)
	// handoffReportVerbs are the verbs of an agent's own report on results it
	// was handed.
	handoffReportVerbs = setOf(wordList(reportVerbsData))
	// aiNeed is the trigger list of the patterns that need an AI named.
	aiNeed = strings.Join(append(append([]string(nil), aiNames...), aiRoles...), " ")
)

// wordList returns the words of a word file, in file order.
func wordList(data string) []string {
	var ws []string
	for _, line := range strings.Split(data, "\n") {
		line = strings.TrimSpace(line)
		if line != "" && !strings.HasPrefix(line, "#") {
			ws = append(ws, line)
		}
	}
	return ws
}

// wordAlt returns the alternation of the words of lists as a
// non-capturing group, longest first, with a space matching any run of
// white space.
func wordAlt(lists ...[]string) string {
	var ws []string
	for _, l := range lists {
		for _, w := range l {
			ws = append(ws, strings.ReplaceAll(regexp.QuoteMeta(w), " ", `\s+`))
		}
	}
	sort.SliceStable(ws, func(i, j int) bool { return len(ws[i]) > len(ws[j]) })
	return `(?:` + strings.Join(ws, "|") + `)`
}

// setOf returns the words of lists as a set.
func setOf(lists ...[]string) map[string]bool {
	m := map[string]bool{}
	for _, l := range lists {
		for _, w := range l {
			m[w] = true
		}
	}
	return m
}
