package judge

import (
	"bufio"
	"bytes"
	"embed"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// Word classes are data: one class per file in words/, one word per line,
// '#' starting a comment. A rule that needs a class names it; no class is
// written twice in Go.
//
//go:embed words/*.txt
var wordFiles embed.FS

var (
	classesOnce sync.Once
	classes     map[string]map[string]struct{}
	classOrder  map[string][]string
)

func loadClasses() {
	classes = map[string]map[string]struct{}{}
	classOrder = map[string][]string{}
	entries, err := wordFiles.ReadDir("words")
	if err != nil {
		panic(fmt.Sprintf("judge: reading the embedded word classes: %v", err))
	}
	for _, e := range entries {
		name := strings.TrimSuffix(e.Name(), ".txt")
		b, err := wordFiles.ReadFile("words/" + e.Name())
		if err != nil {
			panic(fmt.Sprintf("judge: reading word class %s: %v", name, err))
		}
		set := map[string]struct{}{}
		var order []string
		sc := bufio.NewScanner(bytes.NewReader(b))
		for sc.Scan() {
			line := sc.Text()
			if i := strings.IndexByte(line, '#'); i >= 0 {
				line = line[:i]
			}
			w := strings.TrimSpace(line)
			if w == "" {
				continue
			}
			if _, dup := set[w]; !dup {
				order = append(order, w)
			}
			set[w] = struct{}{}
		}
		classes[name] = set
		classOrder[name] = order
	}
}

// wordClass returns the words of class name (words/NAME.txt). It panics on a
// class that is not embedded: a rule naming a missing file is a build error
// that the package's tests catch at once.
func wordClass(name string) map[string]struct{} {
	classesOnce.Do(loadClasses)
	set, ok := classes[name]
	if !ok {
		panic("judge: no word class " + name + " (engine/judge/words/" + name + ".txt)")
	}
	return set
}

// wordList returns the words of class name in file order (for classes whose
// order carries meaning, such as weekdays or number words).
func wordList(name string) []string {
	wordClass(name)
	return classOrder[name]
}

// inClass reports whether w belongs to class name.
func inClass(name, w string) bool {
	_, ok := wordClass(name)[w]
	return ok
}

// WordClasses lists the embedded class names, sorted.
func WordClasses() []string {
	classesOnce.Do(loadClasses)
	names := make([]string, 0, len(classes))
	for n := range classes {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// boolClass returns the union of the named classes as a set, for rules
// that look words up.
func boolClass(names ...string) map[string]bool {
	m := map[string]bool{}
	for _, n := range names {
		for w := range wordClass(n) {
			m[w] = true
		}
	}
	return m
}

// orderClass numbers the words of class name in file order, from base.
func orderClass(name string, base int) map[string]float64 {
	m := map[string]float64{}
	for i, w := range wordList(name) {
		m[w] = float64(base + i)
	}
	return m
}

// wordPairs reads a class whose entries are "word value" pairs: the word
// and what it stands for.
func wordPairs(name string) map[string]string {
	m := map[string]string{}
	for _, e := range wordList(name) {
		k, v, ok := strings.Cut(e, " ")
		if !ok {
			panic("judge: word class " + name + ": entry " + e + " is not a pair")
		}
		m[k] = strings.TrimSpace(v)
	}
	return m
}

// numberPairs reads a class of "word number" pairs; the number may be a
// fraction a/b.
func numberPairs(name string) map[string]float64 {
	m := map[string]float64{}
	for k, v := range wordPairs(name) {
		num, den, frac := strings.Cut(v, "/")
		x, err := strconv.ParseFloat(num, 64)
		if err == nil && frac {
			var y float64
			if y, err = strconv.ParseFloat(den, 64); err == nil && y != 0 {
				x /= y
			}
		}
		if err != nil {
			panic("judge: word class " + name + ": " + k + " has no number: " + v)
		}
		m[k] = x
	}
	return m
}

// pairSet reads a class of unordered word pairs.
func pairSet(name string) map[[2]string]bool {
	m := map[[2]string]bool{}
	for _, e := range wordList(name) {
		f := strings.Fields(e)
		if len(f) != 2 {
			panic("judge: word class " + name + ": entry " + e + " is not a pair")
		}
		m[[2]string{f[0], f[1]}] = true
	}
	return m
}
