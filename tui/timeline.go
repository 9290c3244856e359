package tui

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/arenadebate/arena/engine"
)

// The timeline is the header's second line: the protocol's phases as its
// start event lists them, each done (✓), skipped (–: the run went past
// it without starting it, as a debate that agrees at once never
// confronts), current (●) or to come (○).

// phaseState is where a phase stands on the timeline.
type phaseState uint8

const (
	phaseToCome phaseState = iota
	phaseCurrent
	phaseDone
	phaseSkipped
)

// timelineKey is what the timeline depends on.
type timelineKey struct {
	width  int
	phases int
	ran    int
	phase  engine.Phase
	title  string
	ended  bool
}

// timelineLine is the timeline fitted to the screen, cached: finding the
// form that fits measures it several times, and it changes once a phase.
func (m *Model) timelineLine() string {
	k := timelineKey{m.width, len(m.phases), len(m.ran), m.phase, m.phaseTitle, m.outcome != nil}
	if m.timelineCache.key != k || m.timelineCache.text == "" {
		m.timelineCache.key, m.timelineCache.text = k, fit(m.timeline(m.width), m.width)
	}
	return m.timelineCache.text
}

// onPhase notes that a phase started: a phase the run passes without
// starting is shown skipped, not done.
func (m *Model) onPhase(p engine.Phase) {
	if m.ran == nil {
		m.ran = map[engine.Phase]bool{}
	}
	m.ran[p] = true
}

// phaseStates is every phase's state, and the current phase's index
// (len(m.phases) once the outcome is in, -1 for a phase the start event
// did not list).
func (m *Model) phaseStates() ([]phaseState, int) {
	cur := -1
	for i, p := range m.phases {
		if p.Phase == m.phase {
			cur = i
		}
	}
	if m.outcome != nil {
		cur = len(m.phases) // all passed
	}
	states := make([]phaseState, len(m.phases))
	for i, p := range m.phases {
		switch {
		case i == cur:
			states[i] = phaseCurrent
		case i < cur && m.ran[p.Phase]:
			states[i] = phaseDone
		case i < cur:
			states[i] = phaseSkipped
		}
	}
	return states, cur
}

// timelineItem is one entry of the timeline: a phase, or a count of
// phases in one state (n > 0) where the names do not fit.
type timelineItem struct {
	state phaseState
	name  string
	n     int
}

// timeline draws the phases in the first form that fits w: every name,
// the current phase with its title; then without the title; then the
// other phases by their first word, with "›" between them and then
// without; then the phases passed counted instead of named, the earliest
// first (the current phase's title, which repeats the header's round,
// going before each); then the phases to come counted too, the last
// first; then the current phase alone, and where it stands. The current
// phase keeps its name in every form, and no phase is ever a bare mark.
func (m *Model) timeline(w int) string {
	states, cur := m.phaseStates()
	if cur == -1 && m.phase != "" {
		return " " + m.th.current.Render("● "+humanPhase(m.phase))
	}
	var s string
	for _, f := range m.timelineForms(states, cur) {
		if s = m.timelineOf(f.items, f.sep); ansi.StringWidth(s) <= w {
			break
		}
	}
	return s
}

// timelineForm is one way to draw the timeline.
type timelineForm struct {
	items []timelineItem
	sep   string
}

// timelineForms are the forms timeline tries, longest first.
func (m *Model) timelineForms(states []phaseState, cur int) []timelineForm {
	names := make([]string, len(m.phases))
	for i, p := range m.phases {
		names[i] = orWord(p.Title, humanPhase(p.Phase))
	}
	titled := append([]string(nil), names...)
	if cur >= 0 && cur < len(names) && m.phaseTitle != "" {
		titled[cur] = m.phaseTitle
	}
	short, shortTitled := firstWords(names, cur), firstWords(titled, cur)
	arrow, space := m.th.faint.Render(" › "), " "
	forms := []timelineForm{
		{named(states, titled), arrow}, {named(states, names), arrow},
		{named(states, shortTitled), arrow}, {named(states, short), arrow},
		{named(states, short), space},
	}
	passed := min(max(cur, 0), len(states))
	for keep := passed - 1; keep >= 0; keep-- {
		for _, ns := range [][]string{shortTitled, short} {
			forms = append(forms, timelineForm{counted(states, ns, cur, keep, 0), arrow})
		}
	}
	for fold := 1; fold <= len(states); fold++ {
		forms = append(forms, timelineForm{counted(states, short, cur, 0, fold), arrow})
	}
	if cur >= 0 && cur < len(states) {
		at := names[cur] + " · phase " + strconv.Itoa(cur+1) + " of " + strconv.Itoa(len(states))
		forms = append(forms, timelineForm{[]timelineItem{{state: phaseCurrent, name: at}}, arrow})
	}
	return forms
}

// firstWords is names with each but the current one cut to its first
// word.
func firstWords(names []string, cur int) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = n
		if i != cur {
			out[i], _, _ = strings.Cut(n, " ")
		}
	}
	return out
}

// named is every phase by name.
func named(states []phaseState, names []string) []timelineItem {
	out := make([]timelineItem, len(states))
	for i, st := range states {
		out[i] = timelineItem{state: st, name: names[i]}
	}
	return out
}

// counted is the phases passed but the last keep of them as counts of
// those done and skipped, the others by name; the current phase by name;
// then the phases to come, by name but for the last fold of them, which
// are counted.
func counted(states []phaseState, names []string, cur, keep, fold int) []timelineItem {
	passed := min(max(cur, 0), len(states))
	var done, skipped int
	for _, st := range states[:passed-keep] {
		if st == phaseDone {
			done++
		} else {
			skipped++
		}
	}
	var out []timelineItem
	if done > 0 {
		out = append(out, timelineItem{state: phaseDone, n: done})
	}
	if skipped > 0 {
		out = append(out, timelineItem{state: phaseSkipped, n: skipped})
	}
	out = append(out, named(states, names)[passed-keep:passed]...)
	if cur >= len(states) {
		return out
	}
	if cur >= 0 { // -1: before the first phase
		out = append(out, timelineItem{state: phaseCurrent, name: names[cur]})
	}
	rest := names[cur+1:]
	left := max(len(rest)-fold, 0)
	for _, n := range rest[:left] {
		out = append(out, timelineItem{state: phaseToCome, name: n})
	}
	if left < len(rest) {
		out = append(out, timelineItem{state: phaseToCome, n: len(rest) - left})
	}
	return out
}

// timelineOf draws items, separated by sep.
func (m *Model) timelineOf(items []timelineItem, sep string) string {
	parts := make([]string, len(items))
	for i, it := range items {
		parts[i] = m.timelineText(it)
	}
	return " " + strings.Join(parts, sep)
}

// timelineText is an item's mark and words, in its state's ink.
func (m *Model) timelineText(it timelineItem) string {
	th := &m.th
	mark, st, count := "○", th.faint, "to come"
	switch it.state {
	case phaseCurrent:
		mark, st = "●", th.current
	case phaseDone:
		mark, st, count = "✓", th.dim, "done"
	case phaseSkipped:
		mark, st, count = "–", th.faint, "skipped"
	}
	words := it.name
	if it.n > 0 {
		words = strconv.Itoa(it.n) + " " + count
	}
	return st.Render(mark + " " + words)
}
