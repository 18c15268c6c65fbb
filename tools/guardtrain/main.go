// Command guardtrain trains the content policy's learned model and writes
// its weights file (engine/guard/model/injection.weights).
//
// It reads public training splits, listed in testdata/corpora/README.md:
// BIPIA's training attacks and training contexts (injection_train.jsonl,
// written by injection_train.py), the SQuAD 2.0 train passages of
// retrieval_squad.jsonl, the SNLI train sentences of snli_train_sample.tsv
// and the CaSiNo train turns of chat.jsonl; with -team also memgov's own
// hand-written content-policy texts (engine/guard/testdata: the tuning,
// holdout and probe files). It never reads a first-look split, a test or
// dev set, or chat_heldout.jsonl.
//
// The model is a logistic regression over the features guard.ModelFeatures
// returns, fitted with AdaGrad and an L2 penalty, attacks weighted so both
// classes weigh the same. The threshold is chosen on out-of-fold scores of
// a k-fold cross-validation: the lowest score at which at most -fpr of the
// benign texts are held. Training is deterministic for a given -seed.
//
// Example, from the repository root:
//
//	go run ./tools/guardtrain -team -fpr 0.001 -version injection-v2 -out engine/guard/model/injection.weights
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/memgov/memgov/engine/guard"
)

type example struct {
	feats []int
	vals  []float64
	y     float64
	src   string
}

func main() {
	root := flag.String("root", ".", "repository root")
	out := flag.String("out", "engine/guard/model/injection.weights", "weights file to write")
	epochs := flag.Int("epochs", 30, "passes over the training set")
	l2 := flag.Float64("l2", 1e-4, "L2 penalty per example")
	rate := flag.Float64("rate", 0.5, "AdaGrad learning rate")
	folds := flag.Int("folds", 5, "cross-validation folds for the threshold")
	fpr := flag.Float64("fpr", 0.01, "share of benign training texts the threshold may hold (out of fold)")
	minW := flag.Float64("min-weight", 0.02, "weights of smaller magnitude are left out of the file")
	seed := flag.Int64("seed", 1, "shuffling seed")
	chatN := flag.Int("chat", 3000, "most CaSiNo train turns to read")
	version := flag.String("version", "injection-v1", "version written into the file")
	groups := flag.String("groups", "wbcf", "feature groups to learn: w words, b bigrams, c 4-grams, f form")
	balance := flag.Bool("balance", true, "weigh attacks so both classes weigh the same (false: every text weighs one)")
	team := flag.Bool("team", false, "also learn from the team's hand-written tuning, holdout and probe texts (engine/guard/testdata; never the first-look splits)")
	flag.Usage = func() {
		fmt.Fprintf(os.Stderr, "usage: guardtrain [flags]\n\nTrains the content policy's learned model from public training splits.\n\nExample:\n  go run ./tools/guardtrain -team -fpr 0.001 -version injection-v2 -out engine/guard/model/injection.weights\n\nFlags:\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	useGroups = *groups
	useTeam = *team
	useBalance = *balance
	if err := run(*root, *out, *version, *epochs, *folds, *chatN, *l2, *rate, *fpr, *minW, *seed); err != nil {
		fmt.Fprintln(os.Stderr, "guardtrain:", err)
		os.Exit(1)
	}
}

// useBalance weighs attacks so both classes weigh the same.
var useBalance = true

// useTeam adds the team's hand-written texts to the training set.
var useTeam bool

// teamFiles are the hand-written content-policy texts the rules were
// written and tuned from: 1 marks attacks. The first-look splits are
// never read.
var teamFiles = []struct {
	name string
	y    float64
}{
	{"hostile.txt", 1}, {"benign.txt", 0}, {"hostile_holdout.txt", 1}, {"benign_holdout.txt", 0},
	{"probe_hostile.txt", 1}, {"probe_benign.txt", 0},
}

// readTeam reads the team's texts: one a line, "# " lines are comments,
// with the escapes \n, \t, \r, \\, \xHH, \uHHHH and \UHHHHHHHH.
func readTeam(root string) ([]text, error) {
	var ts []text
	for _, tf := range teamFiles {
		if strings.HasPrefix(tf.name, "firstlook") {
			return nil, fmt.Errorf("%s is a first-look split", tf.name)
		}
		data, err := os.ReadFile(filepath.Join(root, "engine", "guard", "testdata", tf.name))
		if err != nil {
			return nil, err
		}
		for _, line := range strings.Split(string(data), "\n") {
			if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "# ") {
				continue
			}
			ts = append(ts, text{unescape(line), tf.y, "memgov hand-written " + tf.name})
		}
	}
	return ts, nil
}

// unescape undoes the escapes of the team's text files.
func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		n := map[byte]int{'x': 2, 'u': 4, 'U': 8}[s[i+1]]
		switch c := s[i+1]; {
		case c == 'n' || c == 't' || c == 'r' || c == '\\':
			b.WriteByte(map[byte]byte{'n': '\n', 't': '\t', 'r': '\r', '\\': '\\'}[c])
			i++
		case n > 0 && i+2+n <= len(s):
			v, err := strconv.ParseUint(s[i+2:i+2+n], 16, 32)
			if err != nil {
				b.WriteByte(s[i])
				continue
			}
			if c == 'x' {
				b.WriteByte(byte(v))
			} else {
				b.WriteRune(rune(v))
			}
			i += 1 + n
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

// useGroups lists the feature groups the model learns (the first letter
// of a feature's name).
var useGroups = "wbcf"

type text struct {
	s   string
	y   float64
	src string
}

func readTexts(root string, chatN int) ([]text, error) {
	var ts []text
	dir := filepath.Join(root, "testdata", "corpora")
	err := eachJSON(filepath.Join(dir, "injection_train.jsonl"), func(r map[string]any) {
		y := 0.0
		if r["label"] == "injection" {
			y = 1
		}
		src := r["source"].(map[string]any)
		ts = append(ts, text{r["text"].(string), y, "BIPIA " + src["file"].(string)})
	})
	if err != nil {
		return nil, err
	}
	err = eachJSON(filepath.Join(dir, "retrieval_squad.jsonl"), func(r map[string]any) {
		if r["kind"] == "passage" {
			ts = append(ts, text{r["text"].(string), 0, "SQuAD 2.0 train"})
		}
	})
	if err != nil {
		return nil, err
	}
	f, err := os.Open(filepath.Join(dir, "snli_train_sample.tsv"))
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "\t")
		for _, c := range cols[min(2, len(cols)):] {
			if c != "" && !seen[c] {
				seen[c] = true
				ts = append(ts, text{c, 0, "SNLI train"})
			}
		}
	}
	f.Close()
	if err := sc.Err(); err != nil {
		return nil, err
	}
	n := 0
	err = eachJSON(filepath.Join(dir, "chat.jsonl"), func(r map[string]any) {
		if s, _ := r["text"].(string); s != "" && n < chatN && !seen[s] {
			seen[s] = true
			n++
			ts = append(ts, text{s, 0, "CaSiNo train"})
		}
	})
	return ts, err
}

func eachJSON(name string, fn func(map[string]any)) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 4<<20)
	for sc.Scan() {
		var r map[string]any
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return fmt.Errorf("%s: %v", name, err)
		}
		fn(r)
	}
	return sc.Err()
}

func run(root, out, version string, epochs, folds, chatN int, l2, rate, fpr, minW float64, seed int64) error {
	ts, err := readTexts(root, chatN)
	if err != nil {
		return err
	}
	if useTeam {
		team, err := readTeam(root)
		if err != nil {
			return err
		}
		ts = append(ts, team...)
	}
	index := map[string]int{}
	var names []string
	var exs []example
	counts := map[string]int{}
	var pos, neg int
	for _, t := range ts {
		var e example
		e.y, e.src = t.y, t.src
		for _, f := range guard.ModelFeatures(t.s) {
			if !strings.ContainsRune(useGroups, rune(f.Name[0])) {
				continue
			}
			i, ok := index[f.Name]
			if !ok {
				i = len(names)
				index[f.Name] = i
				names = append(names, f.Name)
			}
			e.feats = append(e.feats, i)
			e.vals = append(e.vals, f.Value)
		}
		exs = append(exs, e)
		counts[t.src]++
		if t.y == 1 {
			pos++
		} else {
			neg++
		}
	}
	posW := 1.0
	if useBalance {
		posW = float64(neg) / float64(pos)
	}
	rng := rand.New(rand.NewSource(seed))
	order := rng.Perm(len(exs))

	// Out-of-fold scores for the threshold.
	oof := make([]float64, len(exs))
	for k := 0; k < folds; k++ {
		var train []int
		for j, i := range order {
			if j%folds != k {
				train = append(train, i)
			}
		}
		w, b := fit(exs, train, len(names), epochs, l2, rate, posW, rng)
		for j, i := range order {
			if j%folds == k {
				oof[i] = predict(exs[i], w, b)
			}
		}
	}
	var benign []float64
	for i, e := range exs {
		if e.y == 0 {
			benign = append(benign, oof[i])
		}
	}
	sort.Sort(sort.Reverse(sort.Float64Slice(benign)))
	allowed := int(math.Floor(fpr * float64(len(benign))))
	threshold := 0.5
	if allowed < len(benign) {
		threshold = math.Max(0.5, benign[allowed]+1e-6)
	}
	var caught, held int
	for i, e := range exs {
		switch {
		case e.y == 1 && oof[i] >= threshold:
			caught++
		case e.y == 0 && oof[i] >= threshold:
			held++
		}
	}
	oofRecall := float64(caught) / float64(pos)
	oofFPR := float64(held) / float64(neg)
	fmt.Fprintf(os.Stderr, "out of fold: threshold %.4f, recall %.3f (%d/%d), benign held %.4f (%d/%d)\n",
		threshold, oofRecall, caught, pos, oofFPR, held, neg)

	all := make([]int, len(exs))
	for i := range all {
		all[i] = order[i]
	}
	w, b := fit(exs, all, len(names), epochs, l2, rate, posW, rng)
	type nw struct {
		name string
		w    float64
	}
	var kept []nw
	for i, x := range w {
		if math.Abs(x) >= minW {
			kept = append(kept, nw{names[i], x})
		}
	}
	sort.Slice(kept, func(i, j int) bool { return kept[i].name < kept[j].name })

	var sb strings.Builder
	fmt.Fprintf(&sb, "# memgov content policy: learned injection model (logistic regression).\n")
	team := ""
	if useTeam {
		team = " -team"
	}
	fmt.Fprintf(&sb, "# Written by: go run ./tools/guardtrain -epochs %d -l2 %g -rate %g -folds %d -fpr %g -min-weight %g -seed %d -chat %d -groups %s%s -version %s\n",
		epochs, l2, rate, folds, fpr, minW, seed, chatN, useGroups, team, version)
	if useTeam {
		fmt.Fprintf(&sb, "# Training data (public training splits and memgov's own hand-written texts; never a first-look split,\n#   a test, dev or evaluation set; see testdata/corpora/README.md):\n")
	} else {
		fmt.Fprintf(&sb, "# Training data (public training splits only; see testdata/corpora/README.md):\n")
	}
	srcs := make([]string, 0, len(counts))
	for s := range counts {
		srcs = append(srcs, s)
	}
	sort.Strings(srcs)
	for _, s := range srcs {
		fmt.Fprintf(&sb, "#   %-45s %5d texts\n", s, counts[s])
	}
	fmt.Fprintf(&sb, "#   licences: BIPIA MIT (Stack Overflow contexts CC BY-SA 4.0); SQuAD 2.0 CC BY-SA 4.0; SNLI CC BY-SA 4.0; CaSiNo CC BY 4.0\n")
	if useTeam {
		fmt.Fprintf(&sb, "#   memgov hand-written texts (engine/guard/testdata): same terms as the memgov repository\n")
	}
	fmt.Fprintf(&sb, "# %d attacks, %d benign; %d features seen, %d kept (|weight| >= %g).\n", pos, neg, len(names), len(kept), minW)
	fmt.Fprintf(&sb, "# %d-fold out-of-fold: recall %.3f, benign held %.4f at the threshold.\n", folds, oofRecall, oofFPR)
	fmt.Fprintf(&sb, "# Feature names: w: word, b: two words, c: four characters (_ for space), f: form.\n")
	fmt.Fprintf(&sb, "version %s\nbias %.6f\nthreshold %.6f\n", version, b, threshold)
	for _, k := range kept {
		fmt.Fprintf(&sb, "%.5f\t%s\n", k.w, k.name)
	}
	return os.WriteFile(filepath.Join(root, out), []byte(sb.String()), 0o644)
}

// fit trains a logistic regression on the examples idx with AdaGrad.
func fit(exs []example, idx []int, n, epochs int, l2, rate, posW float64, rng *rand.Rand) ([]float64, float64) {
	w := make([]float64, n)
	g2 := make([]float64, n)
	var b, gb float64
	order := append([]int(nil), idx...)
	for ep := 0; ep < epochs; ep++ {
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		for _, i := range order {
			e := exs[i]
			p := predict(e, w, b)
			g := p - e.y
			if e.y == 1 {
				g *= posW
			}
			for k, f := range e.feats {
				gr := g*e.vals[k] + l2*w[f]
				g2[f] += gr * gr
				w[f] -= rate * gr / (math.Sqrt(g2[f]) + 1e-8)
			}
			gb += g * g
			b -= rate * g / (math.Sqrt(gb) + 1e-8)
		}
	}
	return w, b
}

func predict(e example, w []float64, b float64) float64 {
	z := b
	for k, f := range e.feats {
		z += w[f] * e.vals[k]
	}
	return 1 / (1 + math.Exp(-z))
}
