package serve

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/runlog"
	"github.com/arenadebate/arena/tui/page/pagetest"
)

// copyDemos copies the demos' logs into dir.
func copyDemos(t *testing.T, dir string) {
	t.Helper()
	demos, _ := filepath.Glob("../../../engine/demo/*.jsonl")
	if len(demos) != 5 {
		t.Fatalf("%d demos", len(demos))
	}
	for _, d := range demos {
		b, err := os.ReadFile(d)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(d)), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

// demosNewestFirst are the demos copied into dir as the list shows them,
// "protocol result", newest first: the demos are recorded again now and
// then, each at its own time.
func demosNewestFirst(t *testing.T, dir string) []string {
	t.Helper()
	paths, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	var sums []runlog.Summary
	for _, p := range paths {
		if s := runlog.Glance(p); s.Result != "" {
			sums = append(sums, s)
		}
	}
	sort.Slice(sums, func(i, j int) bool { return sums[i].Started.After(sums[j].Started) })
	out := make([]string, len(sums))
	for i, s := range sums {
		out[i] = s.Protocol + " " + string(s.Result)
	}
	return out
}

// liveRun starts a run's log in dir, as an arena writing it does (it
// holds the writer's lock), with its start, a phase, and a call asked.
func liveRun(t *testing.T, dir string) (*runlog.Writer, func(engine.Payload)) {
	t.Helper()
	w, err := runlog.Create(dir, runlog.Name(time.Now(), "live question"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	seq := int64(0)
	emit := func(p engine.Payload) {
		seq++
		w.Handle(engine.Event{Seq: seq, Time: time.Now(), Payload: p})
	}
	emit(engine.DebateStarted{Version: engine.LogVersion, ID: "live", Protocol: "judge", Title: "Judge", Topic: "A live question",
		Seats:  []engine.Seat{{Name: "Judge 1", Agent: "gemini", Role: "judge"}},
		Agents: []engine.AgentInfo{{Name: "gemini", Command: []string{"gemini"}}}})
	emit(engine.PhaseStarted{Phase: "analysis", Round: 1, Title: "Independent analysis"})
	emit(engine.AgentStarted{CallInfo: engine.CallInfo{Seat: "Judge 1", Agent: "gemini", Phase: "analysis", Round: 1, Task: "analysis", Attempt: 1}})
	return w, emit
}

// As a person sees it: the list of runs, newest first, filtered; a run's
// page; a run still going, whose page shows each event as its log gets
// it; the stats' plots; and nothing requested but the archive's own.
func TestServeInChromium(t *testing.T) {
	b := pagetest.Start(t)
	dir := t.TempDir()
	copyDemos(t, dir)
	_, emit := liveRun(t, dir)
	srv, base := started(t, dir)
	_ = srv

	b.Requests()
	b.Load(t, base+"/?token="+testToken, "#runs")
	if got := b.Text(t, "#count"); !strings.HasPrefix(got, "6 of 6 runs") {
		t.Errorf("the list says %q", got)
	}
	rows := pagetest.Eval[[]string](t, b, `[...document.querySelectorAll("#runs tbody tr")].map(r => r.cells[1].textContent + " " + r.cells[2].textContent)`)
	want := append([]string{"judge running"}, demosNewestFirst(t, dir)...)
	if strings.Join(rows, "|") != strings.Join(want, "|") {
		t.Errorf("the list, newest first: %v, not %v", rows, want)
	}
	if url := pagetest.Eval[string](t, b, `location.href`); strings.Contains(url, "token") {
		t.Errorf("the token stayed in the address bar: %s", url)
	}
	b.Load(t, base+"/?protocol=judge&result=consensus", "#runs")
	if got, n := b.Text(t, "#runs tbody"), pagetest.Eval[int](t, b, `document.querySelectorAll("#runs tbody tr").length`); !strings.Contains(got, "REST API for user management") || n != 1 {
		t.Errorf("filtered to judge runs that reached consensus: %q", got)
	}

	// Open a finished run from the list.
	b.Load(t, base+"/?q=queue", "#runs")
	href := pagetest.Eval[string](t, b, `document.querySelector("#runs tbody a").getAttribute("href")`)
	b.Load(t, base+href, "#costs")
	if got := b.Text(t, "h1"); got != "Which queue should carry our order events?" {
		t.Errorf("the run's page is headed %q", got)
	}
	if n := pagetest.Eval[int](t, b, `document.querySelectorAll("script").length`); n != 0 {
		t.Errorf("a finished run's page has %d scripts", n)
	}

	// Follow the live one.
	b.Load(t, base+"/?result=running", "#runs")
	href = pagetest.Eval[string](t, b, `document.querySelector("#runs tbody a").getAttribute("href")`)
	b.Load(t, base+href, "#live")
	b.WaitText(t, "#phases", "no answer yet", time.Minute)
	emit(engine.AgentFinished{CallInfo: engine.CallInfo{Seat: "Judge 1", Agent: "gemini", Phase: "analysis", Round: 1, Task: "analysis", Attempt: 1},
		Text: "LIVE-REPLY-42", Display: "**LIVE-REPLY-42** <script>window.pwned=1</script>", Badge: "pass", Stance: engine.StanceAgree})
	b.WaitText(t, "#phases", "LIVE-REPLY-42", time.Minute)
	emit(engine.PhaseStarted{Phase: engine.PhaseOutcome, Title: "Outcome"})
	emit(engine.Outcome{Result: "consensus", Stance: engine.StanceAgree, Summary: "LIVE-OUTCOME-7", Markdown: "# x\n"})
	b.WaitText(t, "#outcome", "LIVE-OUTCOME-7", time.Minute)
	b.WaitText(t, "#head", "consensus", time.Minute)
	if n := pagetest.Eval[int](t, b, `document.querySelectorAll("#phases .call").length`); n != 1 {
		t.Errorf("the live call shows %d times", n)
	}
	if pagetest.Eval[bool](t, b, `typeof window.pwned !== "undefined"`) {
		t.Error("a script in a live reply ran")
	}

	// The stats as plots.
	b.Load(t, base+"/stats", "#plots")
	plots := pagetest.Eval[int](t, b, `document.querySelectorAll("#plots svg.plot").length`)
	bars := pagetest.Eval[int](t, b, `document.querySelectorAll("#plots svg.plot circle.dot").length`)
	if plots == 0 || bars == 0 || !strings.Contains(b.Text(t, "#plots"), "flip rate") {
		t.Errorf("%d plots, %d figures drawn: %q", plots, bars, b.Text(t, "#plots")[:min(300, len(b.Text(t, "#plots")))])
	}
	pagetest.OnlyPage(t, b.Requests(), base+"/", true)
}

// A page of another site, even one on another port of this machine,
// gets nothing from the archive: its requests are refused, the browser's
// cookie or not.
func TestOtherSitesPageIsRefused(t *testing.T) {
	b := pagetest.Start(t)
	dir := t.TempDir()
	copyDemos(t, dir)
	refused := make(chan string, 10)
	_, base := startedWith(t, Options{Dirs: []string{dir}, Token: testToken, OnRefuse: func(r *http.Request, code int, _ string) {
		refused <- fmt.Sprintf("%d %s", code, r.Header.Get("Origin"))
	}})
	evil := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `<!DOCTYPE html><p id="out">waiting</p><script>
fetch(%q, {credentials: "include", mode: "no-cors"}).then(r => out.textContent = "done " + r.type).catch(e => out.textContent = "failed: " + e);
</script>`, base+"/")
	}))
	defer evil.Close()
	// The person opened the archive first: the browser has its cookie.
	b.Load(t, base+"/?token="+testToken, "#runs")
	b.Load(t, evil.URL, "#out")
	select {
	case got := <-refused:
		if !strings.HasPrefix(got, "403 ") {
			t.Errorf("the other page's request was refused with %s", got)
		}
	case <-time.After(time.Minute):
		t.Fatalf("the archive never refused the request of %s's page: %s", evil.URL, b.Text(t, "#out"))
	}
}
