// Package pagetest drives a real headless Chromium (Debian's chromium)
// from tests, to look at arena's pages as a person's browser shows them:
// what the DOM holds, what ran, and every request the page made.
package pagetest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// EnvRequire makes a missing chromium fail the tests instead of skipping
// them (scripts/test sets it, having installed chromium).
const EnvRequire = "ARENA_REQUIRE_CHROMIUM"

// Browser is one headless Chromium with one tab, and the requests its
// pages made.
type Browser struct {
	Ctx context.Context
	mu  sync.Mutex
	req []string
}

// Start starts Chromium for t with a fresh profile, and stops it when t
// ends. Without chromium on the PATH the test is skipped (failed when
// ARENA_REQUIRE_CHROMIUM=1).
func Start(t testing.TB) *Browser {
	t.Helper()
	path, err := exec.LookPath("chromium")
	if err != nil {
		if os.Getenv(EnvRequire) == "1" {
			t.Fatalf("chromium is not on the PATH, and %s=1: apt-get install chromium", EnvRequire)
		}
		t.Skip("chromium is not installed (apt-get install chromium): the page is not looked at in a browser")
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.NoSandbox, // root, in a container
		chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("no-first-run", true),
		chromedp.WindowSize(1000, 800),
	)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	b := &Browser{Ctx: ctx}
	// The first call starts the browser, and lives as long as it: no
	// timeout on it.
	if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
		cancel()
		cancelAlloc()
		t.Fatalf("starting chromium: %v", err)
	}
	if err := chromedp.Listen(ctx, func(ev any) {
		if e, ok := ev.(*network.EventRequestWillBeSent); ok {
			b.mu.Lock()
			b.req = append(b.req, e.Request.URL)
			b.mu.Unlock()
		}
	}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cancel()
		cancelAlloc()
	})
	return b
}

// Do runs actions in the tab, failing t on an error.
func (b *Browser) Do(t testing.TB, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(b.Ctx, actions...); err != nil {
		t.Fatal(err)
	}
}

// Load opens url in the tab and fails t unless, once the page has
// loaded, the element selector picks is in it. The pages are drawn
// whole by the server, so the load event is the signal: a page that a
// hostile reply broke (or sent elsewhere) fails here instead of leaving
// the test waiting for an element that never comes.
func (b *Browser) Load(t testing.TB, url, selector string) {
	t.Helper()
	b.Do(t, chromedp.Navigate(url))
	if !Eval[bool](t, b, "document.querySelector("+jsString(selector)+") !== null") {
		t.Fatalf("%s loaded (now at %s) without %s", url, Eval[string](t, b, "location.href"), selector)
	}
}

// Command runs a protocol command in the tab, failing t on an error.
func Command[P, R any](t testing.TB, b *Browser, cmd cdp.Command[P, R], params P) R {
	t.Helper()
	r, err := chromedp.Call(b.Ctx, cmd, params)
	if err != nil {
		t.Fatalf("%s: %v", cmd.Method, err)
	}
	return r
}

// Requests are the URLs the tab requested, in order, since the last
// call; the list starts again empty.
func (b *Browser) Requests() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := b.req
	b.req = nil
	return out
}

// Eval evaluates a JavaScript expression in the page, into out.
func Eval[T any](t testing.TB, b *Browser, expr string) T {
	t.Helper()
	v, err := chromedp.Run(b.Ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// Structure is the element structure under the element selector picks:
// each element's tag and attribute names, nested, with no text. Two
// regions of the same structure differ in their text only.
func (b *Browser) Structure(t testing.TB, selector string) string {
	t.Helper()
	return Eval[string](t, b, fmt.Sprintf(`(() => {
		const walk = (e) => e.tagName.toLowerCase() + [...e.attributes].map(a => " " + a.name).join("") +
			"(" + [...e.children].map(walk).join(",") + ")";
		const el = document.querySelector(%s);
		return el ? walk(el) : "none";
	})()`, jsString(selector)))
}

// Text is the text content of the element selector picks.
func (b *Browser) Text(t testing.TB, selector string) string {
	t.Helper()
	return Eval[string](t, b, fmt.Sprintf(`(document.querySelector(%s) || {}).textContent || ""`, jsString(selector)))
}

// WaitText waits until the element selector picks holds want in its text,
// or ctx's time runs out.
func (b *Browser) WaitText(t testing.TB, selector, want string, within time.Duration) {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.Ctx, within)
	defer cancel()
	cond := fmt.Sprintf(`((document.querySelector(%s) || {}).textContent || "").includes(%s)`, jsString(selector), jsString(want))
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](cond, chromedp.WithPollingInterval(50*time.Millisecond))); err != nil {
		t.Fatalf("%q never showed %q: %v; it holds %q", selector, want, err, b.Text(t, selector))
	}
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// OnlyPage fails t unless every request is the page's own URL (or a URL
// under it, when prefix is set). A data: URL is no request: the browser's
// own controls (a date input's calendar icon) load theirs so.
func OnlyPage(t testing.TB, requests []string, page string, prefix bool) {
	t.Helper()
	for _, r := range requests {
		if r != page && (!prefix || !strings.HasPrefix(r, page)) && !strings.HasPrefix(r, "data:") {
			t.Errorf("the page requested %s (only %s is its own)", r, page)
		}
	}
}
