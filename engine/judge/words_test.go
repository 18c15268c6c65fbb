package judge

import (
	"strings"
	"testing"
)

func TestWordClassesLoad(t *testing.T) {
	if got := wordList("weekdays"); len(got) != 7 || got[0] != "monday" || got[6] != "sunday" {
		t.Fatalf("weekdays = %v, want monday..sunday", got)
	}
	if !inClass("weekdays", "friday") || inClass("weekdays", "fryday") {
		t.Fatal("inClass misreads the weekdays class")
	}
	// A class file lists each word once and is never empty.
	for _, name := range WordClasses() {
		b, err := wordFiles.ReadFile("words/" + name + ".txt")
		if err != nil {
			t.Fatal(err)
		}
		lines := 0
		for _, l := range strings.Split(string(b), "\n") {
			if i := strings.IndexByte(l, '#'); i >= 0 {
				l = l[:i]
			}
			if strings.TrimSpace(l) != "" {
				lines++
			}
		}
		if n := len(wordList(name)); n == 0 || n != lines {
			t.Errorf("word class %s: %d distinct words on %d lines (empty, or a word listed twice)", name, n, lines)
		}
	}
}
