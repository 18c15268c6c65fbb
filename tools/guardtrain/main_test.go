package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestShippedWeights retrains the shipped model with the command its
// header names and checks the file comes out byte for byte the same.
func TestShippedWeights(t *testing.T) {
	root := filepath.Join("..", "..")
	shipped, err := os.ReadFile(filepath.Join(root, "engine", "guard", "model", "injection.weights"))
	if err != nil {
		t.Fatal(err)
	}
	var args []string
	for _, line := range strings.Split(string(shipped), "\n") {
		if cmd, ok := strings.CutPrefix(line, "# Written by: go run ./tools/guardtrain "); ok {
			args = strings.Fields(cmd)
			break
		}
	}
	if args == nil {
		t.Fatal("the shipped weights name no command")
	}
	out := filepath.Join(t.TempDir(), "injection.weights")
	if err := cli(append(args, "-root", root, "-out", out)); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, shipped) {
		t.Errorf("retraining with %q wrote %d bytes that differ from the shipped %d", args, len(got), len(shipped))
	}
}

// TestHeldOutNeverRead checks the trainer refuses the held-out first-look
// split by name and reads only splits 1 to firstLookTuned.
func TestHeldOutNeverRead(t *testing.T) {
	for _, name := range []string{"firstlook90_hostile.txt", "firstlook90_benign.txt", "firstlook105_benign.txt", "firstlook106_hostile.txt", "firstlookx_benign.txt"} {
		if err := checkTrainable(name); err == nil {
			t.Errorf("checkTrainable(%q) = nil, want a refusal", name)
		}
		if _, err := readSplitFile(filepath.Join("..", ".."), name, 1, "x"); err == nil {
			t.Errorf("readSplitFile(%q) read a file that must not be trained on", name)
		}
	}
	for _, name := range []string{"firstlook_hostile.txt", "firstlook89_benign.txt", "hostile.txt"} {
		if err := checkTrainable(name); err != nil {
			t.Errorf("checkTrainable(%q): %v", name, err)
		}
	}
	ts, err := readFirstLook(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	splits := map[int]int{}
	for _, x := range ts {
		splits[x.group]++
	}
	if len(splits) != firstLookTuned || splits[0] > 0 || splits[firstLookTuned+1] > 0 {
		t.Errorf("texts by split: %v, want splits 1 to %d", splits, firstLookTuned)
	}
	read := map[string]bool{}
	for _, x := range ts {
		read[x.s] = true
	}
	// No text of a later split in the repository was read.
	for n := firstLookTuned + 1; n <= firstLookTuned+20; n++ {
		for _, y := range []float64{0, 1} {
			held, err := os.ReadFile(filepath.Join("..", "..", "engine", "guard", "testdata", firstLookFile(n, y)))
			if os.IsNotExist(err) {
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, line := range strings.Split(string(held), "\n") {
				if line != "" && !strings.HasPrefix(line, "# ") && read[unescape(line)] {
					t.Errorf("a text of the held-out split %d was read for training: %.80q", n, line)
				}
			}
		}
	}
}
