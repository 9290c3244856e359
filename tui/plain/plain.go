// Package plain is arena's headless front end: it prints a debate's events
// as plain lines of text (--no-tui, or when stdout is not a terminal), or
// as JSON Lines (--json). Replay uses the same printers.
package plain

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"github.com/arenadebate/arena/challengers/trust"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/layout"
)

// wrapAt is where a streamed line without a newline is broken, so that a
// reply streaming as one long JSON line still shows as it comes.
const wrapAt = 100

// Printer writes events as text. Agents stream in parallel; each agent's
// text is printed a whole line at a time behind its name, so lines from
// different agents interleave but never mix.
type Printer struct {
	mu      sync.Mutex
	w       io.Writer
	partial map[string]*strings.Builder
	nameW   int // the width of a seat's name at the head of its lines (prefixWidth)
	err     error

	// A reply whose shape has a layout prints as readable text, a field
	// at a time as each completes, rather than as raw JSON lines.
	layouts map[string]layout.Layout
	live    map[string]*liveReply // by seat

	noun        string    // what the run is called: "debate", "comparison"
	style       *Style    // how the outcome is drawn; nil: as Markdown
	raw         io.Writer // w without the cleaner, for the drawn document
	budgetShown bool      // the run's budget was printed
	overShown   bool      // and that it was spent
	// shown is what the run printed: the document's sections that
	// repeat it are left out (printDocument).
	shown shownAbove
	phase string // the title of the phase under way
	// rule is the phase's rule, printed before what comes next in the
	// phase: a phase that printed nothing (a preflight that found all
	// well) takes no lines.
	rule string
	// said are the seats whose call under way streamed a line: the
	// position such a reply gives is not printed again after it.
	said map[string]bool
	// path is how a file's path is printed (WithPaths); nil: as it is.
	path func(string) string
}

// liveReply is a reply being rendered as it streams.
type liveReply struct {
	s       *layout.Stream
	n       int
	pending strings.Builder // the text so far, until it proves to be JSON
}

// liveProse is how much text a reply may stream before it has begun a
// JSON object: past it the reply is prose and prints line by line.
const liveProse = 4 << 10

// New returns a Printer writing to w. When w is a terminal the outcome
// document is drawn for it (glamour); otherwise it is printed as
// Markdown.
func New(w io.Writer) *Printer {
	return NewStyled(w, terminalStyle(w))
}

// NewStyled returns a Printer writing to w that draws the outcome
// document as s says (nil: as Markdown).
func NewStyled(w io.Writer, s *Style) *Printer {
	// Everything the printer writes holds text from outside (replies,
	// names, a log's fields): it is written through the one cleaner. The
	// drawn document alone goes straight to w: its text was cleaned
	// before glamour drew it, and its escape sequences are glamour's
	// styles, which the cleaner would strip.
	return &Printer{w: trust.Writer{W: w}, raw: w, partial: map[string]*strings.Builder{}, nameW: 6, live: map[string]*liveReply{}, style: s}
}

// WithPaths makes p print every file's path as shown says (RelativeTo).
func (p *Printer) WithPaths(shown func(string) string) *Printer {
	p.path = shown
	return p
}

// shownPath is path as p prints it.
func (p *Printer) shownPath(path string) string {
	if p.path == nil {
		return path
	}
	return p.path(path)
}

// Err is the first write error.
func (p *Printer) Err() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.err
}

func (p *Printer) printf(format string, args ...any) {
	if p.err != nil {
		return
	}
	p.printRule()
	_, p.err = fmt.Fprintf(p.w, format, args...)
}

// printRule prints the rule of the phase under way, once, before its
// first line.
func (p *Printer) printRule() {
	if p.rule != "" && p.err == nil {
		rule := p.rule
		p.rule = ""
		_, p.err = fmt.Fprintf(p.w, "\n── %s %s\n", rule, strings.Repeat("─", max(3, 60-utf8.RuneCountInString(rule))))
	}
}

// Handle prints one event.
func (p *Printer) Handle(e engine.Event) {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch v := e.Payload.(type) {
	case engine.DebateStarted:
		p.banner(v)
	case engine.PhaseStarted:
		p.flushAll()
		p.phase, p.rule = v.Title, v.Title
	case engine.AgentStarted:
		p.agentStarted(v)
	case engine.Chunk:
		p.stream(v.Seat, v.Text)
	case engine.AgentFinished:
		p.agentFinished(v)
	case engine.AgentFailed:
		p.agentFailed(v)
	case engine.Table:
		p.table(v)
	case engine.PositionUpdated:
		// A reply that streamed has just said its position.
		if v.Changed && !p.said[v.Seat] {
			p.printf("   position v%d: %s\n", v.Version, engine.OneLine(v.Position, 0))
		}
	case engine.Note:
		p.flushAll()
		p.shown.notes = true
		p.printf("%s %s\n", noteMark(v.Level), v.Message)
	case engine.Outcome:
		p.outcome(v)
	case engine.Saved:
		p.printf("%s: %s\n", capitalize(v.What), p.shownPath(v.Path))
	case engine.Resumed:
		p.flushAll()
		p.printf("\n%s\n", v.Words())
	case engine.FollowUp:
		p.flushAll()
		p.printf("\n── Follow-up to %s (%s) %s\n? %s\n", v.Seat, v.Agent, strings.Repeat("─", 30), engine.OneLine(v.Question, 0))
	case engine.ModeratorNote:
		p.flushAll()
		p.printf("✎ moderator: %s\n", engine.OneLine(v.Text, 0))
	case engine.BudgetUsed:
		p.budget(v)
	}
}

// budget prints the budget when the run starts, with the seats it cannot
// hold, and when it stops the run; the outcome says what was spent.
func (p *Printer) budget(v engine.BudgetUsed) {
	switch {
	case v.Over != "":
		if p.overShown {
			return // the replies of the calls still running follow
		}
		p.overShown = true
		p.flushAll()
		p.printf("! over budget: %s (%s)\n", v.Over, v.Words())
	case !p.budgetShown:
		p.flushAll()
		p.printf("  Budget: %s\n", v.Words())
		for _, w := range v.Warnings {
			p.printf("%s %s\n", noteMark(engine.NoteWarn), w)
		}
	}
	p.budgetShown = true
}

func (p *Printer) banner(v engine.DebateStarted) {
	p.layouts, p.noun = v.Layouts, v.RunNoun()
	p.shown.start = true
	seats := make([]string, 0, len(v.Seats))
	names := make([]string, 0, len(v.Seats))
	for _, s := range v.Seats {
		names = append(names, s.Name)
		seats = append(seats, seatWords(s))
	}
	p.nameW = max(p.nameW, prefixWidth(names))
	words := bannerWords(v)
	line := strings.Repeat("═", 66)
	head := "(" + strings.ToUpper(p.noun) + ")"
	p.printf("%s %s\n", head, strings.Repeat("═", max(3, 65-utf8.RuneCountInString(head))))
	if !slices.ContainsFunc(v.Settings, func(st engine.Setting) bool { return st.Value == v.Topic }) {
		p.printf("  %s: %s\n", words.Topic, engine.OneLine(v.Topic, 61))
	}
	p.printf("  Protocol: %s\n", engine.OrDash(v.Title))
	p.printf("%s", wrapList("  Seats: ", seats, 80))
	for _, st := range v.Settings {
		p.printf("  %s: %s\n", capitalize(st.Name), yesNo(st.Value))
	}
	if v.MaxRounds > 0 {
		p.printf("  Max rounds: %d\n", v.MaxRounds)
	}
	for i, c := range v.Context {
		word := words.Context
		if i == 0 && words.First != "" {
			word = words.First
		}
		p.printf("  %s: %s (%d bytes)\n", word, c.Name, c.Bytes)
	}
	p.printf("%s\n", line)
}

// name is a seat's name at the head of each line of its calls: the same
// on the line that starts a call, on its streamed lines and on the one
// that ends it, padded to the seats' width and cut at its end when it is
// wider than maxPrefix (prefixWidth). A seat the banner did not list (a
// log without its start event) has the same cap.
func (p *Printer) name(seat string) string {
	return fitName(seat, max(p.nameW, min(ansi.StringWidth(seat), maxPrefix)))
}

func (p *Printer) agentStarted(v engine.AgentStarted) {
	what := string(v.Task)
	if v.Attempt > 1 {
		what += fmt.Sprintf(", attempt %d", v.Attempt)
	}
	p.printf("%s ▸ %s (timeout %s)\n", p.name(v.Seat), what, v.Timeout.D())
	delete(p.live, v.Seat)
	delete(p.said, v.Seat)
	if l, ok := p.layouts[v.Shape]; ok {
		p.live[v.Seat] = &liveReply{s: layout.NewStream(l)}
	}
}

// stream takes a chunk of a seat's reply: rendered by its layout, each
// field printed once complete; or as lines of text.
func (p *Printer) stream(seat, text string) {
	lr := p.live[seat]
	if lr == nil {
		p.chunk(seat, text)
		return
	}
	lr.s.WriteString(text)
	lr.n += len(text)
	if !lr.s.SawObject() {
		lr.pending.WriteString(text)
		if lr.n > liveProse { // prose: print it as it comes
			delete(p.live, seat)
			p.chunk(seat, lr.pending.String())
		}
		return
	}
	lr.pending.Reset()
	for _, b := range lr.s.Completed() {
		p.block(seat, b)
	}
}

// endLive prints what a seat's rendered reply has not printed yet.
func (p *Printer) endLive(seat string) {
	lr := p.live[seat]
	if lr == nil {
		return
	}
	delete(p.live, seat)
	for _, b := range lr.s.Completed() {
		p.block(seat, b)
	}
	if rest := lr.s.Rest(); rest != "" {
		p.block(seat, rest)
	}
}

// block prints a rendered block behind the seat's name, line by line.
func (p *Printer) block(seat, md string) {
	for _, l := range strings.Split(strings.TrimRight(md, "\n"), "\n") {
		p.line(seat, strings.TrimRight(strings.ReplaceAll(l, "**", ""), " "))
	}
}

func (p *Printer) chunk(agent, text string) {
	b := p.partial[agent]
	if b == nil {
		b = &strings.Builder{}
		p.partial[agent] = b
	}
	for text != "" {
		i := strings.IndexByte(text, '\n')
		if i < 0 {
			b.WriteString(text)
			break
		}
		b.WriteString(text[:i])
		p.line(agent, b.String())
		b.Reset()
		text = text[i+1:]
	}
	for b.Len() > wrapAt {
		s := b.String()
		cut := wrapPoint(s)
		p.line(agent, s[:cut])
		b.Reset()
		b.WriteString(strings.TrimLeft(s[cut:], " "))
	}
}

// wrapPoint is where to break s, longer than wrapAt: the last space
// before wrapAt, or else wrapAt moved back to a rune boundary.
func wrapPoint(s string) int {
	if i := strings.LastIndexByte(s[:wrapAt], ' '); i > wrapAt/2 {
		return i
	}
	i := wrapAt
	for i > wrapAt-utf8.UTFMax && !utf8.RuneStart(s[i]) {
		i--
	}
	return i
}

// line prints a line of a seat's reply behind its name; a blank one
// says nothing, and is not printed.
func (p *Printer) line(agent, s string) {
	if strings.TrimSpace(s) == "" {
		return
	}
	p.shown.seat(agent)
	if p.said == nil {
		p.said = map[string]bool{}
	}
	p.said[agent] = true
	p.printf("%s │ %s\n", p.name(agent), s)
}

func (p *Printer) flush(agent string) {
	if b := p.partial[agent]; b != nil && b.Len() > 0 {
		p.line(agent, b.String())
		b.Reset()
	}
}

func (p *Printer) flushAll() {
	agents := make([]string, 0, len(p.partial))
	for agent := range p.partial {
		agents = append(agents, agent)
	}
	sort.Strings(agents)
	for _, agent := range agents {
		p.flush(agent)
	}
}

func (p *Printer) agentFinished(v engine.AgentFinished) {
	p.endLive(v.Seat)
	p.flush(v.Seat)
	badge := ""
	if v.Badge != "" {
		badge = " · " + v.Badge
	}
	if v.Usage != nil {
		var u engine.Usage
		u.Add(v.Usage)
		badge += " · " + u.Tokens()
		if u.Costed > 0 {
			badge += " · " + u.Cost()
		}
	}
	if v.Reused {
		badge += " · reused from the log"
	}
	p.printf("%s ✓ %s in %s%s\n", p.name(v.Seat), v.Task, v.Duration.D().Round(100*time.Millisecond), badge)
	if v.Unparseable {
		p.printf("%s   could not parse the reply: %s\n", p.name(""), v.ParseError)
	}
}

func (p *Printer) agentFailed(v engine.AgentFailed) {
	p.endLive(v.Seat)
	p.flush(v.Seat)
	retry := ""
	if v.WillRetry {
		retry = " — retrying"
	}
	p.printf("%s ✗ %s: %s%s\n", p.name(v.Seat), v.Task, v.Message, retry)
}

// table prints a table as aligned columns, then what was decided.
func (p *Printer) table(v engine.Table) {
	p.flushAll()
	p.shown.tables = append(p.shown.tables, v.Title)
	if v.Title != "" && v.Title != p.phase { // the phase's rule said it just above
		p.printf("   %s\n", v.Title)
	}
	widths := make([]int, len(v.Columns))
	for i, c := range v.Columns {
		widths[i] = utf8.RuneCountInString(c)
	}
	for _, r := range v.Rows {
		for i, c := range r.Cells {
			if i < len(widths) {
				widths[i] = max(widths[i], utf8.RuneCountInString(engine.OrDash(c)))
			}
		}
	}
	row := func(cells []string, dashes bool) {
		var b strings.Builder
		for i, w := range widths {
			c := ""
			if i < len(cells) {
				c = cells[i]
			}
			if dashes {
				c = engine.OrDash(c)
			}
			if i == len(widths)-1 {
				b.WriteString(c)
			} else {
				b.WriteString(c + strings.Repeat(" ", w-utf8.RuneCountInString(c)+2))
			}
		}
		p.printf("   %s\n", strings.TrimRight(b.String(), " "))
	}
	headers := slices.Clone(v.Columns)
	// A protocol that capitalises its own heads (rank's) names the rest
	// as they are to be shown: a repository's label, say, is typed as it
	// is. Otherwise the heads are words, shown capitalised.
	if !slices.ContainsFunc(headers, startsUpper) {
		for i, c := range headers {
			headers[i] = capitalize(c)
		}
	}
	row(headers, false)
	for _, r := range v.Rows {
		row(r.Cells, true)
	}
	if v.Decision != "" {
		p.printf("   → %s\n", v.Decision)
	}
}

func (p *Printer) outcome(v engine.Outcome) {
	p.flushAll()
	p.printDocument(v)
	p.printf("\n%s\n", strings.Repeat("═", 66))
	p.printf("%s\n", v.Summary)
	if v.LogPath != "" {
		path := p.shownPath(v.LogPath)
		p.printf("%s: %s  (arena replay %s)\n", LogWords(p.noun), path, path)
	}
}

// LogWords names a run's log in the account after it: "Log of this
// comparison" (noun "" before a start event: "Log of this run").
func LogWords(noun string) string {
	if noun == "" {
		noun = "run"
	}
	return "Log of this " + noun
}

func noteMark(level string) string {
	switch level {
	case "warn":
		return "! warning:"
	case "error":
		return "✗ error:"
	}
	return "· note:"
}

// startsUpper says whether s begins with a capital letter.
func startsUpper(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsUpper(r)
}

// yesNo is a setting's value for a person: yes or no for a switch.
func yesNo(v string) string {
	switch v {
	case "true":
		return "yes"
	case "false":
		return "no"
	}
	return v
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	r, n := utf8.DecodeRuneInString(s)
	return strings.ToUpper(string(r)) + s[n:]
}

// JSON writes each event as one JSON line (the log's format).
type JSON struct {
	mu  sync.Mutex
	enc *json.Encoder
	err error
}

// NewJSON returns a JSON Lines printer writing to w.
func NewJSON(w io.Writer) *JSON {
	enc := json.NewEncoder(trust.JSONWriter{W: w})
	enc.SetEscapeHTML(false)
	return &JSON{enc: enc}
}

// Handle writes one event.
func (j *JSON) Handle(e engine.Event) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.err == nil {
		j.err = j.enc.Encode(e)
	}
}

// Err is the first write error.
func (j *JSON) Err() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.err
}
