package tui

import (
	"fmt"
	"testing"
)

// TestNewspaperKeepsToItsHeight: however the groups fall, no column is
// taller than the height asked for, and every line is placed once.
func TestNewspaperKeepsToItsHeight(t *testing.T) {
	group := func(n int, name string) []string {
		g := make([]string, n)
		for i := range g {
			g[i] = fmt.Sprintf("%s%d", name, i)
		}
		return g
	}
	sizes := [][]int{{9, 7, 6, 5, 3, 5, 18}, {6, 4, 2, 3, 10}, {1, 1, 1}, {30}, {12, 12, 12}}
	for _, sz := range sizes {
		var gs [][]string
		total := 0
		for i, n := range sz {
			gs = append(gs, group(n, string(rune('a'+i))))
			total += n
		}
		for n := 1; n <= 3; n++ {
			for h := 2; h <= 40; h++ {
				cols, ok := newspaper(gs, n, h)
				placed := 0
				for _, c := range cols {
					if len(c) > h {
						t.Fatalf("%v in %d columns of %d: a column of %d lines", sz, n, h, len(c))
					}
					for _, l := range c {
						if l != "" {
							placed++
						}
					}
				}
				if ok && placed != total {
					t.Fatalf("%v in %d columns of %d: %d of %d lines placed", sz, n, h, placed, total)
				}
			}
		}
	}
}
