package hostconfig

import (
	"fmt"
	"strings"
)

// Diff shows what an edit changes: the lines that differ, with two lines
// of context, as a unified diff would.
func Diff(path string, before, after []byte) string {
	a := strings.Split(string(before), "\n")
	b := strings.Split(string(after), "\n")
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		p++
	}
	s := 0
	for s < len(a)-p && s < len(b)-p && a[len(a)-1-s] == b[len(b)-1-s] {
		s++
	}
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s (as arena would leave it)\n", path, path)
	from := max(p-2, 0)
	fmt.Fprintf(&out, "@@ -%d +%d @@\n", from+1, from+1)
	for _, l := range a[from:p] {
		out.WriteString(" " + l + "\n")
	}
	for _, l := range a[p : len(a)-s] {
		out.WriteString("-" + l + "\n")
	}
	for _, l := range b[p : len(b)-s] {
		out.WriteString("+" + l + "\n")
	}
	for _, l := range a[len(a)-s : min(len(a)-s+2, len(a))] {
		out.WriteString(" " + l + "\n")
	}
	return out.String()
}
