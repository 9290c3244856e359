package page

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	cdppage "github.com/chromedp/cdproto/page"

	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/doc"
	"github.com/arenadebate/arena/tui/page/pagetest"
)

// exportFile exports the log at path as HTML into dir, and returns the
// file's URL.
func exportFile(t *testing.T, log, dir string) string {
	t.Helper()
	out := filepath.Join(dir, "page.html")
	if _, err := ExportLog(log, FormatHTML, nil, out); err != nil {
		t.Fatal(err)
	}
	return "file://" + out
}

// counter is a server that counts the requests it gets: a page that
// fetched anything from it would show.
func counter(t *testing.T) (*httptest.Server, *atomic.Int64) {
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		t.Errorf("the page fetched %s", r.URL)
	}))
	t.Cleanup(srv.Close)
	return srv, &hits
}

// A reply holding script, markup, styles, frames, images, javascript:
// links, bidi and tag characters changes nothing in the page's DOM but
// its text: its region has the element structure of the same reply with
// nothing in it that could be markup; no script ran (with the page's CSP
// lifted too, so that it is the escaping that holds, not the policy);
// nothing was fetched; and the words show as the text they are.
func TestHostileReplyIsInertInChromium(t *testing.T) {
	b := pagetest.Start(t)
	srv, hits := counter(t)
	bad := hostile(srv.URL)
	topic := "Which <script>window.pwned=10</script> queue?\u202e<img src=x onerror=window.pwned=11>"
	log := writeLog(t, t.TempDir(), sampleRun(topic, bad, benign(bad), "<b onmouseover=window.pwned=12>cell</b>", "<iframe src=\""+srv.URL+"/note\"></iframe>"))
	url := exportFile(t, log, t.TempDir())
	for _, bypass := range []bool{false, true} {
		b.Requests()
		pagetest.Command(t, b, cdppage.SetBypassCSP, cdppage.SetBypassCSPParams{Enabled: bypass})
		b.Load(t, url, "#costs")
		if pagetest.Eval[bool](t, b, `typeof window.pwned !== "undefined"`) {
			t.Errorf("a script ran (CSP bypassed: %v)", bypass)
		}
		pagetest.OnlyPage(t, b.Requests(), url, false)
		got, want := b.Structure(t, "#c3 .md"), b.Structure(t, "#c4 .md")
		if got != want || !strings.HasPrefix(got, "div class(p(),") {
			t.Errorf("the hostile reply's structure differs from the benign one's:\n got %s\nwant %s", got, want)
		}
		elements := pagetest.Eval[int](t, b, `document.querySelectorAll("script, img, iframe, svg, object, embed, form, button, input, base, link, body style, meta[http-equiv=refresh], [onerror], [onload], [onclick], [onmouseover], [ontoggle], [style]").length`)
		if elements != 0 {
			t.Errorf("the page holds %d elements a model or a log put there", elements)
		}
		hrefs := pagetest.Eval[[]string](t, b, `[...document.querySelectorAll("a[href]")].map(a => a.getAttribute("href") + " " + a.rel).filter(h => !h.startsWith("#"))`)
		for _, h := range hrefs {
			if !strings.HasPrefix(h, srv.URL) || !strings.HasSuffix(h, " noopener noreferrer") {
				t.Errorf("a link that is not http(s) with noopener noreferrer: %s", h)
			}
		}
		text := b.Text(t, "#c3 .md")
		for _, want := range []string{"<script>window.pwned = 1</script>", "<img src=x onerror=", "<U+202E>evil<U+202C>", "<U+202E>esrever", "<U+E0041>", "<style>body { display: none }</style>", "[image: a picture]", "click me"} {
			if !strings.Contains(text, want) {
				t.Errorf("the reply does not show %q as text: %q", want, text)
			}
		}
		if h1 := b.Structure(t, "h1"); h1 != "h1 class()" {
			t.Errorf("the topic is markup in the page: %s", h1)
		}
		if !strings.Contains(b.Text(t, "h1"), "<script>") {
			t.Errorf("the topic does not show as text: %q", b.Text(t, "h1"))
		}
	}
	if hits.Load() != 0 {
		t.Errorf("the page fetched %d URLs", hits.Load())
	}
}

// Every demo exports to a page that shows its question, its seats, every
// reply (folded), its tables and its outcome, and requests nothing but
// itself.
func TestDemosExportInChromium(t *testing.T) {
	b := pagetest.Start(t)
	demos, _ := filepath.Glob("../../engine/demo/*.jsonl")
	if len(demos) != 5 {
		t.Fatalf("%d demos", len(demos))
	}
	for _, demo := range demos {
		t.Run(filepath.Base(demo), func(t *testing.T) {
			run, _, err := Read(demo)
			if err != nil {
				t.Fatal(err)
			}
			url := exportFile(t, demo, t.TempDir())
			b.Requests()
			b.Load(t, url, "#costs")
			pagetest.OnlyPage(t, b.Requests(), url, false)
			calls := pagetest.Eval[int](t, b, `document.querySelectorAll(".call").length`)
			open := pagetest.Eval[int](t, b, `document.querySelectorAll("details.call[open]").length`)
			tables := pagetest.Eval[int](t, b, `document.querySelectorAll("figure table").length`)
			seats := pagetest.Eval[int](t, b, `document.querySelectorAll("#seats tbody tr").length`)
			wantCalls, wantTables := 0, 0
			for _, p := range run.Phases {
				for _, it := range p.Items {
					if it.Call != nil {
						wantCalls++
					}
					if it.Table != nil {
						wantTables++
					}
				}
			}
			if calls != wantCalls || open != 0 || tables != wantTables || seats != len(run.Seats) || calls == 0 {
				t.Errorf("%d calls (%d open), %d tables, %d seats; the log has %d calls, %d tables, %d seats", calls, open, tables, seats, wantCalls, wantTables, len(run.Seats))
			}
			for sel, want := range map[string]string{"h1": firstWords(run.Topic), "#outcome": run.Outcome.Summary, "#costs": "total"} {
				if got := b.Text(t, sel); !strings.Contains(got, want) {
					t.Errorf("%s shows %q, not %q", sel, got, want)
				}
			}
			outcomeShowsDocument(t, b, run.Outcome.Document)
		})
	}
}

// outcomeShowsDocument checks that the page's outcome section shows d's
// sections, in order, each under its heading, with the parts it holds
// inside it; and every fact but those its header shows.
func outcomeShowsDocument(t *testing.T, b *pagetest.Browser, d *doc.Document) {
	t.Helper()
	if d == nil {
		t.Fatal("the log's outcome has no document")
	}
	got := pagetest.Eval[[]string](t, b, `[...document.querySelectorAll("#outcome .part")].map(p => {
		let depth = 0;
		for (let e = p.parentElement.closest(".part"); e; e = e.parentElement.closest(".part")) depth++;
		return depth + " " + (p.tagName === "DETAILS" ? "closed " : "open ") + p.querySelector("h3, h4, h5, h6").textContent;
	})`)
	var want []string
	for _, s := range d.Sections {
		state := "open "
		if s.Folded != "" || s.Restates != nil {
			state = "closed "
		}
		want = append(want, fmt.Sprint(s.Depth)+" "+state+oneLine(s.Heading))
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("the outcome's sections:\n%s\nthe document's:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if title := b.Text(t, "#outcome .doctitle"); !strings.HasPrefix(title, d.Title) {
		t.Errorf("the outcome's title is %q, not the document's %q", title, d.Title)
	}
	facts := b.Text(t, "#outcome .document > .facts")
	for _, f := range d.Facts {
		if shown := strings.Contains(facts, f.Name); shown == (f.Restates != nil && f.Restates.Start) {
			t.Errorf("the fact %q (restating the start: %v) is shown: %v", f.Name, f.Restates != nil && f.Restates.Start, shown)
		}
	}
}

// oneLine is a heading as the page's text reads it: Markdown's marks
// drawn, white space collapsed.
func oneLine(s string) string {
	return strings.Join(strings.Fields(strings.NewReplacer("**", "", "`", "", "\\*", "*", "\\_", "_").Replace(s)), " ")
}

func firstWords(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s[:min(len(s), 40)]
}

// The page reads at a phone's width (nothing wider than the screen), in
// dark mode (a dark background), and prints with every reply open.
func TestPageFitsPhoneDarkAndPrint(t *testing.T) {
	b := pagetest.Start(t)
	demo, _ := filepath.Abs("../../engine/demo/compare.jsonl")
	url := exportFile(t, demo, t.TempDir())
	pagetest.Command(t, b, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{Width: 375, Height: 700, DeviceScaleFactor: 2, Mobile: true})
	b.Load(t, url, "#costs")
	if width := pagetest.Eval[int](t, b, `document.documentElement.scrollWidth`); width > 375 {
		t.Errorf("at a phone's 375 px the page is %d px wide", width)
	}
	if pagetest.Eval[bool](t, b, `document.querySelector("details.call .md").checkVisibility()`) {
		t.Error("a reply is open on the screen: replies are folded")
	}
	pagetest.Command(t, b, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: "print"})
	if !pagetest.Eval[bool](t, b, `[...document.querySelectorAll("details.call .md")].every(e => e.checkVisibility() && e.getBoundingClientRect().height > 0)`) {
		t.Error("printed, a folded reply stays folded")
	}
	pagetest.Command(t, b, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}}})
	if bg := pagetest.Eval[string](t, b, `getComputedStyle(document.body).backgroundColor`); bg != "rgb(22, 22, 26)" {
		t.Errorf("in dark mode the page's background is %s", bg)
	}
}

// documentOf is an outcome document with text in every field a model's
// words reach (a judge's quote, a criterion, an improvement, a table's
// cell), every kind of block, and sections open, folded and restating.
func documentOf(text string) *doc.Document {
	line := strings.Join(strings.Fields(text), " ")
	blocks := []doc.Block{
		doc.Para(text),
		{Notice: &doc.Notice{Label: line, Text: line, Warning: true}},
		doc.ListOf(line, doc.Item{Label: line, Text: line, Items: []string{line}}),
		doc.TableOf([]string{line, "b"}, [][]string{{line, line}}),
		{Findings: &doc.Findings{Intro: line, Items: []doc.Finding{{About: line, Issue: line, Quote: text, File: line, Line: 3, Level: doc.LevelWarning, By: []string{line}, Flag: line}}}},
		{Code: text},
	}
	return &doc.Document{
		Title: line, Result: line, Summary: line,
		Notices: []doc.Notice{{Label: line, Text: line}},
		Facts:   []doc.Fact{{Name: line, Value: line}},
		Sections: []doc.Section{
			{Heading: line, Blocks: blocks},
			{Heading: line, Depth: 1, Folded: line, Blocks: blocks},
			{Heading: line, Depth: 2, Blocks: blocks},
			{Heading: line, Restates: &doc.Restates{Seats: []string{"for Kafka"}}, Blocks: blocks},
		},
	}
}

// A document holding what a hostile model writes (its quotes, its
// improvements) changes nothing in the outcome section's DOM beyond its
// text: the section has the structure of the same document with nothing
// in it that could be markup, no script runs (with the CSP lifted too),
// nothing is fetched, and the words show as text.
func TestHostileDocumentIsInertInChromium(t *testing.T) {
	b := pagetest.Start(t)
	srv, hits := counter(t)
	bad := hostile(srv.URL)
	structure := map[bool]string{}
	for _, hostileText := range []bool{true, false} {
		text := bad
		if !hostileText {
			text = benign(bad)
		}
		run := sampleRun("Which queue?", "ok", "ok", "cell", "note")
		out := run[len(run)-1].(engine.Outcome)
		out.Document, out.Markdown = documentOf(text), ""
		run[len(run)-1] = out
		url := exportFile(t, writeLog(t, t.TempDir(), run), t.TempDir())
		for _, bypass := range []bool{false, true} {
			b.Requests()
			pagetest.Command(t, b, cdppage.SetBypassCSP, cdppage.SetBypassCSPParams{Enabled: bypass})
			b.Load(t, url, "#costs")
			if pagetest.Eval[bool](t, b, `typeof window.pwned !== "undefined"`) {
				t.Errorf("a script ran (CSP bypassed: %v)", bypass)
			}
			pagetest.OnlyPage(t, b.Requests(), url, false)
			structure[hostileText] = b.Structure(t, "#outcome .document")
			if n := pagetest.Eval[int](t, b, `document.querySelectorAll("#outcome script, #outcome img, #outcome iframe, #outcome svg, #outcome form, #outcome style, #outcome meta, #outcome base, #outcome link, #outcome [style], #outcome [onerror], #outcome [onclick], #outcome [onload], #outcome [ontoggle], #outcome a[href^=javascript], #outcome a[href^=data]").length`); n != 0 {
				t.Errorf("the outcome holds %d elements a model put there", n)
			}
		}
		if !hostileText {
			continue
		}
		shown := b.Text(t, "#outcome")
		for _, want := range []string{"<script>window.pwned = 1</script>", "<img src=x onerror=", "<U+202E>esrever", "<U+E0041>", "<style>body { display: none }</style>"} {
			if got := strings.Count(shown, want); got < 6*4 {
				t.Errorf("the outcome shows %q as text %d times, not in each of its %d places", want, got, 6*4)
			}
		}
	}
	if structure[true] != structure[false] || !strings.HasPrefix(structure[true], "div class(p class(") {
		t.Errorf("the hostile document's structure differs from the benign one's:\n got %s\nwant %s", structure[true], structure[false])
	}
	if hits.Load() != 0 {
		t.Errorf("the page fetched %d URLs", hits.Load())
	}
}
