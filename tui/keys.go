package tui

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
)

// keyMap is every key the screen answers to.
type keyMap struct {
	Next, Prev         key.Binding
	Zoom, Back         key.Binding
	Up, Down           key.Binding
	PageUp, PageDown   key.Binding
	Top, Bottom        key.Binding
	Outcome            key.Binding
	Pause, NextPhase   key.Binding
	Faster, Slower     key.Binding
	Help, Quit         key.Binding
	Yes, No            key.Binding
	Moderate, FollowUp key.Binding
	outcome            bool // the help describes the outcome view
	replay, canOutcome bool
	canModerate        bool // a note can be sent to the seats now
	canFollowUp        bool // a follow-up question can be asked now
	zoomed             bool // one pane fills the screen
	helpOpen           bool // the full help is up: esc closes it
	width              int  // of the footer line
}

func newKeyMap() keyMap {
	b := func(keys []string, k, desc string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(k, desc))
	}
	return keyMap{
		Next:      b([]string{"tab"}, "tab", "next pane"),
		Prev:      b([]string{"shift+tab"}, "shift+tab", "previous pane"),
		Zoom:      b([]string{"enter"}, "enter", "zoom"),
		Back:      b([]string{"esc"}, "esc", "unzoom"),
		Up:        b([]string{"up", "k"}, "↑/k", "scroll up"),
		Down:      b([]string{"down", "j"}, "↓/j", "scroll down"),
		PageUp:    b([]string{"pgup", "b", "ctrl+u"}, "pgup", "page up"),
		PageDown:  b([]string{"pgdown", "ctrl+d"}, "pgdn", "page down"), // f asks a follow-up
		Top:       b([]string{"g", "home"}, "g", "top"),
		Bottom:    b([]string{"G", "end"}, "G", "follow the tail"),
		Outcome:   b([]string{"o"}, "o", "outcome"),
		Pause:     b([]string{" "}, "space", "pause"),
		NextPhase: b([]string{"n"}, "n", "next phase"),
		Faster:    b([]string{"+", "="}, "+", "faster"),
		Slower:    b([]string{"-", "_"}, "-", "slower"),
		Help:      b([]string{"?"}, "?", "help"),
		Quit:      b([]string{"q", "ctrl+c"}, "q", "quit"),
		Yes:       b([]string{"y", "Y", "enter"}, "y", "stop"),
		No:        b([]string{"n", "N", "esc"}, "n", "keep going"),
		Moderate:  b([]string{"m"}, "m", "note to the seats"),
		FollowUp:  b([]string{"f"}, "f", "ask a follow-up"),
	}
}

// ShortHelp is the footer's one line: what is most useful now, in as few
// words as will do. When the line is too narrow for all of it, the least
// useful keys go (help would cut the tail, and the tail is quit).
func (k keyMap) ShortHelp() []key.Binding {
	short := func(b key.Binding, keys, desc string) key.Binding {
		return key.NewBinding(key.WithKeys(b.Keys()...), key.WithHelp(keys, desc))
	}
	type item struct {
		b    key.Binding
		rank int // lower is kept longer
	}
	var items []item
	if k.canFollowUp {
		items = append(items, item{short(k.FollowUp, "f", "follow-up"), 1})
	}
	if k.outcome {
		items = append(items, item{short(k.Up, "↑↓", "scroll"), 2}, item{k.tabBack(), 0})
	} else {
		items = append(items, item{short(k.Next, "tab", "pane"), 0}, item{k.Zoom, 2},
			item{short(k.Up, "↑↓", "scroll"), 3}, item{short(k.Bottom, "G", "follow"), 5})
		if k.canOutcome {
			items = append(items, item{k.Outcome, 0})
		}
		if k.canModerate {
			items = append(items, item{short(k.Moderate, "m", "moderate"), 1})
		}
	}
	if k.replay {
		items = append(items, item{k.Pause, 1}, item{short(k.NextPhase, "n", "next"), 2},
			item{short(k.Faster, "+/-", "speed"), 4})
	}
	items = append(items, item{short(k.Help, "?", "more"), 1}, item{k.Quit, 0})

	room := k.width
	for rank := 0; rank <= 5; rank++ {
		for _, it := range items {
			if it.rank == rank {
				room -= textWidth(it.b.Help().Key) + 1 + textWidth(it.b.Help().Desc) + 3
			}
		}
		if room < 0 && rank > 0 && k.width > 0 {
			out := make([]key.Binding, 0, len(items))
			for _, it := range items {
				if it.rank < rank {
					out = append(out, it.b)
				}
			}
			return out
		}
	}
	out := make([]key.Binding, len(items))
	for i, it := range items {
		out[i] = it.b
	}
	return out
}

// FullHelp is the table shown by "?": every key that works now, and no
// other.
func (k keyMap) FullHelp() [][]key.Binding {
	scroll := []key.Binding{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom}
	// esc closes the help while it is up, and then goes back
	back := func(keys ...string) key.Binding {
		if !k.helpOpen {
			keys = append(keys, "esc")
		}
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(strings.Join(keys, "/"), ""))
	}
	panes := back("tab", "o")
	nav := []key.Binding{key.NewBinding(key.WithKeys(panes.Keys()...), key.WithHelp(panes.Help().Key, "panes"))}
	if !k.outcome {
		nav = []key.Binding{k.Next, k.Prev, k.Zoom}
		if k.zoomed {
			unzoom := back("enter")
			nav[2] = key.NewBinding(key.WithKeys(unzoom.Keys()...), key.WithHelp(unzoom.Help().Key, "unzoom"))
		}
		if k.canOutcome {
			nav = append(nav, k.Outcome)
		}
	}
	if k.canModerate {
		nav = append(nav, k.Moderate)
	}
	if k.canFollowUp {
		nav = append(nav, k.FollowUp)
	}
	cols := [][]key.Binding{nav, scroll}
	if k.outcome {
		cols = [][]key.Binding{scroll, nav}
	}
	if k.replay {
		cols = append(cols, []key.Binding{k.Pause, k.NextPhase, k.Faster, k.Slower})
	}
	help := k.Help
	if k.helpOpen {
		help = key.NewBinding(key.WithKeys("?", "esc"), key.WithHelp("?/esc", "close help"))
	}
	return append(cols, []key.Binding{help, k.Quit})
}

// tabBack is how the outcome view names its way back to the panes.
func (k keyMap) tabBack() key.Binding {
	return key.NewBinding(key.WithKeys("tab", "o"), key.WithHelp("tab/o", "panes"))
}
