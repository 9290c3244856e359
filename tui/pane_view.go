package tui

import (
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/charmbracelet/bubbles/spinner"
	"github.com/charmbracelet/x/ansi"
)

// spinnerFrames animate a working pane; the frame is the model's heartbeat
// count, so a test that sends no heartbeat always sees the first frame.
var spinnerFrames = spinner.MiniDot.Frames

// borderSet is the line-drawing characters of a pane's border. The focused
// pane gets a heavier line, which still shows without colour.
type borderSet struct{ tl, tr, bl, br, h, v string }

var (
	thinBorder  = borderSet{"╭", "╮", "╰", "╯", "─", "│"}
	thickBorder = borderSet{"┏", "┓", "┗", "┛", "━", "┃"}
)

// paneView is what a pane needs from the screen to draw itself.
type paneView struct {
	th        *theme
	focused   bool
	fullTitle bool // titles carry the seat's role (pane.title)
	now       time.Time
	frame     int
}

// status is the pane's state in words, in forms from the longest to the
// shortest (the details a narrow pane gives up first), and the style to
// draw it in.
func (p *pane) status(v paneView) ([]string, ink) {
	th := v.th
	switch p.state {
	case stateWorking:
		el := v.now.Sub(p.started)
		spin := spinnerFrames[v.frame%len(spinnerFrames)] + " "
		if p.timeout <= 0 {
			return []string{spin + fmtDur(el)}, th.text
		}
		left := "overdue"
		if l := p.timeout - el; l > 0 {
			left = fmtDur(l) + " left"
		}
		return []string{spin + fmtDur(el) + " · " + left, spin + left}, th.text
	case stateDone:
		badge := orWord(p.badge, "done")
		return []string{"● " + badge, badge}, th.stanceStyle(p.stance)
	case stateFailed:
		if p.retry {
			return []string{"↻ retrying · " + p.failMsg, "↻ retrying"}, th.warn
		}
		return []string{"✗ " + p.failMsg}, th.bad
	}
	return []string{"waiting"}, th.faint
}

// title names the seat: the agent and its role as the start event gives
// it; short, the agent and the seat's own name where they differ, which
// also tells apart the seats of one agent. The screen picks one form for
// every pane (paneView.fullTitle): two advocates titled "advocate for
// Kafka" and "for Postgres" read as two kinds of seat.
func (p *pane) title(full bool) string {
	switch {
	case full && p.role != "":
		who := p.agent
		if who == "" {
			who = p.name
		}
		return who + " · " + string(p.role)
	case p.agent != "" && p.agent != p.name:
		return p.agent + " · " + p.name
	}
	return p.name
}

// statusRoom is the least a full title leaves for the status beside it:
// enough for "⠋ 1m05s left" or a badge's first words.
const statusRoom = 12

// titleFits says whether the pane's full title leaves statusRoom cells
// for its status in a top border of width w.
func (p *pane) titleFits(w int) bool {
	return textWidth(p.title(true))+borderDecor+statusRoom <= w-2
}

// borderDecor is what a top border takes besides the title and the
// status: "━ " before the title, a space and at least one "━" after it,
// a space before the status and " ━" after it.
const borderDecor = 7

// Render draws the pane at its size: exactly h lines of exactly w cells.
func (p *pane) Render(v paneView) []string {
	if p.w < 6 || p.h < 2 {
		return blank(p.w, p.h)
	}
	bs := thinBorder
	edge := v.th.line
	if v.focused {
		bs, edge = thickBorder, v.th.agent(p.color).focus
	}
	out := make([]string, 0, p.h)
	hint := p.scrollHint()
	top, spilled := p.topBorder(v, bs, edge, hint == "")
	out = append(out, top)
	rows := p.window()
	cw := p.contentWidth()
	side := edge.Render(bs.v)
	for i := 0; i < p.contentHeight(); i++ {
		text := strings.Repeat(" ", cw)
		if i < len(rows) {
			text = p.drawLine(v.th, rows[i], cw)
		}
		out = append(out, side+" "+text+" "+side)
	}
	return append(out, p.bottomBorder(v, bs, edge, hint, spilled))
}

// spilledStatus is a status the top border had no room for, drawn in
// the bottom border instead.
type spilledStatus struct {
	text string
	ink  ink
}

// topBorder carries the title on the left and the status on the right.
// Narrow, the status gives up its details; still too long, it moves to
// the bottom border when that is free (spill) and is cut otherwise; the
// title gives up its tail last.
func (p *pane) topBorder(v paneView, bs borderSet, edge ink, spill bool) (string, spilledStatus) {
	inner := p.w - 2
	name := p.title(v.fullTitle)
	forms, sst := p.status(v)
	nw := textWidth(name)
	room := inner - borderDecor - nw // for the status
	status, spilled := "", spilledStatus{}
	switch {
	case textWidth(forms[len(forms)-1]) <= room:
		status = fitStatus(forms, room)
	case spill && textWidth(forms[len(forms)-1])+4 <= inner:
		spilled = spilledStatus{fitStatus(forms, inner-4), sst}
	case room >= 4:
		status = fitStatus(forms, room)
	}
	sw := textWidth(status)
	fill := func() int {
		if sw == 0 {
			return inner - 3 - nw
		}
		return inner - 6 - nw - sw
	}
	if fill() < 1 {
		name = truncate(name, inner-4)
		nw = textWidth(name)
	}
	var b strings.Builder
	b.Grow(p.w * 4)
	b.WriteString(edge.Render(bs.tl + bs.h))
	b.WriteString(" " + v.th.agent(p.color).name.Render(name) + " ")
	b.WriteString(edge.Render(strings.Repeat(bs.h, max(fill(), 0))))
	if status != "" {
		b.WriteString(" " + sst.Render(status) + " " + edge.Render(bs.h))
	}
	b.WriteString(edge.Render(bs.tr))
	return b.String(), spilled
}

// scrollHint is what the bottom border says when the pane is not
// following its tail, or "".
func (p *pane) scrollHint() string {
	if p.follow {
		return ""
	}
	if p.unseen {
		return "↓ new text · G"
	}
	if below := p.maxTop() - p.top; below > 0 {
		return "↓ " + strconv.Itoa(below) + " more · G"
	}
	return "G follow"
}

// bottomBorder carries the scroll hint when the pane is not following;
// else the status the top border had no room for; else, where there is
// room, what the seat's calls cost so far.
func (p *pane) bottomBorder(v paneView, bs borderSet, edge ink, hint string, spilled spilledStatus) string {
	inner := p.w - 2
	text, st := hint, v.th.warn
	switch {
	case hint != "":
	case spilled.text != "":
		text, st = spilled.text, spilled.ink
	case p.acct.Calls > 0:
		text, st = p.acct.Short(), v.th.faint
	}
	if text == "" || ansi.StringWidth(text)+4 > inner {
		return edge.Render(bs.bl + strings.Repeat(bs.h, inner) + bs.br)
	}
	fill := inner - ansi.StringWidth(text) - 3
	return edge.Render(bs.bl+strings.Repeat(bs.h, fill)+" ") + st.Render(text) + edge.Render(" "+bs.h+bs.br)
}

// drawLine styles one line of content and pads it to w cells.
func (p *pane) drawLine(th *theme, l line, w int) string {
	if l.kind == kindSection {
		t := truncate("── "+l.text+" ", w)
		return th.agent(p.color).section.Render(t + strings.Repeat("─", max(w-textWidth(t), 0)))
	}
	text := l.text
	tw := textWidth(text)
	if tw > w { // a grapheme the wrapper measured narrower than it is
		text = ansi.Truncate(text, w, "")
		tw = ansi.StringWidth(text)
	}
	pad := strings.Repeat(" ", w-tw)
	if text == "" {
		return pad
	}
	return lineStyle(th, p, l.kind).Render(text) + pad
}

func lineStyle(th *theme, p *pane, k lineKind) ink {
	switch k {
	case kindRaw:
		return th.dim
	case kindHeading:
		return th.agent(p.color).heading
	case kindQuote, kindNote:
		return th.calm
	case kindFail:
		return th.bad
	case kindRetry:
		return th.warn
	case kindStyled:
		return ink{}
	}
	return th.text
}

// compact draws the pane as one line, for a screen too short to give it a
// box: name (padded to nameW, so statuses line up) and status.
func (p *pane) compact(v paneView, w, nameW int) string {
	forms, sst := p.status(v)
	title := p.title(v.fullTitle)
	title += strings.Repeat(" ", max(nameW-textWidth(title), 0))
	room := w - textWidth(title) - 5
	name := v.th.agent(p.color).name.Render("▸ " + title)
	if room < 4 {
		return fit(" "+name, w)
	}
	return fit(" "+name+"  "+sst.Render(fitStatus(forms, room)), w)
}

// fitStatus is the longest of a status's forms that fits room cells, or
// the shortest cut to fit.
func fitStatus(forms []string, room int) string {
	for _, f := range forms {
		if textWidth(f) <= room {
			return f
		}
	}
	return truncate(forms[len(forms)-1], room)
}

// textWidth is the width of plain text in cells, without segmenting
// graphemes when the text is ASCII (most of what models write).
func textWidth(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf || s[i] < 0x20 {
			return ansi.StringWidth(s)
		}
	}
	return len(s)
}

// blank is h lines of w spaces.
func blank(w, h int) []string {
	out := make([]string, max(h, 0))
	for i := range out {
		out[i] = strings.Repeat(" ", max(w, 0))
	}
	return out
}
