package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A miniature WordNet in the database file format: two adjective synsets
// that are direct antonyms, one verb synset of two words whose first sense
// it is, a noun derived from an adjective, a noun synset whose member
// "works" reads as the plural of the verb "work", and an exception list.
var miniWordNet = map[string]string{
	"data.adj": "  1 license line\n" +
		"00000001 00 a 01 hot 0 001 ! 00000002 a 0101 | high temperature\n" +
		"00000002 00 a 01 cold 0 001 ! 00000001 a 0101 | low temperature\n",
	"index.adj": "  1 license line\n" +
		"cold a 1 1 ! 1 1 00000002\n" +
		"hot a 1 1 ! 1 1 00000001\n",
	"data.verb": "00000003 00 v 02 buy 0 purchase 0 000 | obtain by paying\n" +
		"00000006 00 v 01 work 0 000 | exert oneself\n",
	"index.verb": "buy v 1 0 1 1 00000003\n" +
		"purchase v 1 0 1 1 00000003\n" +
		"work v 1 0 1 1 00000006\n",
	"data.noun": "00000004 00 n 01 heat 0 001 + 00000001 a 0101 | warmth\n" +
		"00000005 00 n 02 works 0 plant 0 000 | a factory\n",
	"index.noun": "heat n 1 1 + 1 0 00000004\n" +
		"plant n 1 0 1 1 00000005\n" +
		"works n 1 0 1 1 00000005\n",
	"data.adv":  "",
	"index.adv": "",
	"verb.exc":  "bought buy\n",
}

func TestRun(t *testing.T) {
	dir := t.TempDir()
	for name, text := range miniWordNet {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(t.TempDir(), "lexicon.txt")
	if err := run(dir, out); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	got := string(b)
	for _, want := range []string{"WordNet 3.0 Copyright 2006 by Princeton University", "\na a cold hot\n", "\ns buy purchase\n", "\nm bought buy\n",
		"\nr buy purchase\n", "\nr heat hot\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("lexicon lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "\nr plant works\n") {
		t.Errorf("\"works\" reads as the plural of \"work\", yet the lexicon relates it:\n%s", got)
	}
	if strings.Count(got, "a a cold hot") != 1 {
		t.Error("an antonym pair listed from both ends must appear once")
	}
}

func TestRunMissingDirectory(t *testing.T) {
	if err := run(filepath.Join(t.TempDir(), "none"), filepath.Join(t.TempDir(), "x")); err == nil {
		t.Error("want an error for a missing WordNet directory")
	}
}
