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
	th      *theme
	focused bool
	now     time.Time
	frame   int
}

// status is the pane's state in words, and the style to draw it in.
func (p *pane) status(v paneView) (string, ink) {
	th := v.th
	switch p.state {
	case stateWorking:
		el := v.now.Sub(p.started)
		s := spinnerFrames[v.frame%len(spinnerFrames)] + " " + fmtDur(el)
		if p.timeout > 0 {
			if left := p.timeout - el; left > 0 {
				s += " · " + fmtDur(left) + " left"
			} else {
				s += " · overdue"
			}
		}
		return s, th.text
	case stateDone:
		badge := p.badge
		if badge == "" {
			badge = "done"
		}
		return "● " + badge, th.stanceStyle(p.stance)
	case stateFailed:
		if p.retry {
			return "↻ retrying · " + p.failMsg, th.warn
		}
		return "✗ " + p.failMsg, th.bad
	}
	return "waiting", th.faint
}

// title names the seat: the agent and, when there is room, its role as
// the start event gives it; short, the agent and the seat's own name where
// they differ, which also tells apart the seats of one agent.
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
	out = append(out, p.topBorder(v, bs, edge))
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
	return append(out, p.bottomBorder(v, bs, edge))
}

// topBorder carries the name on the left and the status on the right,
// giving up the role, then the status's tail, then the name's tail when
// the pane is narrow.
func (p *pane) topBorder(v paneView, bs borderSet, edge ink) string {
	inner := p.w - 2
	name := p.title(true)
	status, sst := p.status(v)
	nw, sw := textWidth(name), textWidth(status)
	fill := func() int {
		if sw == 0 {
			return inner - 3 - nw
		}
		return inner - 6 - nw - sw
	}
	if fill() < 1 {
		name = p.title(false)
		nw = textWidth(name)
	}
	if fill() < 1 {
		room := inner - 3 - nw - 4
		status = truncate(status, room)
		if room < 4 {
			status = ""
		}
		sw = textWidth(status)
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
	return b.String()
}

// bottomBorder carries the scroll hint when the pane is not following.
func (p *pane) bottomBorder(v paneView, bs borderSet, edge ink) string {
	inner := p.w - 2
	hint := ""
	if !p.follow {
		hint = "G follow"
		if p.unseen {
			hint = "↓ new text · G"
		}
		if below := p.maxTop() - p.top; below > 0 && !p.unseen {
			hint = "↓ " + strconv.Itoa(below) + " more · G"
		}
	}
	if hint == "" {
		// What the seat's calls cost so far, where there is room.
		if p.acct.Calls > 0 {
			if a := p.acct.Short(); ansi.StringWidth(a)+4 <= inner {
				fill := inner - ansi.StringWidth(a) - 3
				return edge.Render(bs.bl+strings.Repeat(bs.h, fill)+" ") + v.th.faint.Render(a) + edge.Render(" "+bs.h+bs.br)
			}
		}
		return edge.Render(bs.bl + strings.Repeat(bs.h, inner) + bs.br)
	}
	if ansi.StringWidth(hint)+4 > inner {
		return edge.Render(bs.bl + strings.Repeat(bs.h, inner) + bs.br)
	}
	fill := inner - ansi.StringWidth(hint) - 3
	return edge.Render(bs.bl+strings.Repeat(bs.h, fill)+" ") +
		v.th.warn.Render(hint) + edge.Render(" "+bs.h+bs.br)
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
	status, sst := p.status(v)
	title := p.title(false)
	title += strings.Repeat(" ", max(nameW-textWidth(title), 0))
	room := w - textWidth(title) - 5
	name := v.th.agent(p.color).name.Render("▸ " + title)
	if room < 4 {
		return fit(" "+name, w)
	}
	return fit(" "+name+"  "+sst.Render(truncate(status, room)), w)
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
