package review

import (
	"strings"
	"unicode"
)

// DiffOp says whether a diff piece is kept, removed or added.
type DiffOp int

// Diff operations.
const (
	Equal DiffOp = iota
	Delete
	Insert
)

// String is the unified-diff marker of the operation.
func (o DiffOp) String() string {
	switch o {
	case Delete:
		return "-"
	case Insert:
		return "+"
	}
	return " "
}

// Piece is one token (a line, or a word with its trailing space) of a diff.
type Piece struct {
	Op   DiffOp
	Text string
}

// maxDiffCells bounds the LCS table; past it the diff degrades to "all of a
// removed, all of b added", which is still correct, only coarser.
const maxDiffCells = 4 << 20

// LineDiff returns the line-level diff from a to b.
func LineDiff(a, b string) []Piece {
	return diff(splitLines(a), splitLines(b))
}

// WordDiff returns the word-level diff from a to b; each piece keeps the white
// space that follows its word, so joining the Equal and Delete pieces gives a
// back, and the Equal and Insert pieces give b.
func WordDiff(a, b string) []Piece {
	return diff(splitWords(a), splitWords(b))
}

func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

func splitWords(s string) []string {
	var out []string
	start := 0
	inSpace := false
	for i, r := range s {
		sp := unicode.IsSpace(r)
		if inSpace && !sp {
			out = append(out, s[start:i])
			start = i
		}
		inSpace = sp
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}

// diff is a longest-common-subsequence diff with the common prefix and suffix
// trimmed first, which keeps the table small for the usual small edit.
func diff(a, b []string) []Piece {
	var head, tail []Piece
	for len(a) > 0 && len(b) > 0 && a[0] == b[0] {
		head = append(head, Piece{Equal, a[0]})
		a, b = a[1:], b[1:]
	}
	for len(a) > 0 && len(b) > 0 && a[len(a)-1] == b[len(b)-1] {
		tail = append(tail, Piece{Equal, a[len(a)-1]})
		a, b = a[:len(a)-1], b[:len(b)-1]
	}
	out := head
	n, m := len(a), len(b)
	if n*m > maxDiffCells {
		for _, s := range a {
			out = append(out, Piece{Delete, s})
		}
		for _, s := range b {
			out = append(out, Piece{Insert, s})
		}
	} else {
		// lcs[i][j] is the LCS length of a[i:] and b[j:].
		w := m + 1
		lcs := make([]int32, (n+1)*w)
		for i := n - 1; i >= 0; i-- {
			for j := m - 1; j >= 0; j-- {
				if a[i] == b[j] {
					lcs[i*w+j] = lcs[(i+1)*w+j+1] + 1
				} else {
					lcs[i*w+j] = max(lcs[(i+1)*w+j], lcs[i*w+j+1])
				}
			}
		}
		i, j := 0, 0
		for i < n || j < m {
			switch {
			case i < n && j < m && a[i] == b[j]:
				out = append(out, Piece{Equal, a[i]})
				i, j = i+1, j+1
			case i < n && (j == m || lcs[(i+1)*w+j] >= lcs[i*w+j+1]):
				out = append(out, Piece{Delete, a[i]})
				i++
			default:
				out = append(out, Piece{Insert, b[j]})
				j++
			}
		}
	}
	for k := len(tail) - 1; k >= 0; k-- {
		out = append(out, tail[k])
	}
	return out
}
