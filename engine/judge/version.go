package judge

import (
	"crypto/sha256"
	"encoding/hex"
	"sort"
	"sync"
)

// rulesRevision names the revision of the rule code. Bump it in the same
// commit as any change to the code that reads text (claims, fingerprints,
// normalisation, subjects): the values memgov derives from stored text carry
// Version, and a new version tells every database that its index is stale
// and is rebuilt by `memgov admin reindex`. The lexicon and the word-class
// files are hashed below, so a data change needs no bump.
const rulesRevision = "2026-11-26.1"

var (
	versionOnce sync.Once
	version     string
)

// Version identifies the judge that derives values from text: a short hash
// of rulesRevision, the embedded lexicon and every embedded word-class file
// (words/*.txt), read in name order. Two builds with the same Version derive
// the same fingerprints, subjects and normalised text from the same content.
func Version() string {
	versionOnce.Do(func() { version = versionOf(rulesRevision) })
	return version
}

// versionOf hashes a rules revision with the embedded data.
func versionOf(revision string) string {
	h := sha256.New()
	h.Write([]byte("memgov-judge\x00rules\x00" + revision + "\x00lexicon\x00"))
	h.Write([]byte(lexiconText))
	entries, err := wordFiles.ReadDir("words")
	if err != nil {
		// The files are embedded at build time; the words_test checks them.
		panic("judge: reading the embedded word classes: " + err.Error())
	}
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	for _, n := range names {
		b, err := wordFiles.ReadFile("words/" + n)
		if err != nil {
			panic("judge: reading word class " + n + ": " + err.Error())
		}
		h.Write([]byte("\x00word-class\x00" + n + "\x00"))
		h.Write(b)
	}
	return "j1-" + hex.EncodeToString(h.Sum(nil))[:16]
}
