package tui

import "strings"

// column is a table column; the flex column takes the width the others leave.
type column struct {
	title string
	width int
	flex  bool
}

// cursor is the selection and scroll position of a list of n rows shown in
// height lines. Only the rows between offset and offset+height are rendered.
type cursor struct {
	pos, offset, height int
}

func (c *cursor) move(delta, n int) {
	c.pos += delta
	c.clamp(n)
}

func (c *cursor) clamp(n int) {
	c.pos = max(min(c.pos, n-1), 0)
	h := max(c.height, 1)
	if c.pos < c.offset {
		c.offset = c.pos
	}
	if c.pos >= c.offset+h {
		c.offset = c.pos - h + 1
	}
	c.offset = max(min(c.offset, n-h), 0)
}

// act applies a movement action to the cursor; it reports whether the action
// was a movement.
func (c *cursor) act(a Action, n int) bool {
	page := max(c.height-1, 1)
	switch a {
	case ActUp:
		c.move(-1, n)
	case ActDown:
		c.move(1, n)
	case ActPageUp:
		c.move(-page, n)
	case ActPageDown:
		c.move(page, n)
	case ActTop:
		c.move(-c.pos, n)
	case ActBottom:
		c.move(n, n)
	default:
		return false
	}
	return true
}

// widths resolves the column widths for a table of the given total width.
func widths(cols []column, total int) []int {
	ws := make([]int, len(cols))
	used := 2 + 2*(len(cols)-1) // the selection marker and the gaps
	flex := -1
	for i, c := range cols {
		ws[i] = c.width
		if c.flex {
			flex = i
			continue
		}
		used += c.width
	}
	if flex >= 0 {
		ws[flex] = max(total-used, 8)
	}
	return ws
}

// renderTable renders the header and the rows from..to of a table; cells(i)
// returns row i's cells, already sanitised.
func renderTable(st Styles, cols []column, total int, cur cursor, n int, cells func(i int) []string) []string {
	ws := widths(cols, total)
	head := make([]string, len(cols))
	for i, c := range cols {
		head[i] = fit(c.title, ws[i])
	}
	lines := []string{fit("  "+st.ColHeader.Render(strings.Join(head, "  ")), total)}
	to := min(cur.offset+cur.height, n)
	for i := cur.offset; i < to; i++ {
		cs := cells(i)
		parts := make([]string, len(cols))
		for j := range cols {
			if j < len(cs) {
				parts[j] = fit(cs[j], ws[j])
			} else {
				parts[j] = fit("", ws[j])
			}
		}
		row := strings.Join(parts, "  ")
		if i == cur.pos {
			lines = append(lines, fit("▸ "+st.Selected.Render(fit(row, total-2)), total))
		} else {
			lines = append(lines, fit("  "+row, total))
		}
	}
	return lines
}

// pane pads or cuts lines to exactly h lines of width w.
func pane(lines []string, w, h int) []string {
	out := make([]string, h)
	for i := range out {
		if i < len(lines) {
			out[i] = fit(lines[i], w)
		} else {
			out[i] = strings.Repeat(" ", max(w, 0))
		}
	}
	return out
}

// split lays a list and a detail side by side at wide sizes and stacks them
// (list above detail) at narrow ones.
type split struct {
	wide                     bool
	listW, listH, detW, detH int
}

// wideMin is the narrowest terminal that shows list and detail side by side.
const wideMin = 100

// layout splits a body of w×h for a list of rows rows; stacked, the list takes
// no more lines than it needs, leaving the rest to the detail.
func layout(w, h int, listFrac float64, rows int) split {
	if w >= wideMin {
		lw := int(float64(w) * listFrac)
		return split{wide: true, listW: lw, listH: h, detW: w - lw - 3, detH: h}
	}
	lh := min(max(h*5/11, 4), max(rows+1, 4))
	return split{listW: w, listH: lh, detW: w, detH: max(h-lh-1, 0)}
}

// join renders a list and a detail pane in the layout.
func (s split) join(st Styles, list, detail []string) string {
	l := pane(list, s.listW, s.listH)
	d := pane(detail, s.detW, s.detH)
	if s.wide {
		sep := st.Rule.Render(" │ ")
		out := make([]string, s.listH)
		for i := range out {
			out[i] = l[i] + sep + d[i]
		}
		return strings.Join(out, "\n")
	}
	out := append(l, st.Rule.Render(strings.Repeat("┄", s.listW)))
	if s.detH > 0 {
		out = append(out, d...)
	}
	return strings.Join(out, "\n")
}
