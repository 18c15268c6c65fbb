package guard

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Orders to the agent written in scripts other than Latin: Chinese,
// Japanese, Korean and Cyrillic. The base view maps Cyrillic letters that
// look Latin to Latin ones, which undoes a homoglyph attack on an English
// word but spoils a Russian one, so these patterns run on the text itself,
// lower-cased, and only when it holds letters of such a script.

type foreignPattern struct {
	desc string
	re   *regexp.Regexp
}

var foreignPatterns = []foreignPattern{
	// Chinese, simplified and traditional: "忽略之前的所有指令".
	{"order to ignore prior instructions",
		regexp.MustCompile(`(?:忽略|无视|無視|忽视|忽視|不要理会|不要理會|忘记|忘記|忘掉|抛开|拋開)[^。！？!?\n]{0,16}?(?:指令|指示|规则|規則|提示词|提示詞|提示|命令|设定|設定|要求)`)},
	{"request to disclose the agent's instructions",
		regexp.MustCompile(`(?:告诉我|告訴我|输出|輸出|显示|顯示|打印|重复|重複|泄露|洩露|给我|給我|透露|说出|說出)[^。！？!?\n]{0,10}?(?:系统提示|系統提示|提示词|提示詞|系统指令|系統指令|初始指令|原始指令|密码|密碼|密钥|密鑰)`)},
	// Japanese: "以前の指示をすべて無視して".
	{"order to ignore prior instructions",
		regexp.MustCompile(`(?:指示|命令|指令|ルール|プロンプト|制約)(?:を|は)[^。！？!?\n]{0,8}?(?:無視|忘れ)`)},
	{"request to disclose the agent's instructions",
		regexp.MustCompile(`(?:システムプロンプト|プロンプト|初期指示|パスワード|秘密鍵)(?:を|は)[^。！？!?\n]{0,8}?(?:教え|表示|出力|見せ|書き出|繰り返)`)},
	// Korean: "이전의 모든 지시를 무시하고".
	{"order to ignore prior instructions",
		regexp.MustCompile(`(?:지시|명령|지침|규칙|프롬프트)[^.!?\n]{0,6}?(?:무시|잊어)`)},
	{"request to disclose the agent's instructions",
		regexp.MustCompile(`(?:시스템\s*프롬프트|비밀번호|암호)[^.!?\n]{0,8}?(?:알려|보여|출력|말해)`)},
	// Russian and Ukrainian: "игнорируй все предыдущие инструкции".
	{"order to ignore prior instructions",
		regexp.MustCompile(`(?:игнорируй(?:те)?|проигнорируй(?:те)?|забудь(?:те)?|не\s+обращай(?:те)?\s+внимания\s+на|отбрось(?:те)?|ігноруй(?:те)?)\s+(?:[^\s.!?]+\s+){0,3}?(?:инструкци|указани|правил|команд|промпт|подсказ|інструкці|вказівк)[а-яёіїє]*`)},
	{"request to disclose the agent's instructions",
		regexp.MustCompile(`(?:покажи(?:те)?|выведи(?:те)?|раскрой(?:те)?|скажи(?:те)?|напиши(?:те)?|повтори(?:те)?|сообщи(?:те)?)\s+(?:[^\s.!?]+\s+){0,3}?(?:системн\S*\s+(?:промпт|подсказк|инструкци)|сво[иейю]\S*\s+инструкци|парол)[а-яёіїє]*`)},
}

// hasForeignScript reports whether s holds a letter of a script the
// foreign patterns read.
func hasForeignScript(s string) bool {
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul, unicode.Cyrillic) {
			return true
		}
		i += size
	}
	return false
}

// matchForeign appends to fs the findings of the foreign-script patterns.
func matchForeign(fs []Finding, text string) []Finding {
	if !hasForeignScript(text) {
		return fs
	}
	lower := strings.ToLower(text)
	if len(lower) != len(text) {
		// Lower-casing changed byte lengths (a rare letter); offsets would
		// not map back, so read the text as written.
		lower = text
	}
	for _, p := range foreignPatterns {
		for _, loc := range p.re.FindAllStringIndex(lower, -1) {
			fs = append(fs, Finding{Rule: RuleInstruction, Detail: p.desc + ": " + quote(text[loc[0]:loc[1]]), Offset: loc[0]})
		}
	}
	return fs
}
