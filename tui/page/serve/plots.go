package serve

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"html/template"
	"math"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/arenadebate/arena/engine/stats"
	"github.com/arenadebate/arena/tui/page"
)

// arena stats as plots. The report is read generically, through its JSON:
// every figure in it (an object with a value, its count n, and whether it
// is shown; its 95% interval as low and high where it has one) becomes a
// row of a plot, one plot per figure, with a row per model (or per
// protocol, for the ledger). A figure the report gains later is plotted
// with no change here. The authors' ratings are plotted with their
// intervals.

// figure is a stats.Figure as its JSON says it.
type figure struct {
	Value    float64 `json:"value"`
	N        int     `json:"n"`
	Runs     int     `json:"runs"`
	Shown    bool    `json:"shown"`
	Low      float64 `json:"low"`
	High     float64 `json:"high"`
	Interval string  `json:"interval"`
	Note     string  `json:"note"`
}

// point is one row of a plot.
type point struct {
	Name string
	F    figure
}

// plot is one figure across models.
type plot struct {
	Key    string
	Title  string
	Points []point
}

// plots are the report's figures, one plot each, in the order the report
// has them.
func plots(rep stats.Report) ([]plot, error) {
	b, err := json.Marshal(rep)
	if err != nil {
		return nil, err
	}
	doc, err := ordered(json.NewDecoder(bytes.NewReader(b)))
	if err != nil {
		return nil, err
	}
	var order []string
	byKey := map[string]*plot{}
	add := func(key, name string, f figure) {
		p := byKey[key]
		if p == nil {
			p = &plot{Key: key, Title: words(key)}
			byKey[key] = p
			order = append(order, key)
		}
		p.Points = append(p.Points, point{Name: name, F: f})
	}
	top, _ := doc.(object)
	for _, part := range []struct{ list, name string }{{"models", "model"}, {"ledger", "protocol"}} {
		items, _ := top.get(part.list).([]any)
		for _, it := range items {
			m, _ := it.(object)
			name, _ := m.get(part.name).(string)
			walk(part.list, m, func(key string, f figure) { add(key, name, f) })
		}
	}
	out := make([]plot, 0, len(order))
	for _, k := range order {
		out = append(out, *byKey[k])
	}
	return out, nil
}

// object is a JSON object with its keys in order.
type object []field

type field struct {
	key   string
	value any
}

func (o object) get(key string) any {
	for _, f := range o {
		if f.key == key {
			return f.value
		}
	}
	return nil
}

// ordered decodes the next JSON value, its objects' keys in order.
func ordered(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch tok {
	case json.Delim('{'):
		var o object
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return nil, err
			}
			v, err := ordered(dec)
			if err != nil {
				return nil, err
			}
			o = append(o, field{fmt.Sprint(k), v})
		}
		_, err = dec.Token()
		return o, err
	case json.Delim('['):
		a := []any{}
		for dec.More() {
			v, err := ordered(dec)
			if err != nil {
				return nil, err
			}
			a = append(a, v)
		}
		_, err = dec.Token()
		return a, err
	}
	return tok, nil
}

// walk hands fn every figure under v, by its path of keys; an array's
// items are named by their first word or number ("orders 2", "gap 0").
func walk(prefix string, v any, fn func(string, figure)) {
	switch t := v.(type) {
	case object:
		if f, ok := asFigure(t); ok {
			fn(prefix, f)
			return
		}
		for _, f := range t {
			walk(prefix+"."+f.key, f.value, fn)
		}
	case []any:
		for i, it := range t {
			walk(prefix+"."+label(it, i), it, fn)
		}
	}
}

// asFigure reads an object that has a value, its count and whether it is
// shown as a figure.
func asFigure(o object) (figure, bool) {
	var f figure
	if o.get("value") == nil || o.get("n") == nil || o.get("shown") == nil {
		return f, false
	}
	f.Value, _ = o.get("value").(float64)
	f.N = int(num(o.get("n")))
	f.Runs = int(num(o.get("runs")))
	f.Shown, _ = o.get("shown").(bool)
	f.Low, f.High = num(o.get("low")), num(o.get("high"))
	f.Interval, _ = o.get("interval").(string)
	f.Note, _ = o.get("note").(string)
	return f, true
}

func num(v any) float64 {
	f, _ := v.(float64)
	return f
}

// label names an array's item by its first field that is a word or a
// number.
func label(v any, i int) string {
	for _, f := range asObject(v) {
		switch x := f.value.(type) {
		case string:
			return f.key + " " + x
		case float64:
			return fmt.Sprintf("%s %g", f.key, x)
		}
	}
	return fmt.Sprint(i)
}

func asObject(v any) object {
	o, _ := v.(object)
	return o
}

// Shown says whether any row of the plot has a figure to draw.
func (p plot) Shown() bool {
	for _, pt := range p.Points {
		if pt.F.Shown {
			return true
		}
	}
	return false
}

// svg geometry: a row's height, the label column, the plot's width.
const (
	rowH   = 24
	labelW = 130
	plotW  = 300
	textW  = 280
	width  = labelW + plotW + textW
)

// domain is the range a plot's axis spans: [0, 1] for shares, [-1, 1]
// for agreements and correlations, else the values', zero included.
func domain(ps []point) (lo, hi float64) {
	lo, hi = 0, 0
	for _, p := range ps {
		if !p.F.Shown {
			continue
		}
		for _, v := range []float64{p.F.Value, p.F.Low, p.F.High} {
			if p.F.Interval == "" && v != p.F.Value {
				continue
			}
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	switch {
	case lo >= 0 && hi <= 1:
		return 0, 1
	case lo >= -1 && hi <= 1:
		return -1, 1
	case hi == lo:
		return lo - 1, hi + 1
	}
	pad := (hi - lo) * 0.05
	return lo - pad, hi + pad
}

// SVG draws a plot: for each row a bar from zero to the value, its
// interval as a whisker, and the value with its count as text; a figure
// not shown says why.
func (p plot) SVG() template.HTML {
	lo, hi := domain(p.Points)
	return drawRows(p.Title, lo, hi, len(p.Points), func(i int) (string, float64, float64, float64, bool, string) {
		pt := p.Points[i]
		f := pt.F
		if !f.Shown {
			return pt.Name, 0, 0, 0, false, "— " + f.Note
		}
		text := fmt.Sprintf("%.2f", f.Value)
		low, high := f.Value, f.Value
		if f.Interval != "" {
			low, high = f.Low, f.High
			text += fmt.Sprintf(" [%.2f, %.2f]", f.Low, f.High)
		}
		return pt.Name, f.Value, low, high, true, text + fmt.Sprintf(" n=%d", f.N)
	})
}

// ratingsSVG draws the authors' ratings with their intervals.
func ratingsSVG(authors []stats.Author) template.HTML {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, a := range authors {
		if a.Shown {
			lo, hi = math.Min(lo, a.Low), math.Max(hi, a.High)
		}
	}
	if math.IsInf(lo, 0) {
		lo, hi = 900, 1100
	}
	pad := math.Max((hi-lo)*0.05, 1)
	return drawRows("Ratings (Bradley–Terry, 95% interval)", lo-pad, hi+pad, len(authors), func(i int) (string, float64, float64, float64, bool, string) {
		a := authors[i]
		if !a.Shown {
			return a.Name, 0, 0, 0, false, "— " + a.Note
		}
		return a.Name, a.Rating, a.Low, a.High, true, fmt.Sprintf("%.0f [%.0f, %.0f] %d games", a.Rating, a.Low, a.High, a.Games)
	})
}

// drawRows draws n rows on an axis from lo to hi; row says each one's
// name, value, interval, whether it is shown, and its text.
func drawRows(title string, lo, hi float64, n int, row func(int) (string, float64, float64, float64, bool, string)) template.HTML {
	x := func(v float64) float64 { return labelW + (v-lo)/(hi-lo)*plotW }
	h := rowH*n + 34
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="plot" viewBox="0 0 %d %d" role="img" aria-label="%s">`, width, h, esc(title))
	zero := x(math.Max(lo, math.Min(0, hi)))
	axisY := rowH*n + 8
	fmt.Fprintf(&b, `<line class="axis" x1="%d" y1="%d" x2="%d" y2="%d"/>`, labelW, axisY, labelW+plotW, axisY)
	for _, v := range []float64{lo, (lo + hi) / 2, hi} {
		fmt.Fprintf(&b, `<text class="faint" x="%.1f" y="%d" text-anchor="middle">%s</text>`, x(v), axisY+16, esc(tick(v)))
	}
	if lo < 0 && hi > 0 {
		fmt.Fprintf(&b, `<line class="zero" x1="%.1f" y1="0" x2="%.1f" y2="%d"/>`, zero, zero, axisY)
	}
	for i := 0; i < n; i++ {
		name, v, low, high, shown, text := row(i)
		y := i*rowH + rowH/2
		fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="end" dominant-baseline="middle">%s</text>`, labelW-8, y, esc(clip(name, 22)))
		cls := ""
		if shown {
			bx, bw := math.Min(zero, x(v)), math.Abs(x(v)-zero)
			fmt.Fprintf(&b, `<rect class="bar" x="%.1f" y="%d" width="%.1f" height="%d"/>`, bx, y-7, bw, 14)
			if low != high {
				fmt.Fprintf(&b, `<line class="whisker" x1="%.1f" y1="%d" x2="%.1f" y2="%d"/>`, x(low), y, x(high), y)
			}
			fmt.Fprintf(&b, `<circle class="dot" cx="%.1f" cy="%d" r="3.5"/>`, x(v), y)
		} else {
			cls = ` class="faint"`
		}
		fmt.Fprintf(&b, `<text%s x="%d" y="%d" dominant-baseline="middle">%s</text>`, cls, labelW+plotW+8, y, esc(clip(text, 48)))
	}
	b.WriteString("</svg>")
	return template.HTML(b.String()) //nolint:gosec // numbers we computed, and text escaped by esc
}

func tick(v float64) string {
	if math.Abs(v) >= 100 {
		return fmt.Sprintf("%.0f", v)
	}
	return strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.2f", v), "0"), ".")
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// esc is text escaped for an SVG element or attribute.
func esc(s string) string { return template.HTMLEscapeString(s) }

// statsCache keeps the last report, for as long as the logs listed and
// the filter are the same.
type statsCache struct {
	mu  sync.Mutex
	key string
	rep stats.Report
}

// statsPageData is the stats page's data.
type statsPageData struct {
	Frame     page.Frame
	Report    stats.Report
	Plots     []plot
	Drawn     bool // some plot has a figure shown
	Ratings   template.HTML
	Protocols []string
	Protocol  string
	Since     string
	Problem   string
}

func (s *Server) statsPage(w http.ResponseWriter, r *http.Request) {
	rows, err := s.index.refresh()
	if err != nil {
		http.Error(w, "the log directories could not be listed: "+err.Error(), http.StatusInternalServerError)
		return
	}
	d := statsPageData{Frame: page.NewFrame("Stats · arena", true, ""), Protocol: r.URL.Query().Get("protocol"), Since: r.URL.Query().Get("since")}
	_, ch := filter{}.apply(rows)
	d.Protocols = ch.Protocols
	var f stats.Filter
	if d.Protocol != "" {
		f.Protocols = []string{d.Protocol}
	}
	if d.Since != "" {
		if f.Since, err = stats.ParseSince(d.Since, time.Now()); err != nil {
			d.Problem = err.Error()
		}
	}
	d.Report, err = s.report(rows, f)
	if err != nil {
		d.Problem = err.Error()
	}
	if d.Plots, err = plots(d.Report); err != nil {
		d.Problem = err.Error()
	}
	for _, p := range d.Plots {
		d.Drawn = d.Drawn || p.Shown()
	}
	if len(d.Report.Authors) > 0 {
		d.Ratings = ratingsSVG(d.Report.Authors)
	}
	write(w, "stats", d, d.Frame.CSP)
}

// report is the stats of the runs listed, under f: computed again only
// when the runs or f changed.
func (s *Server) report(rows []row, f stats.Filter) (stats.Report, error) {
	h := sha256.New()
	fmt.Fprintf(h, "%v %v %v\n", f.Protocols, f.Since, s.opts.ShadowGate)
	for _, r := range rows {
		fmt.Fprintf(h, "%s %s %s\n", r.Path, r.Result, r.Started)
	}
	key := string(h.Sum(nil))
	s.stats.mu.Lock()
	defer s.stats.mu.Unlock()
	if s.stats.key == key {
		return s.stats.rep, nil
	}
	var dirs []string
	for _, d := range s.opts.Dirs {
		if _, err := os.Stat(d); err == nil {
			dirs = append(dirs, d)
		}
	}
	runs, logs, skipped, err := stats.Read(dirs, f)
	if err != nil {
		return stats.Report{}, err
	}
	rep := stats.Compute(runs, stats.Options{ShadowGate: s.opts.ShadowGate})
	rep.Logs, rep.Skipped = logs, skipped
	s.stats.key, s.stats.rep = key, rep
	return rep, nil
}

// words is a figure's path as a title: "models.as_judge.flip_rate" reads
// "As judge · flip rate".
func words(key string) string {
	parts := strings.Split(key, ".")[1:]
	for i, p := range parts {
		p = strings.ReplaceAll(p, "_", " ")
		parts[i] = strings.Replace(p, "mt bench", "MT-Bench", 1)
	}
	s := strings.Join(parts, " · ")
	if s == "" {
		return key
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
