// Command guardtrain trains the content policy's learned model and writes
// its weights file (engine/guard/model/injection.weights).
//
// It reads public training splits, listed in testdata/corpora/README.md:
// BIPIA's training attacks and training contexts (injection_train.jsonl,
// written by injection_train.py), the SQuAD 2.0 train passages of
// retrieval_squad.jsonl, the SNLI train sentences of snli_train_sample.tsv
// and the CaSiNo train turns of chat.jsonl; with -team also memgov's own
// hand-written content-policy texts (engine/guard/testdata: the tuning,
// holdout and probe files); with -firstlook also the first-look splits the
// rules were tuned on or the model was measured on (splits 1 to 89, each
// by its own outside writer). It never reads a test or dev set,
// chat_heldout.jsonl, or the ninetieth to hundred-and-fifth first-look
// splits, which are held out: the trainer refuses their files by name,
// and any split past the eighty-ninth.
//
// The model is a logistic regression over the features guard.ModelFeatures
// returns, fitted with AdaGrad and an L2 penalty, attacks weighted so both
// classes weigh the same unless -balance=false. The threshold is chosen on
// out-of-fold scores of a k-fold cross-validation: the lowest score at
// which at most -fpr of the benign texts are held. A first-look split lies
// whole in one fold, so its texts are scored as a new writer's would be.
// Training is deterministic for a given -seed; the weights file's header
// names the command that wrote it, and a test retrains the shipped file
// byte for byte from that command.
//
// Measured (engine/guard TestModelCandidate, four candidates fixed before
// any scored the held-out sixteenth split, all -team -firstlook
// -balance=false): on the sixteenth split the rules alone catch 69 of 100
// attacks, refuse 3 and hold 9 of 100 benign texts; rules or model catch
// 86 (wbcf, -fpr 0.002), 88 (wbcf, 0.005), 81 (wf, 0.002) and 86 (wf,
// 0.005), with no benign text more refused or held; the model holds 1, 1, 2
// and 4 of 7,577 ordinary corpus texts. The first was shipped as
// injection-v2 and Check holds what it reads as an injection.
//
// injection-v3 is injection-v2's command on splits 1 to 17: the sixteenth
// and seventeenth joined the training data once their first looks with
// injection-v2 were recorded (86 of 100 attacks caught on each).
//
// injection-v3 was measured on the eighteenth and nineteenth splits,
// written after it was trained: the rules and the model caught 93 and 15
// of 100 attacks, the model holding none of the benign texts. injection-v4
// is the same command on splits 1 to 19, trained once those first looks
// were recorded. injection-v5, the command on splits 1 to 25, was
// measured on the twenty-sixth and twenty-seventh beside injection-v4 at
// the same operating points (engine/guard/learned.go) and not shipped: 3
// attacks more, 2 benign texts more held. injection-v6 is the command on
// splits 1 to 27, fixed before it scored the twenty-eighth and
// twenty-ninth, written after those first looks with injection-v4: it
// catches 75 and 69 of their 100 attacks where injection-v4 caught 70 and
// 63, holds 1 benign text more. injection-v7 is the command on splits 1
// to 29, trained once those two were measured; on the thirtieth and
// thirty-first, written after it, the rules and it caught 77 and 74 of
// 100 attacks. injection-v8 is the same command on the same splits once
// guard.ModelFeatures read the form features of other languages (an AI
// reader named, an order verb, a word of obligation, from the word
// classes of engine/guard/words/lang, written with a letter beyond
// ASCII): out of fold, recall at the threshold went from 0.664 to 0.676.
// On the thirtieth and thirty-first it catches what injection-v7 caught,
// no more and no fewer. Trained on splits 1 to 31 it held a benign
// hand-off that TestToldApart requires to pass (0.82), and was not
// shipped so. injection-v9 is injection-v8's command once the trainer
// leaves out the attacks whose payload is in invisible characters
// (hasInvisible). injection-v10 is the command on splits 1 to 33 once
// guard.ModelFeatures reads two more form features (a scope without
// bound: "anyone", "all future", "permanently"; a check set aside: "no
// need to", "without approval"); on splits 34 to 39, held out, the rules
// and it caught 517 of 600 attacks and refused 9 and held 24 of their
// 600 benign texts, where injection-v9 caught 507, refused 9 and held 30.
// injection-v11 is the same command on splits 1 to 45; on splits 46 to
// 49, held out, the rules and it caught 342 of 400 attacks (injection-v10
// 322) and refused 5 and held 15 of their 400 benign texts (5 and 17).
// Trained on splits 1 to 39 it caught 852 of the 1,000 attacks of splits
// 40 to 49 (injection-v10 831), but one fewer on the forty-fifth and two
// benign texts more held on the forty-second than their first looks.
// injection-v12 is the same command on splits 1 to 53; on splits 54 to
// 57, held out, the rules and it caught 338 of 400 attacks (injection-v11
// 330) and refused 7 and held 15 of their 400 benign texts (7 and 19).
// injection-v13 is the same command on splits 1 to 89; on splits 90 to
// 105, held out, at the same operating points (holdAt 0.6, short texts
// 0.9, releasing under 0.1), the rules and it caught 1,519 of 1,600
// attacks (injection-v12 1,479) and refused 14 and held 69 of their 1,600
// benign texts (14 and 72).
//
// Example, from the repository root (the shipped injection-v13):
//
//	go run ./tools/guardtrain -team -firstlook -balance=false -groups wbcf -fpr 0.002 -version injection-v13

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
	"unicode"

	"github.com/memgov/memgov/engine/guard"
)

type example struct {
	feats []int
	vals  []float64
	y     float64
	src   string
}

func main() {
	if err := cli(os.Args[1:]); err != nil {
		if err == flag.ErrHelp {
			return
		}
		fmt.Fprintln(os.Stderr, "guardtrain:", err)
		os.Exit(1)
	}
}

// cli parses the flags in args and trains.
func cli(args []string) error {
	fl := flag.NewFlagSet("guardtrain", flag.ContinueOnError)
	root := fl.String("root", ".", "repository root")
	out := fl.String("out", "engine/guard/model/injection.weights", "weights file to write (relative to -root unless absolute)")
	epochs := fl.Int("epochs", 30, "passes over the training set")
	l2 := fl.Float64("l2", 1e-4, "L2 penalty per example")
	rate := fl.Float64("rate", 0.5, "AdaGrad learning rate")
	folds := fl.Int("folds", 5, "cross-validation folds for the threshold")
	fpr := fl.Float64("fpr", 0.01, "share of benign training texts the threshold may hold (out of fold)")
	minW := fl.Float64("min-weight", 0.02, "weights of smaller magnitude are left out of the file")
	seed := fl.Int64("seed", 1, "shuffling seed")
	chatN := fl.Int("chat", 3000, "most CaSiNo train turns to read")
	version := fl.String("version", "injection-v1", "version written into the file")
	groups := fl.String("groups", "wbcf", "feature groups to learn: w words, b bigrams, c 4-grams, f form")
	balance := fl.Bool("balance", true, "weigh attacks so both classes weigh the same (false: every text weighs one)")
	team := fl.Bool("team", false, "also learn from the team's hand-written tuning, holdout and probe texts (engine/guard/testdata; never the first-look splits)")
	firstLook := fl.Bool("firstlook", false, "also learn from the first-look splits already measured (engine/guard/testdata, splits 1 to 89; never the ninetieth to hundred-and-fifth, which are held out)")
	fl.Usage = func() {
		fmt.Fprintf(fl.Output(), "usage: guardtrain [flags]\n\nTrains the content policy's learned model from public training splits.\n\nExample:\n  go run ./tools/guardtrain -team -firstlook -balance=false -groups wbcf -fpr 0.002 -version injection-v13\n\nFlags:\n")
		fl.PrintDefaults()
	}
	if err := fl.Parse(args); err != nil {
		return err
	}
	if fl.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q (every setting is a flag; see -help)", fl.Arg(0))
	}
	useGroups = *groups
	useTeam = *team
	useBalance = *balance
	useFirstLook = *firstLook
	return run(*root, *out, *version, *epochs, *folds, *chatN, *l2, *rate, *fpr, *minW, *seed)
}

// useBalance weighs attacks so both classes weigh the same.
var useBalance = true

// useTeam adds the team's hand-written texts to the training set.
var useTeam bool

// useFirstLook adds the tuned first-look splits to the training set.
var useFirstLook bool

// firstLookFiles are the first-look splits the rules have been tuned on,
// each written by its own outside writer; tuned is the last split
// number that may be read. Later splits are held out to measure what
// neither the rules nor the model were fitted to, and are never read.
const firstLookTuned = 89

// heldOut names the first-look splits that must never be read for
// training, whatever firstLookTuned says.
var heldOut = func() []string {
	var out []string
	for n := 90; n <= 105; n++ {
		out = append(out, firstLookFile(n, 1), firstLookFile(n, 0))
	}
	return out
}()

// firstLookFile returns the file name of split n's attacks (y 1) or
// benign texts (y 0): "firstlook_hostile.txt" for the first split,
// "firstlookN_hostile.txt" after it.
func firstLookFile(n int, y float64) string {
	num := ""
	if n > 1 {
		num = strconv.Itoa(n)
	}
	kind := "benign"
	if y == 1 {
		kind = "hostile"
	}
	return "firstlook" + num + "_" + kind + ".txt"
}

// checkTrainable refuses a file that must not be trained on: a held-out
// first-look split, or a first-look split past firstLookTuned.
func checkTrainable(name string) error {
	for _, h := range heldOut {
		if name == h {
			return fmt.Errorf("%s is a held-out first-look split: it is never trained on", name)
		}
	}
	if rest, ok := strings.CutPrefix(name, "firstlook"); ok {
		num, _, _ := strings.Cut(rest, "_")
		n := 1
		if num != "" {
			var err error
			if n, err = strconv.Atoi(num); err != nil {
				return fmt.Errorf("%s: not a first-look split's name", name)
			}
		}
		if n < 1 || n > firstLookTuned {
			return fmt.Errorf("%s: only first-look splits 1 to %d are trained on", name, firstLookTuned)
		}
	}
	return nil
}

// readFirstLook reads the attacks and benign texts of first-look splits
// 1 to firstLookTuned; each text's group is its split's number, so that
// cross-validation keeps a split's texts in one fold.
func readFirstLook(root string) ([]text, error) {
	var ts []text
	for n := 1; n <= firstLookTuned; n++ {
		for _, y := range []float64{1, 0} {
			name := firstLookFile(n, y)
			if err := checkTrainable(name); err != nil {
				return nil, err
			}
			got, err := readSplitFile(root, name, y, "memgov first-look split "+strconv.Itoa(n))
			if err != nil {
				return nil, err
			}
			for i := range got {
				got[i].group = n
			}
			ts = append(ts, got...)
		}
	}
	return ts, nil
}

// readSplitFile reads one of engine/guard/testdata's text files: one
// text a line, "# " lines are comments.
func readSplitFile(root, name string, y float64, src string) ([]text, error) {
	if err := checkTrainable(name); err != nil {
		return nil, err
	}
	data, err := os.ReadFile(filepath.Join(root, "engine", "guard", "testdata", name))
	if err != nil {
		return nil, err
	}
	var ts []text
	for _, line := range strings.Split(string(data), "\n") {
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "# ") {
			continue
		}
		ts = append(ts, text{s: unescape(line), y: y, src: src})
	}
	return ts, nil
}

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
		got, err := readSplitFile(root, tf.name, tf.y, "memgov hand-written "+tf.name)
		if err != nil {
			return nil, err
		}
		ts = append(ts, got...)
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
	// group is a first-look split's number, 0 for other texts.
	group int
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
		ts = append(ts, text{s: r["text"].(string), y: y, src: "BIPIA " + src["file"].(string)})
	})
	if err != nil {
		return nil, err
	}
	err = eachJSON(filepath.Join(dir, "retrieval_squad.jsonl"), func(r map[string]any) {
		if r["kind"] == "passage" {
			ts = append(ts, text{s: r["text"].(string), src: "SQuAD 2.0 train"})
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
				ts = append(ts, text{s: c, src: "SNLI train"})
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
			ts = append(ts, text{s: s, src: "CaSiNo train"})
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
	if useFirstLook {
		fl, err := readFirstLook(root)
		if err != nil {
			return err
		}
		ts = append(ts, fl...)
	}
	index := map[string]int{}
	var names []string
	var exs []example
	var groups []int
	counts := map[string]int{}
	var pos, neg int
	var hidden int
	for _, t := range ts {
		if t.y == 1 && hasInvisible(t.s) {
			hidden++
			continue
		}
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
		groups = append(groups, t.group)
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

	// Out-of-fold scores for the threshold. A first-look split lies
	// whole in one fold, so its texts are scored by a model that saw
	// nothing of its writer, as a later split's will be.
	foldOf := func(j, i int) int {
		if g := groups[i]; g > 0 {
			return (g - 1) % folds
		}
		return j % folds
	}
	oof := make([]float64, len(exs))
	for k := 0; k < folds; k++ {
		var train []int
		for j, i := range order {
			if foldOf(j, i) != k {
				train = append(train, i)
			}
		}
		w, b := fit(exs, train, len(names), epochs, l2, rate, posW, rng)
		for j, i := range order {
			if foldOf(j, i) == k {
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
	if useFirstLook {
		team += " -firstlook"
	}
	if !useBalance {
		team += " -balance=false"
	}
	fmt.Fprintf(&sb, "# Written by: go run ./tools/guardtrain -epochs %d -l2 %g -rate %g -folds %d -fpr %g -min-weight %g -seed %d -chat %d -groups %s%s -version %s\n",
		epochs, l2, rate, folds, fpr, minW, seed, chatN, useGroups, team, version)
	if useFirstLook {
		fmt.Fprintf(&sb, "# Training data (public training splits, memgov's own hand-written texts and first-look splits 1 to %d,\n#   each by an outside writer; never a held-out first-look split, a test, dev or evaluation set;\n#   see testdata/corpora/README.md):\n", firstLookTuned)
	} else if useTeam {
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
	if useTeam || useFirstLook {
		fmt.Fprintf(&sb, "#   memgov hand-written texts and first-look splits (engine/guard/testdata): same terms as the memgov repository\n")
	}
	fmt.Fprintf(&sb, "# %d attacks, %d benign; %d features seen, %d kept (|weight| >= %g).\n", pos, neg, len(names), len(kept), minW)
	if hidden > 0 {
		fmt.Fprintf(&sb, "# %d attacks left out: their payload is in invisible characters, which the model does not read.\n", hidden)
	}
	fmt.Fprintf(&sb, "# %d-fold out-of-fold: recall %.3f, benign held %.4f at the threshold.\n", folds, oofRecall, oofFPR)
	fmt.Fprintf(&sb, "# Feature names: w: word, b: two words, c: four characters (_ for space), f: form.\n")
	fmt.Fprintf(&sb, "version %s\nbias %.6f\nthreshold %.6f\n", version, b, threshold)
	for _, k := range kept {
		fmt.Fprintf(&sb, "%.5f\t%s\n", k.w, k.name)
	}
	if !filepath.IsAbs(out) {
		out = filepath.Join(root, out)
	}
	return os.WriteFile(out, []byte(sb.String()), 0o644)
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

// hasInvisible reports whether s holds an invisible character (Unicode's
// format characters: zero-width spaces and joiners, tags, direction
// marks). The model reads the normalised view of a text, which drops
// them, and the rules refuse the attacks that hide in them before the
// model reads anything: an attack whose payload is invisible
// ("Customer prefers email." followed by zero-width spaces) would teach
// the model its visible carrier, an ordinary sentence, as an attack.
// Such attacks are left out of training; benign texts holding such
// characters are kept.
func hasInvisible(s string) bool {
	for _, r := range s {
		if unicode.Is(unicode.Cf, r) {
			return true
		}
	}
	return false
}
